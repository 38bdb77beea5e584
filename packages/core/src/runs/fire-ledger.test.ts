import { testCalendar, testRun } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { calendarGate } from '../calendars/calendar-schedule.js';
import type { Schedule } from '../schedule/schedule.js';
import {
  buildFireLedger,
  type LedgerDefinition,
  type LedgerPeriod,
  skipRuleOf,
  TooManyFiresError,
} from './fire-ledger.js';
import { HANDLE_CODE, type Run, TRIGGER_CODE } from './run.js';

const T0 = Date.UTC(2030, 0, 2, 12, 0, 0); // a Wednesday
const MIN = 60_000;
const everyMinute: Schedule = { type: 'CRON', conf: '0 * * * * ?', timeZone: 'UTC' };
const definition = (
  schedule: Schedule = everyMinute,
  more: Partial<LedgerDefinition> = {},
): LedgerDefinition => ({
  schedule,
  bounds: {},
  ...more,
});
const running = (from: number, to: number, more: Partial<LedgerPeriod> = {}): LedgerPeriod => ({
  from,
  to,
  running: true,
  definition: definition(),
  ...more,
});

let nextLogId = 1;
function run(scheduledTime: number, fields: Partial<Run> = {}): Run {
  return testRun({
    logId: nextLogId++,
    jobId: 7,
    appName: 'app',
    dedupKey: `7#${scheduledTime}`,
    scheduledTime,
    triggerType: 'CRON',
    triggerCode: TRIGGER_CODE.success,
    handleCode: HANDLE_CODE.success,
    ...fields,
  });
}
const skipped = (scheduledTime: number, triggerMsg: string, fields: Partial<Run> = {}) =>
  run(scheduledTime, { triggerCode: TRIGGER_CODE.skipped, handleCode: 0, triggerMsg, ...fields });

const ledger = (periods: LedgerPeriod[], runs: Run[], from = T0, to = T0 + 10 * MIN, nowMs = T0 + 60 * MIN) =>
  buildFireLedger({ jobId: 7, from, to, nowMs, periods, runs });

describe('buildFireLedger: matching owed fires to runs', () => {
  it('accounts for every fire of a window: ran, a misfire range, an overtaken fire, an overloaded one, a block', () => {
    const runs = [
      run(T0),
      // Refused: its trigger message lists the job's block strategy, which did not refuse it.
      run(T0 + MIN, { handleCode: HANDLE_CODE.fail, triggerMsg: 'Block strategy: SERIAL_EXECUTION' }),
      run(T0 + 2 * MIN, { handleCode: 0 }),
      skipped(T0 + 3 * MIN, 'Skipped, never sent: 3 fires due from … not planned within 5 s of their time', {
        skippedCount: 3,
        skippedUntil: T0 + 5 * MIN,
      }),
      skipped(T0 + 6 * MIN, 'Skipped, never sent: overtaken by the fire due at …, claimed before it'),
      skipped(T0 + 7 * MIN, 'Skipped, never sent: reached the dispatcher 9.0 s after its time'),
      run(T0 + 8 * MIN, { handleCode: HANDLE_CODE.fail, handleMsg: 'block strategy effect：Discard Later' }),
      run(T0 + 9 * MIN, { jitterMs: 1500 }),
    ];
    const result = ledger([running(T0 - MIN, T0 + 20 * MIN)], runs);
    expect(result.entries.map((e) => [e.scheduledTime - T0, e.outcome, e.rule ?? e.status, e.count])).toEqual(
      [
        [0, 'ran', 'success', 1],
        [MIN, 'ran', 'fail', 1],
        [2 * MIN, 'ran', 'running', 1],
        [3 * MIN, 'skipped', 'misfire', 3],
        [6 * MIN, 'skipped', 'overlap', 1],
        [7 * MIN, 'skipped', 'overload', 1],
        [8 * MIN, 'skipped', 'block', 1],
        [9 * MIN, 'ran', 'success', 1],
      ],
    );
    expect(result.entries[3]?.until).toBe(T0 + 5 * MIN);
    expect(result.entries[7]?.fireAt).toBe(T0 + 9 * MIN + 1500);
    expect(result.summary).toMatchObject({ ran: 4, skipped: 6, unexplained: 0 });
    expect(result.summary.skippedBy).toEqual({ misfire: 3, overload: 1, overlap: 1, block: 1 });
  });

  it('a fire with no run is unexplained once settled, not yet due before', () => {
    const result = ledger(
      [running(T0 - MIN, T0 + 20 * MIN)],
      [run(T0)],
      T0,
      T0 + 3 * MIN,
      T0 + 2 * MIN + 10_000,
    );
    expect(result.entries.map((e) => [e.scheduledTime - T0, e.outcome, e.count])).toEqual([
      [0, 'ran', 1],
      [MIN, 'unexplained', 1],
      [2 * MIN, 'notYetDue', 1],
    ]);
  });

  it('fires missed before a FIRE_ONCE_NOW catch-up are skipped as a misfire, naming the catch-up', () => {
    const catchUp = run(T0 + 3 * MIN + 20_000, { triggerType: 'MISFIRE' });
    const result = ledger(
      [running(T0 - MIN, T0 + 20 * MIN)],
      [run(T0), catchUp, run(T0 + 4 * MIN)],
      T0,
      T0 + 5 * MIN,
    );
    expect(result.entries.map((e) => [e.scheduledTime - T0, e.outcome, e.count, e.logId])).toEqual([
      [0, 'ran', 1, expect.any(Number)],
      [MIN, 'skipped', 3, catchUp.logId],
      [4 * MIN, 'ran', 1, expect.any(Number)],
    ]);
  });

  it('a stopped stretch owes nothing (paused, naming what stopped it); a start begins the schedule again', () => {
    const periods = [
      running(T0 - MIN, T0 + 2 * MIN + 30_000),
      {
        ...running(T0 + 2 * MIN + 30_000, T0 + 5 * MIN + 58_000),
        running: false,
        stoppedBy: 'job.pausedByPolicy',
      },
      running(T0 + 5 * MIN + 58_000, T0 + 20 * MIN, { restartedAt: T0 + 5 * MIN + 58_000 }),
    ];
    const runs = [0, 1, 2, 7, 8, 9].map((m) => run(T0 + m * MIN));
    const result = ledger(periods, runs);
    expect(result.entries.map((e) => [e.scheduledTime - T0, e.outcome, e.count, e.stoppedBy])).toEqual([
      [0, 'ran', 1, undefined],
      [MIN, 'ran', 1, undefined],
      [2 * MIN, 'ran', 1, undefined],
      [3 * MIN, 'paused', 3, 'job.pausedByPolicy'],
      // Started at 12:05:58: its first fire is after 12:06:03, so 12:06 was never owed.
      [7 * MIN, 'ran', 1, undefined],
      [8 * MIN, 'ran', 1, undefined],
      [9 * MIN, 'ran', 1, undefined],
    ]);
    expect(result.summary.unexplained).toBe(0);
  });
});

describe('buildFireLedger: what the schedule did not owe', () => {
  it('lists a calendar holiday as excluded, with the calendar and the date', () => {
    const holiday = testCalendar({
      id: 'hol',
      timeZone: 'UTC',
      excluded: [{ from: '2030-01-03', label: 'Closed' }],
    });
    const gate = calendarGate({ exclude: ['hol'] }, new Map([['hol', holiday]]));
    const daily: Schedule = { type: 'CRON', conf: '0 0 9 * * ?', timeZone: 'UTC' };
    const day = 86_400_000;
    const from = Date.UTC(2030, 0, 2);
    const nineAm = (d: number) => from + d * day + 9 * 3_600_000;
    const result = ledger(
      [running(from - day, from + 5 * day, { definition: definition(daily, gate ? { gate } : {}) })],
      [run(nineAm(0)), run(nineAm(2))],
      from,
      from + 3 * day,
      from + 5 * day,
    );
    expect(
      result.entries.map((e) => [e.outcome, e.calendar?.calendarId, e.calendar?.date, e.calendar?.label]),
    ).toEqual([
      ['ran', undefined, undefined, undefined],
      ['calendar', 'hol', '2030-01-03', 'Closed'],
      ['ran', undefined, undefined, undefined],
    ]);
  });

  it('a skipped occurrence is an exception; a moved one ran at its new time under its scheduled time', () => {
    const exceptions = [
      { at: T0 + MIN, action: 'skip' as const, by: 'ana', reason: 'maintenance', createdAt: T0 - MIN },
      {
        at: T0 + 2 * MIN,
        action: 'move' as const,
        to: T0 + 2 * MIN + 20_000,
        by: 'ana',
        createdAt: T0 - MIN,
      },
    ];
    const moved = run(T0 + 2 * MIN, { jitterMs: 20_000 });
    const result = ledger(
      [running(T0 - MIN, T0 + 20 * MIN, { definition: definition(everyMinute, { exceptions }) })],
      [run(T0), moved],
      T0,
      T0 + 3 * MIN,
    );
    expect(
      result.entries.map((e) => [e.outcome, e.exception?.action, e.exception?.reason, e.fireAt]),
    ).toEqual([
      ['ran', undefined, undefined, undefined],
      ['exception', 'skip', 'maintenance', undefined],
      ['ran', undefined, undefined, T0 + 2 * MIN + 20_000],
    ]);
    expect(result.summary).toMatchObject({ ran: 2, exception: 1, unexplained: 0 });
  });

  it('owes no fire in a skipped DST hour and one in a repeated hour (Quartz in the job zone)', () => {
    const berlin: Schedule = { type: 'CRON', conf: '0 30 2 * * ?', timeZone: 'Europe/Berlin' };
    const from = Date.UTC(2030, 2, 30); // Berlin springs forward on 2030-03-31 at 02:00
    const to = Date.UTC(2030, 3, 2);
    const result = ledger(
      [running(from - 1, to, { definition: definition(berlin) })],
      [],
      from,
      to,
      to + MIN,
    );
    const fires = result.entries.flatMap((e) => [
      e.scheduledTime,
      ...(e.until === undefined ? [] : [e.until]),
    ]);
    expect(fires.map((t) => new Date(t).toISOString())).toEqual([
      '2030-03-30T01:30:00.000Z',
      '2030-04-01T00:30:00.000Z',
    ]);
    expect(result.summary.unexplained).toBe(2);

    const autumnFrom = Date.UTC(2030, 9, 26); // and falls back on 2030-10-27 at 03:00
    const autumn = ledger(
      [running(autumnFrom - 1, autumnFrom + 2 * 86_400_000, { definition: definition(berlin) })],
      [],
      autumnFrom,
      autumnFrom + 2 * 86_400_000,
      autumnFrom + 3 * 86_400_000,
    );
    expect(autumn.summary.unexplained).toBe(2); // one on the 26th, one (not two) on the 27th
  });

  it('leaves out fires before startAt and after endAt', () => {
    const bounds = { startAt: T0 + 2 * MIN, endAt: T0 + 4 * MIN };
    const result = ledger(
      [running(T0 - MIN, T0 + 20 * MIN, { definition: definition(everyMinute, { bounds }) })],
      [],
    );
    expect(result.summary.unexplained).toBe(3);
    expect(result.entries[0]?.scheduledTime).toBe(T0 + 2 * MIN);
  });
});

describe('buildFireLedger: FIX_RATE and limits', () => {
  it('follows a FIX_RATE sequence from its runs, also after a misfire moved its phase', () => {
    const rate: Schedule = { type: 'FIX_RATE', conf: '10', timeZone: 'UTC' };
    const base = T0 + 3_000; // the sequence's phase is not on a whole minute
    const runs = [0, 10, 20].map((s) => run(base + s * 1000, { triggerType: 'FIX_RATE' }));
    // The scheduler was down: after the misfire the sequence re-counts from 12:00:47.
    runs.push(...[47, 57].map((s) => run(T0 + s * 1000, { triggerType: 'FIX_RATE' })));
    runs.push(
      skipped(base + 30_000, 'Skipped, never sent: not planned within 5 s', { triggerType: 'FIX_RATE' }),
    );
    const result = ledger(
      [running(T0 - MIN, T0 + 20 * MIN, { definition: definition(rate) })],
      runs,
      T0,
      T0 + MIN,
      T0 + 10 * MIN,
    );
    expect(result.entries.map((e) => [(e.scheduledTime - T0) / 1000, e.outcome])).toEqual([
      [3, 'ran'],
      [13, 'ran'],
      [23, 'ran'],
      [33, 'skipped'],
      [43, 'unexplained'],
      [47, 'ran'],
      [57, 'ran'],
    ]);
  });

  it('follows a FIX_RATE sequence from a FIRE_ONCE_NOW catch-up off it, which stands for the fires missed before it', () => {
    const rate: Schedule = { type: 'FIX_RATE', conf: '60', timeZone: 'UTC' };
    // Due at 12:00:00, the tick came back at 12:00:05.6: a catch-up at 12:00:05, the sequence on from it.
    const runs = [
      run(T0 - MIN, { triggerType: 'FIX_RATE' }),
      run(T0 + 5_000, { triggerType: 'MISFIRE' }),
      run(T0 + 65_000, { triggerType: 'FIX_RATE' }),
      run(T0 + 125_000, { triggerType: 'FIX_RATE' }),
    ];
    const result = ledger(
      [running(T0 - 10 * MIN, T0 + 20 * MIN, { definition: definition(rate) })],
      runs,
      T0 - MIN,
      T0 + 3 * MIN,
      T0 + 10 * MIN,
    );
    expect(result.entries.map((e) => [(e.scheduledTime - T0) / 1000, e.outcome, e.rule ?? e.status])).toEqual(
      [
        [-60, 'ran', 'success'],
        [0, 'skipped', 'misfire'],
        [65, 'ran', 'success'],
        [125, 'ran', 'success'],
      ],
    );
  });

  it('refuses a window of more fires than the limit, naming it', () => {
    const everySecond: Schedule = { type: 'CRON', conf: '* * * * * ?', timeZone: 'UTC' };
    expect(() =>
      buildFireLedger({
        jobId: 7,
        from: T0,
        to: T0 + 3 * 3_600_000,
        nowMs: T0,
        periods: [running(T0, T0 + 3 * 3_600_000, { definition: definition(everySecond) })],
        runs: [],
      }),
    ).toThrow(new TooManyFiresError(10_000));
  });

  it('reads the skip rule from the skipped run', () => {
    expect(skipRuleOf({ triggerMsg: 'Skipped, never sent: overtaken by the fire due at x' })).toBe('overlap');
    expect(skipRuleOf({ triggerMsg: 'Skipped, never sent: reached the dispatcher 7.0 s after' })).toBe(
      'overload',
    );
    expect(skipRuleOf({ triggerMsg: 'FIRE_ONCE_NOW: a catch-up already ran since' })).toBe('misfire');
  });
});
