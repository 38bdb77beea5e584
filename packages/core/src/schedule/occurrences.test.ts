import { describe, expect, it } from 'vitest';
import {
  effectiveNextFire,
  exceptionsFitting,
  markOccurrences,
  moveWindow,
  neighboursOf,
  nominalOf,
  type OccurrenceException,
  planOccurrences,
  prunedExceptions,
} from './occurrences.js';
import { planFires, type Schedule } from './schedule.js';

const T = Date.parse('2030-01-01T00:00:00.000Z');
const everyTwoSeconds: Schedule = { type: 'FIX_RATE', conf: '2', timeZone: 'UTC' };
const hourly: Schedule = { type: 'CRON', conf: '0 0 * * * ?', timeZone: 'UTC' };
const skip = (at: number): OccurrenceException => ({ at, action: 'skip', by: 'ana', createdAt: T - 60_000 });
const move = (at: number, to: number): OccurrenceException => ({
  at,
  action: 'move',
  to,
  by: 'ana',
  createdAt: T,
});

describe('the tick’s plan through one-off exceptions', () => {
  it('leaves a skipped occurrence out and keeps the others at their places, the next fire after the plan effective', () => {
    const plan = planOccurrences(everyTwoSeconds, 'DO_NOTHING', T, T - 4_000, T + 10_000, 32, [
      skip(T + 4_000),
    ]);
    expect(plan.decision.fireTimes).toEqual([T, T + 2_000, T + 6_000, T + 8_000]);
    expect(plan.skipped).toEqual([T + 4_000]);
    expect(plan.decision.nextTriggerTime).toBe(T + 10_000);
    expect(plan.nominalDue).toBe(T);
  });

  it('steps the next fire over skipped occurrences past the plan', () => {
    const plan = planOccurrences(everyTwoSeconds, 'DO_NOTHING', T, T - 4_000, T + 1_000, 32, [
      skip(T + 2_000),
      skip(T + 4_000),
    ]);
    expect(plan.decision.fireTimes).toEqual([T]);
    expect(plan.decision.nextTriggerTime).toBe(T + 6_000);
  });

  it('makes a moved-later occurrence the next fire at its new time, not planned before its time is near', () => {
    const moved = [move(T + 8_000, T + 9_000)];
    const plan = planOccurrences(everyTwoSeconds, 'DO_NOTHING', T, T - 4_000, T + 8_500, 32, moved);
    expect(plan.decision.fireTimes).toEqual([T, T + 2_000, T + 4_000, T + 6_000]);
    expect(plan.decision.nextTriggerTime).toBe(T + 9_000);
    // Read at its new time, the due stands for the occurrence: the plan counts from it.
    const next = planOccurrences(everyTwoSeconds, 'DO_NOTHING', T + 9_000, T + 4_500, T + 13_000, 32, moved);
    expect(next.nominalDue).toBe(T + 8_000);
    expect(next.decision.fireTimes).toEqual([T + 8_000, T + 10_000, T + 12_000]);
    expect(next.decision.missedTime).toBeUndefined();
  });

  it('brings a moved-earlier occurrence into the plan whose window holds its new time', () => {
    const moved = [move(T + 3_600_000, T + 1_800_000)];
    const plan = planOccurrences(hourly, 'DO_NOTHING', T, T - 4_000, T + 10_000, 32, moved);
    expect(plan.decision.nextTriggerTime).toBe(T + 1_800_000);
    const at = planOccurrences(hourly, 'DO_NOTHING', T + 1_800_000, T + 1_796_000, T + 1_810_000, 32, moved);
    expect(at.decision.fireTimes).toEqual([T + 3_600_000]);
    expect(at.decision.nextTriggerTime).toBe(T + 7_200_000);
  });

  it('treats a moved fire missed by more than the threshold as the missed occurrence, fired after both it and now', () => {
    const moved = [move(T + 3_600_000, T + 1_800_000)];
    const late = planOccurrences(
      hourly,
      'FIRE_ONCE_NOW',
      T + 1_800_000,
      T + 1_900_000,
      T + 1_910_000,
      32,
      moved,
    );
    expect(late.decision.missedTime).toBe(T + 3_600_000);
    expect(late.decision.misfire).toBe(true);
    expect(late.decision.fireTimes).toEqual([T + 1_900_000]);
    // The occurrence itself is not fired again: the schedule goes on after it.
    expect(late.decision.nextTriggerTime).toBe(T + 7_200_000);
  });

  it('without exceptions decides as planFires does', () => {
    for (const [due, now, end] of [
      [T, T - 4_000, T + 10_000],
      [T, T + 9_000, T + 14_000],
    ] as const) {
      const plan = planOccurrences(everyTwoSeconds, 'FIRE_ONCE_NOW', due, now, end, 32, []);
      expect(plan.decision).toEqual(planFires(everyTwoSeconds, 'FIRE_ONCE_NOW', due, now, end));
    }
  });
});

describe('the effective next fire', () => {
  it('is a moved occurrence’s new time, the first unskipped one’s own, or null at the schedule’s end', () => {
    expect(effectiveNextFire(hourly, T, [move(T, T + 60_000)])).toBe(T + 60_000);
    expect(effectiveNextFire(hourly, T, [skip(T), skip(T + 3_600_000)])).toBe(T + 7_200_000);
    const once: Schedule = { type: 'ONCE', conf: new Date(T).toISOString(), timeZone: 'UTC' };
    expect(effectiveNextFire(once, T, [skip(T)])).toBeNull();
    expect(nominalOf(T + 60_000, [move(T, T + 60_000)])).toBe(T);
    expect(nominalOf(T + 3_600_000, [move(T, T + 60_000)])).toBe(T + 3_600_000);
  });
});

describe('where a time falls in a schedule', () => {
  it('names a cron’s occurrences and the nearest fires before and after any time', () => {
    expect(neighboursOf(hourly, T, T + 3_600_000)).toEqual({
      isOccurrence: true,
      before: T,
      after: T + 7_200_000,
    });
    expect(neighboursOf(hourly, T, T + 90_000)).toEqual({
      isOccurrence: false,
      before: T,
      after: T + 3_600_000,
    });
  });

  it('counts a FIX_RATE schedule’s occurrences from its anchor, both ways', () => {
    expect(neighboursOf(everyTwoSeconds, T, T + 6_000)).toEqual({
      isOccurrence: true,
      before: T + 4_000,
      after: T + 8_000,
    });
    expect(neighboursOf(everyTwoSeconds, T, T + 5_000).isOccurrence).toBe(false);
    expect(neighboursOf(everyTwoSeconds, T, T - 2_000).isOccurrence).toBe(true);
  });

  it('reads a cron in its zone across a DST change (Europe/Berlin springs forward on 2030-03-31)', () => {
    const daily: Schedule = { type: 'CRON', conf: '0 30 2 * * ?', timeZone: 'Europe/Berlin' };
    const mar30 = Date.parse('2030-03-30T01:30:00Z'); // 02:30 CET
    const apr1 = Date.parse('2030-04-01T00:30:00Z'); // 02:30 CEST; 2030-03-31 02:30 does not exist
    expect(neighboursOf(daily, mar30, apr1)).toEqual({
      isOccurrence: true,
      before: mar30,
      after: Date.parse('2030-04-02T00:30:00Z'),
    });
    // A move of the fire after the gap may land anywhere between the two real fires, the missing day included.
    expect(moveWindow(daily, mar30, apr1, [])).toEqual({
      from: mar30,
      until: Date.parse('2030-04-02T00:30:00Z'),
    });
  });
});

describe('a move’s window', () => {
  it('lies between the neighbours’ effective times, so fires stay in order', () => {
    const ex = [move(T, T + 1_800_000)];
    expect(moveWindow(hourly, T, T + 3_600_000, ex)).toEqual({ from: T + 1_800_000, until: T + 7_200_000 });
    expect(moveWindow(hourly, T, T + 3_600_000, [skip(T)])).toEqual({ from: T, until: T + 7_200_000 });
  });
});

describe('previewed occurrences', () => {
  it('marks a skipped one without a fire time and a moved one at its new time, which is not jittered again', () => {
    const jittered = (t: number) => t + 7_000;
    const ex = [skip(T), move(T + 3_600_000, T + 3_900_000)];
    expect(markOccurrences([T, T + 3_600_000, T + 7_200_000], ex, jittered)).toEqual([
      { time: T, fireAt: null, exception: ex[0] },
      { time: T + 3_600_000, fireAt: T + 3_900_000, exception: ex[1] },
      { time: T + 7_200_000, fireAt: T + 7_207_000 },
    ]);
  });
});

describe('keeping exceptions', () => {
  it('prunes those passed an hour ago and sorts the rest by time', () => {
    const kept = prunedExceptions(
      [skip(T + 60_000), skip(T - 7_200_000), move(T - 3_500_000, T - 3_400_000)],
      T,
    );
    expect(kept.map((e) => e.at)).toEqual([T - 3_500_000, T + 60_000]);
  });

  it('keeps across a schedule change only those that name its occurrences, moves inside their window', () => {
    const half: Schedule = { type: 'CRON', conf: '0 0/30 * * * ?', timeZone: 'UTC' };
    const ex = [
      skip(T),
      skip(T + 60_000),
      move(T + 3_600_000, T + 5_500_000),
      move(T + 7_200_000, T + 7_300_000),
    ];
    expect(exceptionsFitting(half, ex)).toEqual([ex[0], ex[3]]);
    expect(exceptionsFitting(everyTwoSeconds, ex)).toEqual([]);
  });
});
