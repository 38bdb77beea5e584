import type { LogResult, ReturnT } from '@tickring/protocol';
import { FakeClock, makeRun } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../common/errors.js';
import { silentLogger } from '../common/logger.js';
import { LIST_READ_ON_MS } from '../common/paging.js';
import type { ExecutorTransport } from '../executors/executor-transport.js';
import type { Page } from '../jobs/job-store.js';
import {
  type AdminRunsDeps,
  ExecutorCallError,
  getRun,
  KILLED_BY_USER,
  killRun,
  listRuns,
  readRunOutput,
} from './admin-runs.js';
import type { ReportDelta, ReportStore } from './alarms.js';
import type { Run } from './run.js';
import { ALARM_STATUS, onRunKilled } from './run-outcome.js';
import type { CompleteOutcome, HandleResult, RunQuery, RunStore } from './run-store.js';

/** In-memory runs, executors and reports, recording the calls made to them. */
class Fakes {
  readonly runs = new Map<number, Run>();
  readonly queries: RunQuery[] = [];
  readonly reports: { day: string; delta: ReportDelta }[] = [];
  readonly calls: string[] = [];
  readonly clock = new FakeClock(1_700_000_500_000);
  logReply: ReturnT<LogResult> = {
    code: 200,
    content: { fromLineNum: 1, toLineNum: 2, logContent: 'a\nb\n', isEnd: false },
  };
  killReply: ReturnT<unknown> = { code: 200 };
  listed: Run[] = [];
  /** Pages the store answers in turn before `listed` (each may be empty, with a cursor). */
  pages: Page<Run>[] = [];
  /** How long each store read takes on the fake clock. */
  readMs = 0;
  /** Runs that gain a result between the read and the kill (the executor's callback won). */
  finishBeforeComplete = new Set<number>();

  add(run: Run): Run {
    this.runs.set(run.logId, run);
    return run;
  }

  deps(): AdminRunsDeps {
    const runs = {
      get: async (logId: number) => this.runs.get(logId),
      list: async (query: RunQuery): Promise<Page<Run>> => {
        this.queries.push(query);
        this.clock.advance(this.readMs);
        return this.pages.shift() ?? { items: this.listed, nextCursor: 'next' };
      },
      complete: async (logId: number, result: HandleResult): Promise<CompleteOutcome> => {
        this.calls.push(`complete ${logId} ${result.handleCode} ${result.handleMsg}`);
        const run = this.runs.get(logId);
        if (!run) return { kind: 'unknown' };
        if (this.finishBeforeComplete.has(logId)) {
          const done = { ...run, handleCode: 200, handleMsg: 'done' };
          this.runs.set(logId, done);
          return { kind: 'already-finished', run: done };
        }
        if (run.handleCode !== 0) return { kind: 'already-finished', run };
        const done = { ...run, ...result };
        this.runs.set(logId, done);
        return { kind: 'completed', run: done };
      },
      setAlarmStatus: async (logId: number, alarmStatus: number) => {
        const run = this.runs.get(logId);
        if (run) this.runs.set(logId, { ...run, alarmStatus });
      },
      clearOutcomePending: async () => {},
    } as Partial<RunStore> as RunStore;
    const executors: Pick<ExecutorTransport, 'kill' | 'log'> = {
      kill: async ({ address }, jobId) => {
        this.calls.push(`kill ${address} ${jobId}`);
        return this.killReply;
      },
      log: async ({ address }, logDateTime, logId, fromLineNum) => {
        this.calls.push(`log ${address} ${logDateTime} ${logId} ${fromLineNum}`);
        return this.logReply;
      },
    };
    const reports: ReportStore = {
      add: async (day, delta) => {
        this.reports.push({ day, delta });
      },
      range: async () => [],
    };
    return { runs, executors, reports, clock: this.clock, logger: silentLogger };
  }
}

describe('listRuns', () => {
  it('passes the query to the store and returns its page', async () => {
    const fakes = new Fakes();
    fakes.listed = [makeRun({ logId: 2 }), makeRun({ logId: 1 })];
    const page = await listRuns(fakes.deps(), { status: 'fail', limit: 5, from: 1, to: 2 });
    expect(page).toEqual({ items: fakes.listed, nextCursor: 'next' });
    expect(fakes.queries).toEqual([{ status: 'fail', limit: 5, from: 1, to: 2 }]);
  });

  it('keeps only the job’s runs in the app when both jobId and appName are given', async () => {
    const fakes = new Fakes();
    fakes.listed = [makeRun({ logId: 2, appName: 'a' }), makeRun({ logId: 1, appName: 'b' })];
    const page = await listRuns(fakes.deps(), { jobId: 1, appName: 'b', limit: 20 });
    expect(page.items.map((r) => r.logId)).toEqual([1]);
  });

  it('reads on past empty pages until one has runs, so a page is never empty while a cursor follows', async () => {
    const fakes = new Fakes();
    fakes.pages = [
      { items: [], nextCursor: 'c1' },
      { items: [], nextCursor: 'c2' },
    ];
    fakes.listed = [makeRun({ logId: 7 })];
    const page = await listRuns(fakes.deps(), { appName: 'a', limit: 20 });
    expect(page.items.map((r) => r.logId)).toEqual([7]);
    expect(fakes.queries.map((q) => q.cursor)).toEqual([undefined, 'c1', 'c2']);
    // The end of the range: an empty page without a cursor is the answer.
    const end = new Fakes();
    end.pages = [{ items: [], nextCursor: 'c1' }, { items: [] }];
    expect(await listRuns(end.deps(), { limit: 20 })).toEqual({ items: [] });
  });

  it('stops reading on at its time budget, answering the empty page with its cursor', async () => {
    const fakes = new Fakes();
    fakes.readMs = 1_000;
    fakes.pages = Array.from({ length: 100 }, (_, i) => ({ items: [], nextCursor: `c${i + 1}` }));
    const page = await listRuns(fakes.deps(), { limit: 20 });
    expect(page.items).toEqual([]);
    expect(fakes.queries.length).toBe(LIST_READ_ON_MS / 1_000);
    expect(page.nextCursor).toBe(`c${fakes.queries.length}`);
  });

  it('shows a caller only the runs of the groups they see, reading one seen group by its app', async () => {
    const fakes = new Fakes();
    fakes.listed = [makeRun({ logId: 3, appName: 'a' }), makeRun({ logId: 2, appName: 'b' })];
    const page = await listRuns(fakes.deps(), { jobId: 9, limit: 20 }, new Set(['a', 'c']));
    expect(page.items.map((r) => r.logId)).toEqual([3]);
    const one = new Fakes();
    one.listed = [makeRun({ logId: 4, appName: 'a' })];
    await listRuns(one.deps(), { limit: 20 }, new Set(['a']));
    expect(one.queries).toEqual([{ limit: 20, appName: 'a' }]);
  });

  it('lists nothing, without reading, for a group the caller does not see or when they see none', async () => {
    const fakes = new Fakes();
    fakes.listed = [makeRun({ logId: 2, appName: 'b' })];
    expect(await listRuns(fakes.deps(), { appName: 'b', limit: 20 }, new Set(['a']))).toEqual({ items: [] });
    expect(await listRuns(fakes.deps(), { limit: 20 }, new Set())).toEqual({ items: [] });
    expect(fakes.queries).toEqual([]);
  });

  it('refuses a from after to, naming from', async () => {
    const fakes = new Fakes();
    await expect(listRuns(fakes.deps(), { from: 2, to: 1, limit: 20 })).rejects.toMatchObject({
      field: 'from',
    });
    expect(fakes.queries).toEqual([]);
  });
});

describe('getRun', () => {
  it('answers NotFoundError for an unknown logId', async () => {
    await expect(getRun(new Fakes().deps(), 404)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('readRunOutput', () => {
  it("asks the run's executor for its log with logDateTim = the run's scheduledTime", async () => {
    const fakes = new Fakes();
    fakes.add(makeRun({ logId: 7, scheduledTime: 1_700_000_000_123 }));
    const output = await readRunOutput(fakes.deps(), 7, 1);
    expect(fakes.calls).toEqual(['log http://127.0.0.1:9999/ 1700000000123 7 1']);
    expect(output).toEqual({ fromLineNum: 1, toLineNum: 2, logContent: 'a\nb\n', isEnd: false });
  });

  it('ends once the run has its result and every line was read (XXL-JOB’s rule)', async () => {
    const fakes = new Fakes();
    fakes.add(makeRun({ logId: 7, handleCode: 200 }));
    fakes.logReply = { code: 200, content: { fromLineNum: 3, toLineNum: 2, logContent: '', isEnd: false } };
    expect((await readRunOutput(fakes.deps(), 7, 3)).isEnd).toBe(true);
  });

  it('does not end while lines are left, even for a finished run', async () => {
    const fakes = new Fakes();
    fakes.add(makeRun({ logId: 7, handleCode: 500 }));
    expect((await readRunOutput(fakes.deps(), 7, 1)).isEnd).toBe(false);
  });

  it('does not end for a running run whose log file is not written yet (the executor says isEnd)', async () => {
    const fakes = new Fakes();
    fakes.add(makeRun({ logId: 7 }));
    fakes.logReply = {
      code: 200,
      content: { fromLineNum: 1, toLineNum: 0, logContent: 'readLog fail, logFile not exists', isEnd: true },
    };
    expect(await readRunOutput(fakes.deps(), 7, 1)).toMatchObject({ toLineNum: 0, isEnd: false });
  });

  it('answers 502 naming the executor when it does not answer', async () => {
    const fakes = new Fakes();
    fakes.add(makeRun({ logId: 7 }));
    fakes.logReply = { code: 500, msg: 'xxl-job remoting error(connect ECONNREFUSED)' };
    const err = await readRunOutput(fakes.deps(), 7, 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExecutorCallError);
    expect(err).toMatchObject({ status: 502 });
    expect((err as Error).message).toContain('http://127.0.0.1:9999/');
    expect((err as Error).message).toContain('ECONNREFUSED');
  });

  it('answers 502 when the executor answers without a LogResult', async () => {
    const fakes = new Fakes();
    fakes.add(makeRun({ logId: 7 }));
    fakes.logReply = { code: 200 };
    await expect(readRunOutput(fakes.deps(), 7, 1)).rejects.toBeInstanceOf(ExecutorCallError);
  });

  it('answers 409 for a run not sent to an executor yet, or refused by it, without calling anyone', async () => {
    const fakes = new Fakes();
    fakes.add(makeRun({ logId: 7, triggerCode: 0, executorAddress: '' }));
    fakes.add(makeRun({ logId: 8, triggerCode: 500, executorAddress: '' }));
    await expect(readRunOutput(fakes.deps(), 7, 1)).rejects.toThrow(/not been sent to an executor/);
    await expect(readRunOutput(fakes.deps(), 8, 1)).rejects.toThrow(/no executor accepted it/);
    await expect(readRunOutput(fakes.deps(), 8, 1)).rejects.toBeInstanceOf(ConflictError);
    expect(fakes.calls).toEqual([]);
  });

  it('answers 409 pointing at CloudWatch for a Lambda executor', async () => {
    const fakes = new Fakes();
    fakes.add(makeRun({ logId: 7, executorAddress: 'lambda:executor-runner' }));
    const err = await readRunOutput(fakes.deps(), 7, 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as Error).message).toContain('log output is not available for Lambda executors');
    expect((err as Error).message).toContain('CloudWatch');
    expect(fakes.calls).toEqual([]);
  });

  it('refuses a fromLineNum below 1 and an unknown run', async () => {
    const fakes = new Fakes();
    await expect(readRunOutput(fakes.deps(), 7, 0)).rejects.toBeInstanceOf(ValidationError);
    await expect(readRunOutput(fakes.deps(), 7, 1)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('killRun', () => {
  it('records the kill first, then tells the executor, so its racing "killed" callback is a repeat', async () => {
    const fakes = new Fakes();
    fakes.add(makeRun({ logId: 7, jobId: 3, retriesLeft: 2 }));
    const { run } = await killRun(fakes.deps(), 7);
    expect(fakes.calls).toEqual([`complete 7 500 ${KILLED_BY_USER}`, 'kill http://127.0.0.1:9999/ 3']);
    expect(run).toMatchObject({
      handleCode: 500,
      handleMsg: 'killed by user',
      handleTime: fakes.clock.now(),
    });
  });

  it('counts the run as failed (no longer running), with no alarm and no retry', async () => {
    const fakes = new Fakes();
    fakes.add(makeRun({ logId: 7, retriesLeft: 2, triggerTime: Date.UTC(2030, 0, 2, 3) }));
    await killRun(fakes.deps(), 7);
    expect(fakes.reports).toEqual([{ day: '2030-01-02', delta: { running: -1, fail: 1 } }]);
    expect(fakes.runs.get(7)?.alarmStatus).toBe(ALARM_STATUS.notNeeded);
  });

  it('keeps the run killed but answers 502 when the executor does not confirm', async () => {
    const fakes = new Fakes();
    fakes.add(makeRun({ logId: 7 }));
    fakes.killReply = { code: 500, msg: 'timed out after 3000 ms' };
    const err = await killRun(fakes.deps(), 7).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExecutorCallError);
    expect((err as Error).message).toMatch(/recorded as failed .* did not confirm the kill: timed out/);
    expect(fakes.runs.get(7)).toMatchObject({ handleCode: 500, handleMsg: KILLED_BY_USER });
    expect(fakes.reports).toHaveLength(1);
  });

  it.each([
    ['finished', { handleCode: 200 }, /finished already \(success/],
    ['failed at trigger time', { triggerCode: 500, executorAddress: '' }, /no executor accepted it/],
    ['not sent yet', { triggerCode: 0, executorAddress: '' }, /not been sent/],
    ['on a Lambda executor', { executorAddress: 'lambda:executor-runner' }, /not supported for Lambda/],
  ] as const)('answers 409 for a run %s, touching nothing', async (_label, fields, message) => {
    const fakes = new Fakes();
    fakes.add(makeRun({ logId: 7, ...fields }));
    const err = await killRun(fakes.deps(), 7).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as Error).message).toMatch(message);
    expect(fakes.calls).toEqual([]);
  });

  it('answers 409 when the result came in between the read and the kill, and does not call the executor', async () => {
    const fakes = new Fakes();
    fakes.add(makeRun({ logId: 7 }));
    fakes.finishBeforeComplete.add(7);
    await expect(killRun(fakes.deps(), 7)).rejects.toThrow(/finished meanwhile \(success/);
    expect(fakes.calls.filter((c) => c.startsWith('kill'))).toEqual([]);
    expect(fakes.reports).toEqual([]);
  });

  it('answers 404 for an unknown run', async () => {
    await expect(killRun(new Fakes().deps(), 7)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('onRunKilled', () => {
  it('counts a run never counted as running only as a failure', async () => {
    const fakes = new Fakes();
    const run = fakes.add(makeRun({ logId: 9, handleCode: 500, triggerTime: Date.UTC(2030, 0, 1) }));
    await onRunKilled(fakes.deps(), run, false);
    expect(fakes.reports).toEqual([{ day: '2030-01-01', delta: { fail: 1 } }]);
    expect(fakes.runs.get(9)?.alarmStatus).toBe(ALARM_STATUS.notNeeded);
  });
});
