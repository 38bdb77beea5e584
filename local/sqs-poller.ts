import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { Logger } from '@tickring/core/common';
import type { SQSEvent } from 'aws-lambda';
import { sqsRecord } from './events.js';
import { invokeSqsBatch, type LambdaHost } from './lambda-host.js';

export interface SqsPollerOptions {
  readonly sqs: SQSClient;
  readonly host: LambdaHost;
  readonly functionName: string;
  readonly queueUrl: string;
  readonly queueArn: string;
  readonly region: string;
  readonly batchSize?: number;
  /** Concurrent pollers, like the event source mapping's concurrent batches. */
  readonly concurrency?: number;
  readonly logger: Logger;
}

/**
 * An SQS event source mapping: long-polls the queue, invokes the function with a batch, deletes
 * what succeeded and leaves reported failures (or the whole batch on an error) to reappear after
 * the visibility timeout; the queue's redrive policy moves repeat failures to its DLQ.
 */
export class SqsPoller {
  private readonly abort = new AbortController();
  private loops: Promise<void>[] = [];

  constructor(private readonly options: SqsPollerOptions) {}

  start(): void {
    const concurrency = this.options.concurrency ?? 2;
    this.loops = Array.from({ length: concurrency }, () => this.loop());
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await Promise.allSettled(this.loops);
  }

  private async loop(): Promise<void> {
    const { sqs, queueUrl } = this.options;
    while (!this.abort.signal.aborted) {
      try {
        const { Messages = [] } = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: this.options.batchSize ?? 10,
            // Long polling as Lambda's pollers do; `stop()` aborts the wait.
            WaitTimeSeconds: 20,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: this.abort.signal },
        );
        if (Messages.length > 0) await this.deliver(Messages);
      } catch (err) {
        if (this.abort.signal.aborted) return;
        this.options.logger.error('sqs poll failed', { queueUrl, error: String(err) });
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  private async deliver(messages: Message[]): Promise<void> {
    const { host, functionName, queueArn, region, sqs, queueUrl, logger } = this.options;
    const event: SQSEvent = { Records: messages.map((m) => sqsRecord(m, queueArn, region)) };
    const done = await invokeSqsBatch(host, functionName, event, logger);
    if (done.length === 0) return;
    await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
      }),
    );
  }
}
