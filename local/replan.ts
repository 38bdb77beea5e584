import type { AwsClients } from '@tickring/aws/clients';
import { loadTables } from '@tickring/aws/clients';
import { DynamoJobStore, DynamoRunStore } from '@tickring/aws/dynamodb';
import { SqsRingQueue } from '@tickring/aws/sqs';
import type { Logger } from '@tickring/core/common';
import { systemClock } from '@tickring/core/common';
import { loadSetting } from '@tickring/core/config';
import { type ReplanResult, replanLostFires } from '@tickring/core/tick/use-cases';
import * as dispatcherConfig from '../functions/dispatcher/config.js';
import * as schedulerTickConfig from '../functions/scheduler-tick/config.js';

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
