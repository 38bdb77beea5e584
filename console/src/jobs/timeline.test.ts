import type { Run } from '@tickring/client';
import { describe, expect, it } from 'vitest';
import {
  findGaps,
  layoutTimeline,
  percent,
  runDurationMs,
  runMessage,
  summarize,
  timeTicks,
  trendSeries,
} from './timeline';

const T0 = Date.parse('2030-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

function run(n: number, status: Run['status'], over: Partial<Run> = {}): Run {
  const due = T0 + n * 10_000;
  const finished = status === 'success' || status === 'fail';
  return {
    logId: 1000 + n,
    jobId: 7,
    jobName: 'job',
    appName: 'my-app',
    status,
    triggerType: 'CRON',
    dedupKey: `7:${due}`,
    scheduledTime: iso(due),
    triggerTime: iso(due),
    executorAddress: status === 'skipped' ? null : 'http://10.0.0.1:9999/',
    executorHandler: 'h',
    executorParam: '',
    executorRouteStrategy: 'FIRST',
    executorTimeout: 0,
    shard: '0/1',
    attempt: 1,
    retriesLeft: 0,
    parentLogId: null,
    workflow: null,
    triggerCode: status === 'skipped' ? 600 : 200,
    triggerMsg: '',
    dispatchedAt: status === 'skipped' ? null : iso(due + 200),
    handleCode: finished ? (status === 'success' ? 200 : 500) : 0,
    handleMsg: '',
    handleTime: finished ? iso(due + 200 + 1000 * (n + 1)) : null,
    alarmStatus: 'DEFAULT',
    skippedCount: status === 'skipped' ? 1 : null,
    skippedUntil: status === 'skipped' ? iso(due) : null,
    ...over,
  };
}

describe('summarize', () => {
  it('counts by status and rates success over finished runs only', () => {
    const runs = [
      run(0, 'success'),
      run(1, 'success'),
      run(2, 'success'),
      run(3, 'fail'),
      run(4, 'skipped'),
      run(5, 'running'),
    ];
    expect(summarize(runs)).toEqual({
      total: 6,
      success: 3,
      fail: 1,
      running: 1,
      skipped: 1,
      successRate: 0.75,
      medianDurationMs: 2500,
    });
    expect(percent(0.75)).toBe('75 %');
    expect(percent(0.975)).toBe('97.5 %');
    expect(percent(2 / 3)).toBe('66.7 %');
  });

  it('counts every fire a skipped range stands for', () => {
    const range = run(2, 'skipped', { skippedCount: 12, skippedUntil: iso(T0 + 130_000) });
    expect(summarize([run(0, 'success'), run(1, 'skipped'), range])).toMatchObject({
      total: 3,
      success: 1,
      skipped: 13,
    });
  });

  it('has no rate when nothing finished', () => {
    expect(summarize([run(0, 'skipped')]).successRate).toBeUndefined();
    expect(percent(undefined)).toBe('—');
  });
});

describe('durations and lateness', () => {
  it('measures result − dispatch of finished runs only', () => {
    expect(runDurationMs(run(1, 'success'))).toBe(2000);
    expect(runDurationMs(run(1, 'running'))).toBeUndefined();
  });

  it('lays the trend oldest first, in epoch seconds, with nulls for runs without a value', () => {
    const trend = trendSeries([run(2, 'running'), run(1, 'success'), run(0, 'skipped')]);
    expect(trend.x).toEqual([T0 / 1000, T0 / 1000 + 10, T0 / 1000 + 20]);
    expect(trend.duration).toEqual([null, 2000, null]);
    expect(trend.lateness).toEqual([null, 200, 200]);
  });
});

describe('runMessage', () => {
  it('is the handle message, else the refusal of the trigger message', () => {
    expect(runMessage(run(1, 'success', { handleMsg: ' done ' }))).toBe('done');
    expect(runMessage(run(1, 'success'))).toBe('');
    const refused = run(1, 'fail', {
      triggerCode: 500,
      handleMsg: '',
      triggerMsg:
        'Trigger type: CRON\n>>>>>>>>>>> Trigger <<<<<<<<<<<\naddress: http://a/\ncode: 500\nmsg: job handler [x] not found.',
    });
    expect(runMessage(refused)).toBe('job handler [x] not found.');
    expect(runMessage(run(1, 'fail', { triggerCode: 500, triggerMsg: 'no executor online' }))).toBe(
      'no executor online',
    );
  });
});

describe('findGaps', () => {
  it('finds a stretch without scheduled fires (the job was stopped)', () => {
    const runs = [0, 1, 2, 3, 4, 5, 20, 21, 22].map((n) => run(n, 'success'));
    expect(findGaps(runs)).toEqual([{ from: T0 + 50_000, to: T0 + 200_000 }]);
  });

  it('finds no gap inside a skipped range (its fires were due all through it), but one after it', () => {
    const range = run(6, 'skipped', { skippedCount: 14, skippedUntil: iso(T0 + 190_000) });
    const runs = [0, 1, 2, 3, 4, 5, 20, 21, 22, 40, 41].map((n) => run(n, 'success'));
    expect(findGaps([...runs, range])).toEqual([{ from: T0 + 220_000, to: T0 + 400_000 }]);
  });

  it('ignores manual runs and needs enough fires to know the usual spacing', () => {
    const regular = [0, 1, 2, 3, 4, 5, 6].map((n) => run(n, 'success'));
    const manual = run(40, 'success', { triggerType: 'MANUAL' });
    expect(findGaps([...regular, manual])).toEqual([]);
    expect(findGaps([run(0, 'success'), run(30, 'success')])).toEqual([]);
  });
});

describe('timeTicks', () => {
  it('picks a round step for the span and starts on a whole step', () => {
    const { ticks, step } = timeTicks(T0 + 7_000, T0 + 3_600_000, 8);
    expect(step).toBe(10 * 60_000);
    expect(ticks[0]).toBe(T0 + 600_000);
    expect(ticks.length).toBe(6);
  });

  it('puts day ticks on the viewer’s midnight', () => {
    const offset = 2 * 3_600_000; // GMT+2
    const { ticks, step } = timeTicks(T0, T0 + 5 * 86_400_000, 6, offset);
    expect(step).toBe(86_400_000);
    expect(ticks[0]).toBe(T0 + 86_400_000 - offset);
  });
});

describe('layoutTimeline', () => {
  it('places marks by time in their status lane, oldest first, inside the drawing area', () => {
    const runs = [run(2, 'fail'), run(0, 'success'), run(1, 'skipped')];
    const layout = layoutTimeline(runs, 600, T0 + 30_000, { left: 100, right: 0 });
    expect(layout.marks.map((m) => [m.run.logId, m.lane])).toEqual([
      [1000, 0],
      [1001, 3],
      [1002, 1],
    ]);
    for (const mark of layout.marks) {
      expect(mark.x).toBeGreaterThan(100);
      expect(mark.x).toBeLessThan(600);
    }
    expect(layout.marks[0]!.x).toBeLessThan(layout.marks[1]!.x);
    expect(layout.xOf(layout.to)).toBeCloseTo(600);
  });

  it('draws an empty axis of the last hour without runs', () => {
    const layout = layoutTimeline([], 400, T0);
    expect(layout.marks).toEqual([]);
    expect(layout.to).toBeGreaterThanOrEqual(T0);
  });
});
