import {
  GetQueueAttributesCommand,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { RingBacklog, RingEntry, RingGauge, RingLane, RingQueue } from '@tickring/core/dispatch';
import { packRingMessages } from '@tickring/core/dispatch';

const BATCH = 10; // SQS's SendMessageBatch limit
const ATTEMPTS = 4;

/** The ring on SQS standard queues (the only kind with a per-message DelaySeconds). */
export class SqsRingQueue implements RingQueue, RingGauge {
  constructor(private readonly options: { sqs: SQSClient; queueUrls: Readonly<Record<RingLane, string>> }) {}

  /** Fires sharing a lane and a delay travel in one message (see `packRingMessages`). */
  async enqueue(entries: readonly RingEntry[]): Promise<void> {
    const messages = packRingMessages(
      entries,
      (e) => ({ lane: e.lane, delaySeconds: e.delaySeconds }),
      (k) => `${k.lane}#${k.delaySeconds}`,
    );
    const byLane = new Map<RingLane, SendMessageBatchRequestEntry[]>();
    for (const { key, body } of messages) {
      const lane = byLane.get(key.lane) ?? [];
      lane.push({ Id: String(lane.length), MessageBody: body, DelaySeconds: key.delaySeconds });
      byLane.set(key.lane, lane);
    }
    const sends: Promise<void>[] = [];
    for (const [lane, laneEntries] of byLane) {
      for (let i = 0; i < laneEntries.length; i += BATCH) {
        sends.push(this.sendBatch(this.options.queueUrls[lane], laneEntries.slice(i, i + BATCH)));
      }
    }
    await Promise.all(sends);
  }

  /** SQS's approximate counts of the fast queue: visible (waiting) and not visible (in flight). */
  async backlog(): Promise<RingBacklog> {
    const { Attributes: counts = {} } = await this.options.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: this.options.queueUrls.fast,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    return {
      waiting: Number(counts.ApproximateNumberOfMessages ?? 0),
      inFlight: Number(counts.ApproximateNumberOfMessagesNotVisible ?? 0),
    };
  }

  private async sendBatch(queueUrl: string, batch: readonly SendMessageBatchRequestEntry[]): Promise<void> {
    let pending = [...batch];
    for (let attempt = 1; ; attempt++) {
      const result = await this.options.sqs.send(
        new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: pending }),
      );
      const failedIds = new Set((result.Failed ?? []).map((f) => f.Id));
      if (failedIds.size === 0) return;
      pending = pending.filter((e) => failedIds.has(e.Id));
      if (attempt >= ATTEMPTS) {
        const reasons = (result.Failed ?? []).map((f) => `${f.Code}: ${f.Message}`).join('; ');
        throw new Error(`SQS refused ${pending.length} ring message(s): ${reasons}`);
      }
      await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
    }
  }
}
