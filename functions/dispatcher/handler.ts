import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { isAppError } from '../../shared/domain/errors.js';
import { dispatchFire, parseFireMessage } from '../../shared/use-cases/dispatch-fire.js';
import { type DispatcherConfig, loadConfig } from './config.js';
import { buildDispatchDeps, type DispatcherRuntime } from './deps.js';

/**
 * Consumes the fast and slow ring queues: each record is one fire, dispatched concurrently with the
 * rest of the batch. An infrastructure failure reports the record (SQS redelivers it, then the DLQ);
 * a malformed body or a permanent error is logged and dropped.
 */
export function createHandler(config: DispatcherConfig, runtime: Partial<DispatcherRuntime> = {}) {
  const deps = buildDispatchDeps(config, runtime);
  const dispatchRecord = async (record: SQSRecord, context: Context): Promise<string | undefined> => {
    const keys = { messageId: record.messageId, requestId: context.awsRequestId };
    try {
      await dispatchFire(deps, deps.settings, parseFireMessage(record.body));
      return undefined;
    } catch (err) {
      const drop = isAppError(err) && !err.retryable; // malformed or permanent: redelivery cannot help
      const message = drop ? 'fire message dropped' : 'dispatch failed; the message will be redelivered';
      deps.logger.error(message, { ...keys, error: String(err), body: record.body.slice(0, 500) });
      return drop ? undefined : record.messageId;
    }
  };
  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const failed = await Promise.all(event.Records.map((record) => dispatchRecord(record, context)));
    deps.flushMetrics();
    return { batchItemFailures: failed.flatMap((id) => (id === undefined ? [] : [{ itemIdentifier: id }])) };
  };
}

let lazy: ReturnType<typeof createHandler> | undefined;
export const handler = (event: SQSEvent, context: Context) => {
  lazy ??= createHandler(loadConfig(process.env));
  return lazy(event, context);
};
