import { SETTINGS } from '@tickring/core/config';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { type BenchmarkOptions, runBenchmark } from './benchmark.js';
import { measureLimits } from './limits.js';

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

/**
 * Store requests one every-second job costs per second, with room to spare: a fire takes about six
 * (claim, dispatch record, result, the tick's share, reads), and the other integration files use the
 * same DynamoDB Local meanwhile. A job count above what the store carries would make fires late, and
 * late fires are skipped by design: these tests check correctness, so they stay under the capacity.
 */
const STORE_REQUESTS_PER_JOB = 24;

/** As many every-second jobs (3 to 20) as DynamoDB Local carries right now, measured in this run. */
async function jobsTheStoreCarries(): Promise<number> {
  const limits = await measureLimits(standIns(), 'us-east-1', { seconds: 1, delayedMessages: 10 });
  const carried = Math.floor(limits.dynamodbConditionalWritesPerSecond / STORE_REQUESTS_PER_JOB);
  return Math.max(3, Math.min(SHORT.jobs, carried));
}

let jobs = SHORT.jobs;
beforeAll(async () => {
  jobs = await jobsTheStoreCarries();
}, 60_000);

describe('runBenchmark (up to 20 jobs every second for 10 s, as many as the store carries)', () => {
  it('runs every fire the schedules demand exactly once and in order, and prices it', async () => {
    const { line, details } = await runBenchmark(standIns(), { ...SHORT, jobs, limitSeconds: 1 });

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
      jobs,
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
