import { describe, expect, it } from 'vitest';
import { countFires, expectedFires, type Fire, type Receipt } from './fire-count.js';

const S = 1000;
const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);
const window = { start: T0, end: T0 + 5 * S };

/** Job 1 and 2 fire every second; each fire run once, 100 ms late, in order. */
function cleanRun(): { expected: Fire[]; receipts: Receipt[] } {
  const expected: Fire[] = [];
  const receipts: Receipt[] = [];
  for (let t = T0; t < window.end; t += S) {
    for (const jobId of [1, 2]) {
      expected.push({ jobId, scheduledTime: t });
      receipts.push({ jobId, scheduledTime: t, receivedAt: t + 100 });
    }
  }
  return { expected, receipts };
}

describe('expectedFires', () => {
  it('chains each job from its first fire with the domain schedule, keeping the window [start, end)', () => {
    const fires = expectedFires(
      [
        { jobId: 1, schedule: { type: 'FIX_RATE', conf: '1', timeZone: 'UTC' }, firstFire: T0 - 2 * S },
        { jobId: 2, schedule: { type: 'FIX_RATE', conf: '2', timeZone: 'UTC' }, firstFire: T0 + S },
        { jobId: 3, schedule: { type: 'CRON', conf: '*/2 * * * * ?', timeZone: 'UTC' }, firstFire: T0 },
        {
          jobId: 4,
          schedule: { type: 'ONCE', conf: new Date(T0 + 3 * S).toISOString(), timeZone: 'UTC' },
          firstFire: T0 + 3 * S,
        },
      ],
      window,
    );
    const times = (jobId: number) =>
      fires.filter((f) => f.jobId === jobId).map((f) => (f.scheduledTime - T0) / S);
    expect(times(1)).toEqual([0, 1, 2, 3, 4]);
    expect(times(2)).toEqual([1, 3]);
    expect(times(3)).toEqual([0, 2, 4]);
    expect(times(4)).toEqual([3]);
  });
});

describe('countFires', () => {
  it('counts a clean run: everything executed once, in order, lateness from receipt and schedule', () => {
    const { expected, receipts } = cleanRun();
    expect(countFires(expected, receipts, window)).toEqual({
      expected: 10,
      executed: 10,
      missed: 0,
      duplicates: 0,
      outOfOrder: 0,
      unexpected: 0,
      latenessMs: { p50: 100, p90: 100, p99: 100, max: 100 },
      triggersPerSecond: 2,
    });
  });

  it('counts a fire that never ran as missed', () => {
    const { expected, receipts } = cleanRun();
    const withoutOne = receipts.filter((r) => !(r.jobId === 2 && r.scheduledTime === T0 + 2 * S));
    const count = countFires(expected, withoutOne, window);
    expect(count).toMatchObject({ expected: 10, executed: 9, missed: 1, duplicates: 0, outOfOrder: 0 });
    expect(count.triggersPerSecond).toBeCloseTo(1.8);
  });

  it('counts second and later runs of a fire as duplicates, not as executed, and not out of order when it is the newest', () => {
    const { expected, receipts } = cleanRun();
    const index = receipts.findIndex((r) => r.jobId === 1 && r.scheduledTime === T0 + S);
    const again = { ...(receipts[index] as Receipt), receivedAt: T0 + S + 150 };
    receipts.splice(index + 1, 0, again, again);
    expect(countFires(expected, receipts, window)).toMatchObject({
      executed: 10,
      missed: 0,
      duplicates: 2,
      outOfOrder: 0,
    });
  });

  it('counts a run whose scheduled time is earlier than one already received for the job as out of order', () => {
    const { expected, receipts } = cleanRun();
    // Job 1's fires at 2 s and 3 s arrive swapped; a late re-run of 0 s is both a duplicate and out of order.
    const at = (t: number) => receipts.findIndex((r) => r.jobId === 1 && r.scheduledTime === T0 + t * S);
    const [two, three] = [at(2), at(3)];
    [receipts[two], receipts[three]] = [receipts[three] as Receipt, receipts[two] as Receipt];
    receipts.push({ jobId: 1, scheduledTime: T0, receivedAt: T0 + 6 * S });
    expect(countFires(expected, receipts, window)).toMatchObject({
      executed: 10,
      missed: 0,
      duplicates: 1,
      outOfOrder: 2,
    });
  });

  it('uses fires outside the window only for order, and reports window fires no schedule demands as unexpected', () => {
    const { expected, receipts } = cleanRun();
    receipts.unshift({ jobId: 1, scheduledTime: T0 - S, receivedAt: T0 - S + 100 });
    receipts.push({ jobId: 1, scheduledTime: window.end, receivedAt: window.end + 100 });
    receipts.push({ jobId: 2, scheduledTime: T0 + 4 * S, receivedAt: window.end + 200 }); // duplicate, newest for job 2
    receipts.push({ jobId: 1, scheduledTime: T0 + 4 * S, receivedAt: window.end + 300 }); // behind window.end: out of order
    receipts.push({ jobId: 9, scheduledTime: T0 + 2500, receivedAt: T0 + 2600 }); // a misfire-style fire
    expect(countFires(expected, receipts, window)).toMatchObject({
      expected: 10,
      executed: 11,
      missed: 0,
      duplicates: 2,
      outOfOrder: 1,
      unexpected: 1,
    });
  });

  it('takes lateness percentiles (nearest rank) over the first run of each window fire', () => {
    const expected = Array.from({ length: 100 }, (_, i) => ({ jobId: i + 1, scheduledTime: T0 }));
    const receipts = expected.map((f, i) => ({ ...f, receivedAt: T0 + (i + 1) * 10 }));
    // A duplicate arriving very late does not move the lateness.
    receipts.push({ jobId: 1, scheduledTime: T0, receivedAt: T0 + 60_000 });
    expect(countFires(expected, receipts, window).latenessMs).toEqual({
      p50: 500,
      p90: 900,
      p99: 990,
      max: 1000,
    });
  });

  it('reports no lateness (NaN, null in JSON) and nothing executed when nothing ran', () => {
    const { expected } = cleanRun();
    const count = countFires(expected, [], window);
    expect(count).toMatchObject({ expected: 10, executed: 0, missed: 10, triggersPerSecond: 0 });
    expect(JSON.stringify(count.latenessMs)).toBe('{"p50":null,"p90":null,"p99":null,"max":null}');
  });
});
