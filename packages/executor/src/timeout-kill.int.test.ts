import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../test-support/harness.js';
import { gate, waitFor } from '../test-support/wait-for.js';
import type { JobContext } from './job-context.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Waits on its signal like a well-behaved handler (e.g. fetch with ctx.signal). */
const cooperative = (seen: { aborted?: unknown }) => (ctx: JobContext) =>
  new Promise<string>((_, reject) =>
    ctx.signal.addEventListener('abort', () => {
      seen.aborted = ctx.signal.reason;
      reject(ctx.signal.reason);
    }),
  );

describe('timeout and kill stop the work', () => {
  it('aborts a cooperative handler at executorTimeout and reports 502 "job execute timeout"', async () => {
    const seen: { aborted?: unknown } = {};
    h = await startHarness({ register: (ex) => ex.register('slow', cooperative(seen)) });
    const started = Date.now();
    await h.driver.run({ jobId: 2, logId: 200, executorHandler: 'slow', executorTimeout: 1 });
    const cb = await waitFor(() => h?.admin.callbackFor(200));
    expect(cb).toMatchObject({ handleCode: 502, handleMsg: 'job execute timeout' });
    expect(seen.aborted).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('kill aborts the running handler with 500 and fails queued triggers', async () => {
    const seen: { aborted?: unknown } = {};
    h = await startHarness({ register: (ex) => ex.register('slow', cooperative(seen)) });
    await h.driver.run({ jobId: 2, logId: 210, executorHandler: 'slow' });
    await h.driver.run({ jobId: 2, logId: 211, executorHandler: 'slow' });
    await waitFor(async () => (await h?.driver.idleBeat(2))?.json.code === 500);
    expect((await h.driver.kill(2)).json).toEqual({ code: 200 });
    expect(await waitFor(() => h?.admin.callbackFor(210))).toMatchObject({
      handleCode: 500,
      handleMsg: 'scheduling center kill job. [job running, killed]',
    });
    expect(await waitFor(() => h?.admin.callbackFor(211))).toMatchObject({
      handleCode: 500,
      handleMsg: 'scheduling center kill job. [job not executed, in the job queue, killed.]',
    });
    expect(seen.aborted).toBeDefined();
  });

  it('reports a handler that ignores its signal and moves on to the next trigger after the grace period', async () => {
    const never = gate();
    let second = false;
    h = await startHarness({
      abortGraceMs: 200,
      register: (ex) =>
        ex.register('stubborn', async (ctx) => {
          if (ctx.param === 'hang') await never.promise;
          second = true;
          return 'second ran';
        }),
    });
    await h.driver.run({
      jobId: 4,
      logId: 400,
      executorHandler: 'stubborn',
      executorParams: 'hang',
      executorTimeout: 1,
    });
    await h.driver.run({ jobId: 4, logId: 401, executorHandler: 'stubborn' });
    const cb = await waitFor(() => h?.admin.callbackFor(400));
    expect(cb.handleCode).toBe(502);
    expect(cb.handleMsg).toBe(
      'job execute timeout; the handler did not stop within 200 ms after its signal was aborted and was abandoned',
    );
    expect(await waitFor(() => h?.admin.callbackFor(401))).toMatchObject({
      handleCode: 200,
      handleMsg: 'second ran',
    });
    expect(second).toBe(true);
    never.open();
  });

  it('writes the timeout into the run log', async () => {
    h = await startHarness({ register: (ex) => ex.register('slow', cooperative({})) });
    const logDateTime = Date.now();
    await h.driver.run({ jobId: 2, logId: 220, logDateTime, executorHandler: 'slow', executorTimeout: 1 });
    await waitFor(() => h?.admin.callbackFor(220));
    const log = await h.driver.log(logDateTime, 220, 1);
    expect(log.json.content?.logContent).toContain('job execute timeout');
    expect(log.json.content?.logContent).toContain('Result: handleCode=502');
  });
});
