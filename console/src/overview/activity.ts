// The overview's numbers and chart data, from the activity (GET /v1/activity) and the dashboard
// (GET /v1/dashboard). Pure.

import type { Activity } from '@tickring/client';

export type ActivityWindow = Activity['window'];
export const ACTIVITY_WINDOWS: readonly ActivityWindow[] = ['1h', '6h', '24h'];
export const WINDOW_LABELS: Record<ActivityWindow, string> = {
  '1h': 'Last hour',
  '6h': 'Last 6 hours',
  '24h': 'Last 24 hours',
};

export const DASHBOARD_DAYS = [7, 30] as const;
export type DashboardDays = (typeof DASHBOARD_DAYS)[number];

export function activityWindow(value: string | undefined): ActivityWindow {
  return (ACTIVITY_WINDOWS as readonly string[]).includes(value ?? '') ? (value as ActivityWindow) : '1h';
}

export function dashboardDays(value: string | undefined): DashboardDays {
  return value === '30' ? 30 : 7;
}

/** Each bucket's start in epoch seconds (the charts' x). */
function bucketSeconds(activity: Activity): number[] {
  return activity.buckets.map((b) => Math.floor(Date.parse(b.start) / 1000));
}

/** Chart data: x in epoch seconds, and one array of values per series. */
export interface ChartData {
  readonly x: number[];
  readonly values: (number | null)[][];
  /** What each series' legend shows per x (the drawn values of stacked bars are running sums). */
  readonly shown: (number | null)[][];
}

/**
 * The chart with one empty step before the first x and after the last: bars at the edges are drawn
 * whole (uPlot's x range ends at the first and last x, which would cut their bars in half).
 */
export function padEdges(data: ChartData, stepSeconds: number): ChartData {
  if (data.x.length === 0) return data;
  const pad = (values: readonly (number | null)[]) => [null, ...values, null];
  return {
    x: [data.x[0]! - stepSeconds, ...data.x, data.x.at(-1)! + stepSeconds],
    values: data.values.map(pad),
    shown: data.shown.map(pad),
  };
}

/**
 * Stacked bars from layers given bottom first: drawn tallest first (each bar is the sum of its layer
 * and those below it, later bars painted over earlier ones), so the result is returned top layer
 * first. `shown` keeps each layer's own count for the legend.
 */
export function stackLayers(layers: readonly (readonly number[])[]): {
  values: number[][];
  shown: number[][];
} {
  const sums: number[][] = [];
  let below: readonly number[] | undefined;
  for (const layer of layers) {
    const sum = layer.map((v, i) => v + (below?.[i] ?? 0));
    sums.push(sum);
    below = sum;
  }
  return { values: sums.reverse(), shown: layers.map((l) => [...l]).reverse() };
}

/**
 * Runs per bucket, stacked: running at the bottom, then failed, then succeeded on top (series in
 * that drawing order: Succeeded, Failed, Running).
 */
export function runsChart(activity: Activity): ChartData {
  const x = bucketSeconds(activity);
  const { values, shown } = stackLayers([
    activity.buckets.map((b) => b.running),
    activity.buckets.map((b) => b.fail),
    activity.buckets.map((b) => b.success),
  ]);
  return padEdges({ x, values, shown }, activity.bucketMs / 1000);
}

/** Lateness p50 and p99 per bucket (null where no run was dispatched). */
export function latenessChart(activity: Activity): ChartData {
  const x = bucketSeconds(activity);
  const values = [activity.buckets.map((b) => b.latenessP50Ms), activity.buckets.map((b) => b.latenessP99Ms)];
  return padEdges({ x, values, shown: values }, activity.bucketMs / 1000);
}

/** The window's counts, added up. */
export function activityTotals(activity: Activity): { success: number; fail: number; running: number } {
  let success = 0;
  let fail = 0;
  let running = 0;
  for (const b of activity.buckets) {
    success += b.success;
    fail += b.fail;
    running += b.running;
  }
  return { success, fail, running };
}

/** A day of the dashboard's series (skipped is there once the server counts misfires). */
export interface DashboardDay {
  readonly day: string;
  readonly running: number;
  readonly success: number;
  readonly fail: number;
  readonly skipped?: number;
}

/**
 * Runs per day, stacked: skipped at the bottom, then running, failed and succeeded on top (series in
 * drawing order: Succeeded, Failed, Running, Skipped). x is each UTC day's start.
 */
export function dailyChart(series: readonly DashboardDay[]): ChartData {
  const x = series.map((d) => Math.floor(Date.parse(`${d.day}T00:00:00Z`) / 1000));
  const { values, shown } = stackLayers([
    series.map((d) => d.skipped ?? 0),
    series.map((d) => d.running),
    series.map((d) => d.fail),
    series.map((d) => d.success),
  ]);
  return padEdges({ x, values, shown }, 86_400);
}

/** Today's counts (the last day of the dashboard's series: today, UTC). */
export function todayCounts(series: readonly DashboardDay[]): {
  day: string | undefined;
  runs: number;
  success: number;
  fail: number;
  running: number;
  skipped: number | undefined;
} {
  const today = series.at(-1);
  if (!today) return { day: undefined, runs: 0, success: 0, fail: 0, running: 0, skipped: undefined };
  return {
    day: today.day,
    // As the dashboard counts runs: sent ones (skipped fires are counted apart).
    runs: today.success + today.fail + today.running,
    success: today.success,
    fail: today.fail,
    running: today.running,
    skipped: today.skipped,
  };
}
