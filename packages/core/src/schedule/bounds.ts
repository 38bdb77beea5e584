/**
 * A schedule's bounds and limits (`startAt`, `endAt`, `maxRuns`) and its jitter: which of the
 * schedule's fires are made, when the schedule ends and why, and how far each fire is delayed.
 * Pure: no I/O, no clock. Every rule reads the fire's nominal (scheduled) time, its identity.
 */
import { hashFraction } from '../common/hash-fraction.js';
import { type FireDecision, firstFireTime, nextFireAfter, PRE_READ_MS, type Schedule } from './schedule.js';

/** What bounds a schedule; every field optional (absent: no bound). Times in epoch ms. */
export interface ScheduleBounds {
  /** No scheduled fire before this instant. */
  readonly startAt?: number;
  /** No scheduled fire after this instant. */
  readonly endAt?: number;
  /** At most this many scheduled fires (counted since the limit was set). */
  readonly maxRuns?: number;
}

/**
 * Why a schedule stopped itself; `calendar`: its calendars allow none of its fires (within the
 * search's 5 years, see CALENDAR_SEARCH_DAYS).
 */
export const SCHEDULE_END_REASONS = ['maxRuns', 'endAt', 'noNextFire', 'calendar'] as const;
export type ScheduleEndReason = (typeof SCHEDULE_END_REASONS)[number];

/** The most `jitterSeconds` a job may have (and always less than its schedule's smallest interval). */
export const MAX_JITTER_SECONDS = 3600;

/** Scheduled fires left under `maxRuns` after `counted` of them; undefined when there is no limit. */
export function runsRemaining(bounds: ScheduleBounds, counted: number): number | undefined {
  return bounds.maxRuns === undefined ? undefined : Math.max(0, bounds.maxRuns - counted);
}

/**
 * The first fire of a schedule started (or edited) at `nowMs` within its bounds, or why there is
 * none. Without a startAt it is the schedule's own first fire (see {@link firstFireTime}). With one
 * later than that: a cron's first time at or after startAt; a FIX_RATE schedule's fires count from
 * startAt (the first is startAt, rounded up to a whole second); a ONCE instant before startAt never
 * fires. A first fire after endAt, or none at all, is no fire; a used-up maxRuns too.
 */
export function firstBoundedFire(
  s: Schedule,
  bounds: ScheduleBounds,
  counted: number,
  nowMs: number,
): { readonly time: number } | { readonly none: ScheduleEndReason } {
  if (runsRemaining(bounds, counted) === 0) return { none: 'maxRuns' };
  let first = firstFireTime(s, nowMs);
  const { startAt, endAt } = bounds;
  if (first !== null && startAt !== undefined && first < startAt) {
    if (s.type === 'FIX_RATE') first = Math.max(Math.ceil(startAt / 1000) * 1000, nowMs + PRE_READ_MS);
    else if (s.type === 'ONCE') first = null;
    else first = nextFireAfter(s, startAt - 1);
  }
  if (first === null) return { none: 'noNextFire' };
  if (endAt !== undefined && first > endAt) return { none: 'endAt' };
  return { time: first };
}

/** A tick's decision for a due job, cut to the job's bounds. */
export interface BoundedDecision extends FireDecision {
  /** How many scheduled fires the decision makes (the count moves on by this, in the same write). */
  readonly counted: number;
  /** Set when the schedule ends with this plan: nextTriggerTime is then null. */
  readonly ended?: ScheduleEndReason;
}

/**
 * Cuts a tick's decision to the bounds: fires before startAt or after endAt are left out, and no
 * more than maxRuns − `counted` are made. The schedule ends (nextTriggerTime null) when its limit is
 * reached with these fires (`maxRuns`), its next fire would be after endAt (`endAt`), or it has no
 * next fire (`noNextFire`), in that order of precedence. Depends only on its inputs, so a retried
 * tick that read the same job makes the same fires and the same count.
 */
export function boundDecision(
  decision: FireDecision,
  bounds: ScheduleBounds,
  counted: number,
): BoundedDecision {
  const { startAt, endAt } = bounds;
  // A FIRE_ONCE_NOW catch-up stands for a missed fire inside the bounds: only endAt cuts it.
  let fireTimes = decision.fireTimes.filter(
    (t, i) =>
      (endAt === undefined || t <= endAt) &&
      (startAt === undefined || t >= startAt || (decision.misfire && i === 0)),
  );
  let misfire = decision.misfire && fireTimes[0] === decision.fireTimes[0];
  const remaining = runsRemaining(bounds, counted);
  if (remaining !== undefined && fireTimes.length > remaining) {
    fireTimes = fireTimes.slice(0, remaining);
    misfire = misfire && fireTimes.length > 0;
  }
  const cut = { ...decision, fireTimes, misfire, counted: fireTimes.length };
  let ended: ScheduleEndReason | undefined;
  const next = decision.nextTriggerTime;
  if (remaining !== undefined && fireTimes.length >= remaining) ended = 'maxRuns';
  else if (
    endAt !== undefined &&
    (fireTimes.length < decision.fireTimes.length || (next !== null && next > endAt))
  )
    ended = 'endAt';
  else if (next === null) ended = 'noNextFire';
  return ended === undefined ? cut : { ...cut, nextTriggerTime: null, ended };
}

/**
 * The delay of a fire under `jitterSeconds`, in ms, in [0, jitterSeconds × 1000): a hash of the job
 * and the fire's nominal time, so every copy of the fire (a redelivery, a re-plan, a preview) gets
 * the same one. 0 without jitter.
 */
export function jitterOffsetMs(jobId: number, scheduledTime: number, jitterSeconds: number): number {
  if (!(jitterSeconds > 0)) return 0;
  return Math.floor(hashFraction(`tickring-jitter#${jobId}#${scheduledTime}`) * jitterSeconds * 1000);
}

/** How far ahead {@link smallestInterval} looks, and how many fires it reads at most. */
export const INTERVAL_SCAN = { days: 400, fires: 10_000 } as const;

/**
 * The smallest time between two consecutive fires of a schedule from `fromMs`, in ms: a FIX_RATE's
 * rate; a cron's smallest gap over the next {@link INTERVAL_SCAN} days (at most that many fires,
 * which covers a year's DST transitions for any cron firing at most hourly); undefined for a
 * schedule with fewer than two fires ahead (ONCE, NONE) or one that cannot be read.
 */
export function smallestInterval(s: Schedule, fromMs: number): number | undefined {
  if (s.type === 'FIX_RATE') return Number(s.conf) * 1000;
  if (s.type !== 'CRON') return undefined;
  const until = fromMs + INTERVAL_SCAN.days * 86_400_000;
  let smallest: number | undefined;
  let previous = nextFireAfter(s, fromMs);
  for (let i = 0; previous !== null && previous < until && i < INTERVAL_SCAN.fires; i++) {
    const next: number | null = nextFireAfter(s, previous);
    if (next === null) break;
    smallest = Math.min(smallest ?? Number.POSITIVE_INFINITY, next - previous);
    previous = next;
  }
  return smallest;
}
