import { describe, expect, it } from 'vitest';
import { HANDLE_CODE, TRIGGER_CODE } from '../runs/run.js';
import {
  ACTIVITY_WINDOWS,
  type ActivityRun,
  activityFrame,
  percentile,
  summarizeActivity,
} from './activity.js';

const at = (iso: string) => Date.parse(iso);
const MINUTE = 60_000;

let serial = 0;
function run(
  scheduledTime: number,
  status: 'success' | 'fail' | 'running' | 'refused' | 'skipped',
  fields: Partial<ActivityRun> = {},
): ActivityRun {
  const codes = {
    success: { triggerCode: TRIGGER_CODE.success, handleCode: HANDLE_CODE.success },
    fail: { triggerCode: TRIGGER_CODE.success, handleCode: HANDLE_CODE.fail },
    running: { triggerCode: TRIGGER_CODE.success, handleCode: 0 },
    refused: { triggerCode: TRIGGER_CODE.fail, handleCode: 0 },
    skipped: { triggerCode: TRIGGER_CODE.skipped, handleCode: 0 },
  }[status];
  return {
    logId: ++serial,
    jobId: 7,
    jobName: 'report',
    appName: 'a',
    scheduledTime,
    dispatchedAt: status === 'skipped' ? 0 : scheduledTime,
    handleMsg: status === 'fail' ? 'boom' : '',
    handleTime: status === 'success' || status === 'fail' ? scheduledTime + 1_000 : 0,
    ...codes,
    ...fields,
  };
}

describe('activityFrame', () => {
  it('ends each window with the bucket now falls in, its buckets aligned on their length', () => {
    const now = at('2030-01-01T10:17:30.500Z');
    expect(activityFrame('1h', now)).toEqual({
      window: '1h',
      bucketMs: 60_000,
      buckets: 60,
      from: at('2030-01-01T09:18:00Z'),
      to: at('2030-01-01T10:18:00Z'),
    });
    expect(activityFrame('6h', now)).toEqual({
      window: '6h',
      bucketMs: 300_000,
      buckets: 72,
      from: at('2030-01-01T04:20:00Z'),
      to: at('2030-01-01T10:20:00Z'),
    });
    expect(activityFrame('24h', now)).toEqual({
      window: '24h',
      bucketMs: 900_000,
      buckets: 96,
      from: at('2029-12-31T10:30:00Z'),
      to: at('2030-01-01T10:30:00Z'),
    });
  });

  it('puts an instant on a bucket boundary at the start of the last bucket', () => {
    const frame = activityFrame('1h', at('2030-01-01T10:17:00Z'));
    expect(frame.to).toBe(at('2030-01-01T10:18:00Z'));
    for (const { bucketMs, buckets } of Object.values(ACTIVITY_WINDOWS)) {
      expect(bucketMs * buckets).toBeGreaterThanOrEqual(3_600_000);
    }
  });
});

describe('percentile (nearest rank)', () => {
  it('is null for no values and the value itself for one', () => {
    expect(percentile([], 50)).toBeNull();
    expect(percentile([7], 50)).toBe(7);
    expect(percentile([7], 99)).toBe(7);
  });

  it('takes the smallest value with at least p % at or below it', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    const ten = Array.from({ length: 10 }, (_, i) => (i + 1) * 10);
    expect(percentile(ten, 50)).toBe(50);
    expect(percentile(ten, 99)).toBe(100);
    expect(percentile([1, 2, 3], 50)).toBe(2);
    expect(percentile([1, 2], 50)).toBe(1);
  });
});

describe('summarizeActivity', () => {
  const frame = activityFrame('1h', at('2030-01-01T10:17:30Z'));
  const { from } = frame;

  it('counts runs per bucket of their scheduled time, oldest bucket first, empty buckets as zeros', () => {
    const runs = [
      run(from, 'success'),
      run(from + 59_999, 'fail'),
      run(from + MINUTE, 'running'),
      run(from + MINUTE + 5, 'refused'),
      run(frame.to - 1, 'success'),
    ];
    const { buckets, inProgress } = summarizeActivity(frame, runs);
    expect(buckets).toHaveLength(60);
    expect(buckets.map((b) => b.start)).toEqual(Array.from({ length: 60 }, (_, i) => from + i * MINUTE));
    expect(buckets[0]).toMatchObject({ success: 1, fail: 1, running: 0 });
    expect(buckets[1]).toMatchObject({ success: 0, fail: 1, running: 1 });
    expect(buckets[59]).toMatchObject({ success: 1, fail: 0, running: 0 });
    expect(buckets.slice(2, 59).every((b) => b.success + b.fail + b.running === 0)).toBe(true);
    expect(inProgress).toBe(1);
  });

  it('leaves out runs scheduled outside the frame, skipped runs, and a run given twice', () => {
    const twice = run(from + 10, 'success');
    const runs = [
      run(from - 1, 'fail'),
      run(frame.to, 'running'),
      run(from + 20, 'skipped'),
      twice,
      { ...twice },
    ];
    const { buckets, inProgress, lastFailures } = summarizeActivity(frame, runs);
    expect(buckets.reduce((n, b) => n + b.success + b.fail + b.running, 0)).toBe(1);
    expect(buckets[0]).toMatchObject({ success: 1, latenessP50Ms: 0, latenessP99Ms: 0 });
    expect(inProgress).toBe(0);
    expect(lastFailures).toEqual([]);
  });

  it('gives the p50 and p99 lateness of the dispatched runs of each bucket, null where none was', () => {
    const start = from + 3 * MINUTE;
    // 100 runs, 1..100 ms late, and one never dispatched (it does not count).
    const late = Array.from({ length: 100 }, (_, i) =>
      run(start + i, 'success', { dispatchedAt: start + i + (i + 1) }),
    );
    const { buckets } = summarizeActivity(frame, [
      ...late.reverse(),
      run(start, 'running', { dispatchedAt: 0 }),
    ]);
    expect(buckets[3]).toMatchObject({ success: 100, running: 1, latenessP50Ms: 50, latenessP99Ms: 99 });
    expect(buckets[2]).toMatchObject({ latenessP50Ms: null, latenessP99Ms: null });
    const onlyUndispatched = summarizeActivity(frame, [run(from, 'running', { dispatchedAt: 0 })]);
    expect(onlyUndispatched.buckets[0]).toMatchObject({
      running: 1,
      latenessP50Ms: null,
      latenessP99Ms: null,
    });
  });

  it('lists the failed runs newest first, at most the limit', () => {
    const failed = Array.from({ length: 12 }, (_, i) => run(from + i * 1_000, 'fail'));
    const refused = run(from + 30_000, 'refused');
    const { lastFailures } = summarizeActivity(frame, [...failed, refused, run(from + 40_000, 'success')]);
    expect(lastFailures.map((r) => r.logId)).toEqual(
      [refused, ...failed.slice(3).reverse()].map((r) => r.logId),
    );
    expect(summarizeActivity(frame, failed, 3).lastFailures.map((r) => r.logId)).toEqual(
      failed
        .slice(-3)
        .reverse()
        .map((r) => r.logId),
    );
  });

  it('breaks a tie of scheduled times by the higher logId first', () => {
    const a = run(from, 'fail');
    const b = run(from, 'fail');
    expect(summarizeActivity(frame, [a, b]).lastFailures.map((r) => r.logId)).toEqual([b.logId, a.logId]);
  });
});
