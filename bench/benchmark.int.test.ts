import { SETTINGS } from '@tickring/core/config';
import { describe, expect, it } from 'vitest';
import { type BenchmarkOptions, runBenchmark } from './benchmark.js';

/**
 * The short run of the bench on the embedded engine (a private temp database file, so no other test
 * shares its store); correctness only: 20 every-second jobs are far below what SQLite carries, and no
 * figure of this machine's speed is asserted.
 */
const SHORT: BenchmarkOptions = {
  jobs: 20,
  seconds: 3,
  warmupSeconds: 1,
  schedule: { type: 'FIX_RATE', conf: '1', timeZone: 'UTC' },
  executors: 1,
  idleJobs: 0,
  shards: SETTINGS.shardCount.default,
  drainSeconds: 20,
  limitSeconds: 0,
};

describe('runBenchmark on SQLite (20 jobs every second for 3 s)', () => {
  it('runs every fire the schedules demand exactly once and in order, and meters the store', async () => {
    const { line, details } = await runBenchmark(
      { store: 'sqlite' },
      { ...SHORT, idleJobs: 10, limitSeconds: 0.4 },
    );

    expect(line.store).toBe('sqlite');
    expect(line.expected).toBeGreaterThan(0);
    expect(line.executed).toBe(line.expected);
    expect({ missed: line.missed, duplicates: line.duplicates, outOfOrder: line.outOfOrder }).toEqual({
      missed: 0,
      duplicates: 0,
      outOfOrder: 0,
    });
    expect(details.unexpected).toBe(0);
    // Measured, whatever the numbers: every trigger claims its run and reads and deletes its ring message.
    if (details.usage.store !== 'sqlite') throw new Error('not metered as SQLite');
    const tables = details.usage.sqlite.rows.map((row) => `${row.operation} ${row.table}`);
    expect(tables).toContain('delete ring_messages');
    expect(tables.some((t) => t.endsWith(' runs'))).toBe(true);
    expect(line.perTrigger.storeRequests).toBeGreaterThan(1);
    expect(line.perTrigger.sqliteTransactions).toBeGreaterThan(0);
    // AWS units are DynamoDB's: not made up for SQLite.
    expect(line.perTrigger.dynamodbWriteUnits).toBeNaN();
    expect(line.usdPerMillionTriggers).toBeNaN();
    expect(details.functions.map((f) => f.functionName)).toContain('dispatcher');
    expect(details.limits?.store).toBe('sqlite');
    expect(line.limits).toMatchObject({ ringMessagesPerSecond: expect.any(Number) });
    expect(line.tickMsPerSecond.max).toBeGreaterThan(0);
    expect(line.cpuCores.node).toBeGreaterThan(0);
  }, 60_000);

  it('reports a fire the dispatcher dropped as missed and a fire run twice as a duplicate', async () => {
    const { line, details } = await runBenchmark(
      { store: 'sqlite' },
      // The dropped fire never runs, so the drain lasts its whole length: as short as the others allow.
      { ...SHORT, drainSeconds: 5, faults: { dropOneFire: true, duplicateOneFire: true } },
    );

    expect(details.faults.dropped).toBeDefined();
    expect(details.faults.duplicated).toBeDefined();
    expect(details.faults.duplicated).not.toEqual(details.faults.dropped);
    expect({ missed: line.missed, duplicates: line.duplicates, outOfOrder: line.outOfOrder }).toEqual({
      missed: 1,
      duplicates: 1,
      outOfOrder: 0,
    });
    expect(line.executed).toBe(line.expected - 1);
  }, 60_000);
});
