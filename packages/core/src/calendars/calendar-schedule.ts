/**
 * A schedule's calendars: which of its fires a job makes. `only: [A, B]`: a fire is made only on a
 * date that is a working day of every listed calendar (weekly pattern, minus exclusions, plus
 * make-up days). `exclude: [C]`: never on a date C excludes (its holidays and ranges), whatever C's
 * weekly pattern and make-up days say. A fire's date is taken in each calendar's own zone. Pure: no
 * I/O, no clock.
 */
import { DateTime } from 'luxon';
import { effectiveTimeOf, type OccurrenceException } from '../schedule/occurrences.js';
import { nextFireAfter, type Schedule } from '../schedule/schedule.js';
import type { Calendar, DayReason } from './calendar.js';
import { addDays, localDateOf, rulesOf } from './calendar-rules.js';

/** The calendars a schedule refers to, by id (absent or empty lists: none). */
export interface ScheduleCalendars {
  readonly exclude?: readonly string[];
  readonly only?: readonly string[];
}

export const SCHEDULE_CALENDAR_LISTS = ['only', 'exclude'] as const;
export type ScheduleCalendarList = (typeof SCHEDULE_CALENDAR_LISTS)[number];

/** At most this many calendars in each list (each is read by the tick when the job is due). */
export const MAX_CALENDARS_PER_LIST = 10;

/**
 * How far ahead a search for an allowed fire looks (5 years of days): a schedule with none there
 * ends (reason `calendar`) instead of searching on.
 */
export const CALENDAR_SEARCH_DAYS = 1_827;

const MS_PER_DAY = 86_400_000;

/** The ids a schedule refers to, each once (`only` first). */
export function scheduleCalendarIds(calendars: ScheduleCalendars | undefined): string[] {
  return [...new Set([...(calendars?.only ?? []), ...(calendars?.exclude ?? [])])];
}

/** The calendars of a schedule, read: what the rules below are asked with. */
export interface CalendarGate {
  readonly only: readonly Calendar[];
  readonly exclude: readonly Calendar[];
}

/**
 * The gate of a schedule's calendars from the calendars read (`byId`). A calendar that is not
 * there (deleted in a race with the job's save; a delete is refused while a job names it) counts
 * as one with no working day: `only` then allows nothing, `exclude` removes nothing. Undefined for
 * a schedule without calendars.
 */
export function calendarGate(
  calendars: ScheduleCalendars | undefined,
  byId: ReadonlyMap<string, Calendar | undefined>,
): CalendarGate | undefined {
  if (scheduleCalendarIds(calendars).length === 0) return undefined;
  const read = (id: string) => byId.get(id) ?? missingCalendar(id);
  return { only: (calendars?.only ?? []).map(read), exclude: (calendars?.exclude ?? []).map(read) };
}

function missingCalendar(id: string): Calendar {
  return {
    id,
    name: id,
    description: 'missing',
    timeZone: 'UTC',
    workingDays: [],
    excluded: [],
    included: [],
    version: 0,
    createdAt: 0,
    updatedAt: 0,
    updatedBy: '',
  };
}

/** Why a fire is not made: the first calendar that removes it, and the fire's date there. */
export interface CalendarBlock {
  readonly calendarId: string;
  readonly list: ScheduleCalendarList;
  /** The fire's local date in the calendar's zone. */
  readonly date: string;
  /** WEEKEND or HOLIDAY (`only`), HOLIDAY (`exclude`). */
  readonly reason: DayReason;
  readonly label?: string;
}

/** What removes the fire at `epochMs`, or undefined when every calendar allows it. */
export function calendarBlockOf(gate: CalendarGate, epochMs: number): CalendarBlock | undefined {
  for (const calendar of gate.only) {
    const day = rulesOf(calendar).dayOf(localDateOf(epochMs, calendar.timeZone));
    if (!day.allowed) {
      return {
        calendarId: calendar.id,
        list: 'only',
        date: day.date,
        reason: day.reason,
        ...(day.label === undefined ? {} : { label: day.label }),
      };
    }
  }
  for (const calendar of gate.exclude) {
    const date = localDateOf(epochMs, calendar.timeZone);
    const holiday = rulesOf(calendar).holidayOf(date);
    if (holiday) {
      return {
        calendarId: calendar.id,
        list: 'exclude',
        date,
        reason: 'HOLIDAY',
        ...(holiday.label === undefined ? {} : { label: holiday.label }),
      };
    }
  }
  return undefined;
}

export function calendarsAllow(gate: CalendarGate | undefined, epochMs: number): boolean {
  return gate === undefined || calendarBlockOf(gate, epochMs) === undefined;
}

/** Where a schedule's search for an allowed fire got: the fire, or why there is none. */
export type AllowedFire = { readonly time: number } | { readonly none: 'noNextFire' | 'calendar' };

/**
 * The first fire of the schedule at or after `candidate` (one of its fires; null: none) that the
 * calendars allow. It does not walk fire by fire through a day removed: it jumps to the start (in
 * the removing calendar's zone) of the first date that calendar no longer removes and asks the
 * schedule for its first fire from there (a FIX_RATE schedule keeps its phase). None within
 * `horizonDays` of `candidate`: `calendar`; a schedule that runs out: `noNextFire` when nothing was
 * removed, else `calendar`.
 */
export function allowedFireFrom(
  schedule: Schedule,
  gate: CalendarGate | undefined,
  candidate: number | null,
  horizonDays: number = CALENDAR_SEARCH_DAYS,
): AllowedFire {
  if (candidate === null) return { none: 'noNextFire' };
  if (!gate) return { time: candidate };
  const limit = candidate + horizonDays * MS_PER_DAY;
  for (let t = candidate; ; ) {
    const block = calendarBlockOf(gate, t);
    if (!block) return { time: t };
    const next = fireAfterBlock(schedule, gate, block, t, limit);
    if (next === null || next > limit) return { none: 'calendar' };
    t = next;
  }
}

/**
 * The effective next fire from the occurrence `candidate` on, with one-off exceptions: the first
 * occurrence the calendars allow and no exception skips, at its move's `to` when moved. Calendars
 * and skips are judged alternately, so stepping over a skipped occurrence never lands on a day the
 * calendars remove (nor jumping over removed days on a skipped occurrence).
 */
export function allowedEffectiveFire(
  schedule: Schedule,
  gate: CalendarGate | undefined,
  candidate: number | null,
  exceptions: readonly OccurrenceException[] | undefined,
  horizonDays: number = CALENDAR_SEARCH_DAYS,
): AllowedFire {
  let at = candidate;
  // Each round steps over one skipped occurrence: at most one round per exception, and one more.
  for (let round = 0; round <= (exceptions?.length ?? 0); round++) {
    const allowed = allowedFireFrom(schedule, gate, at, horizonDays);
    if (!('time' in allowed)) return allowed;
    const fire = effectiveTimeOf(allowed.time, exceptions);
    if (fire !== null) return { time: fire };
    at = nextFireAfter(schedule, allowed.time);
  }
  return allowedFireFrom(schedule, gate, at, horizonDays);
}

/**
 * The schedule's first fire on or after the first date (in the blocking calendar's zone) that the
 * calendar that removed the fire at `fire` no longer removes; null when there is none before `limit`.
 */
function fireAfterBlock(
  schedule: Schedule,
  gate: CalendarGate,
  block: CalendarBlock,
  fire: number,
  limit: number,
): number | null {
  const calendar = [...gate.only, ...gate.exclude].find((c) => c.id === block.calendarId) as Calendar;
  const rules = rulesOf(calendar);
  const lastDate = localDateOf(limit, calendar.timeZone);
  const removes = (date: string) =>
    block.list === 'only' ? !rules.allowsDate(date) : rules.holidayOf(date) !== undefined;
  let date = addDays(block.date, 1);
  while (date <= lastDate && removes(date)) date = addDays(date, 1);
  if (date > lastDate) return null;
  return fireAtOrAfter(schedule, fire, startOfDate(date, calendar.timeZone));
}

/** The instant a local date starts in a zone (its first existing moment, where midnight is skipped). */
export function startOfDate(date: string, timeZone: string): number {
  return DateTime.fromISO(date, { zone: timeZone }).startOf('day').toMillis();
}

/**
 * The schedule's first fire at or after `atMs`, `previous` being one of its fires: a FIX_RATE
 * schedule stays on its sequence (previous + k × rate); others ask the schedule.
 */
function fireAtOrAfter(schedule: Schedule, previous: number, atMs: number): number | null {
  if (schedule.type === 'FIX_RATE') {
    const period = Number(schedule.conf) * 1000;
    return previous + Math.max(1, Math.ceil((atMs - previous) / period)) * period;
  }
  return nextFireAfter(schedule, Math.max(previous, atMs - 1));
}

/** A preview's part of the calendars: the fires made, the ones removed and whether the schedule ends. */
export interface GatedFires {
  readonly times: number[];
  /** The first fire removed of each run of removed days, with what removed it. */
  readonly skipped: (CalendarBlock & { readonly time: number })[];
  /** Set when the schedule has no fire after the last of `times` (within the search's horizon). */
  readonly ended?: 'noNextFire' | 'calendar';
}

/**
 * Up to `count` fires strictly after `fromMs` that the calendars allow, as {@link allowedFireFrom}
 * finds them, with the fires removed on the way (up to `count` of them, one per run of days removed).
 */
export function gatedFireTimes(
  schedule: Schedule,
  gate: CalendarGate,
  fromMs: number,
  count: number,
  horizonDays: number = CALENDAR_SEARCH_DAYS,
): GatedFires {
  const times: number[] = [];
  const skipped: (CalendarBlock & { time: number })[] = [];
  let t = nextFireAfter(schedule, fromMs);
  let removedAny = false;
  let horizon = t === null ? 0 : t + horizonDays * MS_PER_DAY;
  while (times.length < count) {
    if (t === null) return { times, skipped, ended: removedAny ? 'calendar' : 'noNextFire' };
    const block = calendarBlockOf(gate, t);
    if (!block) {
      times.push(t);
      // Each fire made starts the search's horizon again, as the tick's does from its due.
      horizon = t + horizonDays * MS_PER_DAY;
      t = nextFireAfter(schedule, t);
      continue;
    }
    removedAny = true;
    if (skipped.length < count) skipped.push({ ...block, time: t });
    const next = fireAfterBlock(schedule, gate, block, t, horizon);
    if (next === null || next > horizon) return { times, skipped, ended: 'calendar' };
    t = next;
  }
  return { times, skipped };
}
