import { ValidationError } from '../common/errors.js';

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The counters of a day's report, as a ReportStore keeps them. */
export const REPORT_COUNTERS = ['running', 'success', 'fail', 'skipped'] as const;

export type ReportCounter = (typeof REPORT_COUNTERS)[number];

/** One day's run counters (of every group, or summed over some). */
export interface DailyReport {
  readonly day: string;
  readonly running: number;
  readonly success: number;
  readonly fail: number;
  readonly skipped: number;
}

/** The report of `day` with each counter as `count` tells it (summed over groups, or zero, as the store keeps them). */
export function dailyReport(day: string, count: (counter: ReportCounter) => number): DailyReport {
  return {
    day,
    running: count('running'),
    success: count('success'),
    fail: count('fail'),
    skipped: count('skipped'),
  };
}

/** Most days the stores read in one `range` (a bit over a year). */
export const MAX_REPORT_RANGE_DAYS = 400;

/**
 * Every UTC day from `fromDay` to `toDay` inclusive (YYYY-MM-DD); ValidationError for a day that is
 * not one, a range that ends before it starts, or one of more than `maxDays` days.
 */
export function daysBetween(fromDay: string, toDay: string, maxDays = Number.POSITIVE_INFINITY): string[] {
  const from = parseDay(fromDay, 'fromDay');
  const to = parseDay(toDay, 'toDay');
  if (from > to) throw new ValidationError(`fromDay ${fromDay} is after toDay ${toDay}`, 'fromDay');
  const count = (to - from) / DAY_MS + 1;
  if (count > maxDays) {
    throw new ValidationError(`at most ${maxDays} days can be read at once; asked for ${count}`, 'fromDay');
  }
  return Array.from({ length: count }, (_, i) => new Date(from + i * DAY_MS).toISOString().slice(0, 10));
}

function parseDay(day: string, field: string): number {
  const ms = DAY_PATTERN.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) {
    throw new ValidationError(`${field} must be a day like 2030-01-31; got ${JSON.stringify(day)}`, field);
  }
  return ms;
}
