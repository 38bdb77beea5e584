import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { SqsRingQueue } from '@tickring/aws/sqs';
import { parseRingMessage, type RingLane } from '@tickring/core/dispatch';
import { type RingDelivery, ringQueueContract } from '@tickring/testing';
import { afterAll, beforeAll } from 'vitest';
import { freshRingQueues } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('ring-contract');
});
afterAll(() => env?.close());

ringQueueContract('SQS stand-in', async () => {
  const queueUrls = await freshRingQueues(env);
  const { sqs } = env.clients;
  /** Receives until the lane answers nothing visible (a receive returns at most 10 messages). */
  const receive = async (lane: RingLane, visibilitySeconds: number): Promise<RingDelivery[]> => {
    const deliveries: RingDelivery[] = [];
    for (;;) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: queueUrls[lane],
          MaxNumberOfMessages: 10,
          VisibilityTimeout: visibilitySeconds,
          MessageSystemAttributeNames: ['ApproximateReceiveCount'],
        }),
      );
      if (Messages.length === 0) return deliveries;
      for (const m of Messages) {
        deliveries.push({
          fires: parseRingMessage(m.Body ?? '[]').fires,
          receipt: m.ReceiptHandle ?? '',
          receiveCount: Number(m.Attributes?.ApproximateReceiveCount),
        });
      }
    }
  };
  return {
    ring: new SqsRingQueue({ sqs, queueUrls }),
    receive,
    ack: async (lane, delivery) => {
      await sqs.send(
        new DeleteMessageCommand({ QueueUrl: queueUrls[lane], ReceiptHandle: delivery.receipt }),
      );
    },
    elapse: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
});
