import { DeleteMessageBatchCommand, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { type FireMessage, parseRingMessage } from '@tickring/core/dispatch';

export interface ReceivedFire {
  readonly message: FireMessage;
  readonly receivedAt: number;
}

/**
 * Drains a ring queue (deleting what it reads) until `expected` fires that `match` arrived or the
 * queue has been quiet for `quietMs` after `minWaitMs`, whichever is first; returns the matching
 * fires (a ring message carries several).
 */
export async function drainRing(
  sqs: SQSClient,
  queueUrl: string,
  {
    expected = Number.POSITIVE_INFINITY,
    minWaitMs = 0,
    quietMs = 2_000,
    timeoutMs = 60_000,
    pollers = 4,
    match = (_: FireMessage): boolean => true,
  } = {},
): Promise<ReceivedFire[]> {
  const received: ReceivedFire[] = [];
  const started = Date.now();
  let lastReceipt = Date.now();
  const done = () =>
    received.length >= expected ||
    Date.now() - started > timeoutMs ||
    (Date.now() - started >= minWaitMs && Date.now() - lastReceipt >= quietMs);
  const poll = async () => {
    while (!done()) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      if (Messages.length === 0) continue;
      lastReceipt = Date.now();
      for (const m of Messages) {
        for (const message of parseRingMessage(m.Body ?? '[]').fires) {
          if (match(message)) received.push({ message, receivedAt: Date.now() });
        }
      }
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? '' })),
        }),
      );
    }
  };
  await Promise.all(Array.from({ length: pollers }, poll));
  return received;
}
