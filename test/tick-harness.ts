import { DynamoJobStore, DynamoLeaseStore } from '@tickring/aws/dynamodb';
import { SqsRingQueue } from '@tickring/aws/sqs';
import { type Clock, noMetrics, silentLogger, systemClock } from '@tickring/core/common';
import type { RingEntry, RingQueue } from '@tickring/core/dispatch';
import type { TickDeps, TickSettings } from '@tickring/core/tick/use-cases';
import { afterAll, beforeAll } from 'vitest';
import { isolatedResources, type TestResources } from './stand-ins.js';

/**
 * The scheduler tick over the stand-ins, for a test file: its own tables and queues (made before
 * the file's tests, removed after), the production stores over them, and fresh job ids per test.
 */
export const SHARDS = 4;

export function tickHarness(name: string) {
  let env: TestResources;
  let idBase = 0;
  beforeAll(async () => {
    env = await isolatedResources(name);
  });
  afterAll(() => env?.close());

  function stores() {
    const { doc } = env.clients;
    const jobs = new DynamoJobStore({
      doc,
      jobsTable: env.resources.tables.jobs,
      controlTable: env.resources.tables.control,
      shardCount: SHARDS,
    });
    const leases = new DynamoLeaseStore({ doc, controlTable: env.resources.tables.control });
    const ring = new SqsRingQueue({
      sqs: env.clients.sqs,
      queueUrls: { fast: env.resources.queues.ringFast.url, slow: env.resources.queues.ringSlow.url },
    });
    return { jobs, leases, ring };
  }

  return {
    env: () => env,
    stores,
    deps(overrides: Partial<TickDeps> & { clock?: Clock } = {}): TickDeps {
      const { jobs, leases, ring } = stores();
      return {
        jobs,
        leases,
        ring,
        clock: systemClock,
        logger: silentLogger,
        metrics: noMetrics,
        ...overrides,
      };
    },
    settings(owner: string, overrides: Partial<TickSettings> = {}): TickSettings {
      return { shardCount: SHARDS, preReadCount: 5000, preReadMs: 5000, leaseMs: 3000, owner, ...overrides };
    },
    /** Hands back the leases `owner` took with tickOnce (which, unlike the loop, keeps them). */
    async releaseAll(owner: string): Promise<void> {
      const { leases } = stores();
      await Promise.all(Array.from({ length: SHARDS }, (_, shard) => leases.release(shard, owner)));
    },
    /** Fresh job ids per test so tests sharing the tables never see each other's jobs' fires. */
    nextIds(count: number): number[] {
      const ids = Array.from({ length: count }, (_, i) => 1_000_000 + idBase + i);
      idBase += count + 10;
      return ids;
    },
  };
}

/** A RingQueue that records what it was asked to send, then sends it for real. */
export function recording(ring: RingQueue): RingQueue & { sent: RingEntry[] } {
  const sent: RingEntry[] = [];
  return {
    sent,
    async enqueue(entries) {
      await ring.enqueue(entries);
      sent.push(...entries);
    },
  };
}

export const nextWholeSecond = (ms: number, plus = 0) => Math.ceil(ms / 1000) * 1000 + plus;
