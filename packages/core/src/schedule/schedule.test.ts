import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../common/errors.js';
import {
  firstFireTime,
  isValidTimeZone,
  MISFIRE_STRATEGIES,
  MISFIRE_THRESHOLD_MS,
  type MisfireStrategy,
  nextFireAfter,
  planFires,
  previewFireTimes,
  SCHEDULE_TYPES,
  type Schedule,
  validateSchedule,
} from './index.js';

const cron = (conf: string, timeZone = 'UTC'): Schedule => ({ type: 'CRON', conf, timeZone });
const fixRate = (seconds: string): Schedule => ({ type: 'FIX_RATE', conf: seconds, timeZone: 'UTC' });
const once = (instant: string): Schedule => ({ type: 'ONCE', conf: instant, timeZone: 'UTC' });
const NONE: Schedule = { type: 'NONE', conf: '', timeZone: 'UTC' };

const at = (iso: string): number => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad test instant ${iso}`);
  return ms;
};
const local = (ms: number, zone: string): string =>
  DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) ?? '';

function validationError(s: Schedule): ValidationError {
  try {
    validateSchedule(s);
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(s)} to be rejected`);
}

describe('constants', () => {
  it('lists the schedule types and misfire strategies', () => {
    expect(SCHEDULE_TYPES).toEqual(['NONE', 'CRON', 'FIX_RATE', 'ONCE']);
    expect(MISFIRE_STRATEGIES).toEqual(['DO_NOTHING', 'FIRE_ONCE_NOW']);
    expect(MISFIRE_THRESHOLD_MS).toBe(5000);
  });
});

describe('validateSchedule', () => {
  it('accepts valid schedules of every type', () => {
    expect(() => validateSchedule(NONE)).not.toThrow();
    expect(() => validateSchedule(cron('0 0/5 * * * ?', 'Europe/Berlin'))).not.toThrow();
    expect(() => validateSchedule(fixRate('30'))).not.toThrow();
    expect(() => validateSchedule(once('2026-12-01T10:00:00Z'))).not.toThrow();
    expect(() => validateSchedule(once('2026-12-01T10:00:00.250+05:30'))).not.toThrow();
  });

  it('ignores the conf of a NONE schedule', () => {
    expect(() => validateSchedule({ type: 'NONE', conf: 'anything', timeZone: 'UTC' })).not.toThrow();
  });

  it('rejects an unknown schedule type on scheduleType', () => {
    const err = validationError({ type: 'FIX_DELAY' as never, conf: '5', timeZone: 'UTC' });
    expect(err.field).toBe('scheduleType');
    expect(err.message).toBe("scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got 'FIX_DELAY'");
  });

  it.each(['Mars/Olympus_Mons', '', '+05:00', ' UTC'])('rejects the time zone %j on timeZone', (timeZone) => {
    const err = validationError({ type: 'CRON', conf: '0 0 12 * * ?', timeZone });
    expect(err.field).toBe('timeZone');
    expect(err.message).toContain('timeZone must be an IANA time zone');
  });

  it('rejects a bad cron expression on scheduleConf, saying what is wrong', () => {
    const err = validationError(cron('0 0 12 ? * 8'));
    expect(err.field).toBe('scheduleConf');
    expect(err.message).toBe("Invalid cron expression '0 0 12 ? * 8': day-of-week value 8 out of range 1-7");
  });

  it('rejects a cron expression giving both day fields', () => {
    const err = validationError(cron('0 0 12 1 * MON'));
    expect(err.field).toBe('scheduleConf');
    expect(err.message).toContain('Support for specifying both a day-of-week AND a day-of-month parameter');
  });

  it.each(['0', '-1', '1.5', 'abc', '', ' 5', '1e3'])(
    'rejects the FIX_RATE conf %j on scheduleConf',
    (conf) => {
      const err = validationError(fixRate(conf));
      expect(err.field).toBe('scheduleConf');
      expect(err.message).toMatch(/^FIX_RATE scheduleConf must be/);
      expect(err.message).toContain(`'${conf}'`);
    },
  );

  it('rejects a FIX_RATE interval above the Java int range', () => {
    expect(validationError(fixRate('2147483648')).message).toContain('between 1 and 2147483647 seconds');
  });

  it.each([
    ['2026-12-01T10:00:00', 'no offset'],
    ['2026-12-01', 'a date only'],
    ['tomorrow', 'not a date'],
    ['1764583200000', 'epoch milliseconds'],
  ])('rejects the ONCE conf %j (%s) on scheduleConf', (conf) => {
    const err = validationError(once(conf));
    expect(err.field).toBe('scheduleConf');
    expect(err.message).toContain("ONCE scheduleConf must be an ISO-8601 instant with 'Z' or an offset");
  });

  it('rejects a ONCE instant that is not a real date', () => {
    const err = validationError(once('2026-02-30T10:00:00Z'));
    expect(err.field).toBe('scheduleConf');
    expect(err.message).toContain("ONCE scheduleConf '2026-02-30T10:00:00Z' is not a valid date-time");
  });
});

describe('isValidTimeZone', () => {
  it('accepts IANA names and rejects the rest', () => {
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('Australia/Lord_Howe')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
});

describe('NONE', () => {
  it('never fires', () => {
    expect(nextFireAfter(NONE, at('2026-01-01T00:00:00Z'))).toBeNull();
    expect(previewFireTimes(NONE, at('2026-01-01T00:00:00Z'), 5)).toEqual([]);
    expect(firstFireTime(NONE, at('2026-01-01T00:00:00Z'))).toBeNull();
  });
});

describe('CRON', () => {
  it('previews the next fire times of a Quartz expression', () => {
    expect(previewFireTimes(cron('0 0/15 * * * ?'), at('2026-01-01T00:05:00Z'), 3)).toEqual([
      at('2026-01-01T00:15:00Z'),
      at('2026-01-01T00:30:00Z'),
      at('2026-01-01T00:45:00Z'),
    ]);
  });

  it('fires on February 29 only in leap years', () => {
    expect(previewFireTimes(cron('0 0 0 29 2 ?'), at('2026-01-01T00:00:00Z'), 3)).toEqual([
      at('2028-02-29T00:00:00Z'),
      at('2032-02-29T00:00:00Z'),
      at('2036-02-29T00:00:00Z'),
    ]);
  });

  it('fires on the last day of every month for L, including February', () => {
    expect(previewFireTimes(cron('0 0 0 L * ?'), at('2027-12-15T00:00:00Z'), 3)).toEqual([
      at('2027-12-31T00:00:00Z'),
      at('2028-01-31T00:00:00Z'),
      at('2028-02-29T00:00:00Z'),
    ]);
  });

  it('skips 02:30 on the New York spring-forward day (Quartz)', () => {
    const times = previewFireTimes(
      cron('0 30 2 * * ?', 'America/New_York'),
      at('2026-03-07T00:00:00-05:00'),
      3,
    );
    expect(times.map((t) => local(t, 'America/New_York'))).toEqual([
      '2026-03-07T02:30:00-05:00',
      '2026-03-09T02:30:00-04:00',
      '2026-03-10T02:30:00-04:00',
    ]);
  });

  it('fires 02:30 once on the Berlin fall-back day, at the second (CET) 02:30 (Quartz)', () => {
    const times = previewFireTimes(cron('0 30 2 * * ?', 'Europe/Berlin'), at('2026-10-24T12:00:00+02:00'), 2);
    expect(times.map((t) => local(t, 'Europe/Berlin'))).toEqual([
      '2026-10-25T02:30:00+01:00',
      '2026-10-26T02:30:00+01:00',
    ]);
  });

  it('gives 23 hourly fires on the Berlin spring-forward day and 24 (one per wall hour) on the fall-back day', () => {
    const hourly = cron('0 0 * * * ?', 'Europe/Berlin');
    const onDay = (start: string, end: string) =>
      previewFireTimes(hourly, at(start) - 1, 30).filter((t) => t < at(end));
    expect(onDay('2026-03-29T00:00:00+01:00', '2026-03-30T00:00:00+02:00')).toHaveLength(23);
    expect(onDay('2026-10-25T00:00:00+02:00', '2026-10-26T00:00:00+01:00')).toHaveLength(24);
  });

  it('first fires at the first cron time after now + 5 s (XXL-JOB start), never inside the next 5 s', () => {
    const everyMinute = cron('0 * * * * ?');
    expect(firstFireTime(everyMinute, at('2026-01-01T12:00:50Z'))).toBe(at('2026-01-01T12:01:00Z'));
    expect(firstFireTime(everyMinute, at('2026-01-01T12:00:56Z'))).toBe(at('2026-01-01T12:02:00Z'));
  });

  it('returns null when the expression never fires again', () => {
    expect(nextFireAfter(cron('0 0 0 1 1 ? 2025'), at('2026-01-01T00:00:00Z'))).toBeNull();
    expect(firstFireTime(cron('0 0 0 1 1 ? 2025'), at('2026-01-01T00:00:00Z'))).toBeNull();
  });

  it('throws a ValidationError for an invalid expression', () => {
    expect(() => nextFireAfter(cron('bad'), 0)).toThrow(ValidationError);
  });
});

describe('FIX_RATE', () => {
  it('fires N seconds after the previous scheduled time', () => {
    expect(nextFireAfter(fixRate('30'), at('2026-01-01T10:00:00Z'))).toBe(at('2026-01-01T10:00:30Z'));
  });

  it('rounds the next time up to a whole second (XXL-JOB 3.x)', () => {
    expect(nextFireAfter(fixRate('30'), at('2026-01-01T10:00:00.001Z'))).toBe(at('2026-01-01T10:00:31Z'));
    expect(nextFireAfter(fixRate('30'), at('2026-01-01T10:00:00.999Z'))).toBe(at('2026-01-01T10:00:31Z'));
  });

  it('previews a fixed rate counted from each scheduled time', () => {
    expect(previewFireTimes(fixRate('3600'), at('2026-03-08T00:00:00Z'), 3)).toEqual([
      at('2026-03-08T01:00:00Z'),
      at('2026-03-08T02:00:00Z'),
      at('2026-03-08T03:00:00Z'),
    ]);
  });

  it('first fires at now + 5 s + N, rounded up to a second', () => {
    expect(firstFireTime(fixRate('10'), at('2026-01-01T12:00:00.400Z'))).toBe(at('2026-01-01T12:00:16Z'));
    expect(firstFireTime(fixRate('10'), at('2026-01-01T12:00:00Z'))).toBe(at('2026-01-01T12:00:15Z'));
  });

  it('ignores the time zone (a true fixed rate through DST)', () => {
    const s: Schedule = { type: 'FIX_RATE', conf: '3600', timeZone: 'America/New_York' };
    const times = previewFireTimes(s, at('2026-03-08T06:00:00Z'), 2);
    expect(times).toEqual([at('2026-03-08T07:00:00Z'), at('2026-03-08T08:00:00Z')]);
  });
});

describe('ONCE', () => {
  const s = once('2026-12-01T10:00:00+02:00');
  const instant = at('2026-12-01T08:00:00Z');

  it('fires at the instant when it is after the given time, and never again', () => {
    expect(nextFireAfter(s, instant - 1)).toBe(instant);
    expect(nextFireAfter(s, instant)).toBeNull();
    expect(previewFireTimes(s, at('2026-01-01T00:00:00Z'), 5)).toEqual([instant]);
  });

  it('keeps the instant to the millisecond', () => {
    expect(nextFireAfter(once('2026-12-01T10:00:00.250Z'), 0)).toBe(at('2026-12-01T10:00:00.250Z'));
  });

  it('first fires at the instant when it is still ahead, even within the next 5 s', () => {
    expect(firstFireTime(s, instant - 3000)).toBe(instant);
    expect(firstFireTime(s, at('2026-01-01T00:00:00Z'))).toBe(instant);
  });

  it('has no first fire when the instant is already past at start time', () => {
    expect(firstFireTime(s, instant)).toBeNull();
    expect(firstFireTime(s, instant + 1000)).toBeNull();
  });
});

describe('previewFireTimes', () => {
  it('returns at most count times and rejects a bad count', () => {
    expect(previewFireTimes(fixRate('1'), 0, 0)).toEqual([]);
    expect(previewFireTimes(fixRate('1'), 0, 5)).toHaveLength(5);
    expect(() => previewFireTimes(fixRate('1'), 0, -1)).toThrow(RangeError);
    expect(() => previewFireTimes(fixRate('1'), 0, 1.5)).toThrow(RangeError);
  });
});

describe('planFires', () => {
  const everyMinute = cron('0 * * * * ?');
  const now = at('2026-01-01T12:00:03.456Z');
  const windowEnd = now + 5000;
  const minute = at('2026-01-01T12:00:00Z');

  it('enqueues a fire due inside the window at its scheduled time (pre-read)', () => {
    const early = at('2026-01-01T11:59:57.456Z');
    expect(planFires(everyMinute, 'DO_NOTHING', minute, early, early + 5000)).toEqual({
      kind: 'FIRE',
      fireTimes: [minute],
      misfire: false,
      nextTriggerTime: minute + 60_000,
    });
  });

  it('fires a job due exactly now, on time', () => {
    const d = planFires(everyMinute, 'DO_NOTHING', minute, minute, minute + 5000);
    expect(d.fireTimes).toEqual([minute]);
    expect(d.misfire).toBe(false);
    expect(d.nextTriggerTime).toBe(minute + 60_000);
  });

  it('fires a fire 0-5 s late at once, keeping its scheduled time', () => {
    const d = planFires(everyMinute, 'DO_NOTHING', minute, now, windowEnd);
    expect(d).toEqual({
      kind: 'FIRE',
      fireTimes: [minute],
      misfire: false,
      nextTriggerTime: minute + 60_000,
    });
  });

  it('still fires normally at exactly 5 s late (a misfire is more than 5 s)', () => {
    const d = planFires(everyMinute, 'FIRE_ONCE_NOW', minute, minute + 5000, minute + 10_000);
    expect(d).toEqual({
      kind: 'FIRE',
      fireTimes: [minute],
      misfire: false,
      nextTriggerTime: minute + 60_000,
    });
  });

  it('skips a fire more than 5 s late under DO_NOTHING and recomputes the next time from now', () => {
    const late = at('2026-01-01T12:30:00.500Z');
    const d = planFires(everyMinute, 'DO_NOTHING', minute, late, late + 5000);
    expect(d).toEqual({
      kind: 'FIRE',
      fireTimes: [],
      misfire: false,
      nextTriggerTime: at('2026-01-01T12:31:00Z'),
      missedTime: minute,
    });
  });

  it('goes on from a FIRE_ONCE_NOW catch-up of a FIX_RATE sequence: the catch-up is its fire now', () => {
    const every60: Schedule = { type: 'FIX_RATE', conf: '60', timeZone: 'UTC' };
    const due = at('2026-01-01T12:30:00Z');
    const d = planFires(every60, 'FIRE_ONCE_NOW', due, due + 5_600, due + 200_000);
    // Not ceil(now + rate) = 12:31:06: the fire of 12:31:05 follows the catch-up by the rate.
    expect(d.fireTimes).toEqual([due + 5_000, due + 65_000, due + 125_000, due + 185_000]);
    expect(d.nextTriggerTime).toBe(due + 245_000);
  });

  it('fires a fire more than 5 s late once now under FIRE_ONCE_NOW, scheduled at now rounded down to the second', () => {
    const late = at('2026-01-01T12:30:00.500Z');
    const d = planFires(everyMinute, 'FIRE_ONCE_NOW', minute, late, late + 5000);
    expect(d).toEqual({
      kind: 'FIRE',
      fireTimes: [at('2026-01-01T12:30:00Z')],
      misfire: true,
      nextTriggerTime: at('2026-01-01T12:31:00Z'),
      missedTime: minute,
    });
  });

  it('re-bases a misfired FIX_RATE on now (XXL-JOB), not on the missed time', () => {
    const late = at('2026-01-01T13:00:00.300Z');
    const d = planFires(fixRate('60'), 'DO_NOTHING', minute, late, late + 5000);
    expect(d.fireTimes).toEqual([]);
    expect(d.nextTriggerTime).toBe(at('2026-01-01T13:01:01Z'));
  });

  it('includes a fire recomputed after a misfire when it falls inside the window', () => {
    const late = at('2026-01-01T12:30:57Z');
    const d = planFires(everyMinute, 'DO_NOTHING', minute, late, late + 5000);
    expect(d.fireTimes).toEqual([at('2026-01-01T12:31:00Z')]);
    expect(d.nextTriggerTime).toBe(at('2026-01-01T12:32:00Z'));
  });

  it('yields 5 fires per window for a 1 s cron or FIX_RATE job', () => {
    const start = at('2026-01-01T12:00:00Z');
    const expected = [0, 1, 2, 3, 4].map((i) => start + i * 1000);
    for (const s of [cron('* * * * * ?'), fixRate('1')]) {
      expect(planFires(s, 'DO_NOTHING', start, start, start + 5000)).toEqual({
        kind: 'FIRE',
        fireTimes: expected,
        misfire: false,
        nextTriggerTime: start + 5000,
      });
    }
  });

  it('fires every late-but-within-5-s second of a 1 s job, then the ones ahead in the window', () => {
    const due = at('2026-01-01T12:00:00Z');
    const nowLate = due + 3200;
    const d = planFires(cron('* * * * * ?'), 'FIRE_ONCE_NOW', due, nowLate, nowLate + 5000);
    expect(d.fireTimes).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => due + i * 1000));
    expect(d.misfire).toBe(false);
    expect(d.nextTriggerTime).toBe(due + 9000);
  });

  it('puts the misfire fire first and keeps the following fires distinct and ascending', () => {
    const due = at('2026-01-01T12:00:00Z');
    const nowLate = due + 60_000 + 400;
    const d = planFires(cron('* * * * * ?'), 'FIRE_ONCE_NOW', due, nowLate, nowLate + 5000);
    const base = due + 60_000;
    expect(d.fireTimes).toEqual([base, base + 1000, base + 2000, base + 3000, base + 4000, base + 5000]);
    expect(d.misfire).toBe(true);
    expect(d.nextTriggerTime).toBe(base + 6000);
  });

  it('produces the same scheduled times when a retried tick reads the same due a second later', () => {
    const due = at('2026-01-01T12:00:00Z');
    const a = planFires(cron('0/2 * * * * ?'), 'DO_NOTHING', due, due + 100, due + 5100);
    const b = planFires(cron('0/2 * * * * ?'), 'DO_NOTHING', due, due + 1100, due + 6100);
    expect(a.fireTimes).toEqual([due, due + 2000, due + 4000]);
    expect(b.fireTimes).toEqual([due, due + 2000, due + 4000, due + 6000]);
  });

  it('ends the schedule with nextTriggerTime null when the last fire is in the window', () => {
    const last = cron('0 0 0 1 1 ? 2027');
    const due = at('2027-01-01T00:00:00Z');
    expect(planFires(last, 'DO_NOTHING', due, due - 2000, due + 3000)).toEqual({
      kind: 'FIRE',
      fireTimes: [due],
      misfire: false,
      nextTriggerTime: null,
    });
  });

  it('fires a ONCE schedule in the window and ends it', () => {
    const instant = at('2026-12-01T10:00:02.250Z');
    const nowOnce = at('2026-12-01T10:00:00.100Z');
    expect(
      planFires(once('2026-12-01T10:00:02.250Z'), 'DO_NOTHING', instant, nowOnce, nowOnce + 5000),
    ).toEqual({
      kind: 'FIRE',
      fireTimes: [instant],
      misfire: false,
      nextTriggerTime: null,
    });
  });

  it.each<[MisfireStrategy, number[]]>([
    ['DO_NOTHING', []],
    ['FIRE_ONCE_NOW', [at('2026-12-01T10:01:00Z')]],
  ])('ends a misfired ONCE schedule under %s with fires %j', (strategy, fireTimes) => {
    const instant = at('2026-12-01T10:00:00Z');
    const nowLate = at('2026-12-01T10:01:00.700Z');
    const d = planFires(once('2026-12-01T10:00:00Z'), strategy, instant, nowLate, nowLate + 5000);
    expect(d.fireTimes).toEqual(fireTimes);
    expect(d.misfire).toBe(strategy === 'FIRE_ONCE_NOW');
    expect(d.nextTriggerTime).toBeNull();
  });

  it('enqueues nothing and keeps nextTriggerTime when due is at or after the window end', () => {
    const due = now + 5000;
    expect(planFires(everyMinute, 'DO_NOTHING', due, now, windowEnd)).toEqual({
      kind: 'FIRE',
      fireTimes: [],
      misfire: false,
      nextTriggerTime: due,
    });
  });

  it('never fires a NONE schedule', () => {
    expect(planFires(NONE, 'FIRE_ONCE_NOW', minute - 60_000, now, windowEnd)).toEqual({
      kind: 'FIRE',
      fireTimes: [],
      misfire: false,
      nextTriggerTime: null,
    });
  });

  it('keeps cron fire times on whole seconds whatever the millisecond of now', () => {
    const d = planFires(cron('*/2 * * * * ?'), 'DO_NOTHING', minute + 2000, now, windowEnd);
    expect(d.fireTimes).toEqual([minute + 2000, minute + 4000, minute + 6000, minute + 8000]);
    for (const t of d.fireTimes) expect(t % 1000).toBe(0);
    expect(d.nextTriggerTime).toBe(minute + 10_000);
  });

  it('rejects an unknown misfire strategy on misfireStrategy', () => {
    try {
      planFires(everyMinute, 'FIRE_TWICE' as never, minute, now, windowEnd);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).field).toBe('misfireStrategy');
    }
  });

  it('rejects non-finite times', () => {
    expect(() => planFires(everyMinute, 'DO_NOTHING', Number.NaN, now, windowEnd)).toThrow(RangeError);
  });
});
