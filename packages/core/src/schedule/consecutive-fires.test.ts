import { describe, expect, it } from 'vitest';
import { consecutiveFireRuns, followsInSchedule } from './consecutive-fires.js';
import type { Schedule } from './schedule.js';

const cron = (conf: string, timeZone = 'UTC'): Schedule => ({ type: 'CRON', conf, timeZone });
const fixRate = (seconds: string): Schedule => ({ type: 'FIX_RATE', conf: seconds, timeZone: 'UTC' });
const T = Date.UTC(2030, 0, 1, 12, 0, 0);
const s = (n: number) => T + n * 1000;

describe('followsInSchedule', () => {
  it('says whether a time is the very next fire of a cron schedule after another', () => {
    const everySecond = cron('* * * * * ?');
    expect(followsInSchedule(everySecond, s(0), s(1))).toBe(true);
    expect(followsInSchedule(everySecond, s(0), s(2))).toBe(false);
    expect(followsInSchedule(everySecond, s(1), s(0))).toBe(false);
    const quarterHours = cron('0 0/15 * * * ?');
    expect(followsInSchedule(quarterHours, s(0), s(15 * 60))).toBe(true);
    expect(followsInSchedule(quarterHours, s(0), s(30 * 60))).toBe(false);
  });

  it('follows a FIX_RATE schedule from the previous scheduled time', () => {
    expect(followsInSchedule(fixRate('5'), s(0), s(5))).toBe(true);
    expect(followsInSchedule(fixRate('5'), s(0), s(4))).toBe(false);
    expect(followsInSchedule(fixRate('5'), s(0), s(10))).toBe(false);
  });

  it("never follows a ONCE schedule's one fire, nor anything of a NONE schedule or one that cannot be read", () => {
    const once: Schedule = { type: 'ONCE', conf: new Date(s(1)).toISOString(), timeZone: 'UTC' };
    expect(followsInSchedule(once, s(1), s(2))).toBe(false);
    expect(followsInSchedule({ type: 'NONE', conf: '', timeZone: 'UTC' }, s(0), s(1))).toBe(false);
    expect(followsInSchedule(cron('not a cron'), s(0), s(1))).toBe(false);
    expect(followsInSchedule(fixRate('0'), s(0), s(0))).toBe(false);
  });
});

describe('consecutiveFireRuns', () => {
  it('splits ascending times where a fire of the schedule is missing in between', () => {
    const everySecond = cron('* * * * * ?');
    expect(consecutiveFireRuns(everySecond, [s(0), s(1), s(2), s(4), s(5), s(9)])).toEqual([
      [s(0), s(1), s(2)],
      [s(4), s(5)],
      [s(9)],
    ]);
    expect(consecutiveFireRuns(fixRate('2'), [s(0), s(2), s(4), s(5), s(7)])).toEqual([
      [s(0), s(2), s(4)],
      [s(5), s(7)],
    ]);
  });

  it('keeps one run for times that all follow, and none for no times', () => {
    const weekdays = cron('0 0 9 ? * MON-FRI');
    // Friday 9:00 is followed by Monday 9:00.
    const friday = Date.UTC(2030, 0, 4, 9);
    const monday = Date.UTC(2030, 0, 7, 9);
    expect(consecutiveFireRuns(weekdays, [friday, monday])).toEqual([[friday, monday]]);
    expect(consecutiveFireRuns(weekdays, [])).toEqual([]);
  });
});
