import type { Logger } from '@tickring/core/common';
import type { RingLane } from '@tickring/core/dispatch';
import type { SqliteRingDelivery, SqliteRingQueue } from '@tickring/embedded/sqlite';
import type { SQSEvent } from 'aws-lambda';
import { sqliteRingSourceArn } from '../functions/wiring/stores-sqlite.js';
import { sqliteRingRecord } from './events.js';
import { invokeSqsBatch, type LambdaHost } from './lambda-host.js';

export interface SqliteRingPollerOptions {
  readonly ring: SqliteRingQueue;
  readonly lane: RingLane;
  readonly host: LambdaHost;
  readonly functionName: string;
  readonly region: string;
  /** How long a batch's messages stay hidden: when a function that died holding them gets them back. */
  readonly visibilitySeconds: number;
  /** A message received more often than this is dropped, logged as dead-lettered (SQS's redrive policy). */
  readonly maxReceiveCount: number;
  readonly batchSize?: number;
  /** Batches in flight at once, like the event source mapping's concurrent batches. */
  readonly concurrency?: number;
  /**
   * Longest sleep with nothing visible: how soon a message another process sent on the file is seen
   * (a send in this process wakes the poller at once).
   */
  readonly idlePollMs?: number;
  readonly logger: Logger;
}

/**
 * Lambda's SQS event source mapping over a lane of the SQLite ring: receives batches (each hidden
 * for the visibility timeout), invokes the function with an SQS-shaped event, deletes what
 * succeeded and leaves reported failures (or the whole batch on an error) to come back after the
 * timeout. With nothing visible it sleeps until the lane's next message is due, or a short poll
 * (a message sent meanwhile, here or by another process on the file). `stop()` ends the receiving
 * and waits for the batches in flight.
 */
export class SqliteRingPoller {
  private stopped = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly options: SqliteRingPollerOptions) {}

  start(): void {
    // A fire sent in this process (the tick's, a retry, a workflow node) is received as soon as it is
    // visible, not at the next idle poll: the ring hop of a workflow node adds no poll interval.
    this.unsubscribe = this.options.ring.onSent((lane) => {
      if (lane === this.options.lane) this.wake?.();
    });
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  private async run(): Promise<void> {
    const { ring, lane, logger } = this.options;
    const concurrency = this.options.concurrency ?? 2;
    const idlePollMs = this.options.idlePollMs ?? 100;
    while (!this.stopped) {
      if (this.inFlight.size >= concurrency) {
        await Promise.race(this.inFlight);
        continue;
      }
      let wait: number;
      try {
        const deliveries = await ring.receive(lane, {
          max: this.options.batchSize ?? 10,
          visibilitySeconds: this.options.visibilitySeconds,
        });
        if (deliveries.length > 0) {
          const batch = this.deliver(deliveries).catch((err: unknown) => {
            logger.error('ring batch failed; its messages return after the visibility timeout', {
              lane,
              error: String(err),
            });
          });
          this.inFlight.add(batch);
          void batch.finally(() => this.inFlight.delete(batch));
          continue;
        }
        const next = await ring.nextVisibleAt(lane);
        wait = next === undefined ? idlePollMs : Math.min(idlePollMs, Math.max(5, next - Date.now()));
      } catch (err) {
        logger.error('ring poll failed', { lane, error: String(err) });
        wait = 500;
      }
      await this.sleep(wait);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async deliver(deliveries: readonly SqliteRingDelivery[]): Promise<void> {
    const { lane, host, functionName, region, logger, maxReceiveCount } = this.options;
    const live: SqliteRingDelivery[] = [];
    for (const delivery of deliveries) {
      if (delivery.receiveCount <= maxReceiveCount) {
        live.push(delivery);
        continue;
      }
      // Nobody reads a dead-letter queue on one machine: the log keeps the message.
      logger.error('ring message dead-lettered: received too often', {
        lane,
        messageId: delivery.messageId,
        receiveCount: delivery.receiveCount,
        body: delivery.body.slice(0, 500),
      });
      await this.remove(delivery);
    }
    if (live.length === 0) return;
    const sourceArn = sqliteRingSourceArn(lane);
    const event: SQSEvent = { Records: live.map((d) => sqliteRingRecord(d, sourceArn, region)) };
    const done = new Set((await invokeSqsBatch(host, functionName, event, logger)).map((r) => r.messageId));
    for (const delivery of live) {
      if (done.has(delivery.messageId)) await this.remove(delivery);
    }
  }

  private async remove(delivery: SqliteRingDelivery): Promise<void> {
    try {
      await this.options.ring.delete(delivery.receipt);
    } catch (err) {
      // It comes back after its timeout; the dispatcher knows a fire it has seen.
      this.options.logger.error('ring delete failed', { messageId: delivery.messageId, error: String(err) });
    }
  }
}
