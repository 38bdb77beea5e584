import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../common/errors.js';
import { CronExpression, MAX_YEAR } from './cron.js';

interface GoldenCase {
  id: string;
  expression: string;
  timeZone: string;
  start: string;
  startMs: number;
  count: number;
  times: number[];
  local: string[];
}
interface GoldenInvalid {
  expression: string;
  rejected: boolean;
  message?: string;
  evaluation?: string;
}
interface GoldenMayHang {
  id: string;
  expression: string;
  timeZone: string;
  startMs: number;
  /** Epoch ms as a string, 'null', or 'hangs' when getNextValidTimeAfter did not return within 3 s. */
  quartz: string;
}
interface Golden {
  generator: { quartz: string; java: string; tzdb: string; quartzMaxYear: number };
  cases: GoldenCase[];
  mayHang: GoldenMayHang[];
  invalid: GoldenInvalid[];
}

const golden = JSON.parse(
  readFileSync(new URL('./fixtures/quartz-golden.json', import.meta.url), 'utf8'),
) as Golden;

/** Successive fire times from `startMs`, each computed from the previous one (as the golden generator does). */
function chain(cron: CronExpression, startMs: number, count: number): number[] {
  const out: number[] = [];
  let t: number | null = startMs;
  while (out.length < count) {
    t = cron.nextAfter(t);
    if (t === null) break;
    out.push(t);
  }
  return out;
}

function local(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: true }) ?? '';
}

/** Fire times as local ISO strings, starting at a local (or offset) ISO date-time in `zone`. */
function fires(expression: string, zone: string, start: string, count: number): string[] {
  const startMs = DateTime.fromISO(start, { zone }).toMillis();
  return chain(CronExpression.parse(expression, zone), startMs, count).map((ms) => local(ms, zone));
}

function parseError(expression: string, zone = 'UTC'): ValidationError {
  try {
    CronExpression.parse(expression, zone);
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error(`expected '${expression}' to be rejected`);
}

const UTC_2026 = '2026-01-01T00:00:00Z';

describe('Quartz 2.3.2 golden vectors (tools/quartz-golden)', () => {
  it('covers at least 80 cases and every case has the fire times Quartz produced', () => {
    expect(golden.generator.quartz).toBe('2.3.2');
    expect(golden.cases.length).toBeGreaterThanOrEqual(80);
  });

  it.each(golden.cases)('$id: $expression in $timeZone after $start', (c) => {
    const ours = chain(CronExpression.parse(c.expression, c.timeZone), c.startMs, c.count);
    expect(ours.map((ms) => local(ms, c.timeZone))).toEqual(c.local);
    expect(ours).toEqual(c.times);
  });
});

describe('where Quartz never returns', () => {
  it.each(golden.mayHang)('$id: returns null where Quartz hangs, and the Quartz result otherwise', (c) => {
    const ours = CronExpression.parse(c.expression, c.timeZone).nextAfter(c.startMs);
    expect(ours).toBe(c.quartz === 'hangs' || c.quartz === 'null' ? null : Number(c.quartz));
  });

  it('includes a case where Quartz hangs (LW in December 2011 in Pacific/Apia, whose 30 December did not exist)', () => {
    expect(golden.mayHang.some((c) => c.quartz === 'hangs')).toBe(true);
  });
});

/**
 * Expressions Quartz accepts but cannot use; the port rejects them on purpose (see cron.ts). Anything
 * else Quartz accepts, the port must accept too, and anything Quartz rejects, the port must reject.
 */
const STRICTER_THAN_QUARTZ: Record<string, string> = {
  '0 0 0 * * ? 2026 extra': 'more than 7 fields (Quartz ignores the rest)',
  '0 0 0 * * ? 1969': 'year before 1970 (Quartz never fires)',
  '0 0 0 * * ? 2300': 'year after 2199 (Quartz never fires)',
  '0 0 0 * * ? 1900-1980': 'year range starting before 1970',
  ', 0 0 * * ?': 'a field without a value (Quartz throws when evaluating)',
  'L 0 0 * * ?': 'L in the seconds yields no value (Quartz throws when evaluating)',
  '0 0 0 0W * ?': 'day 0 before W (Quartz loops forever)',
  '0 0 0 L-28W * ?': 'L-nW with n > 27 (Quartz loops forever in February)',
  '0 0 0 L-30W * ?': 'L-nW with n > 27 (Quartz loops forever)',
  '0 0 0 ? * 8#2': 'day-of-week 8 before # (Quartz never fires)',
  '0 0 0 ? * 0#2': 'day-of-week 0 before # (Quartz fires on arbitrary days)',
};

describe('parse errors compared with Quartz', () => {
  it.each(golden.invalid.filter((i) => i.rejected))('rejects %j as Quartz does', ({ expression }) => {
    const err = parseError(expression);
    expect(err.field).toBe('scheduleConf');
    expect(err.message).toContain(`Invalid cron expression '${expression}': `);
  });

  it.each(golden.invalid.filter((i) => !i.rejected && STRICTER_THAN_QUARTZ[i.expression] !== undefined))(
    'rejects %j although Quartz accepts it (a deliberate, documented stricter rule)',
    ({ expression, evaluation }) => {
      expect(evaluation).toBeDefined();
      expect(parseError(expression).field).toBe('scheduleConf');
    },
  );

  it.each(golden.invalid.filter((i) => !i.rejected && STRICTER_THAN_QUARTZ[i.expression] === undefined))(
    'accepts %j as Quartz does, with the same first fire',
    ({ expression, evaluation }) => {
      const first = /fires \(first at ([^,]+),/.exec(evaluation ?? '')?.[1];
      expect(first).toBeDefined();
      const ms = CronExpression.parse(expression, 'UTC').nextAfter(Date.parse(UTC_2026));
      expect(ms).toBe(Date.parse(first ?? ''));
    },
  );

  it('lists only expressions the golden file records as accepted by Quartz', () => {
    const accepted = new Set(golden.invalid.filter((i) => !i.rejected).map((i) => i.expression));
    for (const expression of Object.keys(STRICTER_THAN_QUARTZ)) expect(accepted).toContain(expression);
  });
});

describe('parse error messages', () => {
  it('says which value is out of range in which field', () => {
    expect(parseError('0 0 12 ? * 8').message).toBe(
      "Invalid cron expression '0 0 12 ? * 8': day-of-week value 8 out of range 1-7",
    );
    expect(parseError('0 60 * * * ?').message).toContain('minute value 60 out of range 0-59');
    expect(parseError('0 0 24 * * ?').message).toContain('hour value 24 out of range 0-23');
    expect(parseError('0 0 0 32 * ?').message).toContain('day-of-month value 32 out of range 1-31');
    expect(parseError('0 0 0 * 13 ?').message).toContain('month value 13 out of range 1-12');
    expect(parseError('0 0 0 1 1 ? 2200').message).toContain('year value 2200 out of range 1970-2199');
  });

  it('rejects both day fields given, with the Quartz message', () => {
    expect(parseError('0 0 12 1 * MON').message).toContain(
      'Support for specifying both a day-of-week AND a day-of-month parameter is not implemented',
    );
  });

  it('rejects both day fields as ? (neither is specified)', () => {
    expect(parseError('0 0 12 ? * ?').message).toContain(
      "'?' can only be specified for the day-of-month -OR- the day-of-week",
    );
  });

  it('rejects a wrong number of fields, saying how many it got', () => {
    expect(parseError('0 0 12 * *').message).toContain('expected 6 or 7 fields');
    expect(parseError('0 0 12 * *').message).toContain('got 5');
    expect(parseError('0 0 12 * * ? 2026 2027').message).toContain('got 8');
    expect(parseError('').message).toContain('got 0');
  });

  it('names the field of a malformed token', () => {
    expect(parseError('5/x * * * * ?').message).toContain("malformed second field '5/X'");
    expect(parseError('0 0 0 JAN * ?').message).toContain("'JAN' is not allowed in the day-of-month field");
    expect(parseError('0 0 0 * FOO ?').message).toContain("invalid month 'FOO'");
    expect(parseError('0 0 0 ? * 2#6').message).toContain("'#' must be followed by a number between 1 and 5");
    expect(parseError('0/60 * * * * ?').message).toContain('the second increment 60 is too large');
  });

  it('rejects an unknown time zone on the timeZone field', () => {
    const err = parseError('0 0 12 * * ?', 'Mars/Olympus_Mons');
    expect(err.field).toBe('timeZone');
    expect(err.message).toContain("Unknown time zone 'Mars/Olympus_Mons'");
  });

  it('offers isValid for quick checks', () => {
    expect(CronExpression.isValid('0 0/5 * * * ?')).toBe(true);
    expect(CronExpression.isValid('0 0/5 * * * *')).toBe(false);
  });
});

describe('fields and special characters', () => {
  it('fires every 5 seconds for 0/5 and */5', () => {
    const expected = ['2026-01-01T00:00:05Z', '2026-01-01T00:00:10Z', '2026-01-01T00:00:15Z'];
    expect(fires('0/5 * * * * ?', 'UTC', UTC_2026, 3)).toEqual(expected);
    expect(fires('*/5 * * * * ?', 'UTC', UTC_2026, 3)).toEqual(expected);
  });

  it('steps through a range: 10-20/3 fires at seconds 10, 13, 16, 19', () => {
    expect(fires('10-20/3 * * * * ?', 'UTC', UTC_2026, 5)).toEqual([
      '2026-01-01T00:00:10Z',
      '2026-01-01T00:00:13Z',
      '2026-01-01T00:00:16Z',
      '2026-01-01T00:00:19Z',
      '2026-01-01T00:01:10Z',
    ]);
  });

  it('wraps a range whose end is before its start (22-2 in the hours)', () => {
    expect(fires('0 0 22-2 * * ?', 'UTC', UTC_2026, 5)).toEqual([
      '2026-01-01T01:00:00Z',
      '2026-01-01T02:00:00Z',
      '2026-01-01T22:00:00Z',
      '2026-01-01T23:00:00Z',
      '2026-01-02T00:00:00Z',
    ]);
  });

  it('reads month names and wraps NOV-FEB across the year end', () => {
    expect(fires('0 0 0 1 NOV-FEB ?', 'UTC', UTC_2026, 4)).toEqual([
      '2026-02-01T00:00:00Z',
      '2026-11-01T00:00:00Z',
      '2026-12-01T00:00:00Z',
      '2027-01-01T00:00:00Z',
    ]);
  });

  it('numbers days of the week from 1 = Sunday to 7 = Saturday', () => {
    // 2026-01-01 is a Thursday
    expect(fires('0 0 12 ? * 1', 'UTC', UTC_2026, 1)).toEqual(['2026-01-04T12:00:00Z']);
    expect(fires('0 0 12 ? * SUN', 'UTC', UTC_2026, 1)).toEqual(['2026-01-04T12:00:00Z']);
    expect(fires('0 0 12 ? * 7', 'UTC', UTC_2026, 1)).toEqual(['2026-01-03T12:00:00Z']);
    expect(fires('0 0 12 ? * 2', 'UTC', UTC_2026, 1)).toEqual(['2026-01-05T12:00:00Z']);
  });

  it('fires on weekdays only for MON-FRI', () => {
    expect(fires('0 0 12 ? * MON-FRI', 'UTC', UTC_2026, 4)).toEqual([
      '2026-01-01T12:00:00Z',
      '2026-01-02T12:00:00Z',
      '2026-01-05T12:00:00Z',
      '2026-01-06T12:00:00Z',
    ]);
  });

  it('is case-insensitive for names', () => {
    expect(fires('0 0 7 ? jan-jun mon', 'UTC', UTC_2026, 1)).toEqual(['2026-01-05T07:00:00Z']);
  });

  it('fires on the last day of the month for L', () => {
    expect(fires('0 0 12 L * ?', 'UTC', UTC_2026, 4)).toEqual([
      '2026-01-31T12:00:00Z',
      '2026-02-28T12:00:00Z',
      '2026-03-31T12:00:00Z',
      '2026-04-30T12:00:00Z',
    ]);
  });

  it('fires 3 days before the last day for L-3', () => {
    expect(fires('0 0 12 L-3 * ?', 'UTC', UTC_2026, 4)).toEqual([
      '2026-01-28T12:00:00Z',
      '2026-02-25T12:00:00Z',
      '2026-03-28T12:00:00Z',
      '2026-04-27T12:00:00Z',
    ]);
  });

  it('fires on the weekday nearest the 15th for 15W', () => {
    // Feb 15 and Mar 15 are Sundays -> Monday 16th; Aug 15 is a Saturday -> Friday 14th
    expect(fires('0 0 12 15W * ?', 'UTC', UTC_2026, 4)).toEqual([
      '2026-01-15T12:00:00Z',
      '2026-02-16T12:00:00Z',
      '2026-03-16T12:00:00Z',
      '2026-04-15T12:00:00Z',
    ]);
    expect(fires('0 0 12 15W * ?', 'UTC', '2026-08-01T00:00:00Z', 1)).toEqual(['2026-08-14T12:00:00Z']);
  });

  it('does not let 1W cross into the previous month: Saturday 1 August fires on Monday 3 August', () => {
    expect(fires('0 0 12 1W * ?', 'UTC', '2026-07-15T00:00:00Z', 1)).toEqual(['2026-08-03T12:00:00Z']);
  });

  it('does not let 31W cross into the next month and fires only in 31-day months', () => {
    // Jan 31 is a Saturday -> Jan 30; May 31 is a Sunday -> Friday May 29, not Monday June 1
    expect(fires('0 0 12 31W * ?', 'UTC', UTC_2026, 4)).toEqual([
      '2026-01-30T12:00:00Z',
      '2026-03-31T12:00:00Z',
      '2026-05-29T12:00:00Z',
      '2026-07-31T12:00:00Z',
    ]);
  });

  it('fires on the last weekday of the month for LW', () => {
    // Jan 31 and Feb 28 are Saturdays, May 31 is a Sunday
    expect(fires('0 0 12 LW * ?', 'UTC', UTC_2026, 5)).toEqual([
      '2026-01-30T12:00:00Z',
      '2026-02-27T12:00:00Z',
      '2026-03-31T12:00:00Z',
      '2026-04-30T12:00:00Z',
      '2026-05-29T12:00:00Z',
    ]);
  });

  it('fires on the last Friday for 6L and FRIL', () => {
    const expected = ['2026-01-30T12:00:00Z', '2026-02-27T12:00:00Z', '2026-03-27T12:00:00Z'];
    expect(fires('0 0 12 ? * 6L', 'UTC', UTC_2026, 3)).toEqual(expected);
    expect(fires('0 0 12 ? * FRIL', 'UTC', UTC_2026, 3)).toEqual(expected);
  });

  it('fires on the third Friday for 6#3', () => {
    expect(fires('0 0 12 ? * 6#3', 'UTC', UTC_2026, 4)).toEqual([
      '2026-01-16T12:00:00Z',
      '2026-02-20T12:00:00Z',
      '2026-03-20T12:00:00Z',
      '2026-04-17T12:00:00Z',
    ]);
  });

  it('skips months without a fifth Monday for 2#5', () => {
    expect(fires('0 0 12 ? * 2#5', 'UTC', UTC_2026, 4)).toEqual([
      '2026-03-30T12:00:00Z',
      '2026-06-29T12:00:00Z',
      '2026-08-31T12:00:00Z',
      '2026-11-30T12:00:00Z',
    ]);
  });

  it('fires on February 29 only in leap years', () => {
    expect(fires('0 0 0 29 2 ?', 'UTC', UTC_2026, 3)).toEqual([
      '2028-02-29T00:00:00Z',
      '2032-02-29T00:00:00Z',
      '2036-02-29T00:00:00Z',
    ]);
    // 2100 is not a leap year
    expect(fires('0 0 0 29 2 ? 2096-2104', 'UTC', UTC_2026, 3)).toEqual([
      '2096-02-29T00:00:00Z',
      '2104-02-29T00:00:00Z',
    ]);
  });

  it('skips months shorter than the day: the 31st fires in 31-day months only', () => {
    expect(fires('0 0 0 31 * ?', 'UTC', UTC_2026, 7)).toEqual([
      '2026-01-31T00:00:00Z',
      '2026-03-31T00:00:00Z',
      '2026-05-31T00:00:00Z',
      '2026-07-31T00:00:00Z',
      '2026-08-31T00:00:00Z',
      '2026-10-31T00:00:00Z',
      '2026-12-31T00:00:00Z',
    ]);
  });

  it('restricts fires to the listed years and then never fires again', () => {
    expect(fires('0 0 0 1 1 ? 2027,2030', 'UTC', UTC_2026, 5)).toEqual([
      '2027-01-01T00:00:00Z',
      '2030-01-01T00:00:00Z',
    ]);
  });

  it('returns null when no date ever matches (February 30)', () => {
    expect(CronExpression.parse('0 0 0 30 2 ?', 'UTC').nextAfter(Date.parse(UTC_2026))).toBeNull();
  });

  it(`searches up to the year ${MAX_YEAR} and no further`, () => {
    const cron = CronExpression.parse(`0 0 0 1 1 ? ${MAX_YEAR}`, 'UTC');
    const last = Date.UTC(MAX_YEAR, 0, 1);
    expect(cron.nextAfter(Date.parse(UTC_2026))).toBe(last);
    expect(cron.nextAfter(last)).toBeNull();
  });

  it('reads the fields in the expression time zone', () => {
    expect(fires('0 0 9 * * ?', 'Asia/Tokyo', '2026-01-01T00:00:00', 1)).toEqual([
      '2026-01-01T09:00:00+09:00',
    ]);
    expect(
      CronExpression.parse('0 0 9 * * ?', 'Asia/Tokyo').nextAfter(Date.parse('2025-12-31T23:00:00Z')),
    ).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(CronExpression.parse('0 0 9 * * ?', 'UTC').nextAfter(Date.parse('2025-12-31T23:00:00Z'))).toBe(
      Date.parse('2026-01-01T09:00:00Z'),
    );
  });
});

describe('start time handling', () => {
  it('returns the first fire strictly after the start', () => {
    const cron = CronExpression.parse('0 0 12 * * ?', 'UTC');
    const noon = Date.parse('2026-01-01T12:00:00Z');
    expect(cron.nextAfter(noon)).toBe(noon + 86_400_000);
    expect(cron.nextAfter(noon - 1)).toBe(noon);
  });

  it('ignores milliseconds: 00:00:04.999 gives 00:00:05 for 0/5', () => {
    const cron = CronExpression.parse('0/5 * * * * ?', 'UTC');
    expect(cron.nextAfter(Date.parse('2026-01-01T00:00:04.999Z'))).toBe(Date.parse('2026-01-01T00:00:05Z'));
    expect(cron.nextAfter(Date.parse('2026-01-01T00:00:05.001Z'))).toBe(Date.parse('2026-01-01T00:00:10Z'));
  });

  it('returns whole seconds only', () => {
    const t = CronExpression.parse('* * * * * ?', 'UTC').nextAfter(Date.parse('2026-01-01T00:00:00.123Z'));
    expect(t).toBe(Date.parse('2026-01-01T00:00:01Z'));
  });

  it('rejects a non-finite start', () => {
    expect(() => CronExpression.parse('* * * * * ?', 'UTC').nextAfter(Number.NaN)).toThrow(RangeError);
  });
});

describe('what Quartz really does around DST (checked against the golden file)', () => {
  it('skips 02:30 entirely on the New York spring-forward day (no fire at 03:30 instead)', () => {
    expect(fires('0 30 2 * * ?', 'America/New_York', '2026-03-07T00:00:00', 3)).toEqual([
      '2026-03-07T02:30:00-05:00',
      '2026-03-09T02:30:00-04:00',
      '2026-03-10T02:30:00-04:00',
    ]);
  });

  it('skips the whole 2 a.m. hour on the Berlin spring-forward day and moves on to 03:00 for 1-3 every 15 min', () => {
    expect(fires('0 0/15 1-3 * * ?', 'Europe/Berlin', '2026-03-29T01:30:00', 4)).toEqual([
      '2026-03-29T01:45:00+01:00',
      '2026-03-29T03:00:00+02:00',
      '2026-03-29T03:15:00+02:00',
      '2026-03-29T03:30:00+02:00',
    ]);
  });

  it('fires 01:30 once on the New York fall-back day, at the second (EST) 01:30', () => {
    expect(fires('0 30 1 * * ?', 'America/New_York', '2026-10-31T12:00:00', 2)).toEqual([
      '2026-11-01T01:30:00-05:00',
      '2026-11-02T01:30:00-05:00',
    ]);
  });

  it('skips the first (EDT) 1 a.m. hour for 0 * 1 * * ? on the fall-back night and fires in the EST hour', () => {
    const times = fires('0 * 1 * * ?', 'America/New_York', '2026-11-01T00:50:00-04:00', 61);
    expect(times[0]).toBe('2026-11-01T01:00:00-05:00');
    expect(times[59]).toBe('2026-11-01T01:59:00-05:00');
    expect(times[60]).toBe('2026-11-02T01:00:00-05:00');
    expect(times.filter((t) => t.endsWith('-04:00'))).toEqual([]);
  });

  it('leaves a 2-hour hole in an hourly job on the New York fall-back night (00:00 EDT, then 01:00 EST)', () => {
    const startMs = Date.parse('2026-10-31T23:30:00-04:00');
    const [a, b] = chain(CronExpression.parse('0 0 * * * ?', 'America/New_York'), startMs, 2);
    expect(local(a ?? 0, 'America/New_York')).toBe('2026-11-01T00:00:00-04:00');
    expect(local(b ?? 0, 'America/New_York')).toBe('2026-11-01T01:00:00-05:00');
    expect((b ?? 0) - (a ?? 0)).toBe(2 * 3_600_000);
  });

  it('skips the first (CEST) 2 a.m. hour of a Berlin fall-back night: every 10 min goes 01:50 CEST -> 02:00 CET', () => {
    expect(fires('0 0/10 * * * ?', 'Europe/Berlin', '2026-10-25T01:45:00', 3)).toEqual([
      '2026-10-25T01:50:00+02:00',
      '2026-10-25T02:00:00+01:00',
      '2026-10-25T02:10:00+01:00',
    ]);
  });

  it('handles Lord Howe 30-minute shifts: 02:15 is skipped on the spring-forward day, 01:45 fires once (second pass)', () => {
    expect(fires('0 15 2 * * ?', 'Australia/Lord_Howe', '2026-10-03T12:00:00', 2)).toEqual([
      '2026-10-05T02:15:00+11:00',
      '2026-10-06T02:15:00+11:00',
    ]);
    expect(fires('0 45 1 * * ?', 'Australia/Lord_Howe', '2026-04-04T12:00:00', 2)).toEqual([
      '2026-04-05T01:45:00+10:30',
      '2026-04-06T01:45:00+10:30',
    ]);
  });

  it('skips a daily midnight job on a day whose midnight does not exist (Havana, 8 March 2026)', () => {
    expect(fires('0 0 0 * * ?', 'America/Havana', '2026-03-06T12:00:00', 2)).toEqual([
      '2026-03-07T00:00:00-05:00',
      '2026-03-09T00:00:00-04:00',
    ]);
  });

  it('skips a monthly midnight job for the whole month when that midnight does not exist (Havana, 8 March 2026)', () => {
    expect(fires('0 0 0 8 * ?', 'America/Havana', '2026-02-09T00:00:00', 2)).toEqual([
      '2026-04-08T00:00:00-04:00',
      '2026-05-08T00:00:00-04:00',
    ]);
  });

  it('skips the Sunday whose midnight does not exist for a weekly job (São Paulo, 4 November 2018)', () => {
    expect(fires('0 0 0 ? * SUN', 'America/Sao_Paulo', '2018-10-29T00:00:00', 2)).toEqual([
      '2018-11-11T00:00:00-02:00',
      '2018-11-18T00:00:00-02:00',
    ]);
  });

  it('keeps firing through the transitions in UTC, which has none', () => {
    expect(fires('0 30 2 * * ?', 'UTC', '2026-03-07T12:00:00Z', 3)).toEqual([
      '2026-03-08T02:30:00Z',
      '2026-03-09T02:30:00Z',
      '2026-03-10T02:30:00Z',
    ]);
  });
});

describe('parser quirks kept from Quartz', () => {
  it('reads a full day name by its first three letters (MONDAY is MON)', () => {
    expect(fires('0 0 0 ? * MONDAY', 'UTC', UTC_2026, 1)).toEqual(['2026-01-05T00:00:00Z']);
  });

  it('ignores a step after a named range (MON-FRI/2 is MON-FRI)', () => {
    expect(fires('0 0 0 ? * MON-FRI/2', 'UTC', UTC_2026, 2)).toEqual([
      '2026-01-02T00:00:00Z',
      '2026-01-05T00:00:00Z',
    ]);
  });

  it('reads L in the day-of-week alone (and LW there) as Saturday', () => {
    expect(fires('0 0 0 ? * L', 'UTC', UTC_2026, 1)).toEqual(['2026-01-03T00:00:00Z']);
    expect(fires('0 0 0 ? * LW', 'UTC', UTC_2026, 1)).toEqual(['2026-01-03T00:00:00Z']);
  });
});
