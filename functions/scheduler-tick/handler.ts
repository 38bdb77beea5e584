import { runTickLoop } from '@tickring/core/tick/use-cases';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { loadConfig, type SchedulerTickConfig } from './config.js';
import { buildTickDeps, type TickRuntime } from './deps.js';

/** Stop this long before the Lambda timeout, so leases are handed over cleanly. */
const SAFETY_MARGIN_MS = 5_000;

/**
 * Started every minute by EventBridge (two targets, so a standby always runs); ticks once per
 * wall-clock second for `loopSeconds`, scheduling every shard whose lease it holds or can take.
 */
export function createHandler(config: SchedulerTickConfig, runtime: Partial<TickRuntime> = {}) {
  const deps = buildTickDeps(config, runtime);
  return async (event: ScheduledEvent, context: Context) => {
    const now = deps.clock.now();
    const until = Math.min(
      now + config.loopSeconds * 1000,
      now + context.getRemainingTimeInMillis() - SAFETY_MARGIN_MS,
    );
    deps.logger.info('tick started', { eventTime: event.time, requestId: context.awsRequestId });
    const owner = `${context.functionName}/${context.awsRequestId}`;
    const result = await runTickLoop(deps, { ...deps.settings, owner }, until, deps.signal, deps.admission);
    deps.logger.info('tick finished', { ...result, requestId: context.awsRequestId });
    deps.flushMetrics();
    return result;
  };
}

let lazy: ReturnType<typeof createHandler> | undefined;
export const handler = (event: ScheduledEvent, context: Context) => {
  lazy ??= createHandler(loadConfig(process.env));
  return lazy(event, context);
};
