import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { isAppError } from '../../shared/domain/errors.js';
import type { FireMessage } from '../../shared/domain/trigger.js';
import type { RingLane } from '../../shared/ports/ring-queue.js';
import { BatchReads, dispatchFire, parseFireMessage } from '../../shared/use-cases/dispatch-fire.js';
import { type DispatcherConfig, loadConfig } from './config.js';
import { buildDispatchDeps, type DispatcherRuntime } from './deps.js';

/**
 * Consumes the fast and slow ring queues: each record is one fire, dispatched concurrently with the
 * rest of the batch. An infrastructure failure reports the record (SQS redelivers it, then the DLQ);
 * a malformed body or a permanent error is logged and dropped.
 */
export function createHandler(config: DispatcherConfig, runtime: Partial<DispatcherRuntime> = {}) {
  const deps = buildDispatchDeps(config, runtime);
  // A record's lane is its queue's: compare the queue name in its ARN with the slow queue URL's.
  const slowQueueName = config.queueUrls.slow.split('/').at(-1);
  const laneOf = (record: SQSRecord): RingLane =>
    record.eventSourceARN?.split(':').at(-1) === slowQueueName ? 'slow' : 'fast';
  const parse = (record: SQSRecord): FireMessage | Error => {
    try {
      return parseFireMessage(record.body);
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  };
  const dispatchRecord = async (
    record: SQSRecord,
    message: FireMessage | Error,
    reads: BatchReads,
    context: Context,
  ): Promise<string | undefined> => {
    const keys = { messageId: record.messageId, requestId: context.awsRequestId };
    try {
      if (message instanceof Error) throw message;
      await dispatchFire(deps, deps.settings, message, laneOf(record), reads);
      return undefined;
    } catch (err) {
      const drop = isAppError(err) && !err.retryable; // malformed or permanent: redelivery cannot help
      const message = drop ? 'fire message dropped' : 'dispatch failed; the message will be redelivered';
      deps.logger.error(message, { ...keys, error: String(err), body: record.body.slice(0, 500) });
      return drop ? undefined : record.messageId;
    }
  };
  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const messages = event.Records.map(parse);
    // The batch's fires share their reads (jobs in one BatchGet, groups, online executors).
    const reads = new BatchReads(deps);
    reads.preloadJobs(messages.flatMap((m) => (m instanceof Error ? [] : [m.jobId])));
    const failed = await Promise.all(
      event.Records.map((record, i) =>
        dispatchRecord(record, messages[i] as FireMessage | Error, reads, context),
      ),
    );
    deps.flushMetrics();
    return { batchItemFailures: failed.flatMap((id) => (id === undefined ? [] : [{ itemIdentifier: id }])) };
  };
}

let lazy: ReturnType<typeof createHandler> | undefined;
export const handler = (event: SQSEvent, context: Context) => {
  lazy ??= createHandler(loadConfig(process.env));
  return lazy(event, context);
};
