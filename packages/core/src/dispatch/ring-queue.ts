import type { FireMessage } from './trigger.js';

export type RingLane = 'fast' | 'slow';

export interface RingEntry {
  readonly message: FireMessage;
  readonly delaySeconds: number;
  readonly lane: RingLane;
}

/** The durable time ring: messages become visible after their delay. */
export interface RingQueue {
  /** Sends all entries (batched); throws if any could not be sent, after retrying the failed ones. */
  enqueue(entries: readonly RingEntry[]): Promise<void>;
}

/** Longest per-message delay a ring accepts (SQS's limit); fires further out wait in the job store until the pre-read reaches them. */
export const MAX_DELAY_SECONDS = 900;
