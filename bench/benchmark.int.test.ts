import { SETTINGS } from '@tickring/core/config';
import { describe, expect, inject, it } from 'vitest';
import { type BenchmarkOptions, runBenchmark } from './benchmark.js';

/** The short run of the bench, on the stand-ins the integration tests share; correctness only. */
const SHORT: BenchmarkOptions = {
  jobs: 20,
  seconds: 10,
  warmupSeconds: 1,
  schedule: { type: 'FIX_RATE', conf: '1', timeZone: 'UTC' },
  executors: 1,
  idleJobs: 0,
  shards: SETTINGS.shardCount.default,
  drainSeconds: 30,
  limitSeconds: 0,
};

function standIns() {
  const { dynamoEndpoint, sqsEndpoint } = inject('standIns');
  return { dynamodb: dynamoEndpoint, sqs: sqsEndpoint };
}

describe('runBenchmark (20 jobs every second for 10 s)', () => {
  it('runs every fire the schedules demand exactly once and in order, and prices it', async () => {
    const { line, details } = await runBenchmark(standIns(), { ...SHORT, limitSeconds: 1 });

    expect(line.expected).toBeGreaterThan(0);
    expect(line.executed).toBe(line.expected);
    expect({ missed: line.missed, duplicates: line.duplicates, outOfOrder: line.outOfOrder }).toEqual({
      missed: 0,
      duplicates: 0,
      outOfOrder: 0,
    });
    expect(details.unexpected).toBe(0);
    // Measured, whatever the numbers: every trigger needs the ring, the dispatcher and the run table.
    expect(line.perTrigger.dynamodbWriteUnits).toBeGreaterThan(0);
    expect(line.perTrigger.sqsRequests).toBeGreaterThan(0);
    expect(details.functions.map((f) => f.functionName)).toContain('dispatcher');
    expect(line.usdPerMillionTriggers).toBeGreaterThan(0);
    expect(line.limits.sqsMessagesPerSecond).toBeGreaterThan(0);
    expect(line.tickMsPerSecond.max).toBeGreaterThan(0);
  }, 180_000);

  it('reports a fire the dispatcher dropped as missed and a fire run twice as a duplicate', async () => {
    const { line, details } = await runBenchmark(standIns(), {
      ...SHORT,
      drainSeconds: 10,
      faults: { dropOneFire: true, duplicateOneFire: true },
    });

    expect(details.faults.dropped).toBeDefined();
    expect(details.faults.duplicated).toBeDefined();
    expect(details.faults.duplicated).not.toEqual(details.faults.dropped);
    expect({ missed: line.missed, duplicates: line.duplicates, outOfOrder: line.outOfOrder }).toEqual({
      missed: 1,
      duplicates: 1,
      outOfOrder: 0,
    });
    expect(line.executed).toBe(line.expected - 1);
  }, 180_000);
});
