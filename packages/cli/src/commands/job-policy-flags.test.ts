import { describe, expect, it } from 'vitest';
import { deadlineOf, duration, pauseAfterRule } from './jobs.js';

describe('job policy flags', () => {
  it('reads --pause-after as N in a row, N of the last M, or none', () => {
    expect(pauseAfterRule('3')).toEqual({ consecutive: 3 });
    expect(pauseAfterRule('3/5')).toEqual({ failures: 3, ofLast: 5 });
    expect(pauseAfterRule('none')).toBe('none');
    expect(() => pauseAfterRule('three')).toThrow(/N\/M/);
  });

  it('reads --resume-after in seconds, minutes, hours and days', () => {
    expect(['90s', '10m', '2h', '1d', '600'].map(duration)).toEqual([90, 600, 7200, 86_400, 600]);
    expect(() => duration('10 minutes')).toThrow(/duration/);
  });

  it('reads --deadline as time and zone, optionally weekdays, or none', () => {
    expect(deadlineOf('06:00 Europe/Berlin')).toEqual({ time: '06:00', timeZone: 'Europe/Berlin' });
    expect(deadlineOf('06:00 Europe/Berlin weekdays')).toEqual({
      time: '06:00',
      timeZone: 'Europe/Berlin',
      days: 'weekdays',
    });
    expect(deadlineOf('none')).toBe('none');
    expect(() => deadlineOf('06:00')).toThrow(/HH:MM Zone/);
  });
});
