import { makeJob, makeRun, OutcomeFakes } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import {
  CALLBACK_CONCURRENCY,
  callbackReply,
  normalizeResult,
  processCallbacks,
} from './executor-callbacks.js';
import { TRIGGER_CODE, unplannedLogId } from './run.js';
import type { CompleteOptions, HandleResult } from './run-store.js';

describe('normalizeResult', () => {
  it('keeps 200, 500 and 502', () => {
    for (const code of [200, 500, 502])
      expect(normalizeResult(code, 'm')).toEqual({ handleCode: code, handleMsg: 'm' });
  });

  it('records any other code as a failure and notes the code the executor sent', () => {
    expect(normalizeResult(0, '')).toEqual({
      handleCode: 500,
      handleMsg: '[executor handleCode 0, recorded as a failure]',
    });
    expect(normalizeResult(201, 'odd')).toEqual({
      handleCode: 500,
      handleMsg: 'odd [executor handleCode 201, recorded as a failure]',
    });
  });

  it('cuts the message at 15,000 characters, as the Java admin does', () => {
    const { handleMsg } = normalizeResult(200, 'x'.repeat(20_000));
    expect(handleMsg).toBe(`${'x'.repeat(15_000)}...`);
    expect(normalizeResult(200, 'y'.repeat(15_000)).handleMsg).toHaveLength(15_000);
  });
});

describe('processCallbacks', () => {
  it('finishes each run once: a repeat is ignored, an unknown logId reported, and the first result wins', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1 }));
    fakes.runs.set(1, makeRun({ logId: 1 }));
    fakes.runs.set(2, makeRun({ logId: 2, handleCode: 200, handleMsg: 'earlier' }));
    const report = await processCallbacks(fakes.deps(), [
      { logId: 1, logDateTime: 0, handleCode: 200, handleMsg: 'ok' },
      { logId: 2, logDateTime: 0, handleCode: 500, handleMsg: 'late' },
      { logId: 3, logDateTime: 0, handleCode: 200, handleMsg: '' },
    ]);
    expect(report).toEqual({ completed: [1], repeated: [2], unknown: [3], failed: [], dropped: [] });
    expect(fakes.runs.get(1)).toMatchObject({
      handleCode: 200,
      handleMsg: 'ok',
      handleTime: fakes.clock.now(),
    });
    expect(fakes.runs.get(2)).toMatchObject({ handleCode: 200, handleMsg: 'earlier' });
    expect(fakes.reports).toEqual([{ day: '2023-11-14', delta: { running: -1, success: 1 } }]);
    expect(callbackReply(report)).toEqual({ code: 200, msg: 'unknown logId ignored: 3' });
  });

  it('logs one "run finished" line per result with the first 200 characters of the message', async () => {
    const fakes = new OutcomeFakes();
    fakes.runs.set(5, makeRun({ logId: 5, jobId: 4 }));
    await processCallbacks(fakes.deps(), [
      { logId: 5, logDateTime: 0, handleCode: 500, handleMsg: 'z'.repeat(300) },
    ]);
    expect(fakes.logs).toContainEqual({
      level: 'info',
      message: 'run finished',
      attributes: { jobId: 4, logId: 5, handleCode: 500, handleMsg: 'z'.repeat(200) },
    });
  });

  it('asks for the batch again when a result could not be stored, naming the logIds', async () => {
    const fakes = new OutcomeFakes();
    fakes.runs.set(1, makeRun({ logId: 1 }));
    fakes.runs.set(2, makeRun({ logId: 2 }));
    fakes.failingComplete.add(2);
    const report = await processCallbacks(fakes.deps(), [
      { logId: 1, logDateTime: 0, handleCode: 200, handleMsg: '' },
      { logId: 2, logDateTime: 0, handleCode: 200, handleMsg: '' },
    ]);
    expect(report.failed).toEqual([2]);
    expect(callbackReply(report)).toEqual({ code: 500, msg: 'results not stored, send them again: logId 2' });
  });

  it('drops a result for a run recorded as skipped, counting nothing, whatever the store did with it', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1, executorFailRetryCount: 1, childJobIds: [2] }));
    const skipped = {
      triggerCode: TRIGGER_CODE.skipped,
      executorAddress: '',
      dispatchedAt: 0,
      retriesLeft: 1,
    };
    // 1 and 2: the store (as these fakes, like DynamoRunStore before) stores the result; 3: it refuses it.
    for (const logId of [1, 2, 3]) fakes.runs.set(logId, makeRun({ logId, ...skipped }));
    const deps = fakes.deps();
    const complete = deps.runs.complete.bind(deps.runs);
    const runs = {
      ...deps.runs,
      complete: async (logId: number, result: HandleResult, options?: CompleteOptions) => {
        const run = fakes.runs.get(logId);
        if (logId === 3 && run) return { kind: 'already-finished' as const, run };
        return complete(logId, result, options);
      },
    };
    const items = [
      { logId: 1, logDateTime: 0, handleCode: 200, handleMsg: 'ran after all' },
      { logId: 2, logDateTime: 0, handleCode: 500, handleMsg: 'failed after all' },
      { logId: 3, logDateTime: 0, handleCode: 200, handleMsg: '' },
    ];
    const report = await processCallbacks({ ...deps, runs }, items);
    // The executor sends the batch again: dropped again, nothing counted either.
    const again = await processCallbacks({ ...deps, runs }, items);

    for (const r of [report, again]) {
      expect({ ...r, dropped: [...r.dropped].sort() }).toEqual({
        completed: [],
        repeated: [],
        unknown: [],
        failed: [],
        dropped: [1, 2, 3],
      });
    }
    expect(fakes.reports).toEqual([]);
    expect(fakes.enqueued).toEqual([]);
    expect(fakes.alarms).toEqual([]);
    expect(fakes.outcomePending.size).toBe(0);
    expect(
      fakes.logs.filter((l) => l.message === 'result for a run recorded as skipped dropped'),
    ).toHaveLength(6);
    expect(fakes.logs).toContainEqual({
      level: 'warn',
      message: 'result for a run recorded as skipped dropped',
      attributes: { jobId: 1, logId: 3, handleCode: 200, stored: false },
    });
    expect(callbackReply(report)).toEqual({
      code: 200,
      msg: 'result ignored, the run was recorded as skipped (never sent): logId 1, 2, 3',
    });
  });

  it('does not count a run refused at trigger time as running', async () => {
    const fakes = new OutcomeFakes();
    fakes.runs.set(1, makeRun({ logId: 1, triggerCode: 500 }));
    await processCallbacks(fakes.deps(), [{ logId: 1, logDateTime: 0, handleCode: 500, handleMsg: '' }]);
    expect(fakes.reports).toEqual([{ day: '2023-11-14', delta: { fail: 1 } }]);
  });

  it(`works on at most ${CALLBACK_CONCURRENCY} items at once`, async () => {
    const fakes = new OutcomeFakes();
    const deps = fakes.deps();
    let inFlight = 0;
    let most = 0;
    const complete = deps.runs.complete.bind(deps.runs);
    const runs = {
      ...deps.runs,
      complete: async (logId: number, result: Parameters<typeof complete>[1]) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return complete(logId, result);
      },
    };
    const items = Array.from({ length: 60 }, (_, i) => ({
      logId: i + 1,
      logDateTime: 0,
      handleCode: 200,
      handleMsg: '',
    }));
    for (const item of items) fakes.runs.set(item.logId, makeRun({ logId: item.logId }));
    const report = await processCallbacks({ ...deps, runs }, items);
    expect(report.completed).toHaveLength(60);
    expect(most).toBe(CALLBACK_CONCURRENCY);
  });
});

describe('processCallbacks and the outcome-pending mark', () => {
  const result = (logId: number, handleCode: number) => ({
    logId,
    logDateTime: 0,
    handleCode,
    handleMsg: '',
  });

  it('stores a plain success (no children recorded) with no mark, issues no clear and reads no job', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1, childJobIds: [2] })); // children added after the claim: not this run's
    fakes.runs.set(7, makeRun({ logId: 7, childJobIds: [] }));
    const deps = fakes.deps();
    const jobReads: number[] = [];
    const get = async (id: number) => {
      jobReads.push(id);
      return deps.jobs.get(id);
    };
    const jobs = { ...deps.jobs, get };
    const report = await processCallbacks({ ...deps, jobs }, [result(7, 200)]);
    expect(report.completed).toEqual([7]);
    expect(fakes.outcomePending.has(7)).toBe(false);
    expect(fakes.clears).toEqual([]);
    expect(fakes.enqueued).toEqual([]);
    expect(fakes.batchReads).toEqual([]);
    expect(jobReads).toEqual([]);
    expect(fakes.reports).toEqual([{ day: '2023-11-14', delta: { running: -1, success: 1 } }]);
  });

  it('marks a success whose run recorded children, and clears the mark once they are enqueued', async () => {
    const fakes = new OutcomeFakes();
    const logId = unplannedLogId(1, 7);
    fakes.runs.set(logId, makeRun({ logId, childJobIds: [2] }));
    const deps = fakes.deps();
    const pendingAtEnqueue: boolean[] = [];
    const ring = {
      enqueue: async (entries: Parameters<typeof deps.ring.enqueue>[0]) => {
        pendingAtEnqueue.push(fakes.outcomePending.has(logId));
        await deps.ring.enqueue(entries);
      },
    };
    await processCallbacks({ ...deps, ring }, [result(logId, 200)]);
    expect(pendingAtEnqueue).toEqual([true]);
    expect(fakes.enqueued.map((e) => e.message.dedupKey)).toEqual([`parent#${logId}#2`]);
    expect(fakes.clears).toEqual([logId]);
    expect(fakes.outcomePending.has(logId)).toBe(false);
  });

  it('marks every failure, without reading its job before storing the result', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1, executorFailRetryCount: 1 }));
    fakes.runs.set(7, makeRun({ logId: 7, retriesLeft: 1 }));
    const deps = fakes.deps();
    const failingRing = { enqueue: () => Promise.reject(new Error('SQS unavailable')) };
    await processCallbacks({ ...deps, ring: failingRing }, [result(7, 500)]);
    expect(fakes.batchReads).toEqual([]);
    expect(fakes.outcomePending.has(7)).toBe(true); // left for the monitors
    expect(fakes.clears).toEqual([]);
  });

  it('marks a success of a run recorded without its children and finds them on its job', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1, childJobIds: [2] }));
    const logId = unplannedLogId(1, 7);
    fakes.runs.set(logId, makeRun({ logId })); // recorded by an earlier version
    const deps = fakes.deps();
    const pendingAtEnqueue: boolean[] = [];
    const ring = {
      enqueue: async (entries: Parameters<typeof deps.ring.enqueue>[0]) => {
        pendingAtEnqueue.push(fakes.outcomePending.has(logId));
        await deps.ring.enqueue(entries);
      },
    };
    const report = await processCallbacks({ ...deps, ring }, [result(logId, 200)]);
    expect(report.completed).toEqual([logId]);
    expect(pendingAtEnqueue).toEqual([true]);
    expect(fakes.enqueued.map((e) => e.message.dedupKey)).toEqual([`parent#${logId}#2`]);
    expect(fakes.clears).toEqual([logId]);
  });
});

describe('callbackReply', () => {
  it('is a bare {code:200} when everything was taken', () => {
    expect(callbackReply({ completed: [1], repeated: [2], unknown: [], failed: [], dropped: [] })).toEqual({
      code: 200,
    });
  });

  it('names at most 20 unknown logIds', () => {
    const unknown = Array.from({ length: 25 }, (_, i) => 25 - i);
    expect(callbackReply({ completed: [], repeated: [], unknown, failed: [], dropped: [] }).msg).toBe(
      'unknown logId ignored: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 and 5 more',
    );
  });
});
