import type { FireMessage } from './trigger.js';

export type RingLane = 'fast' | 'slow';

export interface RingEntry {
  readonly message: FireMessage;
  readonly delaySeconds: number;
  readonly lane: RingLane;
}

/** Fires to be dispatched now: ring entries on the fast lane, with no delay. */
export function dueNow(messages: readonly FireMessage[]): RingEntry[] {
  return messages.map((message) => ({ message, delaySeconds: 0, lane: 'fast' }));
}

/**
 * The fast lane's messages whose delay has passed and that are not done yet: how far the
 * dispatchers are behind (the tick's admission reads it). Approximate on SQS (its counts).
 */
export interface RingBacklog {
  /** Visible, not received yet. */
  readonly waiting: number;
  /** Received and not deleted yet (a dispatcher is on them, or died on them). */
  readonly inFlight: number;
}

/** The durable time ring: messages become visible after their delay. */
export interface RingQueue {
  /** Sends all entries (batched); throws if any could not be sent, after retrying the failed ones. */
  enqueue(entries: readonly RingEntry[]): Promise<void>;
}

/** How far behind the ring's consumers are (the tick's admission control reads it). */
export interface RingGauge {
  /** The fast lane's backlog now (one request on SQS, one query on SQLite). */
  backlog(): Promise<RingBacklog>;
}

/** Longest per-message delay a ring accepts (SQS's limit); fires further out wait in the job store until the pre-read reaches them. */
export const MAX_DELAY_SECONDS = 900;
