import { describe, expect, it } from 'vitest';
import type { Calendar } from '../calendars/calendar.js';
import { calendarGate } from '../calendars/calendar-schedule.js';
import { parseCalendarSpec } from '../calendars/calendar-validation.js';
import { previewFireTimes, type Schedule } from '../schedule/schedule.js';
import { backfillFires, gateWithin } from './backfill-fires.js';

const at = (iso: string) => Date.parse(iso);
const isoOf = (times: readonly number[]) => times.map((t) => new Date(t).toISOString());
const cron = (conf: string, timeZone = 'UTC'): Schedule => ({ type: 'CRON', conf, timeZone });

/** What the live schedule makes in [from, to): its fires one after another from just before `from`. */
function liveFires(s: Schedule, from: number, to: number): number[] {
  return previewFireTimes(s, from - 1, 200).filter((t) => t < to);
}

describe('backfillFires', () => {
  it('makes a cron’s fires in [from, to): from included, to left out, as the live schedule makes them', () => {
    const s = cron('0 */5 * * * ?');
    const range = { from: at('2030-01-01T10:00:00Z'), to: at('2030-01-01T11:00:00Z') };
    const fires = backfillFires(s, {}, range, 100);
    expect(fires).toHaveLength(12);
    expect(isoOf([fires[0] as number, fires.at(-1) as number])).toEqual([
      '2030-01-01T10:00:00.000Z',
      '2030-01-01T10:55:00.000Z',
    ]);
    expect(fires).toEqual(liveFires(s, range.from, range.to));
  });

  it('follows Quartz across the clock changes of the job’s zone: none in a skipped hour, one in a repeated one', () => {
    const daily = cron('0 30 2 * * ?', 'Europe/Berlin');
    // 29 March 2026: 02:00 → 03:00, no 02:30 that day.
    const spring = backfillFires(
      daily,
      {},
      { from: at('2026-03-28T00:00:00Z'), to: at('2026-03-31T00:00:00Z') },
      100,
    );
    expect(isoOf(spring)).toEqual(['2026-03-28T01:30:00.000Z', '2026-03-30T00:30:00.000Z']);
    // 25 October 2026: 03:00 → 02:00, 02:30 comes twice and fires once (the second time, CET).
    const fall = backfillFires(
      daily,
      {},
      { from: at('2026-10-24T00:00:00Z'), to: at('2026-10-27T00:00:00Z') },
      100,
    );
    expect(isoOf(fall)).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T01:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
    ]);
    const hourly = cron('0 0 * * * ?', 'Europe/Berlin');
    const night = { from: at('2026-10-24T22:00:00Z'), to: at('2026-10-25T04:00:00Z') };
    expect(backfillFires(hourly, {}, night, 100)).toEqual(liveFires(hourly, night.from, night.to));
  });

  it('counts FIX_RATE fires from `from` (rounded up to a second) when the job has no startAt', () => {
    const s: Schedule = { type: 'FIX_RATE', conf: '20', timeZone: 'UTC' };
    const fires = backfillFires(
      s,
      {},
      { from: at('2030-01-01T10:00:00.400Z'), to: at('2030-01-01T10:01:01Z') },
      100,
    );
    // 10:01:01 is `to`: left out.
    expect(isoOf(fires)).toEqual([
      '2030-01-01T10:00:01.000Z',
      '2030-01-01T10:00:21.000Z',
      '2030-01-01T10:00:41.000Z',
    ]);
  });

  it('counts FIX_RATE fires from the job’s startAt when it has one, the first of them at or after `from`', () => {
    const s: Schedule = { type: 'FIX_RATE', conf: '60', timeZone: 'UTC' };
    const bounds = { startAt: at('2030-01-01T09:00:15Z') };
    const fires = backfillFires(
      s,
      bounds,
      { from: at('2030-01-01T10:00:00Z'), to: at('2030-01-01T10:03:00Z') },
      100,
    );
    expect(isoOf(fires)).toEqual([
      '2030-01-01T10:00:15.000Z',
      '2030-01-01T10:01:15.000Z',
      '2030-01-01T10:02:15.000Z',
    ]);
  });

  it('keeps to the job’s bounds: nothing before startAt, nothing after endAt', () => {
    const s = cron('0 0 * * * ?');
    const bounds = { startAt: at('2030-01-01T03:30:00Z'), endAt: at('2030-01-01T06:00:00Z') };
    const fires = backfillFires(
      s,
      bounds,
      { from: at('2030-01-01T00:00:00Z'), to: at('2030-01-02T00:00:00Z') },
      100,
    );
    expect(isoOf(fires)).toEqual([
      '2030-01-01T04:00:00.000Z',
      '2030-01-01T05:00:00.000Z',
      '2030-01-01T06:00:00.000Z',
    ]);
    // A range wholly outside the bounds has no fire.
    expect(
      backfillFires(s, bounds, { from: at('2030-01-01T07:00:00Z'), to: at('2030-01-01T09:00:00Z') }, 100),
    ).toEqual([]);
  });

  it('stops one past the limit, however large the range, so a caller can tell "too many"', () => {
    const everySecond = cron('* * * * * ?');
    const fires = backfillFires(
      everySecond,
      {},
      { from: at('2030-01-01T00:00:00Z'), to: at('2031-01-01T00:00:00Z') },
      10,
    );
    expect(fires).toHaveLength(11);
  });

  it('makes no fire for a NONE or ONCE schedule', () => {
    const range = { from: at('2030-01-01T00:00:00Z'), to: at('2030-01-02T00:00:00Z') };
    expect(backfillFires({ type: 'NONE', conf: '', timeZone: 'UTC' }, {}, range, 10)).toEqual([]);
    expect(
      backfillFires({ type: 'ONCE', conf: '2030-01-01T05:00:00Z', timeZone: 'UTC' }, {}, range, 10),
    ).toEqual([]);
  });
});

describe('backfillFires with calendars', () => {
  const calendar = (spec: Parameters<typeof parseCalendarSpec>[0]): Calendar => ({
    id: 'c',
    ...parseCalendarSpec(spec),
    version: 1,
    createdAt: 0,
    updatedAt: 0,
    updatedBy: 't',
  });
  // Monday to Friday in Berlin, with Christmas Day off (2029-12-25 is a Tuesday).
  const workdays = calendar({
    name: 'Berlin workdays',
    timeZone: 'Europe/Berlin',
    workingDays: ['MON', 'TUE', 'WED', 'THU', 'FRI'],
    excluded: [{ from: '2029-12-25' }],
  });
  const only = calendarGate({ only: ['c'] }, new Map([['c', workdays]])) as NonNullable<
    ReturnType<typeof calendarGate>
  >;
  const week = { from: at('2029-12-22T00:00:00Z'), to: at('2029-12-29T00:00:00Z') };

  it('leaves out the fires on days the calendars remove, judged in the calendar’s zone', () => {
    // 23:30 UTC is already the next day in Berlin: Sunday 23:30 UTC fires on Monday there.
    const fires = backfillFires(cron('0 30 23 * * ?'), {}, week, 100, only);
    expect(isoOf(fires)).toEqual([
      '2029-12-23T23:30:00.000Z', // Monday the 24th in Berlin
      '2029-12-25T23:30:00.000Z', // Wednesday
      '2029-12-26T23:30:00.000Z',
      '2029-12-27T23:30:00.000Z', // Friday; Friday 23:30 UTC is Saturday in Berlin
    ]);
  });

  it('keeps a FIX_RATE schedule’s phase over the days removed', () => {
    const everyFiveHours: Schedule = { type: 'FIX_RATE', conf: String(5 * 3600), timeZone: 'UTC' };
    const startAt = at('2029-12-20T00:00:00Z');
    const fires = backfillFires(everyFiveHours, { startAt }, week, 100, only);
    expect(fires.length).toBeGreaterThan(0);
    for (const fire of fires) expect((fire - startAt) % (5 * 3_600_000)).toBe(0);
    const berlinDates = new Set(fires.map((t) => new Date(t + 3_600_000).toISOString().slice(0, 10)));
    expect([...berlinDates].sort()).toEqual(['2029-12-24', '2029-12-26', '2029-12-27', '2029-12-28']);
  });

  it('gives the same fires with the calendars cut to the range as with them whole', () => {
    const many = calendar({
      name: 'Many holidays',
      timeZone: 'Pacific/Kiritimati',
      excluded: [{ from: '2020-01-01', to: '2020-01-05' }, { from: '2029-12-23' }, { from: '2035-06-01' }],
      included: [{ date: '2029-12-22' }, { date: '2031-01-04' }],
    });
    const gate = calendarGate({ only: ['c'] }, new Map([['c', many]])) as NonNullable<
      ReturnType<typeof calendarGate>
    >;
    const cut = gateWithin(gate, week);
    expect(cut.only[0]?.excluded).toEqual([{ from: '2029-12-23' }]);
    expect(cut.only[0]?.included).toEqual([{ date: '2029-12-22' }]);
    const hourly = cron('0 0 * * * ?');
    expect(backfillFires(hourly, {}, week, 1_000, cut)).toEqual(backfillFires(hourly, {}, week, 1_000, gate));
  });
});
