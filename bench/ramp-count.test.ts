import type { Schedule } from '@tickring/core/schedule';
import { describe, expect, it } from 'vitest';
import { expectedFires, fireKey, type Receipt } from './fire-count.js';
import { countRampStep, isClean, overloadVerdict, skippedFires } from './ramp-count.js';

const EVERY_SECOND: Schedule = { type: 'FIX_RATE', conf: '1', timeZone: 'UTC' };
const T = Date.UTC(2026, 10, 27, 12, 0, 0);
const s = (seconds: number) => T + seconds * 1000;

describe('skippedFires', () => {
  it("counts each skipped run as its skippedCount (absent: 1) of its job's consecutive fires", () => {
    const skipped = skippedFires(
      [
        { jobId: 1, triggerCode: 600, scheduledTime: s(10), skippedCount: 3, skippedUntil: s(12) },
        { jobId: 2, triggerCode: 600, scheduledTime: s(5) },
        { jobId: 3, triggerCode: 200, scheduledTime: s(5) },
      ],
      EVERY_SECOND,
    );

    expect(skipped.count).toBe(4);
    expect([...skipped.keys].sort()).toEqual(
      [fireKey(1, s(10)), fireKey(1, s(11)), fireKey(1, s(12)), fireKey(2, s(5))].sort(),
    );
    expect(skipped.mismatchedRanges).toBe(0);
  });

  it('counts a range whose count does not end at its skippedUntil by its count, and says so', () => {
    const skipped = skippedFires(
      [{ jobId: 4, triggerCode: 600, scheduledTime: s(1), skippedCount: 2, skippedUntil: s(5) }],
      EVERY_SECOND,
    );

    expect(skipped.count).toBe(2);
    expect([...skipped.keys]).toEqual([fireKey(4, s(1)), fireKey(4, s(2))]);
    expect(skipped.mismatchedRanges).toBe(1);
  });
});

describe('countRampStep', () => {
  // Two jobs every second; the window holds their fires at 10, 11, 12 and 13 s.
  const window = { start: s(10), end: s(14) };
  const expected = expectedFires(
    [
      { jobId: 1, schedule: EVERY_SECOND, firstFire: s(8) },
      { jobId: 2, schedule: EVERY_SECOND, firstFire: s(8) },
    ],
    window,
  );
  const receipt = (jobId: number, at: number, latenessMs: number): Receipt => ({
    jobId,
    scheduledTime: s(at),
    receivedAt: s(at) + latenessMs,
  });

  it('splits the expected fires into executed, skipped (recorded, not run), failed (recorded, not run) and missed (neither)', () => {
    const receipts = [
      receipt(1, 9, 5_000), // before the window: not counted
      receipt(1, 10, 100),
      receipt(2, 10, 50),
      receipt(1, 10, 900), // run twice
      receipt(1, 11, 200),
      receipt(1, 12, 300),
      receipt(1, 13, 400),
    ];
    const skipped = new Set([fireKey(2, s(11)), fireKey(2, s(12))]);
    // A failed run of a fire that also ran (a retry's) is no failed fire.
    const failed = new Set([fireKey(2, s(10)), fireKey(2, s(13))]);

    const step = countRampStep(2, window, expected, receipts, skipped, failed);

    expect(step).toEqual({
      offered: 2,
      seconds: 4,
      expected: 8,
      executed: 5,
      skipped: 2,
      // job 2 at 13 s: recorded as a failed trigger, not run.
      failed: 1,
      missed: 0,
      duplicates: 1,
      outOfOrder: 0,
      executedPerSecond: 1.25,
      latenessMs: { p50: 200, p90: 400, p99: 400, max: 400 },
    });
    expect(isClean(step)).toBe(false);
  });

  it('counts a fire that ran as executed even when a skipped run also names it', () => {
    const step = countRampStep(
      2,
      window,
      expected,
      expected.map((f) => ({ ...f, receivedAt: f.scheduledTime + 10 })),
      new Set([fireKey(1, s(12))]),
    );

    expect(step).toMatchObject({ executed: 8, skipped: 0, missed: 0, executedPerSecond: 2 });
    expect(isClean(step)).toBe(true);
  });
});

describe('overloadVerdict', () => {
  const clean = { skipped: 0, failed: 0, missed: 0, duplicates: 0, outOfOrder: 0 };
  const late = { skipped: 500, failed: 0, missed: 20, duplicates: 0, outOfOrder: 0 };

  it('holds when every step offered beyond the highest clean rate executes at least 90 % of it', () => {
    const verdict = overloadVerdict([
      { offered: 100, executedPerSecond: 100, ...clean },
      { offered: 200, executedPerSecond: 200, ...clean },
      { offered: 300, executedPerSecond: 190, ...late },
      { offered: 600, executedPerSecond: 181, ...late },
    ]);

    expect(verdict).toEqual({
      sustainedPerSecond: 200,
      lowestBeyondPerSecond: 181,
      ratio: 0.905,
      offeredUpTo: 3,
      holds: true,
    });
  });

  it('does not hold when a step beyond it falls below 90 %', () => {
    const verdict = overloadVerdict([
      { offered: 200, executedPerSecond: 200, ...clean },
      { offered: 300, executedPerSecond: 250, ...late },
      { offered: 450, executedPerSecond: 179, ...late },
    ]);

    expect(verdict).toMatchObject({ lowestBeyondPerSecond: 179, holds: false });
  });

  it('takes a clean step above a failed one (noise) as the sustained rate', () => {
    const verdict = overloadVerdict([
      { offered: 200, executedPerSecond: 150, ...late },
      { offered: 300, executedPerSecond: 300, ...clean },
      { offered: 450, executedPerSecond: 280, ...late },
    ]);

    expect(verdict).toMatchObject({ sustainedPerSecond: 300, lowestBeyondPerSecond: 280, holds: true });
  });

  it('cannot tell without a clean step, or without a step beyond it', () => {
    expect(overloadVerdict([{ offered: 100, executedPerSecond: 50, ...late }])).toMatchObject({
      sustainedPerSecond: Number.NaN,
      holds: null,
    });
    expect(overloadVerdict([{ offered: 100, executedPerSecond: 100, ...clean }])).toMatchObject({
      sustainedPerSecond: 100,
      lowestBeyondPerSecond: Number.NaN,
      holds: null,
    });
  });
});
