/**
 * The fires a schedule would have made in a past range: pure, no clock. Every fire is a time the live
 * schedule makes (Quartz cron in the job's zone, FIX_RATE every N s), cut to the job's startAt / endAt.
 */
import type { ScheduleBounds } from '../schedule/bounds.js';
import { nextFireAfter, type Schedule } from '../schedule/schedule.js';

/** The range of a backfill: fires at or after `from` and before `to` (epoch ms). */
export interface BackfillRange {
  readonly from: number;
  readonly to: number;
}

const SECOND = 1000;

/**
 * The range's first fire, or undefined when it has none. CRON: the first cron time at or after
 * max(from, startAt). FIX_RATE has no anchor of its own in the past: its fires count from startAt
 * when the job has one (startAt, startAt + N s, …; the first of them at or after `from`), else from
 * `from` (rounded up to a whole second). Other schedule types make no backfill fires.
 */
export function firstBackfillFire(
  s: Schedule,
  bounds: Pick<ScheduleBounds, 'startAt' | 'endAt'>,
  range: BackfillRange,
): number | undefined {
  const from = Math.max(range.from, bounds.startAt ?? range.from);
  let first: number | null;
  if (s.type === 'CRON') first = nextFireAfter(s, from - 1);
  else if (s.type === 'FIX_RATE') {
    const anchor = Math.ceil((bounds.startAt ?? from) / SECOND) * SECOND;
    const periodMs = Number(s.conf) * SECOND;
    first = anchor + Math.max(0, Math.ceil((from - anchor) / periodMs)) * periodMs;
  } else first = null;
  return first !== null && inRange(first, bounds, range) ? first : undefined;
}

/** The fire after `previous` within the range and the bounds, or undefined when the range has no more. */
export function nextBackfillFire(
  s: Schedule,
  bounds: Pick<ScheduleBounds, 'endAt'>,
  range: BackfillRange,
  previous: number,
): number | undefined {
  const next = nextFireAfter(s, previous);
  return next !== null && inRange(next, bounds, range) ? next : undefined;
}

function inRange(time: number, bounds: Pick<ScheduleBounds, 'endAt'>, range: BackfillRange): boolean {
  return time < range.to && (bounds.endAt === undefined || time <= bounds.endAt);
}

/**
 * The range's fires, oldest first, up to `limit` + 1 of them (so a caller can tell "more than the
 * limit" without walking a huge range).
 */
export function backfillFires(
  s: Schedule,
  bounds: Pick<ScheduleBounds, 'startAt' | 'endAt'>,
  range: BackfillRange,
  limit: number,
): number[] {
  const fires: number[] = [];
  let fire = firstBackfillFire(s, bounds, range);
  while (fire !== undefined && fires.length <= limit) {
    fires.push(fire);
    fire = nextBackfillFire(s, bounds, range, fire);
  }
  return fires;
}
