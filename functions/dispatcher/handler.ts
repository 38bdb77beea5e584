import { dispatchRingBatch } from '@tickring/core/dispatch/use-cases';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type DispatcherConfig, loadConfig } from './config.js';
import { buildDispatchDeps, type DispatcherRuntime } from './deps.js';

/**
 * Consumes the fast and slow ring queues (`dispatchRingBatch`); a record whose fires met an
 * infrastructure failure is reported back, so SQS delivers it again (after repeated failures it goes
 * to the DLQ).
 */
export function createHandler(config: DispatcherConfig, runtime: Partial<DispatcherRuntime> = {}) {
  const deps = buildDispatchDeps(config, runtime);
  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const records = event.Records.map((record) => ({
      id: record.messageId,
      // A record's lane is its queue's (the store kit knows the slow queue's name).
      lane: deps.laneOf(record.eventSourceARN),
      body: record.body,
    }));
    const deadline = deps.clock.now() + context.getRemainingTimeInMillis();
    const failed = await dispatchRingBatch(deps, records, deadline, context.awsRequestId);
    return { batchItemFailures: failed.map((id) => ({ itemIdentifier: id })) };
  };
}

let lazy: ReturnType<typeof createHandler> | undefined;
export const handler = (event: SQSEvent, context: Context) => {
  lazy ??= createHandler(loadConfig(process.env));
  return lazy(event, context);
};
