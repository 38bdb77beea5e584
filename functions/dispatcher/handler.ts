import { isAppError } from '@tickring/core/common';
import type { RingLane } from '@tickring/core/dispatch';
import { type FireMessage, parseRingMessage } from '@tickring/core/dispatch';
import { BatchReads, DispatchRecord, dispatchFire } from '@tickring/core/dispatch/use-cases';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { type DispatcherConfig, loadConfig } from './config.js';
import { buildDispatchDeps, type DispatcherRuntime } from './deps.js';

/**
 * Consumes the fast and slow ring queues: each record carries the fires of one lane and second, all
 * dispatched concurrently with the rest of the batch, and what they sent is recorded in one write
 * (the record's `DispatchRecord`). A record with an infrastructure failure in any
 * of its fires is reported (SQS redelivers it, its fires already dispatched are then recognised as
 * duplicates; after repeated failures it goes to the DLQ); a malformed body or fire, or a permanent
 * error, is logged and dropped.
 */
export function createHandler(config: DispatcherConfig, runtime: Partial<DispatcherRuntime> = {}) {
  const deps = buildDispatchDeps(config, runtime);
  // A record's lane is its queue's (the store kit knows the slow queue's name).
  const laneOf = (record: SQSRecord): RingLane => deps.laneOf(record.eventSourceARN);

  const firesOf = (record: SQSRecord, context: Context): FireMessage[] => {
    const keys = { messageId: record.messageId, requestId: context.awsRequestId };
    try {
      const { fires, rejected } = parseRingMessage(record.body);
      for (const err of rejected)
        deps.logger.error('malformed fire dropped', { ...keys, error: err.message });
      return fires;
    } catch (err) {
      deps.logger.error('fire message dropped', {
        ...keys,
        error: String(err),
        body: record.body.slice(0, 500),
      });
      return [];
    }
  };

  /** True when the fire must be tried again (the record is then reported as failed). */
  const dispatchOne = async (
    record: SQSRecord,
    fire: FireMessage,
    reads: BatchReads,
    sent: DispatchRecord,
    context: Context,
  ): Promise<boolean> => {
    try {
      await dispatchFire(deps, deps.settings, fire, laneOf(record), reads, sent);
      return false;
    } catch (err) {
      const drop = isAppError(err) && !err.retryable; // permanent: redelivery cannot help
      deps.logger.error(drop ? 'fire dropped' : 'dispatch failed; the message will be redelivered', {
        messageId: record.messageId,
        requestId: context.awsRequestId,
        jobId: fire.jobId,
        scheduledTime: fire.scheduledTime,
        error: String(err),
      });
      return !drop;
    }
  };

  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const records = event.Records.map((record) => ({ record, fires: firesOf(record, context) }));
    // The batch's fires share their reads (jobs in one BatchGet, groups, online executors).
    const reads = new BatchReads(deps);
    reads.preloadJobs(records.flatMap(({ fires }) => fires.map((f) => f.jobId)));
    let failed: (string | undefined)[];
    try {
      failed = await Promise.all(
        records.map(async ({ record, fires }) => {
          // What the record's fires send is written down as they go (see DispatchRecord).
          const now = deps.clock.now();
          const sent = new DispatchRecord(
            deps,
            now,
            now + context.getRemainingTimeInMillis() - deps.settings.sendMarginMs,
          );
          const retry = await Promise.all(
            fires.map((fire) => dispatchOne(record, fire, reads, sent, context)),
          );
          try {
            await sent.save();
          } catch (err) {
            // Its runs were sent: redelivering the record cannot help. They are missing from the
            // app lists and the lost-run watch, and a duplicate of one may send it again.
            deps.logger.error('recording what was sent failed', {
              messageId: record.messageId,
              claimToken: sent.claimToken,
              error: String(err),
            });
          }
          return retry.some(Boolean) ? record.messageId : undefined;
        }),
      );
    } finally {
      await deps.flushReports();
      deps.flushMetrics();
    }
    return { batchItemFailures: failed.flatMap((id) => (id === undefined ? [] : [{ itemIdentifier: id }])) };
  };
}

let lazy: ReturnType<typeof createHandler> | undefined;
export const handler = (event: SQSEvent, context: Context) => {
  lazy ??= createHandler(loadConfig(process.env));
  return lazy(event, context);
};
