import * as dispatcherConfig from '../functions/dispatcher/config.js';
import * as schedulerTickConfig from '../functions/scheduler-tick/config.js';
import type { AwsClients } from '../shared/adapters/aws-clients.js';
import { DynamoJobStore } from '../shared/adapters/dynamodb/job-store.js';
import { DynamoRunStore } from '../shared/adapters/dynamodb/run-store.js';
import { SqsRingQueue } from '../shared/adapters/sqs/ring-queue.js';
import { loadTables } from '../shared/config/common.js';
import { loadSetting } from '../shared/config/settings.js';
import { systemClock } from '../shared/ports/clock.js';
import type { Logger } from '../shared/ports/logger.js';
import { type ReplanResult, replanLostFires } from '../shared/use-cases/replan-lost-fires.js';

/**
 * The local stack's restart step: the SQS stand-in keeps the ring in memory, so a stop (or a crash)
 * loses the fires the tick had planned ahead. Built from the functions' settings, as the tick
 * builds its own stores.
 */
export function replanAfterRestart(
  env: Record<string, string>,
  clients: AwsClients,
  logger: Logger,
): Promise<ReplanResult> {
  const tick = schedulerTickConfig.loadConfig(env);
  const tables = loadTables(env, ['runs', 'control']);
  return replanLostFires(
    {
      jobs: new DynamoJobStore({
        doc: clients.doc,
        jobsTable: tick.tables.jobs,
        controlTable: tick.tables.control,
        shardCount: tick.shardCount,
      }),
      runs: new DynamoRunStore({
        doc: clients.doc,
        runsTable: tables.runs,
        controlTable: tables.control,
        retentionDays: loadSetting(env, 'logRetentionDays'),
      }),
      ring: new SqsRingQueue({ sqs: clients.sqs, queueUrls: tick.queueUrls }),
      clock: systemClock,
      logger,
    },
    { claimStaleMs: dispatcherConfig.loadConfig(env).claimStaleMs },
  );
}
