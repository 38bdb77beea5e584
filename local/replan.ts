import type { AwsClients } from '@tickring/aws/clients';
import type { Logger } from '@tickring/core/common';
import { systemClock } from '@tickring/core/common';
import { loadSetting } from '@tickring/core/config';
import { type ReplanResult, replanLostFires } from '@tickring/core/tick/use-cases';
import * as dispatcherConfig from '../functions/dispatcher/config.js';
import * as schedulerTickConfig from '../functions/scheduler-tick/config.js';
import { createStoreKit } from '../functions/wiring/stores.js';

/**
 * The restart step of the stack on DynamoDB Local: the SQS stand-in keeps the ring in memory, so a
 * stop (or a crash) loses the fires the tick had planned ahead. Built from the functions' settings,
 * as the tick builds its own stores. (The SQLite ring is durable: that stack needs no re-plan.)
 */
export function replanAfterRestart(
  env: Record<string, string>,
  clients: AwsClients,
  logger: Logger,
): Promise<ReplanResult> {
  const tick = schedulerTickConfig.loadConfig(env);
  const dispatcher = dispatcherConfig.loadConfig(env);
  const stores = createStoreKit(dispatcher.store, { clients, clock: systemClock, logger });
  // The calendars jobs follow, as the tick reads them (the dispatcher's configuration has no calendars).
  const tickStores = createStoreKit(tick.store, { clients, clock: systemClock, logger });
  return replanLostFires(
    {
      jobs: stores.jobs(tick.shardCount),
      runs: stores.runs(loadSetting(env, 'logRetentionDays')),
      ring: stores.ring(),
      calendars: tickStores.calendars(),
      clock: systemClock,
      logger,
    },
    { claimStaleMs: dispatcher.claimStaleMs },
  );
}
