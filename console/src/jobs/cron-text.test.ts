import { describe, expect, it } from 'vitest';
import { readCron, readFixRate, readOnce, readSchedule } from './cron-text';

const text = (expression: string) => {
  const reading = readCron(expression);
  if (!reading.ok) throw new Error(`not read: ${reading.error}`);
  return reading.text;
};

describe('readCron (Quartz: seconds first, 1-7 = SUN-SAT)', () => {
  it('reads the last-weekday-of-the-month form (6L is the last Friday in Quartz)', () => {
    expect(text('0 */15 10 ? * 6L')).toBe(
      'Every 15 minutes, between 10:00 and 10:59, on the last Friday of the month',
    );
    expect(text('0 0/15 10 ? * 6L')).toBe(
      'Every 15 minutes, between 10:00 and 10:59, on the last Friday of the month',
    );
  });

  it('reads seconds steps', () => {
    expect(text('0/5 * * * * ?')).toBe('Every 5 seconds');
    expect(text('0/10 * * * * ?')).toBe('Every 10 seconds');
    expect(text('* * * * * ?')).toBe('Every second');
  });

  it('reads weekday ranges by name and by Quartz number', () => {
    expect(text('0 0 9 ? * MON-FRI')).toBe('At 09:00, Monday through Friday');
    expect(text('0 0 9 ? * 2-6')).toBe('At 09:00, Monday through Friday');
    expect(text('0 0 9 ? * 1')).toBe('At 09:00, only on Sunday');
    expect(text('0 0 9 ? * 7')).toBe('At 09:00, only on Saturday');
  });

  it('reads L, W and # in the day fields', () => {
    expect(text('0 0 12 L * ?')).toBe('At 12:00, on the last day of the month');
    expect(text('0 15 10 ? * 6#3')).toBe('At 10:15, on the third Friday of the month');
    expect(text('0 0 0 LW * ?')).toBe('At 00:00, on the last weekday of the month');
    expect(text('0 0 0 15W * ? 2030')).toBe(
      'At 00:00, on the weekday nearest day 15 of the month, only in 2030',
    );
  });

  it('reads 24-hour times and the optional year', () => {
    expect(text('0 0 2 * * ?')).toBe('At 02:00');
    expect(text('0 30 18 * * ?')).toBe('At 18:30');
    expect(text('0 0 0 1 1 ? 2031')).toBe('At 00:00, on day 1 of the month, only in January, only in 2031');
  });

  it('refuses a Unix (5-field) cron, too many fields, and values out of range', () => {
    expect(readCron('*/5 * * * *')).toEqual({
      ok: false,
      error:
        'A Quartz cron has 6 or 7 fields (second minute hour day-of-month month day-of-week [year]); this one has 5.',
    });
    expect(readCron('0 0 9 * * ? 2030 1').ok).toBe(false);
    expect(readCron('0 0 25 * * ?')).toEqual({ ok: false, error: 'hours part must be >= 0 and <= 23' });
    expect(readCron('0 0 9 ? * 0')).toEqual({ ok: false, error: 'DOW part must be >= 1 and <= 7' });
    expect(readCron('  ')).toEqual({ ok: false, error: 'Enter a cron expression.' });
  });
});

describe('readFixRate', () => {
  it('reads seconds in the largest whole unit', () => {
    expect(readFixRate('30')).toEqual({ ok: true, text: 'Every 30 seconds' });
    expect(readFixRate('1')).toEqual({ ok: true, text: 'Every second' });
    expect(readFixRate('60')).toEqual({ ok: true, text: 'Every minute' });
    expect(readFixRate('300')).toEqual({ ok: true, text: 'Every 5 minutes' });
    expect(readFixRate('7200')).toEqual({ ok: true, text: 'Every 2 hours' });
    expect(readFixRate('86400')).toEqual({ ok: true, text: 'Every day' });
    expect(readFixRate('90')).toEqual({ ok: true, text: 'Every 90 seconds (1 min 30 s)' });
  });

  it('refuses what is not whole seconds >= 1', () => {
    for (const conf of ['0', '-5', '1.5', 'abc', '']) expect(readFixRate(conf).ok).toBe(false);
  });
});

describe('readOnce and readSchedule', () => {
  it('reads an instant in the zone given', () => {
    expect(readOnce('2030-06-01T12:00:00Z', 'Europe/Berlin')).toEqual({
      ok: true,
      text: 'Once, at 2030-06-01 14:00:00.000 GMT+2',
    });
    expect(readOnce('next tuesday').ok).toBe(false);
  });

  it('reads by type', () => {
    expect(readSchedule('NONE', '')).toEqual({
      ok: true,
      text: 'Only when triggered (by hand, by the API, or as a child job)',
    });
    expect(readSchedule('CRON', '0 0 9 ? * MON-FRI')).toEqual({
      ok: true,
      text: 'At 09:00, Monday through Friday',
    });
    expect(readSchedule('FIX_RATE', '30')).toEqual({ ok: true, text: 'Every 30 seconds' });
    expect(readSchedule('WEEKLY', 'x').ok).toBe(false);
  });
});
