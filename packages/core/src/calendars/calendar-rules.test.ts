import { describe, expect, it } from 'vitest';
import type { CalendarSpec } from './calendar.js';
import { calendarAllowsDate, calendarAllowsInstant, calendarDays, weekdayOf } from './calendar-rules.js';
import { parseCalendarSpec } from './calendar-validation.js';

/** China's 2030 National Day week: seven days off, two Saturdays worked to make up for them. */
const china: CalendarSpec = parseCalendarSpec({
  name: 'China workdays 2030',
  timeZone: 'Asia/Shanghai',
  excluded: [
    { from: '2030-10-01', to: '2030-10-07', label: 'National Day' },
    { from: '2030-12-24', to: '2031-01-02', label: 'Year-end shutdown' },
  ],
  included: [
    { date: '2030-09-28', label: 'Make-up for National Day' },
    { date: '2030-10-12', label: 'Make-up for National Day' },
  ],
});

describe('calendar rules', () => {
  it('reads weekdays Monday first, on both sides of 1970', () => {
    expect(weekdayOf('1970-01-01')).toBe('THU');
    expect(weekdayOf('1969-12-29')).toBe('MON');
    expect(weekdayOf('2030-09-28')).toBe('SAT');
    expect(weekdayOf('2031-01-05')).toBe('SUN');
  });

  it('allows Monday to Friday by default, and a make-up Saturday over the weekend', () => {
    expect(china.workingDays).toEqual(['MON', 'TUE', 'WED', 'THU', 'FRI']);
    expect(calendarAllowsDate(china, '2030-09-27')).toBe(true); // a Friday
    expect(calendarAllowsDate(china, '2030-09-29')).toBe(false); // a Sunday
    expect(calendarDays(china, '2030-09-28', '2030-09-28')).toEqual([
      {
        date: '2030-09-28',
        weekday: 'SAT',
        allowed: true,
        reason: 'MAKEUP_DAY',
        label: 'Make-up for National Day',
      },
    ]);
  });

  it('judges an instant by its date in the calendar zone, not in UTC', () => {
    // 2030-09-30T16:30Z is Monday 30 September in UTC but Tuesday 1 October (National Day) in Shanghai.
    const instant = Date.parse('2030-09-30T16:30:00Z');
    expect(calendarAllowsInstant(china, instant)).toBe(false);
    expect(calendarAllowsInstant({ ...china, timeZone: 'UTC' }, instant)).toBe(true);
    // West of UTC the other way round: 05:00Z on 1 October is still 30 September in Los Angeles.
    const early = Date.parse('2030-10-01T05:00:00Z');
    expect(calendarAllowsInstant({ ...china, timeZone: 'America/Los_Angeles' }, early)).toBe(true);
    expect(calendarAllowsInstant({ ...china, timeZone: 'UTC' }, early)).toBe(false);
    // The last instant of 30 September in Shanghai, and the first of 1 October.
    expect(calendarAllowsInstant(china, Date.parse('2030-09-30T15:59:59.999Z'))).toBe(true);
    expect(calendarAllowsInstant(china, Date.parse('2030-09-30T16:00:00.000Z'))).toBe(false);
  });

  it('takes the date on a daylight-saving day in the zone’s offset of that instant', () => {
    const berlin = {
      ...china,
      timeZone: 'Europe/Berlin',
      excluded: [{ from: '2030-03-29', label: 'Good Friday' }],
    };
    // 22:59:59 UTC is 23:59:59 in Berlin (UTC+1 until Sunday's switch): still Good Friday, and a Thursday a day before.
    expect(calendarAllowsInstant(berlin, Date.parse('2030-03-29T22:59:59Z'))).toBe(false);
    expect(calendarAllowsInstant(berlin, Date.parse('2030-03-28T22:59:59Z'))).toBe(true);
    // Monday 1 April 00:30 in Berlin (UTC+2 after the switch) is 31 March 22:30 UTC, a Sunday there.
    expect(calendarAllowsInstant(berlin, Date.parse('2030-03-31T22:30:00Z'))).toBe(true);
    expect(calendarAllowsInstant({ ...berlin, timeZone: 'UTC' }, Date.parse('2030-03-31T22:30:00Z'))).toBe(
      false,
    );
  });

  it('lists a range across a year end with the reason of each day', () => {
    const days = calendarDays(china, '2030-12-20', '2031-01-05');
    expect(days.map((d) => `${d.date} ${d.weekday} ${d.reason}`)).toEqual([
      '2030-12-20 FRI WORKDAY',
      '2030-12-21 SAT WEEKEND',
      '2030-12-22 SUN WEEKEND',
      '2030-12-23 MON WORKDAY',
      '2030-12-24 TUE HOLIDAY',
      '2030-12-25 WED HOLIDAY',
      '2030-12-26 THU HOLIDAY',
      '2030-12-27 FRI HOLIDAY',
      '2030-12-28 SAT HOLIDAY',
      '2030-12-29 SUN HOLIDAY',
      '2030-12-30 MON HOLIDAY',
      '2030-12-31 TUE HOLIDAY',
      '2031-01-01 WED HOLIDAY',
      '2031-01-02 THU HOLIDAY',
      '2031-01-03 FRI WORKDAY',
      '2031-01-04 SAT WEEKEND',
      '2031-01-05 SUN WEEKEND',
    ]);
    expect(days.filter((d) => d.reason === 'HOLIDAY').every((d) => d.label === 'Year-end shutdown')).toBe(
      true,
    );
    expect(days.filter((d) => d.allowed).map((d) => d.date)).toEqual([
      '2030-12-20',
      '2030-12-23',
      '2031-01-03',
    ]);
  });

  it('lets a make-up day win over an exclusion, and a weekly pattern of any days', () => {
    const shifts = parseCalendarSpec({
      name: 'Weekend shifts',
      workingDays: ['SAT', 'SUN'],
      excluded: [{ from: '2030-12-28', to: '2030-12-29' }],
      included: [{ date: '2030-12-29' }],
    });
    expect(
      calendarDays(shifts, '2030-12-27', '2030-12-30').map((d) => [d.date, d.allowed, d.reason]),
    ).toEqual([
      ['2030-12-27', false, 'WEEKEND'],
      ['2030-12-28', false, 'HOLIDAY'],
      ['2030-12-29', true, 'MAKEUP_DAY'],
      ['2030-12-30', false, 'WEEKEND'],
    ]);
  });

  it('finds a date among a thousand exclusions (binary search: the first, a middle one, the last, gaps)', () => {
    const excluded = Array.from({ length: 1000 }, (_, i) => {
      const from = new Date(Date.UTC(2030, 0, 1) + i * 3 * 86_400_000).toISOString().slice(0, 10);
      return { from };
    });
    const many = parseCalendarSpec({
      name: 'many',
      workingDays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      excluded,
    });
    expect(calendarAllowsDate(many, '2030-01-01')).toBe(false);
    expect(calendarAllowsDate(many, '2030-01-02')).toBe(true);
    expect(calendarAllowsDate(many, excluded[500]?.from as string)).toBe(false);
    expect(calendarAllowsDate(many, excluded[999]?.from as string)).toBe(false);
    expect(calendarAllowsDate(many, '2029-12-31')).toBe(true);
  });
});
