/**
 * A year of a calendar's days laid out as month grids, Monday first: each week a row of seven
 * cells, the days of other months left empty (null).
 */
import type { CalendarDays } from '@tickring/client';

export type CalendarDayView = CalendarDays['days'][number];

export interface MonthGrid {
  /** 1-12. */
  readonly month: number;
  readonly name: string;
  /** Rows of seven (Monday to Sunday); null where the day is of another month. */
  readonly weeks: readonly (readonly (CalendarDayView | null)[])[];
  /** Days of the month a schedule limited to the calendar may fire on. */
  readonly allowed: number;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
const WEEKDAY_INDEX: Readonly<Record<string, number>> = {
  MON: 0,
  TUE: 1,
  WED: 2,
  THU: 3,
  FRI: 4,
  SAT: 5,
  SUN: 6,
};

/** The months of the days given (in date order, as the API lists them), each as a grid. */
export function monthGrids(days: readonly CalendarDayView[]): MonthGrid[] {
  const byMonth = new Map<string, CalendarDayView[]>();
  for (const day of days) {
    const key = day.date.slice(0, 7);
    const list = byMonth.get(key) ?? [];
    list.push(day);
    byMonth.set(key, list);
  }
  return [...byMonth.entries()].map(([key, monthDays]) => {
    const month = Number(key.slice(5, 7));
    const weeks: (CalendarDayView | null)[][] = [];
    let week: (CalendarDayView | null)[] = Array.from(
      { length: WEEKDAY_INDEX[monthDays[0]?.weekday ?? 'MON'] ?? 0 },
      () => null,
    );
    for (const day of monthDays) {
      week.push(day);
      if (week.length === 7) {
        weeks.push(week);
        week = [];
      }
    }
    if (week.length > 0) weeks.push([...week, ...Array.from({ length: 7 - week.length }, () => null)]);
    return {
      month,
      name: `${MONTHS[month - 1]} ${key.slice(0, 4)}`,
      weeks,
      allowed: monthDays.filter((d) => d.allowed).length,
    };
  });
}

/** What a day is, in words (a cell's accessible name and tooltip). */
export function dayText(day: CalendarDayView): string {
  const what =
    day.reason === 'HOLIDAY'
      ? `holiday${day.label ? `: ${day.label}` : ''}`
      : day.reason === 'MAKEUP_DAY'
        ? `make-up workday${day.label ? `: ${day.label}` : ''}`
        : day.reason === 'WEEKEND'
          ? 'not a working weekday'
          : 'working day';
  return `${day.date}, ${what}`;
}

/** The first and last day of a year, as the days route takes them. */
export function yearRange(year: number): { from: string; to: string } {
  return { from: `${year}-01-01`, to: `${year}-12-31` };
}
