import { describe, expect, it } from 'vitest';
import { type CalendarDayView, dayText, monthGrids, yearRange } from './month-grid';

const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;

/** The days from `from` for `count` days, weekends off, as the API lists them. */
function days(from: string, count: number): CalendarDayView[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(start + i * 86_400_000);
    const weekday = WEEKDAYS[(at.getUTCDay() + 6) % 7] as (typeof WEEKDAYS)[number];
    const weekend = weekday === 'SAT' || weekday === 'SUN';
    return {
      date: at.toISOString().slice(0, 10),
      weekday,
      allowed: !weekend,
      reason: weekend ? 'WEEKEND' : 'WORKDAY',
      label: null,
    };
  });
}

describe('month grids', () => {
  it('lays a month out Monday first, other months’ days empty', () => {
    // October 2030 starts on a Tuesday and ends on a Thursday.
    const [october] = monthGrids(days('2030-10-01', 31));
    expect(october?.name).toBe('October 2030');
    expect(october?.weeks).toHaveLength(5);
    expect(october?.weeks[0]?.map((d) => d?.date.slice(8) ?? null)).toEqual([
      null,
      '01',
      '02',
      '03',
      '04',
      '05',
      '06',
    ]);
    expect(october?.weeks[4]?.map((d) => d?.date.slice(8) ?? null)).toEqual([
      '28',
      '29',
      '30',
      '31',
      null,
      null,
      null,
    ]);
    expect(october?.allowed).toBe(23);
  });

  it('splits a range across a year end into its months', () => {
    const grids = monthGrids(days('2030-12-30', 4));
    expect(grids.map((g) => g.name)).toEqual(['December 2030', 'January 2031']);
    expect(grids[1]?.weeks[0]?.map((d) => d?.date ?? null)).toEqual([
      null,
      null,
      '2031-01-01',
      '2031-01-02',
      null,
      null,
      null,
    ]);
  });

  it('names a day with its reason and label, and a year as a range', () => {
    expect(
      dayText({
        date: '2030-10-01',
        weekday: 'TUE',
        allowed: false,
        reason: 'HOLIDAY',
        label: 'National Day',
      }),
    ).toBe('2030-10-01, holiday: National Day');
    expect(
      dayText({ date: '2030-09-28', weekday: 'SAT', allowed: true, reason: 'MAKEUP_DAY', label: null }),
    ).toBe('2030-09-28, make-up workday');
    expect(yearRange(2032)).toEqual({ from: '2032-01-01', to: '2032-12-31' });
  });
});
