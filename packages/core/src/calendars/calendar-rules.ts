/**
 * The pure rules of a calendar: whether a local date (or an instant, by its date in the calendar's
 * zone) is allowed, and why. Included dates win over exclusions, exclusions over the weekly pattern.
 */
import { DateTime } from 'luxon';
import type { Calendar, CalendarDay, CalendarSpec, Weekday } from './calendar.js';
import { WEEKDAYS } from './calendar.js';

const MS_PER_DAY = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a real calendar date written `YYYY-MM-DD` (2030-02-30 is not). */
export function isIsoDate(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const at = new Date(Date.UTC(y, m - 1, d));
  return at.getUTCFullYear() === y && at.getUTCMonth() === m - 1 && at.getUTCDate() === d;
}

/** Days since 1970-01-01 of a `YYYY-MM-DD` date (checked by the caller). */
export function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY);
}

/** The `YYYY-MM-DD` date `days` after 1970-01-01. */
export function dateOfDayNumber(days: number): string {
  return new Date(days * MS_PER_DAY).toISOString().slice(0, 10);
}

/** The date `n` days after `date` (before it for a negative n). */
export function addDays(date: string, n: number): string {
  return dateOfDayNumber(dayNumber(date) + n);
}

export function weekdayOf(date: string): Weekday {
  // 1970-01-01 was a Thursday (index 3, Monday first).
  const index = (((dayNumber(date) + 3) % 7) + 7) % 7;
  return WEEKDAYS[index] as Weekday;
}

/** The local date of an instant in a zone (`YYYY-MM-DD`). */
export function localDateOf(epochMs: number, timeZone: string): string {
  const date = DateTime.fromMillis(epochMs, { zone: timeZone }).toISODate();
  if (date === null) throw new RangeError(`cannot read the date of ${epochMs} in zone ${timeZone}`);
  return date;
}

/** A calendar made quick to ask: exclusions as sorted day-number ranges, inclusions as a map. */
export class CalendarRules {
  private readonly working: ReadonlySet<Weekday>;
  /** [start, end, label] in day numbers, sorted by start, not overlapping. */
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly labels: (string | undefined)[] = [];
  private readonly included = new Map<string, string | undefined>();

  constructor(
    private readonly spec: Pick<CalendarSpec, 'timeZone' | 'workingDays' | 'excluded' | 'included'>,
  ) {
    this.working = new Set(spec.workingDays);
    const ranges = spec.excluded
      .map((e) => ({ start: dayNumber(e.from), end: dayNumber(e.to ?? e.from), label: e.label }))
      .sort((a, b) => a.start - b.start);
    for (const range of ranges) {
      this.starts.push(range.start);
      this.ends.push(range.end);
      this.labels.push(range.label);
    }
    for (const day of spec.included) this.included.set(day.date, day.label);
  }

  /** The day with its reason; `date` must be a real `YYYY-MM-DD` date. */
  dayOf(date: string): CalendarDay {
    const weekday = weekdayOf(date);
    if (this.included.has(date)) {
      return withLabel({ date, weekday, allowed: true, reason: 'MAKEUP_DAY' }, this.included.get(date));
    }
    const excluded = this.exclusionOf(dayNumber(date));
    if (excluded !== undefined) {
      return withLabel({ date, weekday, allowed: false, reason: 'HOLIDAY' }, this.labels[excluded]);
    }
    return this.working.has(weekday)
      ? { date, weekday, allowed: true, reason: 'WORKDAY' }
      : { date, weekday, allowed: false, reason: 'WEEKEND' };
  }

  allowsDate(date: string): boolean {
    return this.dayOf(date).allowed;
  }

  /**
   * The exclusion (holiday or range) holding the date, if one does: what a schedule's `exclude`
   * reads (the weekly pattern and the make-up days play no part there).
   */
  holidayOf(date: string): { readonly label?: string } | undefined {
    const excluded = this.exclusionOf(dayNumber(date));
    if (excluded === undefined) return undefined;
    const label = this.labels[excluded];
    return label === undefined ? {} : { label };
  }

  /** Whether the instant's date, in the calendar's zone, is allowed. */
  allowsInstant(epochMs: number): boolean {
    return this.allowsDate(localDateOf(epochMs, this.spec.timeZone));
  }

  /** The index of the exclusion holding `day`, if one does (binary search over the sorted starts). */
  private exclusionOf(day: number): number | undefined {
    let lo = 0;
    let hi = this.starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((this.starts[mid] as number) <= day) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found >= 0 && day <= (this.ends[found] as number) ? found : undefined;
  }
}

function withLabel(day: CalendarDay, label: string | undefined): CalendarDay {
  return label === undefined ? day : { ...day, label };
}

/** Compiled rules per calendar object: a schedule asks one calendar about many instants. */
const compiled = new WeakMap<object, CalendarRules>();

export function rulesOf(calendar: Pick<Calendar, 'timeZone' | 'workingDays' | 'excluded' | 'included'>) {
  let rules = compiled.get(calendar);
  if (!rules) {
    rules = new CalendarRules(calendar);
    compiled.set(calendar, rules);
  }
  return rules;
}

/** Whether the calendar allows a local date (`YYYY-MM-DD`, checked by the caller). */
export function calendarAllowsDate(
  calendar: Pick<Calendar, 'timeZone' | 'workingDays' | 'excluded' | 'included'>,
  date: string,
): boolean {
  return rulesOf(calendar).allowsDate(date);
}

/** Whether the calendar allows the instant: its date taken in the calendar's time zone. */
export function calendarAllowsInstant(
  calendar: Pick<Calendar, 'timeZone' | 'workingDays' | 'excluded' | 'included'>,
  epochMs: number,
): boolean {
  return rulesOf(calendar).allowsInstant(epochMs);
}

/** Every day from `from` to `to` (both included, real dates, `from` ≤ `to`), each with its reason. */
export function calendarDays(
  calendar: Pick<Calendar, 'timeZone' | 'workingDays' | 'excluded' | 'included'>,
  from: string,
  to: string,
): CalendarDay[] {
  const rules = rulesOf(calendar);
  const days: CalendarDay[] = [];
  for (let day = dayNumber(from), last = dayNumber(to); day <= last; day++) {
    days.push(rules.dayOf(dateOfDayNumber(day)));
  }
  return days;
}
