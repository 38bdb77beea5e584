/**
 * The recent activity of runs, for a console's live chart: runs of a window (the last hour, 6 hours
 * or 24 hours) counted per bucket of their scheduled time, with how late they were dispatched, the
 * runs still running and the last failures. Pure: the runs are read by the use-case.
 */
import { type Run, runStatus } from '../runs/run.js';

export const ACTIVITY_WINDOW_NAMES = ['1h', '6h', '24h'] as const;
export type ActivityWindow = (typeof ACTIVITY_WINDOW_NAMES)[number];

/** Each window's buckets: 60 of 1 minute, 72 of 5 minutes, 96 of 15 minutes. */
export const ACTIVITY_WINDOWS: Readonly<
  Record<ActivityWindow, { readonly bucketMs: number; readonly buckets: number }>
> = {
  '1h': { bucketMs: 60_000, buckets: 60 },
  '6h': { bucketMs: 300_000, buckets: 72 },
  '24h': { bucketMs: 900_000, buckets: 96 },
};

export const DEFAULT_ACTIVITY_WINDOW: ActivityWindow = '1h';

/** Most failures an activity lists (newest first). */
export const ACTIVITY_LAST_FAILURES = 10;

/** The buckets of a window as of an instant. */
export interface ActivityFrame {
  readonly window: ActivityWindow;
  readonly bucketMs: number;
  /** The first bucket's start, epoch ms (inclusive). */
  readonly from: number;
  /** The last bucket's end, epoch ms (exclusive): the end of the bucket `now` falls in. */
  readonly to: number;
  readonly buckets: number;
}

/**
 * The window's buckets as of `nowMs`: whole buckets aligned on multiples of their length (UTC),
 * the last one the bucket `nowMs` falls in (still filling), so consecutive reads line up.
 */
export function activityFrame(window: ActivityWindow, nowMs: number): ActivityFrame {
  const { bucketMs, buckets } = ACTIVITY_WINDOWS[window];
  const to = Math.floor(nowMs / bucketMs) * bucketMs + bucketMs;
  return { window, bucketMs, from: to - buckets * bucketMs, to, buckets };
}

/**
 * The nearest-rank percentile (`p` in (0, 100]) of values sorted ascending: the smallest value
 * with at least p % of the values at or below it; null for no values.
 */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1] ?? null;
}

export interface ActivityBucket {
  /** Epoch ms the bucket starts (it holds runs scheduled in [start, start + bucketMs)). */
  readonly start: number;
  readonly success: number;
  readonly fail: number;
  readonly running: number;
  /** Lateness (dispatchedAt − scheduledTime) of the bucket's dispatched runs; null when none was. */
  readonly latenessP50Ms: number | null;
  readonly latenessP99Ms: number | null;
}

/** The fields of a run the activity reads. */
export type ActivityRun = Pick<
  Run,
  | 'logId'
  | 'jobId'
  | 'jobName'
  | 'appName'
  | 'scheduledTime'
  | 'triggerCode'
  | 'dispatchedAt'
  | 'handleCode'
  | 'handleMsg'
  | 'handleTime'
>;

export interface ActivitySummary<R extends ActivityRun = ActivityRun> {
  /** One per bucket of the frame, oldest first (empty buckets as zeros). */
  readonly buckets: readonly ActivityBucket[];
  /** Runs of the window still running. */
  readonly inProgress: number;
  /** The window's failed runs, newest (scheduled) first, at most {@link ACTIVITY_LAST_FAILURES}. */
  readonly lastFailures: readonly R[];
}

/**
 * Counts runs into the frame's buckets by their scheduled time: success, fail and running (skipped
 * runs, never sent, are not counted), and the 50th and 99th percentile of the lateness of the
 * bucket's dispatched runs (those with a dispatchedAt). Runs scheduled outside the frame are left
 * out; a run given twice (same logId) counts once.
 */
export function summarizeActivity<R extends ActivityRun>(
  frame: ActivityFrame,
  runs: Iterable<R>,
  maxFailures = ACTIVITY_LAST_FAILURES,
): ActivitySummary<R> {
  const counts = Array.from({ length: frame.buckets }, () => ({
    success: 0,
    fail: 0,
    running: 0,
    lateness: [] as number[],
  }));
  const seen = new Set<number>();
  const failures: R[] = [];
  let inProgress = 0;
  for (const run of runs) {
    if (run.scheduledTime < frame.from || run.scheduledTime >= frame.to || seen.has(run.logId)) continue;
    seen.add(run.logId);
    const bucket = counts[Math.floor((run.scheduledTime - frame.from) / frame.bucketMs)];
    if (!bucket) continue;
    const status = runStatus(run);
    if (status === 'skipped') continue;
    bucket[status]++;
    if (status === 'running') inProgress++;
    if (status === 'fail') failures.push(run);
    if (run.dispatchedAt > 0) bucket.lateness.push(run.dispatchedAt - run.scheduledTime);
  }
  const buckets = counts.map(({ success, fail, running, lateness }, i) => {
    const sorted = lateness.sort((a, b) => a - b);
    return {
      start: frame.from + i * frame.bucketMs,
      success,
      fail,
      running,
      latenessP50Ms: percentile(sorted, 50),
      latenessP99Ms: percentile(sorted, 99),
    };
  });
  const lastFailures = failures
    .sort((a, b) => b.scheduledTime - a.scheduledTime || b.logId - a.logId)
    .slice(0, maxFailures);
  return { buckets, inProgress, lastFailures };
}
