import { type Clock, systemClock } from '@tickring/core/common';
import {
  type FireMessage,
  packRingMessages,
  parseRingMessage,
  type RingBacklog,
  type RingEntry,
  type RingGauge,
  type RingLane,
  type RingQueue,
} from '@tickring/core/dispatch';

/** A ring message as a consumer receives it: its fires, and the receipt that acknowledges it. */
export interface RingDelivery {
  readonly fires: FireMessage[];
  readonly receipt: string;
  /** How often the message was received, this time included. */
  readonly receiveCount: number;
}

interface QueuedMessage {
  readonly body: string;
  /** Epoch ms from which a receive sees it (after its delay; again after its visibility timeout). */
  visibleAt: number;
  receipt: string | undefined;
  receiveCount: number;
}

/**
 * The ring in memory, one queue per lane, by the clock: a message is hidden for its delay, a
 * received one for the visibility timeout the consumer asked for, and comes back unless acked.
 * Fires travel packed as on SQS (see `packRingMessages`).
 */
export class MemoryRingQueue implements RingQueue, RingGauge {
  private readonly lanes: Record<RingLane, QueuedMessage[]> = { fast: [], slow: [] };
  private readonly clock: Clock;
  private receipts = 0;

  constructor(options: { clock?: Clock } = {}) {
    this.clock = options.clock ?? systemClock;
  }

  async enqueue(entries: readonly RingEntry[]): Promise<void> {
    const now = this.clock.now();
    const messages = packRingMessages(
      entries,
      (e) => ({ lane: e.lane, delaySeconds: e.delaySeconds }),
      (k) => `${k.lane}#${k.delaySeconds}`,
    );
    for (const { key, body } of messages) {
      this.lanes[key.lane].push({
        body,
        visibleAt: now + key.delaySeconds * 1000,
        receipt: undefined,
        receiveCount: 0,
      });
    }
  }

  async backlog(): Promise<RingBacklog> {
    const now = this.clock.now();
    const fast = this.lanes.fast;
    return {
      waiting: fast.filter((m) => m.visibleAt <= now).length,
      inFlight: fast.filter((m) => m.receipt !== undefined && m.visibleAt > now).length,
    };
  }

  /** The lane's messages visible now, each hidden for `visibilitySeconds` until it is acked. */
  async receive(lane: RingLane, visibilitySeconds: number): Promise<RingDelivery[]> {
    const now = this.clock.now();
    return this.lanes[lane]
      .filter((m) => m.visibleAt <= now)
      .map((m) => {
        m.visibleAt = now + visibilitySeconds * 1000;
        m.receipt = `receipt-${++this.receipts}`;
        m.receiveCount++;
        return { fires: parseRingMessage(m.body).fires, receipt: m.receipt, receiveCount: m.receiveCount };
      });
  }

  /** Deletes the message last received with `receipt` (a stale receipt deletes nothing). */
  async ack(lane: RingLane, receipt: string): Promise<void> {
    this.lanes[lane] = this.lanes[lane].filter((m) => m.receipt !== receipt);
  }

  /** Messages on the lane, visible or not. */
  size(lane: RingLane): number {
    return this.lanes[lane].length;
  }
}
