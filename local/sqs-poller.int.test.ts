import { randomUUID } from 'node:crypto';
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
} from '@aws-sdk/client-sqs';
import { silentLogger } from '@tickring/core/common';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedResources, type TestResources, waitFor } from '../test/stand-ins.js';
import { LambdaHost } from './lambda-host.js';
import { SqsPoller } from './sqs-poller.js';

let env: TestResources;
beforeAll(async () => {
  env = await isolatedResources('poller');
});
afterAll(() => env?.close());

async function queueWithDlq(maxReceiveCount: number) {
  const name = `poller-${randomUUID().slice(0, 8)}`;
  const dlq = await env.clients.sqs.send(new CreateQueueCommand({ QueueName: `${name}-dlq` }));
  const { Attributes } = await env.clients.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ['QueueArn'] }),
  );
  const main = await env.clients.sqs.send(
    new CreateQueueCommand({
      QueueName: name,
      Attributes: {
        VisibilityTimeout: '1',
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: Attributes?.QueueArn, maxReceiveCount }),
      },
    }),
  );
  const mainArn = (
    await env.clients.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: main.QueueUrl, AttributeNames: ['QueueArn'] }),
    )
  ).Attributes?.QueueArn;
  return { url: main.QueueUrl ?? '', arn: mainArn ?? '', dlqUrl: dlq.QueueUrl ?? '' };
}

describe('SqsPoller (the local SQS event source mapping)', () => {
  it('delivers batches, deletes what succeeded, redelivers reported failures after the visibility timeout and then dead-letters them', async () => {
    const queue = await queueWithDlq(2);
    const host = new LambdaHost('us-east-1');
    const deliveries = new Map<string, number>();
    const events: SQSEvent[] = [];
    host.register({
      name: 'consumer',
      timeoutMs: 5_000,
      handler: async (event: SQSEvent): Promise<SQSBatchResponse> => {
        events.push(event);
        for (const r of event.Records) deliveries.set(r.body, (deliveries.get(r.body) ?? 0) + 1);
        return {
          batchItemFailures: event.Records.filter((r) => r.body === 'poison').map((r) => ({
            itemIdentifier: r.messageId,
          })),
        };
      },
    });
    await env.clients.sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.url,
        Entries: ['a', 'b', 'poison', 'c'].map((body, i) => ({ Id: String(i), MessageBody: body })),
      }),
    );
    const poller = new SqsPoller({
      sqs: env.clients.sqs,
      host,
      functionName: 'consumer',
      queueUrl: queue.url,
      queueArn: queue.arn,
      region: 'us-east-1',
      concurrency: 1,
      logger: silentLogger,
    });
    poller.start();
    try {
      const dead = await waitFor(
        async () => {
          const { Messages = [] } = await env.clients.sqs.send(
            new ReceiveMessageCommand({ QueueUrl: queue.dlqUrl, WaitTimeSeconds: 1 }),
          );
          return Messages.length ? Messages : undefined;
        },
        { timeoutMs: 20_000, what: 'the poison message in the DLQ' },
      );
      expect(dead.map((m) => m.Body)).toEqual(['poison']);
    } finally {
      await poller.stop();
    }
    // Successes were delivered once (and deleted); the failure twice (maxReceiveCount), then dead-lettered.
    expect(Object.fromEntries(deliveries)).toEqual({ a: 1, b: 1, c: 1, poison: 2 });
    const record = events[0]?.Records[0];
    expect(record).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: queue.arn,
      awsRegion: 'us-east-1',
    });
    expect(record?.attributes.ApproximateReceiveCount).toBe('1');
  });
});
