import { FUNCTIONS } from './functions.js';

/**
 * The one definition of tickring's SQS queues, used by the local stack and the CDK stack.
 * The ring queues are standard queues: only they allow a per-message DelaySeconds (0–900 s).
 */
export type QueueName = 'ringFast' | 'ringSlow';

export interface QueueDefinition {
  readonly logicalName: QueueName;
  /** Suffix of the physical queue name (local: `${prefix}${baseName}`). */
  readonly baseName: string;
  readonly visibilityTimeoutSeconds: number;
  readonly retentionSeconds: number;
  readonly deadLetter: {
    readonly baseName: string;
    readonly maxReceiveCount: number;
    readonly retentionSeconds: number;
  };
}

const FOUR_DAYS = 4 * 24 * 3600;
const FOURTEEN_DAYS = 14 * 24 * 3600;

/**
 * Six times the dispatcher's timeout, as AWS advises for Lambda event sources (90 s): also how long
 * a fire held by a dispatcher that died waits for its redelivery.
 */
export const RING_VISIBILITY_TIMEOUT_SECONDS = 6 * FUNCTIONS.dispatcher.timeoutSeconds;

export const QUEUES: Readonly<Record<QueueName, QueueDefinition>> = {
  ringFast: {
    logicalName: 'ringFast',
    baseName: 'ring-fast',
    visibilityTimeoutSeconds: RING_VISIBILITY_TIMEOUT_SECONDS,
    retentionSeconds: FOUR_DAYS,
    deadLetter: { baseName: 'ring-fast-dlq', maxReceiveCount: 5, retentionSeconds: FOURTEEN_DAYS },
  },
  ringSlow: {
    logicalName: 'ringSlow',
    baseName: 'ring-slow',
    visibilityTimeoutSeconds: RING_VISIBILITY_TIMEOUT_SECONDS,
    retentionSeconds: FOUR_DAYS,
    deadLetter: { baseName: 'ring-slow-dlq', maxReceiveCount: 5, retentionSeconds: FOURTEEN_DAYS },
  },
};

export const QUEUE_LIST: readonly QueueDefinition[] = Object.values(QUEUES);
