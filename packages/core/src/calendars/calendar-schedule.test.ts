import { describe, expect, it } from 'vitest';
import type { Schedule } from '../schedule/schedule.js';
import type { Calendar, CalendarSpec } from './calendar.js';
import {
  allowedFireFrom,
  type CalendarGate,
  calendarGate,
  gatedFireTimes,
  scheduleCalendarIds,
} from './calendar-schedule.js';
import { parseCalendarSpec } from './calendar-validation.js';

function calendar(id: string, spec: Record<string, unknown>): Calendar {
  const parsed: CalendarSpec = parseCalendarSpec({ name: id, ...spec });
  return { id, ...parsed, version: 1, createdAt: 0, updatedAt: 0, updatedBy: 't' };
}

/** China's 2030 National Day week: seven days off, two Saturdays worked to make up for them. */
const cn = calendar('cn', {
  timeZone: 'Asia/Shanghai',
  excluded: [{ from: '2030-10-01', to: '2030-10-07', label: 'National Day' }],
  included: [
    { date: '2030-09-28', label: 'Make-up for National Day' },
    { date: '2030-10-12', label: 'Make-up for National Day' },
  ],
});

const gate = (lists: { only?: Calendar[]; exclude?: Calendar[] }): CalendarGate => ({
  only: lists.only ?? [],
  exclude: lists.exclude ?? [],
});
const at = (iso: string) => Date.parse(iso);
const isoOf = (ms: number) => new Date(ms).toISOString();
const cron = (conf: string, timeZone: string): Schedule => ({ type: 'CRON', conf, timeZone });

describe('a schedule’s calendars', () => {
  const nineInShanghai = cron('0 0 9 * * ?', 'Asia/Shanghai');
  const from = at('2030-09-25T16:00:00Z'); // Thursday 26 September, 00:00 in Shanghai

  it('only: fires on working days alone, the make-up Saturday included, the holiday week and Sunday not', () => {
    const { times, skipped } = gatedFireTimes(nineInShanghai, gate({ only: [cn] }), from, 6);
    expect(times.map(isoOf)).toEqual([
      '2030-09-26T01:00:00.000Z', // Thu
      '2030-09-27T01:00:00.000Z', // Fri
      '2030-09-28T01:00:00.000Z', // Sat, a make-up day
      '2030-09-30T01:00:00.000Z', // Mon
      '2030-10-08T01:00:00.000Z', // Tue after the holiday week
      '2030-10-09T01:00:00.000Z',
    ]);
    // One entry per run of days removed: Sunday, then the holiday week (and its weekend) at once.
    expect(skipped).toEqual([
      {
        time: at('2030-09-29T01:00:00Z'),
        calendarId: 'cn',
        list: 'only',
        date: '2030-09-29',
        reason: 'WEEKEND',
      },
      {
        time: at('2030-10-01T01:00:00Z'),
        calendarId: 'cn',
        list: 'only',
        date: '2030-10-01',
        reason: 'HOLIDAY',
        label: 'National Day',
      },
    ]);
  });

  it('exclude: skips the excluded dates alone; the weekly pattern and the make-up days play no part', () => {
    const { times, skipped } = gatedFireTimes(nineInShanghai, gate({ exclude: [cn] }), from, 6);
    expect(times.map((t) => isoOf(t).slice(0, 10))).toEqual([
      '2030-09-26',
      '2030-09-27',
      '2030-09-28',
      '2030-09-29', // a Sunday: fired, the pattern is not asked
      '2030-09-30',
      '2030-10-08',
    ]);
    expect(skipped).toEqual([
      expect.objectContaining({
        date: '2030-10-01',
        list: 'exclude',
        reason: 'HOLIDAY',
        label: 'National Day',
      }),
    ]);
  });

  it('takes a Berlin fire’s date in Shanghai, which the March clock change moves (exclude)', () => {
    // 17:30 in Berlin is 00:30 the next day in Shanghai under CET (+1), 23:30 the same day under
    // CEST (+2). Excluding Shanghai's 31 March removes Saturday's fire (00:30 on the 31st there)
    // and Sunday's (23:30 on the 31st), the first after the clocks went forward.
    const sh = calendar('sh', {
      timeZone: 'Asia/Shanghai',
      workingDays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      excluded: [{ from: '2030-03-31', label: 'Closed' }],
    });
    const job = cron('0 30 17 * * ?', 'Europe/Berlin');
    const { times, skipped } = gatedFireTimes(job, gate({ exclude: [sh] }), at('2030-03-28T00:00:00Z'), 3);
    expect(times.map(isoOf)).toEqual([
      '2030-03-28T16:30:00.000Z', // Thu 17:30 CET, Fri 00:30 in Shanghai
      '2030-03-29T16:30:00.000Z', // Fri 17:30 CET, Sat 30 March 00:30 in Shanghai
      '2030-04-01T15:30:00.000Z', // Mon 17:30 CEST, Mon 1 April 23:30 in Shanghai
    ]);
    expect(skipped).toEqual([
      {
        time: at('2030-03-30T16:30:00Z'),
        calendarId: 'sh',
        list: 'exclude',
        date: '2030-03-31',
        reason: 'HOLIDAY',
        label: 'Closed',
      },
    ]);
    // The tick's next fire from the removed Saturday jumps over Sunday's too.
    expect(allowedFireFrom(job, gate({ exclude: [sh] }), at('2030-03-30T16:30:00Z'))).toEqual({
      time: at('2030-04-01T15:30:00Z'),
    });
  });

  it('takes a Shanghai 00:30 fire’s date in Berlin, where it is still the day before (only)', () => {
    // 00:30 in Shanghai is the previous evening in Berlin: Monday's fire is Sunday's there, and
    // Saturday's is Friday's. A Berlin business week makes Shanghai's Tuesday-to-Saturday fires,
    // across the clock change (Shanghai's Monday 1 April 00:30 is Berlin's Sunday 18:30 CEST).
    const berlin = calendar('de', { timeZone: 'Europe/Berlin' });
    const job = cron('0 30 0 * * ?', 'Asia/Shanghai');
    const { times, skipped } = gatedFireTimes(job, gate({ only: [berlin] }), at('2030-03-24T16:00:00Z'), 6);
    expect(times.map(isoOf)).toEqual([
      '2030-03-25T16:30:00.000Z', // Shanghai Tue 26, Berlin Mon 25 17:30 CET
      '2030-03-26T16:30:00.000Z',
      '2030-03-27T16:30:00.000Z',
      '2030-03-28T16:30:00.000Z',
      '2030-03-29T16:30:00.000Z', // Shanghai Sat 30, Berlin Fri 29
      '2030-04-01T16:30:00.000Z', // Shanghai Tue 2 April, Berlin Mon 1 April 18:30 CEST
    ]);
    expect(skipped).toEqual([
      expect.objectContaining({ time: at('2030-03-24T16:30:00Z'), date: '2030-03-24', reason: 'WEEKEND' }),
      expect.objectContaining({ time: at('2030-03-30T16:30:00Z'), date: '2030-03-30', reason: 'WEEKEND' }),
    ]);
  });

  it('asks every calendar of both lists: a fire must pass them all', () => {
    const de = calendar('de', {
      timeZone: 'Europe/Berlin',
      excluded: [{ from: '2030-10-03', label: 'Unity Day' }],
    });
    const closed = calendar('closed', {
      timeZone: 'UTC',
      workingDays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      excluded: [{ from: '2030-09-30' }],
    });
    const noonUtc = cron('0 0 12 * * ?', 'UTC');
    const { times } = gatedFireTimes(
      noonUtc,
      gate({ only: [de], exclude: [closed] }),
      at('2030-09-26T00:00:00Z'),
      4,
    );
    // Thu 26, Fri 27; Sat/Sun not Berlin workdays; Mon 30 closed; Tue 1; Thu 3 is Unity Day.
    expect(times.map((t) => isoOf(t).slice(0, 10))).toEqual([
      '2030-09-26',
      '2030-09-27',
      '2030-10-01',
      '2030-10-02',
    ]);
  });

  it('jumps an every-second schedule over a removed day to the next allowed day’s start, a FIX_RATE keeping its phase', () => {
    const sundayInShanghai = at('2030-09-28T16:00:07Z'); // Sun 29 September 00:00:07
    const mondayStart = at('2030-09-29T16:00:00Z');
    const everySecond = cron('* * * * * ?', 'UTC');
    expect(allowedFireFrom(everySecond, gate({ only: [cn] }), sundayInShanghai)).toEqual({
      time: mondayStart,
    });
    const everySeven: Schedule = { type: 'FIX_RATE', conf: '7', timeZone: 'UTC' };
    const found = allowedFireFrom(everySeven, gate({ only: [cn] }), sundayInShanghai);
    // On the schedule's own sequence (candidate + k × 7 s): the first of it at or after Monday 00:00.
    expect(found).toEqual({
      time: sundayInShanghai + Math.ceil((mondayStart - sundayInShanghai) / 7000) * 7000,
    });
    expect('time' in found && found.time - mondayStart).toBeLessThan(7000);
  });

  it('ends with calendar when no allowed fire comes within the search’s years, or a ONCE instant is removed', () => {
    const never = calendar('never', { timeZone: 'UTC', workingDays: [] });
    expect(
      allowedFireFrom(cron('0 0 9 * * ?', 'UTC'), gate({ only: [never] }), at('2030-01-01T09:00:00Z')),
    ).toEqual({
      none: 'calendar',
    });
    const once: Schedule = { type: 'ONCE', conf: '2030-10-02T01:00:00Z', timeZone: 'UTC' };
    expect(allowedFireFrom(once, gate({ only: [cn] }), at('2030-10-02T01:00:00Z'))).toEqual({
      none: 'calendar',
    });
    expect(gatedFireTimes(once, gate({ only: [cn] }), at('2030-10-01T00:00:00Z'), 3)).toMatchObject({
      times: [],
      ended: 'calendar',
    });
    expect(allowedFireFrom(once, gate({ only: [cn] }), null)).toEqual({ none: 'noNextFire' });
  });

  it('counts a calendar that is gone as one without working days, and lists ids once', () => {
    const gone = calendarGate({ only: ['gone'], exclude: ['gone-too'] }, new Map());
    expect(gone?.only[0]?.workingDays).toEqual([]);
    expect(allowedFireFrom(cron('0 0 9 * * ?', 'UTC'), gone, at('2030-01-01T09:00:00Z'))).toEqual({
      none: 'calendar',
    });
    expect(calendarGate(undefined, new Map())).toBeUndefined();
    expect(calendarGate({ only: [] }, new Map())).toBeUndefined();
    expect(scheduleCalendarIds({ only: ['a', 'b'], exclude: ['b', 'c'] })).toEqual(['a', 'b', 'c']);
  });
});
