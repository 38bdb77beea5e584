import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../test-support/harness.js';
import { waitFor } from '../test-support/wait-for.js';
import type { Executor } from './executor.js';
import type { JobContext } from './job-context.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A handler that records overlap and order, runs ~`ms` (or until aborted), and reports its param. */
function recorder(ms: number) {
  const events: string[] = [];
  let active = 0;
  let maxActive = 0;
  const handler = async (ctx: JobContext) => {
    active++;
    maxActive = Math.max(maxActive, active);
    events.push(`start:${ctx.logId}`);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(ctx.signal.reason);
        });
      });
      events.push(`end:${ctx.logId}`);
      return `done ${ctx.logId}`;
    } finally {
      active--;
    }
  };
  return { handler, events, maxActive: () => maxActive };
}

const registerJob = (handler: (ctx: JobContext) => Promise<string>) => (ex: Executor) =>
  ex.register('job', handler);

describe('block strategies under concurrent triggers over HTTP', () => {
  it('SERIAL_EXECUTION accepts every trigger and runs them one after the other in arrival order', async () => {
    const r = recorder(40);
    h = await startHarness({ register: registerJob(r.handler) });
    const driver = h.driver;
    const answers = [];
    for (const logId of [1, 2, 3, 4]) {
      answers.push(
        await driver.run({
          jobId: 9,
          logId,
          executorHandler: 'job',
          executorBlockStrategy: 'SERIAL_EXECUTION',
        }),
      );
    }
    expect(answers.map((a) => a.json)).toEqual([{ code: 200 }, { code: 200 }, { code: 200 }, { code: 200 }]);
    await waitFor(() => h?.admin.callbacks.length === 4, { message: 'four callbacks' });
    expect(r.events).toEqual([
      'start:1',
      'end:1',
      'start:2',
      'end:2',
      'start:3',
      'end:3',
      'start:4',
      'end:4',
    ]);
    expect(r.maxActive()).toBe(1);
    expect(h.admin.callbacks.map((c) => c.handleCode)).toEqual([200, 200, 200, 200]);
  });

  it('DISCARD_LATER runs the first of concurrent triggers and discards the others', async () => {
    const r = recorder(1_000);
    h = await startHarness({ register: registerJob(r.handler) });
    const driver = h.driver;
    const first = await driver.run({
      jobId: 9,
      logId: 10,
      executorHandler: 'job',
      executorBlockStrategy: 'DISCARD_LATER',
    });
    const rest = await Promise.all(
      [11, 12, 13].map((logId) =>
        driver.run({ jobId: 9, logId, executorHandler: 'job', executorBlockStrategy: 'DISCARD_LATER' }),
      ),
    );
    expect(first.json).toEqual({ code: 200 });
    for (const res of rest)
      expect(res.json).toEqual({ code: 500, msg: 'block strategy effect：Discard Later' });
    await waitFor(() => h?.admin.callbackFor(10));
    expect(r.events).toEqual(['start:10', 'end:10']);
    expect(h.admin.callbacks.map((c) => c.logId)).toEqual([10]);
  });

  it('COVER_EARLY kills the running trigger, fails the queued one and runs the newest', async () => {
    const r = recorder(5_000);
    h = await startHarness({ register: registerJob(r.handler) });
    const driver = h.driver;
    await driver.run({ jobId: 9, logId: 20, executorHandler: 'job' });
    await driver.run({ jobId: 9, logId: 21, executorHandler: 'job' });
    await waitFor(() => r.events.includes('start:20'));
    const a = await driver.run({
      jobId: 9,
      logId: 22,
      executorHandler: 'job',
      executorBlockStrategy: 'COVER_EARLY',
    });
    const b = await driver.run({
      jobId: 9,
      logId: 23,
      executorHandler: 'job',
      executorBlockStrategy: 'COVER_EARLY',
    });
    expect([a.json, b.json]).toEqual([{ code: 200 }, { code: 200 }]);
    const killed = await waitFor(() => h?.admin.callbackFor(20));
    expect(killed).toMatchObject({
      handleCode: 500,
      handleMsg: 'block strategy effect：Cover Early [job running, killed]',
    });
    expect(await waitFor(() => h?.admin.callbackFor(21))).toMatchObject({
      handleCode: 500,
      handleMsg: 'block strategy effect：Cover Early [job not executed, in the job queue, killed.]',
    });
    // 22 is itself covered by 23 (queued or just started, depending on timing); 23 is the one that runs.
    expect((await waitFor(() => h?.admin.callbackFor(22))).handleMsg).toMatch(
      /^block strategy effect：Cover Early \[job/,
    );
    await waitFor(() => r.events.includes('start:23'));
    await h.driver.kill(9);
    await waitFor(() => h?.admin.callbackFor(23));
    expect(r.events[0]).toBe('start:20');
    expect(r.events.at(-1)).toBe('start:23');
    expect(r.events.filter((e) => e.startsWith('end:'))).toEqual([]);
    expect(r.maxActive()).toBe(1);
  });
});
