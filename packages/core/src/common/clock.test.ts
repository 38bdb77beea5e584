import { describe, expect, it } from 'vitest';
import { type Clock, sleepUntil, systemClock } from './clock.js';

/** The system clock, counting the timers asked of it. */
function countingClock(): Clock & { sleeps: number[] } {
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => Date.now(),
    sleep: (ms, signal) => {
      sleeps.push(ms);
      return systemClock.sleep(ms, signal);
    },
  };
}

describe('sleepUntil', () => {
  it('gives the callers waiting for one millisecond one timer, and each distinct time its own', async () => {
    const clock = countingClock();
    const at = Date.now() + 30;
    const woke: number[] = [];
    await Promise.all([
      ...[1, 2, 3].map(async (n) => {
        await sleepUntil(clock, at);
        woke.push(n);
        expect(Date.now()).toBeGreaterThanOrEqual(at);
      }),
      sleepUntil(clock, at + 5).then(() => woke.push(4)),
    ]);
    // One timer for `at` and one for `at + 5` (and, should one fire early, a short one after it).
    expect(clock.sleeps.filter((ms) => ms > 3)).toHaveLength(2);
    expect(woke).toEqual([1, 2, 3, 4]);
  });

  it('never wakes before its time, even when a timer fires early', async () => {
    const early: Clock = { now: () => Date.now(), sleep: (ms, signal) => systemClock.sleep(ms - 2, signal) };
    const at = Date.now() + 20;
    await sleepUntil(early, at);
    expect(Date.now()).toBeGreaterThanOrEqual(at);
  });

  it('answers at once for a time already past, and a new timer for a time asked again after it passed', async () => {
    const clock = countingClock();
    await sleepUntil(clock, Date.now() - 1);
    expect(clock.sleeps).toHaveLength(0);
    const at = Date.now() + 20;
    await sleepUntil(clock, at);
    await sleepUntil(clock, Date.now() + 20);
    // A timer each (and, should one fire early, a short one after it).
    expect(clock.sleeps.filter((ms) => ms > 10)).toHaveLength(2);
  });
});
