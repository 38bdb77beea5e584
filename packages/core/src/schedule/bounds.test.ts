import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  boundDecision,
  firstBoundedFire,
  jitterOffsetMs,
  planFires,
  type Schedule,
  smallestInterval,
} from './index.js';

const cron = (conf: string, timeZone = 'UTC'): Schedule => ({ type: 'CRON', conf, timeZone });
const at = (iso: string) => Date.parse(iso);
const local = (ms: number, zone: string) =>
  DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) ?? '';

describe('the first fire within bounds', () => {
  it('is the schedule’s own first fire without bounds, and the first cron time at or after a later startAt', () => {
    const s = cron('0 0 * * * ?');
    const now = at('2030-01-01T00:10:00Z');
    expect(firstBoundedFire(s, {}, 0, now)).toEqual({ time: at('2030-01-01T01:00:00Z') });
    expect(firstBoundedFire(s, { startAt: at('2030-01-02T05:00:00Z') }, 0, now)).toEqual({
      time: at('2030-01-02T05:00:00Z'),
    });
  });

  it('counts a FIX_RATE schedule from startAt, rounded up to a whole second', () => {
    const s: Schedule = { type: 'FIX_RATE', conf: '60', timeZone: 'UTC' };
    expect(
      firstBoundedFire(s, { startAt: at('2030-01-02T00:00:00.250Z') }, 0, at('2030-01-01T00:00:00Z')),
    ).toEqual({
      time: at('2030-01-02T00:00:01Z'),
    });
  });

  it('has none once maxRuns is used up, after endAt, or for a ONCE instant before startAt', () => {
    const now = at('2030-01-01T00:00:00Z');
    expect(firstBoundedFire(cron('0 0 * * * ?'), { maxRuns: 3 }, 3, now)).toEqual({ none: 'maxRuns' });
    expect(firstBoundedFire(cron('0 0 * * * ?'), { endAt: at('2030-01-01T00:30:00Z') }, 0, now)).toEqual({
      none: 'endAt',
    });
    const once: Schedule = { type: 'ONCE', conf: '2030-01-05T00:00:00Z', timeZone: 'UTC' };
    expect(firstBoundedFire(once, { startAt: at('2030-01-06T00:00:00Z') }, 0, now)).toEqual({
      none: 'noNextFire',
    });
  });

  it('golden: a startAt on the Berlin spring-forward day skips the 02:30 that does not exist and starts the day after', () => {
    const first = firstBoundedFire(
      cron('0 30 2 * * ?', 'Europe/Berlin'),
      { startAt: at('2026-03-29T00:00:00+01:00') },
      0,
      at('2026-03-01T00:00:00Z'),
    );
    expect('time' in first && local(first.time, 'Europe/Berlin')).toBe('2026-03-30T02:30:00+02:00');
  });

  it('golden: an endAt at the first (EDT) 01:30 of the New York fall-back night leaves no fire that day (Quartz fires the second, EST one)', () => {
    const first = firstBoundedFire(
      cron('0 30 1 * * ?', 'America/New_York'),
      { endAt: at('2026-11-01T01:30:00-04:00') },
      0,
      at('2026-10-31T12:00:00Z'),
    );
    expect(first).toEqual({ none: 'endAt' });
  });
});

describe('a tick’s decision cut to the bounds', () => {
  const s = cron('* * * * * ?');
  const due = at('2030-01-01T00:00:00Z');
  const decision = planFires(s, 'DO_NOTHING', due, due - 4_500, due + 5_000);

  it('makes no more fires than maxRuns leaves and ends there (maxRuns before the other reasons)', () => {
    expect(decision.fireTimes).toHaveLength(5);
    const cut = boundDecision(decision, { maxRuns: 10, endAt: due + 2_000 }, 8);
    expect(cut).toMatchObject({
      fireTimes: [due, due + 1_000],
      counted: 2,
      nextTriggerTime: null,
      ended: 'maxRuns',
    });
  });

  it('leaves out fires after endAt and ends with endAt; a fire exactly at endAt still runs', () => {
    const cut = boundDecision(decision, { endAt: due + 2_000 }, 0);
    expect(cut).toMatchObject({
      fireTimes: [due, due + 1_000, due + 2_000],
      nextTriggerTime: null,
      ended: 'endAt',
    });
  });

  it('goes on untouched inside the bounds, and says the same for the same inputs (a retried tick)', () => {
    const bounds = { maxRuns: 100, startAt: due - 60_000, endAt: due + 60_000 };
    const cut = boundDecision(decision, bounds, 10);
    expect(cut).toEqual({ ...decision, counted: 5 });
    expect(boundDecision(decision, bounds, 10)).toEqual(cut);
  });

  it('ends with noNextFire when the schedule has no next fire', () => {
    const once: Schedule = { type: 'ONCE', conf: '2030-01-01T00:00:00Z', timeZone: 'UTC' };
    const cut = boundDecision(planFires(once, 'DO_NOTHING', due, due - 1_000, due + 5_000), {}, 0);
    expect(cut).toMatchObject({ fireTimes: [due], ended: 'noNextFire', counted: 1 });
  });

  it('ends at once, with no fire, when the limit was lowered to the count', () => {
    expect(boundDecision(decision, { maxRuns: 4 }, 4)).toMatchObject({ fireTimes: [], ended: 'maxRuns' });
  });
});

describe('jitter', () => {
  it('is a fixed offset per (job, scheduled time) in [0, jitter), spread over the range', () => {
    const t = at('2030-01-01T00:00:00Z');
    expect(jitterOffsetMs(7, t, 60)).toBe(jitterOffsetMs(7, t, 60));
    expect(jitterOffsetMs(7, t, 0)).toBe(0);
    const offsets = Array.from({ length: 1000 }, (_, i) => jitterOffsetMs(7, t + i * 60_000, 60));
    for (const o of offsets) {
      expect(Number.isInteger(o)).toBe(true);
      expect(o).toBeGreaterThanOrEqual(0);
      expect(o).toBeLessThan(60_000);
    }
    // Each sixth of the range holds some offsets, and other jobs get other offsets for the same time.
    expect(new Set(offsets.map((o) => Math.floor(o / 10_000))).size).toBe(6);
    expect(new Set([1, 2, 3, 4, 5].map((job) => jitterOffsetMs(job, t, 60))).size).toBe(5);
  });
});

describe('the smallest interval', () => {
  it('is a FIX_RATE’s rate, and a cron’s smallest gap over the next year (DST included)', () => {
    const from = at('2026-01-01T00:00:00Z');
    expect(smallestInterval({ type: 'FIX_RATE', conf: '90', timeZone: 'UTC' }, from)).toBe(90_000);
    expect(smallestInterval(cron('0 0,10 * * * ?'), from)).toBe(600_000);
    // A daily 03:30 in New York: 23 h across the spring-forward night.
    expect(smallestInterval(cron('0 30 3 * * ?', 'America/New_York'), from)).toBe(23 * 3_600_000);
    expect(
      smallestInterval({ type: 'ONCE', conf: '2030-01-01T00:00:00Z', timeZone: 'UTC' }, from),
    ).toBeUndefined();
  });
});
