import { type HandedOffFires, isHandedOffFires } from '@tickring/core/dispatch';
import { dispatchHandedOff, dispatchRingBatch } from '@tickring/core/dispatch/use-cases';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { type DispatcherConfig, loadConfig } from './config.js';
import { buildDispatchDeps, type DispatcherRuntime } from './deps.js';

/**
 * Consumes the fast and slow ring queues (`dispatchRingBatch`); a record whose fires met an
 * infrastructure failure is reported back, so SQS delivers it again (after repeated failures it goes
 * to the DLQ). Also takes fires handed to it directly (`HandedOffFires`, an asynchronous invocation
 * by the workflow engine): those it could not dispatch it puts on the ring itself.
 */
export function createHandler(config: DispatcherConfig, runtime: Partial<DispatcherRuntime> = {}) {
  const deps = buildDispatchDeps(config, runtime);
  return async (event: SQSEvent | HandedOffFires, context: Context): Promise<SQSBatchResponse> => {
    const deadline = deps.clock.now() + context.getRemainingTimeInMillis();
    if (isHandedOffFires(event)) {
      // Nothing redelivers a record of it: what failed went on the ring (an asynchronous invoker ignores the answer).
      await dispatchHandedOff(deps, event, deadline, context.awsRequestId);
      return { batchItemFailures: [] };
    }
    const records = event.Records.map((record) => ({
      id: record.messageId,
      // A record's lane is its queue's (the store kit knows the slow queue's name).
      lane: deps.laneOf(record.eventSourceARN),
      body: record.body,
    }));
    const failed = await dispatchRingBatch(deps, records, deadline, context.awsRequestId);
    return { batchItemFailures: failed.map((id) => ({ itemIdentifier: id })) };
  };
}

let lazy: ReturnType<typeof createHandler> | undefined;
export const handler = (event: SQSEvent | HandedOffFires, context: Context) => {
  lazy ??= createHandler(loadConfig(process.env));
  return lazy(event, context);
};
