import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogAttributes, Logger } from '@tickring/core/common';
import { type FireMessage, parseRingMessage, type RingLane } from '@tickring/core/dispatch';
import { EmbeddedDatabase, SqliteRingQueue } from '@tickring/embedded/sqlite';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteRingSourceArn } from '../functions/wiring/stores-sqlite.js';
import { waitFor } from '../test/stand-ins.js';
import { LambdaHost } from './lambda-host.js';
import { SqliteRingPoller } from './sqlite-ring-poller.js';

const dir = mkdtempSync(join(tmpdir(), 'tickring-ring-poller-'));
const databases: EmbeddedDatabase[] = [];
afterAll(() => {
  for (const database of databases) database.close();
  rmSync(dir, { recursive: true, force: true });
});

function freshRing(name: string): SqliteRingQueue {
  const database = new EmbeddedDatabase({ path: join(dir, `${name}.db`) });
  databases.push(database);
  return new SqliteRingQueue({ database });
}

const fire = (jobId: number): FireMessage => ({
  jobId,
  scheduledTime: Date.now(),
  triggerType: 'API',
  dedupKey: `k${jobId}`,
});

function recordingLogger(): Logger & { errors: { message: string; attributes?: LogAttributes }[] } {
  const errors: { message: string; attributes?: LogAttributes }[] = [];
  const none = () => {};
  return {
    errors,
    debug: none,
    info: none,
    warn: none,
    error: (message, attributes) => errors.push({ message, ...(attributes ? { attributes } : {}) }),
  };
}

/** A function that records each record's job ids and fails (for redelivery) the records of `poison`. */
function consumer(host: LambdaHost, poison: number, delayMs = 0) {
  const events: SQSEvent[] = [];
  const deliveries = new Map<number, number>();
  host.register({
    name: 'dispatcher',
    timeoutMs: 5_000,
    handler: async (event: SQSEvent): Promise<SQSBatchResponse> => {
      events.push(event);
      await new Promise((r) => setTimeout(r, delayMs));
      const failed: string[] = [];
      for (const record of event.Records) {
        const jobIds = parseRingMessage(record.body).fires.map((f) => f.jobId);
        for (const id of jobIds) deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
        if (jobIds.includes(poison)) failed.push(record.messageId);
      }
      return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
    },
  });
  return { events, deliveries };
}

function poller(ring: SqliteRingQueue, host: LambdaHost, lane: RingLane, logger: Logger, idlePollMs = 20) {
  return new SqliteRingPoller({
    ring,
    lane,
    host,
    functionName: 'dispatcher',
    region: 'us-east-1',
    visibilitySeconds: 1,
    maxReceiveCount: 2,
    concurrency: 2,
    idlePollMs,
    logger,
  });
}

describe('SqliteRingPoller (the event source mapping over the SQLite ring)', () => {
  it('wakes at a send in this process on its lane instead of waiting for its idle poll', async () => {
    const ring = freshRing('wake');
    const host = new LambdaHost('us-east-1');
    const { deliveries } = consumer(host, -1);
    // A poll a minute apart: only the send's wake-up delivers within the test's time.
    const fast = poller(ring, host, 'fast', recordingLogger(), 60_000);
    fast.start();
    try {
      await new Promise((r) => setTimeout(r, 100)); // asleep on an empty lane
      // Another instance on the same database, as the tick's is.
      const sender = new SqliteRingQueue({ database: databases.at(-1) as EmbeddedDatabase });
      await sender.enqueue([{ message: fire(7), delaySeconds: 0, lane: 'fast' }]);
      await waitFor(() => deliveries.get(7) === 1, {
        what: 'the fire delivered after its send woke the poller',
        timeoutMs: 10_000,
        intervalMs: 20,
      });
    } finally {
      await fast.stop();
    }
  });

  it('delivers SQS-shaped batches, deletes what succeeded, redelivers failures after the timeout, then dead-letters them', async () => {
    const ring = freshRing('deliver');
    const host = new LambdaHost('us-east-1');
    const { events, deliveries } = consumer(host, 3);
    const logger = recordingLogger();
    for (const jobId of [1, 2, 3, 4])
      await ring.enqueue([{ message: fire(jobId), delaySeconds: 0, lane: 'slow' }]);
    const slow = poller(ring, host, 'slow', logger);
    slow.start();
    try {
      await waitFor(() => logger.errors.some((e) => e.message.includes('dead-lettered')), {
        what: 'the failing message dead-lettered',
        timeoutMs: 10_000,
        intervalMs: 50,
      });
    } finally {
      await slow.stop();
    }
    // Each success once (then deleted); the failure as often as the receive count allows, then logged and dropped.
    expect(Object.fromEntries(deliveries)).toEqual({ 1: 1, 2: 1, 3: 2, 4: 1 });
    expect(logger.errors).toEqual([
      {
        message: 'ring message dead-lettered: received too often',
        attributes: expect.objectContaining({ lane: 'slow', receiveCount: 3 }),
      },
    ]);
    expect(await ring.nextVisibleAt('slow')).toBeUndefined();
    const record = events[0]?.Records[0];
    expect(record).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: sqliteRingSourceArn('slow'),
      awsRegion: 'us-east-1',
      attributes: { ApproximateReceiveCount: '1' },
    });
    expect(record?.receiptHandle).toMatch(/^\d+\.[0-9a-f]{16}$/);
  });

  it('receives only its lane, and on stop ends receiving and waits for the batch in flight, which it deletes', async () => {
    const ring = freshRing('stop');
    const host = new LambdaHost('us-east-1');
    const { deliveries } = consumer(host, 0, 300);
    await ring.enqueue([{ message: fire(7), delaySeconds: 0, lane: 'fast' }]);
    await ring.enqueue([{ message: fire(8), delaySeconds: 0, lane: 'slow' }]);
    const fast = poller(ring, host, 'fast', recordingLogger());
    fast.start();
    await waitFor(() => deliveries.size > 0, { what: 'a batch in flight' });
    await fast.stop(); // the batch takes 300 ms: stop waits for it
    expect(Object.fromEntries(deliveries)).toEqual({ 7: 1 });
    expect(await ring.nextVisibleAt('fast')).toBeUndefined(); // deleted, not left to come back
    expect(await ring.nextVisibleAt('slow')).toBeLessThanOrEqual(Date.now()); // not its lane
  });
});
