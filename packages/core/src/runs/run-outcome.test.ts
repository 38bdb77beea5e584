import { makeJob, makeRun, OutcomeFakes } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import type { Job } from '../jobs/job.js';
import { needsOutcomeMark, TRIGGER_CODE } from './run.js';
import { ALARM_STATUS, onRunFinished, onRunKilled, retryDelayMs } from './run-outcome.js';

describe('retryDelayMs', () => {
  it("waits the job's backoff before the first retry and doubles it for each further one", () => {
    const job = { retryBackoffSeconds: 10 };
    expect([2, 3, 4].map((attempt) => retryDelayMs(job, attempt))).toEqual([10_000, 20_000, 40_000]);
  });

  it('never waits longer than the longest SQS delay, so the retry is due when the ring delivers it', () => {
    expect(retryDelayMs({ retryBackoffSeconds: 600 }, 3)).toBe(900_000);
  });

  it('uses 10 s for a job stored without a backoff', () => {
    expect(retryDelayMs({} as Pick<Job, 'retryBackoffSeconds'>, 2)).toBe(10_000);
  });
});

describe('onRunFinished', () => {
  it('schedules a RETRY with the backoff as its delay while retries are left', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1, executorFailRetryCount: 2, retryBackoffSeconds: 5 }));
    const run = makeRun({ logId: 7, attempt: 2, retriesLeft: 1, handleCode: 500, executorParam: 'p' });
    fakes.runs.set(7, run);
    await onRunFinished(fakes.deps(), run, true);
    expect(fakes.enqueued).toEqual([
      {
        lane: 'fast',
        delaySeconds: 10,
        message: {
          jobId: 1,
          scheduledTime: fakes.clock.now() + 10_000,
          triggerType: 'RETRY',
          dedupKey: 'retry#7',
          retry: { attempt: 3, ofLogId: 7, retriesLeft: 0 },
          executorParam: 'p',
        },
      },
    ]);
    expect(fakes.runs.get(7)?.alarmStatus).toBe(ALARM_STATUS.notNeeded);
    expect(fakes.alarms).toEqual([]);
  });

  it('still retries when the daily counters cannot be written', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1 }));
    const run = makeRun({ logId: 7, retriesLeft: 1, handleCode: 500 });
    const deps = fakes.deps();
    await onRunFinished(
      { ...deps, reports: { ...deps.reports, add: () => Promise.reject(new Error('throttled')) } },
      run,
      true,
    );
    expect(fakes.enqueued).toHaveLength(1);
    expect(fakes.logs.map((l) => l.message)).toContain('report counters not updated');
  });

  it('raises the alarm after the last failure and stores whether it was delivered', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1 }));
    fakes.runs.set(7, makeRun({ logId: 7, handleCode: 500 }));
    fakes.alarmDelivered = false;
    await onRunFinished(fakes.deps(), makeRun({ logId: 7, handleCode: 500 }), true);
    expect(fakes.alarms.map((a) => a.summary)).toEqual([
      'Job 1 (job 1) of test-app failed: log 7, trigger 200, handle 500',
    ]);
    expect(fakes.runs.get(7)?.alarmStatus).toBe(ALARM_STATUS.failed);
  });

  it('triggers each child once with PARENT, but never the job itself', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1, childJobIds: [2, 1, 3] }));
    await onRunFinished(fakes.deps(), makeRun({ logId: 7, handleCode: 200 }), true);
    expect(fakes.enqueued.map((e) => [e.message.jobId, e.message.triggerType, e.message.dedupKey])).toEqual([
      [2, 'PARENT', 'parent#7#2'],
      [3, 'PARENT', 'parent#7#3'],
    ]);
  });

  it('triggers the children a success recorded when claimed, without reading its job', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1, childJobIds: [9] })); // edited since the run was claimed
    const deps = fakes.deps();
    const jobReads: number[] = [];
    const get = async (id: number) => {
      jobReads.push(id);
      return deps.jobs.get(id);
    };
    const jobs = { ...deps.jobs, get };
    await onRunFinished({ ...deps, jobs }, makeRun({ logId: 7, handleCode: 200, childJobIds: [2] }), true);
    await onRunFinished({ ...deps, jobs }, makeRun({ logId: 8, handleCode: 200, childJobIds: [] }), true);
    expect(fakes.enqueued.map((e) => e.message.dedupKey)).toEqual(['parent#7#2']);
    expect(jobReads).toEqual([]);
  });
});

describe('onRunFinished of a run recorded as skipped', () => {
  it('has no outcome: no counter, retry, alarm or child; only its mark is cleared (a re-drive of an older write)', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1, executorFailRetryCount: 1, childJobIds: [2] }));
    const skipped = { triggerCode: TRIGGER_CODE.skipped, executorAddress: '', dispatchedAt: 0 };
    for (const [logId, handleCode] of [
      [7, 500],
      [8, 200],
    ] as const) {
      const run = makeRun({ logId, retriesLeft: 1, handleCode, ...skipped });
      fakes.runs.set(logId, run);
      fakes.outcomePending.set(logId, 1);
      await onRunFinished(fakes.deps(), run, true);
      await onRunFinished(fakes.deps(), run, true, { countersDone: true });
    }
    expect(fakes.reports).toEqual([]);
    expect(fakes.enqueued).toEqual([]);
    expect(fakes.alarms).toEqual([]);
    expect(fakes.outcomePending.size).toBe(0);
    expect(fakes.logs.filter((l) => l.message === 'no outcome for a run recorded as skipped')).toHaveLength(
      4,
    );
  });
});

describe('needsOutcomeMark', () => {
  it('marks every failure: a retry or an alarm follows', () => {
    expect(needsOutcomeMark({ handleCode: 500, childJobIds: [] })).toBe(true);
    expect(needsOutcomeMark({ handleCode: 502 })).toBe(true);
  });

  it('marks a success only when its run recorded child jobs', () => {
    expect(needsOutcomeMark({ handleCode: 200, childJobIds: [2] })).toBe(true);
    expect(needsOutcomeMark({ handleCode: 200, childJobIds: [] })).toBe(false);
  });

  it('marks a success of a run recorded without its children (an earlier version), to be safe', () => {
    expect(needsOutcomeMark({ handleCode: 200 })).toBe(true);
  });
});

describe('the outcome-pending mark', () => {
  it('is neither set nor cleared for a plain success (no children recorded)', async () => {
    const fakes = new OutcomeFakes();
    fakes.runs.set(7, makeRun({ logId: 7, childJobIds: [] }));
    const deps = fakes.deps();
    const outcome = await deps.runs.complete(
      7,
      { handleCode: 200, handleMsg: '', handleTime: 1 },
      { markOutcomePending: 'if-needed' },
    );
    if (outcome.kind !== 'completed') throw new Error('not completed');
    await onRunFinished(deps, outcome.run, true, { marked: false });
    expect(fakes.outcomePending.has(7)).toBe(false);
    expect(fakes.clears).toEqual([]);
    expect(fakes.enqueued).toEqual([]);
  });

  it('uses the job the caller read for a run recorded without its children', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1 })); // as stored now: no children
    const asRead = makeJob({ id: 1, childJobIds: [2] });
    await onRunFinished(fakes.deps(), makeRun({ logId: 7, handleCode: 200 }), true, { job: asRead });
    expect(fakes.enqueued.map((e) => e.message.dedupKey)).toEqual(['parent#7#2']);
    expect(fakes.clears).toEqual([7]);
  });

  it('is set by complete() and cleared once the retry is enqueued', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1 }));
    fakes.runs.set(7, makeRun({ logId: 7, retriesLeft: 1 }));
    const deps = fakes.deps();
    const outcome = await deps.runs.complete(7, { handleCode: 500, handleMsg: 'boom', handleTime: 1 });
    expect(fakes.outcomePending.has(7)).toBe(true);
    if (outcome.kind !== 'completed') throw new Error('not completed');
    await onRunFinished(deps, outcome.run, true);
    expect(fakes.enqueued).toHaveLength(1);
    expect(fakes.outcomePending.has(7)).toBe(false);
  });

  it('stays when the consequences fail, so the monitors re-drive them', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1, childJobIds: [2] }));
    fakes.runs.set(7, makeRun({ logId: 7 }));
    const deps = fakes.deps();
    await deps.runs.complete(7, { handleCode: 200, handleMsg: '', handleTime: 1 });
    const failingRing = { enqueue: () => Promise.reject(new Error('SQS unavailable')) };
    await expect(
      onRunFinished({ ...deps, ring: failingRing }, { ...makeRun({ logId: 7 }), handleCode: 200 }, true),
    ).rejects.toThrow('SQS unavailable');
    expect(fakes.outcomePending.has(7)).toBe(true);
  });

  it('is cleared for a killed run too', async () => {
    const fakes = new OutcomeFakes();
    fakes.runs.set(7, makeRun({ logId: 7 }));
    const deps = fakes.deps();
    const outcome = await deps.runs.complete(7, { handleCode: 500, handleMsg: 'killed', handleTime: 1 });
    if (outcome.kind !== 'completed') throw new Error('not completed');
    await onRunKilled(deps, outcome.run, true);
    expect(fakes.outcomePending.has(7)).toBe(false);
  });

  it('skips the daily counters when they were done already (a re-drive)', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1, childJobIds: [2] }));
    await onRunFinished(fakes.deps(), makeRun({ logId: 7, handleCode: 200 }), true, { countersDone: true });
    expect(fakes.reports).toEqual([]);
    expect(fakes.enqueued).toHaveLength(1);
  });
});
