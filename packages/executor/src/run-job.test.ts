import { MAX_HANDLE_MSG_LENGTH, type TriggerParam } from '@tickring/protocol';
import { describe, expect, it } from 'vitest';
import type { JobHandler } from './job-context.js';
import type { JobLogSink } from './job-log.js';
import { JobKilledError, JobTimeoutError, runJob } from './run-job.js';

const trigger: TriggerParam = {
  jobId: 3,
  executorHandler: 'h',
  executorParams: 'p=1',
  executorBlockStrategy: 'SERIAL_EXECUTION',
  executorTimeout: 0,
  logId: 42,
  logDateTime: Date.UTC(2024, 0, 2),
  glueType: 'BEAN',
  glueSource: '',
  glueUpdatetime: 0,
  broadcastIndex: 1,
  broadcastTotal: 4,
};

function memoryLog(): JobLogSink & { lines: string[] } {
  const lines: string[] = [];
  return { lines, line: (text) => lines.push(text) };
}

const run = (
  handler: JobHandler,
  extra: { timeoutMs?: number; abortGraceMs?: number; stop?: AbortSignal } = {},
) => {
  const log = memoryLog();
  return runJob({ trigger, handler, log, timeoutMs: 0, abortGraceMs: 200, ...extra }).then((r) => ({
    ...r,
    log,
  }));
};

describe('runJob result paths', () => {
  it('reports success without a message when the handler returns nothing', async () => {
    const r = await run(async () => {});
    expect(r).toMatchObject({ handleCode: 200, abandoned: false });
    expect(r.handleMsg).toBeUndefined();
  });

  it('reports success with the returned string as the message', async () => {
    expect(await run(async () => 'all done')).toMatchObject({ handleCode: 200, handleMsg: 'all done' });
  });

  it('reports success with a returned JSON value as its JSON text (a workflow node result)', async () => {
    expect(await run(async () => ({ rows: 42, files: ['a', 'b'] }))).toMatchObject({
      handleCode: 200,
      handleMsg: '{"rows":42,"files":["a","b"]}',
    });
    expect(await run(() => [1, 2])).toMatchObject({ handleCode: 200, handleMsg: '[1,2]' });
    expect(await run(() => 7)).toMatchObject({ handleCode: 200, handleMsg: '7' });
    expect((await run(() => null)).handleMsg).toBeUndefined();
  });

  it('reports failure with the message and stack when the handler throws', async () => {
    const r = await run(async () => {
      throw new Error('database is gone');
    });
    expect(r.handleCode).toBe(500);
    expect(r.handleMsg).toContain('Error: database is gone');
    expect(r.handleMsg).toMatch(/\n\s+at /);
    expect(r.log.lines.some((l) => l.includes('JobThread Exception:Error: database is gone'))).toBe(true);
  });

  it('reports failure for a synchronous throw too', async () => {
    const r = await run(() => {
      throw new TypeError('bad input');
    });
    expect(r).toMatchObject({ handleCode: 500 });
    expect(r.handleMsg).toContain('TypeError: bad input');
  });

  it('uses ctx.success over the returned value', async () => {
    const r = await run((ctx) => {
      ctx.success('explicit ok');
      return 'ignored';
    });
    expect(r).toMatchObject({ handleCode: 200, handleMsg: 'explicit ok' });
  });

  it('reports ctx.fail as 500 with its message', async () => {
    expect(await run((ctx) => ctx.fail('upstream said no'))).toMatchObject({
      handleCode: 500,
      handleMsg: 'upstream said no',
    });
  });

  it('reports ctx.timeout as 502 with its message', async () => {
    expect(await run((ctx) => ctx.timeout('gave up waiting'))).toMatchObject({
      handleCode: 502,
      handleMsg: 'gave up waiting',
    });
  });

  it('lets a throw after ctx.success win (the run failed)', async () => {
    const r = await run((ctx) => {
      ctx.success('ok so far');
      throw new Error('then broke');
    });
    expect(r.handleCode).toBe(500);
    expect(r.handleMsg).toContain('then broke');
  });

  it('gives the handler the trigger data and writes its log lines between start and end', async () => {
    const seen: unknown[] = [];
    const r = await run((ctx) => {
      seen.push(ctx.jobId, ctx.logId, ctx.param, ctx.shardIndex, ctx.shardTotal, ctx.logDateTime);
      ctx.log('value %d of %s', 7, 'x');
    });
    expect(seen).toEqual([3, 42, 'p=1', 1, 4, Date.UTC(2024, 0, 2)]);
    const lines = r.log.lines;
    expect(lines[0]).toContain('job execute start');
    expect(lines[1]).toBe('----------- Param:p=1');
    expect(lines).toContain('value 7 of x');
    expect(lines.at(-1)).toContain('Result: handleCode=200');
  });

  it('cuts handleMsg at 50,000 characters', async () => {
    const r = await run(async () => 'y'.repeat(MAX_HANDLE_MSG_LENGTH + 10));
    expect(r.handleMsg).toHaveLength(MAX_HANDLE_MSG_LENGTH + 3);
    expect(r.handleMsg?.endsWith('y...')).toBe(true);
  });
});

describe('runJob timeout and kill', () => {
  const cooperative: JobHandler = (ctx) =>
    new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));

  it('aborts the signal on timeout and reports 502 "job execute timeout"', async () => {
    let reason: unknown;
    const r = await run(
      (ctx) =>
        new Promise((_, reject) =>
          ctx.signal.addEventListener('abort', () => {
            reason = ctx.signal.reason;
            reject(ctx.signal.reason);
          }),
        ),
      { timeoutMs: 50 },
    );
    expect(r).toMatchObject({ handleCode: 502, handleMsg: 'job execute timeout', abandoned: false });
    expect(reason).toBeInstanceOf(JobTimeoutError);
  });

  it('ignores what a timed-out handler does after the abort (the run stays 502)', async () => {
    const r = await run(
      (ctx) =>
        new Promise<string>((resolve) =>
          ctx.signal.addEventListener('abort', () => resolve('finished anyway')),
        ),
      { timeoutMs: 30 },
    );
    expect(r.handleCode).toBe(502);
  });

  it('reports a handler that ignores its signal and abandons it after the grace period', async () => {
    const started = Date.now();
    const r = await run(() => new Promise(() => {}), { timeoutMs: 30, abortGraceMs: 100 });
    expect(r.handleCode).toBe(502);
    expect(r.abandoned).toBe(true);
    expect(r.handleMsg).toMatch(/^job execute timeout; the handler did not stop within 100 ms/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(120);
  });

  it('reports a kill as 500 "<reason> [job running, killed]"', async () => {
    const stop = new AbortController();
    const pending = run(cooperative, { stop: stop.signal });
    setTimeout(() => stop.abort(new JobKilledError('scheduling center kill job.')), 20);
    expect(await pending).toMatchObject({
      handleCode: 500,
      handleMsg: 'scheduling center kill job. [job running, killed]',
      abandoned: false,
    });
  });

  it('does not call the handler when the stop signal is already aborted', async () => {
    const stop = new AbortController();
    stop.abort(new JobKilledError('gone'));
    let called = false;
    const r = await run(
      () => {
        called = true;
      },
      { stop: stop.signal },
    );
    expect(called).toBe(false);
    expect(r).toMatchObject({ handleCode: 500, handleMsg: 'gone [job running, killed]' });
  });
});
