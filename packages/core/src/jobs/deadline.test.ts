import { describe, expect, it } from 'vitest';
import { deadlineAfter, deadlineAtOrBefore, deadlineProblems, deadlineStatus } from './deadline.js';

const at = (iso: string) => Date.parse(iso);
const berlin = { time: '06:00', timeZone: 'Europe/Berlin' } as const;

describe('deadline instants (golden cases)', () => {
  it('reads 06:00 Europe/Berlin in winter time before the March change and in summer time on its day', () => {
    // 2025-03-30: clocks go from 02:00 CET to 03:00 CEST.
    expect(deadlineAtOrBefore(berlin, at('2025-03-30T12:00:00Z'))).toBe(at('2025-03-30T04:00:00Z'));
    expect(deadlineAtOrBefore(berlin, at('2025-03-30T03:59:59Z'))).toBe(at('2025-03-29T05:00:00Z'));
    expect(deadlineAfter(berlin, at('2025-03-29T05:00:00Z'))).toBe(at('2025-03-30T04:00:00Z'));
  });

  it('makes the window across the March change 23 hours long, and the October one 25', () => {
    const march = at('2025-03-30T04:00:00Z');
    expect(march - deadlineAtOrBefore(berlin, march - 1)).toBe(23 * 3600_000);
    const october = at('2025-10-26T05:00:00Z');
    expect(deadlineAtOrBefore(berlin, october)).toBe(october);
    expect(october - deadlineAtOrBefore(berlin, october - 1)).toBe(25 * 3600_000);
  });

  it('moves a deadline in the skipped hour an hour later on the March change day', () => {
    const night = { time: '02:30', timeZone: 'Europe/Berlin' } as const;
    // 02:30 does not exist on 2025-03-30: 03:30 CEST (01:30Z).
    expect(deadlineAfter(night, at('2025-03-29T12:00:00Z'))).toBe(at('2025-03-30T01:30:00Z'));
  });

  it('skips Saturday and Sunday for weekdays', () => {
    const weekdays = { ...berlin, days: 'weekdays' } as const;
    // Friday 2025-06-06 → Monday 2025-06-09, 06:00 CEST = 04:00Z.
    expect(deadlineAfter(weekdays, at('2025-06-06T05:00:00Z'))).toBe(at('2025-06-09T04:00:00Z'));
    expect(deadlineAtOrBefore(weekdays, at('2025-06-08T12:00:00Z'))).toBe(at('2025-06-06T04:00:00Z'));
  });
});

describe('deadlineStatus', () => {
  const since = at('2025-01-01T00:00:00Z');
  const now = at('2025-03-30T05:00:00Z'); // an hour after the day's deadline (04:00Z)

  it('is met when a success came after the last deadline, at the success', () => {
    const success = at('2025-03-30T04:30:00Z');
    expect(deadlineStatus(berlin, success, since, now)).toEqual({
      window: { from: at('2025-03-30T04:00:00Z'), to: at('2025-03-31T04:00:00Z') },
      state: 'met',
      at: success,
    });
  });

  it('is missed for the window just closed when no success came in it (23 h across the change)', () => {
    expect(deadlineStatus(berlin, at('2025-03-29T04:59:00Z'), since, now)).toEqual({
      window: { from: at('2025-03-29T05:00:00Z'), to: at('2025-03-30T04:00:00Z') },
      state: 'missed',
      at: at('2025-03-30T04:00:00Z'),
    });
  });

  it('is pending when the closed window was met and the current one has no success yet', () => {
    expect(deadlineStatus(berlin, at('2025-03-30T03:12:00Z'), since, now)).toMatchObject({
      state: 'pending',
      at: null,
    });
  });

  it('never calls a window missed that began before the deadline was set', () => {
    expect(deadlineStatus(berlin, undefined, at('2025-03-29T12:00:00Z'), now).state).toBe('pending');
  });
});

describe('deadlineProblems', () => {
  it('names every problem at once: a bad time, an unknown zone, unknown days', () => {
    const problems = deadlineProblems({ time: '6:00', timeZone: 'Europe/Berlinn', days: 'sundays' });
    expect(problems.map((p) => p.field)).toEqual(['deadline.time', 'deadline.timeZone', 'deadline.days']);
  });

  it('refuses 24:00 and takes 23:59', () => {
    expect(deadlineProblems({ time: '24:00', timeZone: 'UTC' })).toHaveLength(1);
    expect(deadlineProblems({ time: '23:59', timeZone: 'UTC' })).toEqual([]);
  });
});
