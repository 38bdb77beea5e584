/**
 * iCalendar (RFC 5545) in and out, with Mozilla's ical.js. An all-day VEVENT is an excluded date or
 * range (its SUMMARY the label); one marked CATEGORIES:WORKDAY (or X-TICKRING-KIND:MAKEUP_DAY, as
 * the export writes) is a make-up workday. A recurring all-day event (a yearly holiday's RRULE) is
 * expanded into dates over a bounded horizon: from January 1 of last year to December 31 five
 * years ahead (re-import to move it on); a calendar holds dates, not rules, so every date it
 * allows can be listed and checked.
 */
import ICAL from 'ical.js';
import { type Problem, ValidationError } from '../common/errors.js';
import {
  CALENDAR_LIMITS,
  type Calendar,
  type ExcludedDates,
  type IncludedDate,
  WEEKDAYS,
  type Weekday,
} from './calendar.js';
import { addDays, dayNumber, isIsoDate } from './calendar-rules.js';
import { rejectProblems } from './calendar-validation.js';

/** What an import may hold: the text's size, its events, the dates one recurring event makes. */
export const ICS_LIMITS = {
  bytes: 1_048_576,
  events: 2_000,
  /** Occurrences read from one RRULE before it is refused (a rule that repeats within a day, say). */
  occurrencesPerEvent: 2_000,
  /** Years after this one that a recurring event is expanded into. */
  horizonYearsAhead: 5,
  /** Years before this one. */
  horizonYearsBack: 1,
} as const;

const PRODID = '-//tickring//calendars//EN';
const WORKING_DAYS_PROPERTY = 'x-tickring-working-days';
const KIND_PROPERTY = 'x-tickring-kind';
/** RFC 5545 weekday codes, in WEEKDAYS order. */
const ICS_WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

/** What an iCalendar text says, before it is checked as a calendar. */
export interface IcsContent {
  /** X-WR-CALNAME, if given. */
  readonly name?: string;
  readonly description?: string;
  /** X-WR-TIMEZONE, if given. */
  readonly timeZone?: string;
  /** X-TICKRING-WORKING-DAYS, if given (a tickring export). */
  readonly workingDays?: readonly Weekday[];
  /** Sorted by `from`; overlapping events are merged into the first one (see `notes`). */
  readonly excluded: readonly ExcludedDates[];
  readonly included: readonly IncludedDate[];
  /** What was left out and why (a timed event, an exception of a series, a day listed twice). */
  readonly notes: readonly string[];
}

/** The horizon recurring events are expanded over, for an import at `nowMs`. */
export function icsHorizon(nowMs: number): { from: string; to: string } {
  const year = new Date(nowMs).getUTCFullYear();
  return {
    from: `${year - ICS_LIMITS.horizonYearsBack}-01-01`,
    to: `${year + ICS_LIMITS.horizonYearsAhead}-12-31`,
  };
}

/** Reads an iCalendar text; ValidationError (every problem at once) when it cannot be used. */
export function parseIcs(text: string, nowMs: number): IcsContent {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > ICS_LIMITS.bytes) {
    throw new ValidationError(
      `ics is ${bytes} bytes; an import takes at most ${ICS_LIMITS.bytes} bytes`,
      'ics',
    );
  }
  if (text.trim() === '') throw new ValidationError('ics is empty: give an iCalendar (.ics) text', 'ics');
  let root: ICAL.Component;
  try {
    const parsed = ICAL.parse(text);
    // A text of several VCALENDARs parses into a list: the first one is read.
    root = new ICAL.Component((Array.isArray(parsed[0]) ? parsed[0] : parsed) as unknown[]);
  } catch (err) {
    throw new ValidationError(`ics cannot be read as iCalendar: ${messageOf(err)}`, 'ics');
  }
  if (root.name !== 'vcalendar') {
    throw new ValidationError(`ics must be a VCALENDAR; it is a ${root.name.toUpperCase()}`, 'ics');
  }
  const events = root.getAllSubcomponents('vevent');
  if (events.length > ICS_LIMITS.events) {
    throw new ValidationError(
      `ics has ${events.length} events; an import takes at most ${ICS_LIMITS.events}`,
      'ics',
    );
  }
  const horizon = icsHorizon(nowMs);
  const problems: Problem[] = [];
  const notes: string[] = [];
  const excluded: ExcludedDates[] = [];
  const included: IncludedDate[] = [];
  for (const [index, component] of events.entries()) {
    try {
      readEvent(component, index, horizon, { excluded, included, notes, problems });
    } catch (err) {
      problems.push({ field: 'ics', message: `event ${index + 1}: ${messageOf(err)}` });
    }
  }
  const name = textProperty(root, 'x-wr-calname');
  const description = textProperty(root, 'x-wr-caldesc');
  const timeZone = textProperty(root, 'x-wr-timezone');
  const workingDays = workingDaysOf(textProperty(root, WORKING_DAYS_PROPERTY), problems);
  rejectProblems(problems);
  return {
    ...(name === undefined ? {} : { name }),
    ...(description === undefined ? {} : { description }),
    ...(timeZone === undefined ? {} : { timeZone }),
    ...(workingDays === undefined ? {} : { workingDays }),
    excluded: mergeExcluded(excluded, notes),
    included: mergeIncluded(included, notes),
    notes,
  };
}

interface Sink {
  readonly excluded: ExcludedDates[];
  readonly included: IncludedDate[];
  readonly notes: string[];
  readonly problems: Problem[];
}

function readEvent(
  component: ICAL.Component,
  index: number,
  horizon: { from: string; to: string },
  sink: Sink,
): void {
  const event = new ICAL.Event(component);
  const summary = (event.summary ?? '').trim();
  const named = `event ${index + 1}${summary === '' ? '' : ` (${summary.slice(0, 40)})`}`;
  if (component.hasProperty('recurrence-id')) {
    sink.notes.push(`${named}: an exception of a recurring event, left out (the series' dates are used)`);
    return;
  }
  const start = event.startDate;
  if (!start) {
    sink.problems.push({ field: 'ics', message: `${named} has no DTSTART` });
    return;
  }
  if (!start.isDate) {
    sink.notes.push(`${named}: not an all-day event (DTSTART has a time), left out`);
    return;
  }
  const first = dateOf(start);
  const end = event.endDate;
  // DTEND of an all-day event is the day after its last day; none: one day.
  const last = end?.isDate && dateOf(end) > first ? addDays(dateOf(end), -1) : first;
  const length = dayNumber(last) - dayNumber(first);
  const makeup = isMakeup(component);
  const label = summary === '' ? undefined : summary.slice(0, CALENDAR_LIMITS.label);
  const add = (from: string) => {
    const to = addDays(from, length);
    if (makeup) {
      for (let day = from; day <= to; day = addDays(day, 1))
        sink.included.push(withLabel({ date: day }, label));
    } else {
      sink.excluded.push(withLabel(to === from ? { from } : { from, to }, label));
    }
  };
  if (!event.isRecurring()) {
    add(first);
    return;
  }
  const iterator = event.iterator();
  let steps = 0;
  for (let next = iterator.next(); next; next = iterator.next()) {
    if (++steps > ICS_LIMITS.occurrencesPerEvent) {
      sink.problems.push({
        field: 'ics',
        message: `${named}: its RRULE makes more than ${ICS_LIMITS.occurrencesPerEvent} dates; a calendar holds dates, at most ${CALENDAR_LIMITS.excluded}`,
      });
      return;
    }
    const day = dateOf(next);
    if (day > horizon.to) break;
    if (day >= horizon.from) add(day);
  }
}

function isMakeup(component: ICAL.Component): boolean {
  const kind = component.getFirstPropertyValue(KIND_PROPERTY);
  if (typeof kind === 'string' && kind.toUpperCase() === 'MAKEUP_DAY') return true;
  return component
    .getAllProperties('categories')
    .flatMap((p) => p.getValues())
    .some((value) => String(value).trim().toUpperCase() === 'WORKDAY');
}

/** Overlapping exclusions (two sources naming one holiday) become the first one, stretched to cover both. */
function mergeExcluded(entries: ExcludedDates[], notes: string[]): ExcludedDates[] {
  const sorted = [...entries].sort((a, b) => a.from.localeCompare(b.from));
  const merged: ExcludedDates[] = [];
  for (const entry of sorted) {
    const prev = merged.at(-1);
    const prevTo = prev ? (prev.to ?? prev.from) : undefined;
    if (prev && prevTo !== undefined && entry.from <= prevTo) {
      const to = (entry.to ?? entry.from) > prevTo ? (entry.to ?? entry.from) : prevTo;
      merged[merged.length - 1] = { ...prev, ...(to === prev.from ? {} : { to }) };
      notes.push(
        `${entry.from}${entry.to ? `..${entry.to}` : ''}${entry.label ? ` (${entry.label})` : ''} overlaps ${prev.from}${prevTo === prev.from ? '' : `..${prevTo}`}: merged into it`,
      );
    } else {
      merged.push(entry);
    }
  }
  return merged;
}

function mergeIncluded(entries: IncludedDate[], notes: string[]): IncludedDate[] {
  const byDate = new Map<string, IncludedDate>();
  for (const entry of entries) {
    if (byDate.has(entry.date)) notes.push(`${entry.date} is a make-up day twice: kept once`);
    else byDate.set(entry.date, entry);
  }
  return [...byDate.values()].sort((a, b) => a.date.localeCompare(b.date));
}

function workingDaysOf(value: string | undefined, problems: Problem[]): Weekday[] | undefined {
  if (value === undefined) return undefined;
  const codes = value
    .split(',')
    .map((code) => code.trim().toUpperCase())
    .filter((code) => code !== '');
  const days: Weekday[] = [];
  for (const code of codes) {
    const index = (ICS_WEEKDAYS as readonly string[]).indexOf(code);
    if (index < 0) {
      problems.push({
        field: 'ics',
        message: `X-TICKRING-WORKING-DAYS must list ${ICS_WEEKDAYS.join(',')} codes; got ${code}`,
      });
    } else {
      days.push(WEEKDAYS[index] as Weekday);
    }
  }
  return WEEKDAYS.filter((day) => days.includes(day));
}

/** The calendar as an iCalendar text: its exclusions and make-up days as all-day events. */
export function calendarToIcs(calendar: Calendar): string {
  const root = new ICAL.Component(['vcalendar', [], []]);
  root.addPropertyWithValue('version', '2.0');
  root.addPropertyWithValue('prodid', PRODID);
  root.addPropertyWithValue('calscale', 'GREGORIAN');
  root.addPropertyWithValue('x-wr-calname', calendar.name);
  if (calendar.description !== '') root.addPropertyWithValue('x-wr-caldesc', calendar.description);
  root.addPropertyWithValue('x-wr-timezone', calendar.timeZone);
  root.addPropertyWithValue(
    WORKING_DAYS_PROPERTY,
    calendar.workingDays.map((day) => ICS_WEEKDAYS[WEEKDAYS.indexOf(day)]).join(','),
  );
  const stamp = ICAL.Time.fromJSDate(new Date(calendar.updatedAt), true);
  for (const entry of calendar.excluded) {
    const event = allDayEvent(`${calendar.id}-excluded-${entry.from}@tickring`, stamp, entry.from, entry.to);
    event.addPropertyWithValue('summary', entry.label ?? 'Excluded');
    event.addPropertyWithValue('categories', 'HOLIDAY');
    root.addSubcomponent(event);
  }
  for (const entry of calendar.included) {
    const event = allDayEvent(`${calendar.id}-included-${entry.date}@tickring`, stamp, entry.date);
    event.addPropertyWithValue('summary', entry.label ?? 'Make-up workday');
    event.addPropertyWithValue('categories', 'WORKDAY');
    event.addPropertyWithValue(KIND_PROPERTY, 'MAKEUP_DAY');
    root.addSubcomponent(event);
  }
  // RFC 5545 lines end with CRLF.
  return `${root.toString().replace(/\r?\n/g, '\r\n')}\r\n`;
}

function allDayEvent(uid: string, stamp: ICAL.Time, from: string, to = from): ICAL.Component {
  const event = new ICAL.Component('vevent');
  event.addPropertyWithValue('uid', uid);
  event.addPropertyWithValue('dtstamp', stamp);
  event.addPropertyWithValue('dtstart', ICAL.Time.fromDateString(from));
  event.addPropertyWithValue('dtend', ICAL.Time.fromDateString(addDays(to, 1)));
  event.addPropertyWithValue('transp', 'TRANSPARENT');
  return event;
}

function dateOf(time: ICAL.Time): string {
  const text = `${String(time.year).padStart(4, '0')}-${String(time.month).padStart(2, '0')}-${String(time.day).padStart(2, '0')}`;
  if (!isIsoDate(text)) throw new Error(`${time.toString()} is not a date`);
  return text;
}

function textProperty(component: ICAL.Component, name: string): string | undefined {
  const value = component.getFirstPropertyValue(name);
  if (value === null || value === undefined) return undefined;
  const text = String(value).trim();
  return text === '' ? undefined : text;
}

function withLabel<T extends object>(entry: T, label: string | undefined): T & { label?: string } {
  return label === undefined ? entry : { ...entry, label };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
