/**
 * The fires a schedule would have made in a past range: pure, no clock. Every fire is a time the live
 * schedule makes (Quartz cron in the job's zone, FIX_RATE every N s), cut to the job's startAt / endAt
 * and to its calendars (as the tick does: a fire on a day they remove is not made). One-off exceptions
 * are not applied: they name fires still ahead, not past ones.
 */
import type { Calendar } from '../calendars/calendar.js';
import { allowedFireFrom, type CalendarGate } from '../calendars/calendar-schedule.js';
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
  gate?: CalendarGate,
): number | undefined {
  const from = Math.max(range.from, bounds.startAt ?? range.from);
  let first: number | null;
  if (s.type === 'CRON') first = nextFireAfter(s, from - 1);
  else if (s.type === 'FIX_RATE') {
    const anchor = Math.ceil((bounds.startAt ?? from) / SECOND) * SECOND;
    const periodMs = Number(s.conf) * SECOND;
    first = anchor + Math.max(0, Math.ceil((from - anchor) / periodMs)) * periodMs;
  } else first = null;
  return allowedInRange(s, gate, first, bounds, range);
}

/** The fire after `previous` within the range and the bounds, or undefined when the range has no more. */
export function nextBackfillFire(
  s: Schedule,
  bounds: Pick<ScheduleBounds, 'endAt'>,
  range: BackfillRange,
  previous: number,
  gate?: CalendarGate,
): number | undefined {
  return allowedInRange(s, gate, nextFireAfter(s, previous), bounds, range);
}

/** The first fire from `candidate` the calendars allow (jumping over removed days), if in the range. */
function allowedInRange(
  s: Schedule,
  gate: CalendarGate | undefined,
  candidate: number | null,
  bounds: Pick<ScheduleBounds, 'endAt'>,
  range: BackfillRange,
): number | undefined {
  if (candidate === null || !inRange(candidate, bounds, range)) return undefined;
  const allowed = allowedFireFrom(s, gate, candidate);
  return 'time' in allowed && inRange(allowed.time, bounds, range) ? allowed.time : undefined;
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
  gate?: CalendarGate,
): number[] {
  const fires: number[] = [];
  let fire = firstBackfillFire(s, bounds, range, gate);
  while (fire !== undefined && fires.length <= limit) {
    fires.push(fire);
    fire = nextBackfillFire(s, bounds, range, fire, gate);
  }
  return fires;
}

/** Two days either side of the range: wider than any zone's offset from UTC. */
const DATE_MARGIN_MS = 2 * 86_400_000;

/**
 * The calendars cut to the dates of the range (what a backfill keeps of them, so its record stays
 * small however long a calendar's list of holidays): the same answer for every fire in the range.
 */
export function gateWithin(gate: CalendarGate, range: BackfillRange): CalendarGate {
  const first = new Date(range.from - DATE_MARGIN_MS).toISOString().slice(0, 10);
  const last = new Date(range.to + DATE_MARGIN_MS).toISOString().slice(0, 10);
  const cut = (calendar: Calendar): Calendar => ({
    ...calendar,
    excluded: calendar.excluded.filter((e) => e.from <= last && (e.to ?? e.from) >= first),
    included: calendar.included.filter((i) => i.date >= first && i.date <= last),
  });
  return { only: gate.only.map(cut), exclude: gate.exclude.map(cut) };
}
