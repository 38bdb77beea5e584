/**
 * A job's deadline: "must have succeeded by 06:00 Europe/Berlin". Pure: no I/O, no clock.
 *
 * Each deadline instant closes a window that began at the deadline instant before it; the window is
 * met when a run of the job succeeded (its final outcome) inside it, missed otherwise. The local time
 * is read in the deadline's zone on each day it applies to, so a window across a clock change is 23 or
 * 25 hours long; a local time the change skips (02:30 on the spring day) falls an hour later (luxon's
 * rule), one it repeats is its first pass.
 */
import { DateTime } from 'luxon';
import type { Problem } from '../common/errors.js';
import { isValidTimeZone } from '../schedule/schedule.js';

export const DEADLINE_DAYS = ['daily', 'weekdays'] as const;
export type DeadlineDays = (typeof DEADLINE_DAYS)[number];

export interface Deadline {
  /** Local time, HH:MM (24 h). */
  readonly time: string;
  /** IANA zone the time is read in. */
  readonly timeZone: string;
  /** The days it applies to (weekdays: Monday to Friday in the zone); absent: daily. */
  readonly days?: DeadlineDays;
}

export const DEADLINE_STATES = ['met', 'missed', 'pending'] as const;
export type DeadlineState = (typeof DEADLINE_STATES)[number];

export interface DeadlineStatus {
  /** The window shown: (from, to], epoch ms. */
  readonly window: { readonly from: number; readonly to: number };
  readonly state: DeadlineState;
  /** met: when the success was recorded; missed: the deadline instant; pending: null. */
  readonly at: number | null;
}

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;
/** Far enough for 'weekdays' over any week. */
const MAX_DAYS_SEARCHED = 8;

/** Every problem of a deadline as given (field names under `field`), at once. */
export function deadlineProblems(value: unknown, field = 'deadline'): Problem[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ field, message: `${field} must be an object {time: "HH:MM", timeZone, days?} or null` }];
  }
  const given = value as Record<string, unknown>;
  const problems: Problem[] = [];
  for (const key of Object.keys(given)) {
    if (!['time', 'timeZone', 'days'].includes(key)) {
      problems.push({
        field: `${field}.${key}`,
        message: `unknown field "${key}"; a deadline has time, timeZone, days`,
      });
    }
  }
  if (typeof given.time !== 'string' || !HH_MM.test(given.time)) {
    problems.push({
      field: `${field}.time`,
      message: `${field}.time must be a local time HH:MM (00:00 to 23:59), got ${JSON.stringify(given.time)}`,
    });
  }
  if (typeof given.timeZone !== 'string' || !isValidTimeZone(given.timeZone)) {
    problems.push({
      field: `${field}.timeZone`,
      message: `${field}.timeZone must be an IANA time zone such as Europe/Berlin, got ${JSON.stringify(given.timeZone)}`,
    });
  }
  if (given.days !== undefined && !(DEADLINE_DAYS as readonly unknown[]).includes(given.days)) {
    problems.push({
      field: `${field}.days`,
      message: `${field}.days must be one of ${DEADLINE_DAYS.join(', ')}, got ${JSON.stringify(given.days)}`,
    });
  }
  return problems;
}

/** The deadline's instant on the local date of `day` (in its zone). */
function instantOn(deadline: Deadline, day: DateTime): number {
  const [hour, minute] = deadline.time.split(':').map(Number);
  return day.set({ hour, minute, second: 0, millisecond: 0 }).toMillis();
}

function applies(deadline: Deadline, day: DateTime): boolean {
  return deadline.days !== 'weekdays' || day.weekday <= 5;
}

/** The latest deadline instant at or before `ms`. */
export function deadlineAtOrBefore(deadline: Deadline, ms: number): number {
  let day = DateTime.fromMillis(ms, { zone: deadline.timeZone }).startOf('day');
  for (let i = 0; i < MAX_DAYS_SEARCHED; i++, day = day.minus({ days: 1 })) {
    const at = instantOn(deadline, day);
    if (at <= ms && applies(deadline, day)) return at;
  }
  throw new Error(
    `no deadline instant within ${MAX_DAYS_SEARCHED} days before ${new Date(ms).toISOString()}`,
  );
}

/** The first deadline instant after `ms`. */
export function deadlineAfter(deadline: Deadline, ms: number): number {
  let day = DateTime.fromMillis(ms, { zone: deadline.timeZone }).startOf('day');
  for (let i = 0; i < MAX_DAYS_SEARCHED; i++, day = day.plus({ days: 1 })) {
    const at = instantOn(deadline, day);
    if (at > ms && applies(deadline, day)) return at;
  }
  throw new Error(`no deadline instant within ${MAX_DAYS_SEARCHED} days after ${new Date(ms).toISOString()}`);
}

/**
 * The window to show at `now`: the current one when a success already met it; else the last closed
 * one when it was missed (and began after `since`, when the deadline was set: a window that began
 * before it is never missed); else the current one, pending.
 */
export function deadlineStatus(
  deadline: Deadline,
  lastSuccessAt: number | undefined,
  since: number,
  now: number,
): DeadlineStatus {
  const last = deadlineAtOrBefore(deadline, now);
  const next = deadlineAfter(deadline, now);
  if (lastSuccessAt !== undefined && lastSuccessAt > last) {
    return { window: { from: last, to: next }, state: 'met', at: lastSuccessAt };
  }
  const before = deadlineAtOrBefore(deadline, last - 1);
  const closedMissed = before >= since && (lastSuccessAt === undefined || lastSuccessAt <= before);
  return closedMissed
    ? { window: { from: before, to: last }, state: 'missed', at: last }
    : { window: { from: last, to: next }, state: 'pending', at: null };
}

/** "06:00 Europe/Berlin" (", weekdays"): the deadline for people. */
export function describeDeadline(deadline: Deadline): string {
  return `${deadline.time} ${deadline.timeZone}${deadline.days === 'weekdays' ? ' (weekdays)' : ''}`;
}
