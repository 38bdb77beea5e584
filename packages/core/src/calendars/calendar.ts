/**
 * A business calendar: which local dates are working days. A weekly pattern names the working
 * weekdays; excluded dates and ranges (holidays) take days out; included dates (make-up workdays)
 * put days back, over both the pattern and the exclusions. Dates are local dates of the calendar's
 * time zone (`YYYY-MM-DD`); an instant is judged by its date in that zone.
 */

/** ISO weekdays, Monday first (the order the weekly pattern is written in). */
export const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A new calendar's working days when none are given: a business week, Monday to Friday. */
export const DEFAULT_WORKING_DAYS: readonly Weekday[] = ['MON', 'TUE', 'WED', 'THU', 'FRI'];

/**
 * What a calendar may hold, so that one stays one store item (DynamoDB's is 400 KB: 1,000
 * exclusions and 400 inclusions with 100-character labels are ~180 KB) and one check of a date stays
 * cheap.
 */
export const CALENDAR_LIMITS = {
  idLength: 64,
  name: 200,
  description: 2_000,
  label: 100,
  /** Excluded dates and ranges. */
  excluded: 1_000,
  /** Included (make-up) dates. */
  included: 400,
  /** The longest excluded range, in days. */
  rangeDays: 366,
  /** The days one `days` request lists (a leap year). */
  daysPerRequest: 366,
  /** The dates a calendar may name. */
  firstDate: '1970-01-01',
  lastDate: '2199-12-31',
} as const;

/** A calendar's id: lower-case letters, digits and '-', starting with a letter or digit (schedules name it). */
export const CALENDAR_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Days taken out: one date (`to` absent or equal) or a range, both ends included. */
export interface ExcludedDates {
  readonly from: string;
  readonly to?: string;
  /** What the days are (a holiday's name). */
  readonly label?: string;
}

/** A make-up workday: a working day whatever the weekly pattern and the exclusions say. */
export interface IncludedDate {
  readonly date: string;
  readonly label?: string;
}

/** What a caller writes: everything but the bookkeeping. */
export interface CalendarSpec {
  readonly name: string;
  readonly description: string;
  /** IANA zone the dates are local to. */
  readonly timeZone: string;
  /** In WEEKDAYS order, each once. */
  readonly workingDays: readonly Weekday[];
  /** Sorted by `from`, no two overlapping. */
  readonly excluded: readonly ExcludedDates[];
  /** Sorted by date, each date once. */
  readonly included: readonly IncludedDate[];
}

export interface Calendar extends CalendarSpec {
  readonly id: string;
  /** 1 on create, +1 on every change: a write names the version it read (optimistic concurrency). */
  readonly version: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Who made the last change (the principal's display name). */
  readonly updatedBy: string;
}

/** Why a day is or is not a working day. */
export const DAY_REASONS = ['WORKDAY', 'WEEKEND', 'HOLIDAY', 'MAKEUP_DAY'] as const;
export type DayReason = (typeof DAY_REASONS)[number];

export interface CalendarDay {
  readonly date: string;
  readonly weekday: Weekday;
  readonly allowed: boolean;
  /**
   * WORKDAY: a working weekday; WEEKEND: a weekday the pattern leaves out; HOLIDAY: excluded;
   * MAKEUP_DAY: included (over the pattern and any exclusion).
   */
  readonly reason: DayReason;
  /** The exclusion's or inclusion's label, when it has one. */
  readonly label?: string;
}
