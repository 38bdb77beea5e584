import type { Activity } from '@tickring/client';
import { describe, expect, it } from 'vitest';
import {
  activityTotals,
  activityWindow,
  dailyChart,
  dashboardDays,
  latenessChart,
  padEdges,
  runsChart,
  stackLayers,
  todayCounts,
} from './activity';

const T0 = Date.parse('2030-01-01T10:00:00.000Z');

/** An activity as GET /v1/activity answers it: two buckets of a minute, oldest first. */
const activity: Activity = {
  window: '1h',
  bucketMs: 60_000,
  from: new Date(T0).toISOString(),
  to: new Date(T0 + 120_000).toISOString(),
  buckets: [
    {
      start: new Date(T0).toISOString(),
      success: 3,
      fail: 0,
      running: 0,
      latenessP50Ms: null,
      latenessP99Ms: null,
    },
    {
      start: new Date(T0 + 60_000).toISOString(),
      success: 4,
      fail: 1,
      running: 2,
      latenessP50Ms: 12,
      latenessP99Ms: 80,
    },
  ],
  inProgress: 2,
  lastFailures: [],
  sampled: 500,
  truncated: true,
};

describe('padEdges', () => {
  it('leaves an empty chart alone', () => {
    const empty = { x: [], values: [[]], shown: [[]] };
    expect(padEdges(empty, 60)).toBe(empty);
  });
});

describe('stackLayers', () => {
  it('draws running sums tallest first and keeps each layer for the legend', () => {
    expect(
      stackLayers([
        [1, 0],
        [2, 1],
        [3, 5],
      ]),
    ).toEqual({
      values: [
        [6, 6],
        [3, 1],
        [1, 0],
      ],
      shown: [
        [3, 5],
        [2, 1],
        [1, 0],
      ],
    });
  });
});

describe('chart data', () => {
  it('stacks runs per bucket: succeeded on top of failed on top of running, an empty step at each edge', () => {
    const t = T0 / 1000;
    expect(runsChart(activity)).toEqual({
      x: [t - 60, t, t + 60, t + 120],
      values: [
        [null, 3, 7, null],
        [null, 0, 3, null],
        [null, 0, 2, null],
      ],
      shown: [
        [null, 3, 4, null],
        [null, 0, 1, null],
        [null, 0, 2, null],
      ],
    });
  });

  it('draws lateness p50/p99 with gaps', () => {
    expect(latenessChart(activity).values).toEqual([
      [null, null, 12, null],
      [null, null, 80, null],
    ]);
  });

  it('adds up the window', () => {
    expect(activityTotals(activity)).toEqual({ success: 7, fail: 1, running: 2 });
  });

  it('stacks days and reads today from the last one', () => {
    const series = [
      { day: '2030-01-01', running: 0, success: 5, fail: 1, skipped: 2 },
      { day: '2030-01-02', running: 1, success: 3, fail: 0 },
    ];
    const chart = dailyChart(series);
    const day0 = T0 / 1000 - 36_000;
    expect(chart.x).toEqual([day0 - 86_400, day0, day0 + 86_400, day0 + 2 * 86_400]);
    expect(chart.values[0]).toEqual([null, 8, 4, null]);
    expect(chart.shown[0]).toEqual([null, 5, 3, null]);
    expect(chart.shown[3]).toEqual([null, 2, 0, null]);
    expect(todayCounts(series)).toEqual({
      day: '2030-01-02',
      runs: 4,
      success: 3,
      fail: 0,
      running: 1,
      skipped: undefined,
    });
    expect(todayCounts([]).runs).toBe(0);
    expect(todayCounts(series.slice(0, 1))).toMatchObject({ runs: 6, skipped: 2 });
  });
});

describe('URL switches', () => {
  it('reads the window and the days with defaults', () => {
    expect(activityWindow('6h')).toBe('6h');
    expect(activityWindow('2h')).toBe('1h');
    expect(activityWindow(undefined)).toBe('1h');
    expect(dashboardDays('30')).toBe(30);
    expect(dashboardDays('9')).toBe(7);
  });
});
