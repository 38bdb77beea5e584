import { describe, expect, it } from 'vitest';
import { previewFireTimes, type Schedule } from '../schedule/schedule.js';
import { backfillFires } from './backfill-fires.js';

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
