import { QUEUE_LIST, type QueueDefinition, type QueueName } from '@tickring/aws/topology';
import { ENV } from '@tickring/core/config';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { NamedQueue } from './service-function.js';

/** The env var that carries each ring queue's URL (read by `loadRingQueueUrls`). */
export const QUEUE_URL_ENV: Readonly<Record<QueueName, string>> = {
  ringFast: ENV.ringFastQueueUrl,
  ringSlow: ENV.ringSlowQueueUrl,
};

export interface RingQueue extends NamedQueue {
  readonly definition: QueueDefinition;
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
}

export interface RingQueuesProps {
  /** @default RemovalPolicy.DESTROY: a queue holds only fires in flight, useless without the stack's functions. */
  readonly removalPolicy?: RemovalPolicy;
}

/**
 * The fast and slow ring queues (standard queues: only they take a per-message DelaySeconds), each
 * with its dead-letter queue and the explicit maxReceiveCount of `shared/schema/queues.ts`;
 * SQS-managed server-side encryption, and a queue policy that refuses requests without TLS.
 */
export class RingQueues extends Construct {
  readonly queues: Readonly<Record<QueueName, RingQueue>>;

  constructor(scope: Construct, id: string, props: RingQueuesProps = {}) {
    super(scope, id);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.DESTROY;
    const entries = QUEUE_LIST.map((definition) => {
      const deadLetterQueue = new sqs.Queue(this, `${definition.logicalName}Dlq`, {
        retentionPeriod: Duration.seconds(definition.deadLetter.retentionSeconds),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        removalPolicy,
      });
      const queue = new sqs.Queue(this, definition.logicalName, {
        visibilityTimeout: Duration.seconds(definition.visibilityTimeoutSeconds),
        retentionPeriod: Duration.seconds(definition.retentionSeconds),
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: definition.deadLetter.maxReceiveCount },
        removalPolicy,
      });
      const ring: RingQueue = {
        definition,
        queue,
        deadLetterQueue,
        envName: QUEUE_URL_ENV[definition.logicalName],
      };
      return [definition.logicalName, ring] as const;
    });
    this.queues = Object.fromEntries(entries) as Record<QueueName, RingQueue>;
  }

  get list(): readonly RingQueue[] {
    return Object.values(this.queues);
  }
}
