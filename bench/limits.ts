import { randomUUID } from 'node:crypto';
import {
  CreateTableCommand,
  DeleteTableCommand,
  type DynamoDBClient,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  DeleteQueueCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { createAwsClients, destroyAwsClients } from '@tickring/aws/clients';
import type { StandInEndpoints } from './stand-ins.js';
import { type Summary, summarize } from './stats.js';

/** What the stand-ins manage alone on this machine, measured before the stack starts. */
export interface StandInLimits {
  /** DynamoDB Local: conditional PutItems (attribute_not_exists) per second, 32 in flight. */
  readonly dynamodbConditionalWritesPerSecond: number;
  /** The SQS stand-in: messages sent, received and deleted per second, in batches of 10. */
  readonly sqsMessagesPerSecond: number;
  /** The SQS stand-in: p99 of receive time − (send time + DelaySeconds) for DelaySeconds 1, ms. */
  readonly sqsDelayP99Ms: number;
  /** The whole distribution of that delay error, ms. */
  readonly sqsDelayErrorMs: Summary;
}

export interface LimitsOptions {
  /** Length of each throughput measurement, s. */
  readonly seconds: number;
  /** Messages sent with DelaySeconds 1. */
  readonly delayedMessages: number;
}

const DYNAMO_IN_FLIGHT = 32;
const SQS_WORKERS = 8;
const BATCH = 10;

export async function measureLimits(
  endpoints: StandInEndpoints,
  region: string,
  options: LimitsOptions,
): Promise<StandInLimits> {
  const clients = createAwsClients({
    region,
    endpoints: { dynamodb: endpoints.dynamodb, sqs: endpoints.sqs, sns: endpoints.sqs },
  });
  const name = `bench-limits-${randomUUID().slice(0, 8)}`;
  try {
    const dynamodbConditionalWritesPerSecond = await conditionalPutsPerSecond(
      clients.dynamo,
      name,
      options.seconds,
    );
    const sqsMessagesPerSecond = await sqsMessagesPerSecondOf(
      clients.sqs,
      `${name}-throughput`,
      options.seconds,
    );
    const sqsDelayErrorMs = await sqsDelayError(clients.sqs, `${name}-delay`, options.delayedMessages);
    return {
      dynamodbConditionalWritesPerSecond,
      sqsMessagesPerSecond,
      sqsDelayP99Ms: sqsDelayErrorMs.p99,
      sqsDelayErrorMs,
    };
  } finally {
    destroyAwsClients(clients);
  }
}

/**
 * PutItem with attribute_not_exists on fresh keys of a throwaway table (every one succeeds), after
 * as long again unmeasured: DynamoDB Local runs its first thousands of requests at about half speed
 * (JIT), which would understate what it manages during the benchmark.
 */
async function conditionalPutsPerSecond(dynamo: DynamoDBClient, table: string, seconds: number) {
  await dynamo.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );
  let next = 0;
  const putFor = async (ms: number): Promise<number> => {
    let done = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: DYNAMO_IN_FLIGHT }, async () => {
        while (performance.now() < started + ms) {
          await dynamo.send(
            new PutItemCommand({
              TableName: table,
              Item: { pk: { S: `k${next++}` }, at: { N: String(Date.now()) } },
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          );
          done++;
        }
      }),
    );
    return done / ((performance.now() - started) / 1000);
  };
  try {
    await putFor(seconds * 1000);
    return await putFor(seconds * 1000);
  } finally {
    await dynamo.send(new DeleteTableCommand({ TableName: table }));
  }
}

/** Workers that each send 10, receive up to 10 and delete what they received, for `seconds`. */
async function sqsMessagesPerSecondOf(sqs: SQSClient, queueName: string, seconds: number) {
  const { QueueUrl: queueUrl = '' } = await sqs.send(new CreateQueueCommand({ QueueName: queueName }));
  try {
    let deleted = 0;
    const started = performance.now();
    const until = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: SQS_WORKERS }, async () => {
        while (performance.now() < until) {
          await sqs.send(
            new SendMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: Array.from({ length: BATCH }, (_, i) => ({
                Id: String(i),
                MessageBody: 'x'.repeat(200),
              })),
            }),
          );
          const { Messages = [] } = await sqs.send(
            new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: BATCH, WaitTimeSeconds: 1 }),
          );
          await deleteAll(sqs, queueUrl, Messages);
          deleted += Messages.length;
        }
      }),
    );
    return deleted / ((performance.now() - started) / 1000);
  } finally {
    await sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
  }
}

/**
 * Sends `count` messages with DelaySeconds 1 (batches of 10, paced over about a second and a half),
 * each stamped with the time its send was issued, while long-polling receivers note when each
 * arrives: the error is arrival − (send + 1 s).
 */
async function sqsDelayError(sqs: SQSClient, queueName: string, count: number): Promise<Summary> {
  const { QueueUrl: queueUrl = '' } = await sqs.send(new CreateQueueCommand({ QueueName: queueName }));
  const errors: number[] = [];
  const deletes: Promise<unknown>[] = [];
  const deadline = Date.now() + 30_000;
  try {
    const receivers = Array.from({ length: 4 }, async () => {
      while (errors.length < count && Date.now() < deadline) {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: BATCH, WaitTimeSeconds: 2 }),
        );
        const receivedAt = Date.now();
        for (const m of Messages) errors.push(receivedAt - (Number(m.Body) + 1000));
        deletes.push(deleteAll(sqs, queueUrl, Messages));
      }
    });
    const batches = Math.ceil(count / BATCH);
    for (let b = 0; b < batches; b++) {
      const size = Math.min(BATCH, count - b * BATCH);
      const sentAt = Date.now();
      await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: Array.from({ length: size }, (_, i) => ({
            Id: String(i),
            MessageBody: String(sentAt),
            DelaySeconds: 1,
          })),
        }),
      );
      await new Promise((r) => setTimeout(r, 1500 / batches));
    }
    await Promise.all(receivers);
    await Promise.allSettled(deletes);
    return summarize(errors);
  } finally {
    await sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
  }
}

async function deleteAll(sqs: SQSClient, queueUrl: string, messages: readonly Message[]): Promise<void> {
  if (messages.length === 0) return;
  await sqs.send(
    new DeleteMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
    }),
  );
}
