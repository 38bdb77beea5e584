// A job's recent runs on a time axis: counts and success rate, the duration and lateness trend, and
// the layout of the timeline (a mark per run in its status lane, time ticks, gaps without runs). Pure.

import type { Run } from '@tickring/client';
import { firesOf, skippedRange } from '../runs/skipped-range';
import { runTiming } from '../runs/timing';

export type RunStatus = Run['status'];

/** The lanes of the timeline, top to bottom (each labelled with its word: colour is never alone). */
export const LANES: readonly { readonly status: RunStatus; readonly label: string }[] = [
  { status: 'success', label: 'Success' },
  { status: 'fail', label: 'Failed' },
  { status: 'running', label: 'Running' },
  { status: 'skipped', label: 'Skipped' },
];

export interface RunSummary {
  readonly total: number;
  readonly success: number;
  readonly fail: number;
  readonly running: number;
  /** Skipped fires: a skipped run standing for a range of fires counts each of them. */
  readonly skipped: number;
  /** success / (success + fail), 0-1; undefined when none finished. Skipped and running runs are not counted. */
  readonly successRate: number | undefined;
  /** The median duration (result − dispatch) of the finished runs, ms. */
  readonly medianDurationMs: number | undefined;
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** How long a finished run took (from the executor taking it to its result); none while it runs. */
export function runDurationMs(run: Run): number | undefined {
  const { durationMs, ongoing } = runTiming(run);
  return ongoing ? undefined : durationMs;
}

/**
 * What a run's result says, in one line: its handle message, or, for a run its executor refused, the
 * refusal (the last `msg:` line of XXL-JOB's trigger message).
 */
export function runMessage(run: Run): string {
  if (run.handleMsg.trim() !== '') return run.handleMsg.trim();
  if (run.triggerCode === 200 || run.triggerCode === 0) return '';
  const lines = run.triggerMsg.split('\n').map((l) => l.trim());
  const msg = lines.reverse().find((l) => l.startsWith('msg:'));
  return (msg ? msg.slice(4) : (lines[0] ?? '')).trim();
}

export function summarize(runs: readonly Run[]): RunSummary {
  const count = (status: RunStatus) => runs.filter((r) => r.status === status).length;
  const success = count('success');
  const fail = count('fail');
  const durations = runs
    .filter((r) => r.status === 'success' || r.status === 'fail')
    .map(runDurationMs)
    .filter((d): d is number => d !== undefined);
  return {
    total: runs.length,
    success,
    fail,
    running: count('running'),
    skipped: runs.filter((r) => r.status === 'skipped').reduce((n, r) => n + firesOf(r), 0),
    successRate: success + fail === 0 ? undefined : success / (success + fail),
    medianDurationMs: median(durations),
  };
}

/** "97.5 %", "100 %", "—". */
export function percent(rate: number | undefined): string {
  if (rate === undefined) return '—';
  const value = rate * 100;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} %`;
}

/**
 * The trend chart's data: x in epoch seconds (oldest first, by when each run was due), the duration
 * and the lateness of each run in ms (null where it has none yet, e.g. running or skipped).
 */
export function trendSeries(runs: readonly Run[]): {
  x: number[];
  duration: (number | null)[];
  lateness: (number | null)[];
} {
  const sorted = [...runs].sort(
    (a, b) => Date.parse(a.scheduledTime) - Date.parse(b.scheduledTime) || a.logId - b.logId,
  );
  return {
    x: sorted.map((r) => Date.parse(r.scheduledTime) / 1000),
    duration: sorted.map((r) => runDurationMs(r) ?? null),
    lateness: sorted.map((r) => runTiming(r).latenessMs ?? null),
  };
}

/** Fires made by the schedule (not by hand, the API, a parent or a retry): the ones whose spacing is regular. */
const SCHEDULED_TRIGGERS = new Set(['CRON', 'FIX_RATE', 'ONCE', 'MISFIRE']);

export interface Gap {
  readonly from: number;
  readonly to: number;
}

/**
 * Stretches without a scheduled fire: where two consecutive scheduled fires are more than `factor`
 * times the usual (median) spacing apart. Needs at least 5 spacings to know what usual is. A skipped
 * run standing for a range of fires had fires all through it: no gap inside one.
 */
export function findGaps(runs: readonly Run[], factor = 3): Gap[] {
  const scheduled = runs.filter((r) => SCHEDULED_TRIGGERS.has(r.triggerType));
  const ranges = scheduled
    .map(skippedRange)
    .filter((range) => range !== undefined)
    .map((range) => ({ from: Date.parse(range.first), to: Date.parse(range.last) }));
  const times = [
    ...new Set([...scheduled.map((r) => Date.parse(r.scheduledTime)), ...ranges.map((range) => range.to)]),
  ]
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const steps = times
    .slice(1)
    .map((to, i) => ({ from: times[i]!, to }))
    .filter((step) => !ranges.some((range) => range.from <= step.from && step.to <= range.to));
  const spacings = steps.map((step) => step.to - step.from);
  const usual = median(spacings);
  if (usual === undefined || spacings.length < 5 || usual <= 0) return [];
  return steps.filter((step) => step.to - step.from > usual * factor);
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STEPS = [
  SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  30 * DAY,
];

/**
 * Round instants between from and to for axis ticks, at most `maxTicks`, on whole steps of the
 * viewer's clock (`offsetMs`: the viewer zone's offset from UTC, so day ticks fall on local midnight).
 */
export function timeTicks(
  from: number,
  to: number,
  maxTicks: number,
  offsetMs = 0,
): { ticks: number[]; step: number } {
  const span = Math.max(to - from, SECOND);
  const step = STEPS.find((s) => span / s <= Math.max(maxTicks, 1)) ?? STEPS.at(-1)!;
  const ticks: number[] = [];
  for (let t = Math.ceil((from + offsetMs) / step) * step - offsetMs; t <= to; t += step) ticks.push(t);
  return { ticks, step };
}

export interface Mark {
  readonly run: Run;
  readonly at: number;
  readonly x: number;
  readonly lane: number;
}

export interface TimelineLayout {
  readonly from: number;
  readonly to: number;
  readonly marks: readonly Mark[];
  readonly gaps: readonly (Gap & { readonly x1: number; readonly x2: number })[];
  /** x of an instant. */
  readonly xOf: (at: number) => number;
}

/**
 * Where each run goes: x by when it was due (from the oldest run to `now`), its lane by status.
 * `left`/`right` are the pixels kept for lane labels and the margin.
 */
export function layoutTimeline(
  runs: readonly Run[],
  width: number,
  now: number,
  { left = 72, right = 8 }: { left?: number; right?: number } = {},
): TimelineLayout {
  const times = runs.map((r) => Date.parse(r.scheduledTime)).filter(Number.isFinite);
  const oldest = times.length > 0 ? Math.min(...times) : now - HOUR;
  const newest = Math.max(now, ...times);
  // A little room on both sides, so the first and last marks are not on the edges.
  const pad = Math.max((newest - oldest) * 0.02, SECOND);
  const from = oldest - pad;
  const to = newest + pad;
  const inner = Math.max(width - left - right, 1);
  const xOf = (at: number) => left + ((at - from) / (to - from)) * inner;
  const marks = runs
    .map((run) => {
      const at = Date.parse(run.scheduledTime);
      return {
        run,
        at,
        x: xOf(at),
        lane: Math.max(
          LANES.findIndex((l) => l.status === run.status),
          0,
        ),
      };
    })
    .filter((m) => Number.isFinite(m.at))
    .sort((a, b) => a.at - b.at || a.run.logId - b.run.logId);
  const gaps = findGaps(runs).map((g) => ({ ...g, x1: xOf(g.from), x2: xOf(g.to) }));
  return { from, to, marks, gaps, xOf };
}
