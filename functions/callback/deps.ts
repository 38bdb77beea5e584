import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { createAlarmPublisher } from '../../shared/adapters/alarms.js';
import { type AwsClients, createAwsClients } from '../../shared/adapters/aws-clients.js';
import { DynamoJobStore } from '../../shared/adapters/dynamodb/job-store.js';
import { DynamoRegistryStore } from '../../shared/adapters/dynamodb/registry-store.js';
import { DynamoReportStore } from '../../shared/adapters/dynamodb/report-store.js';
import { DynamoRunStore } from '../../shared/adapters/dynamodb/run-store.js';
import { cachedTokenReader } from '../../shared/adapters/secrets.js';
import { SqsRingQueue } from '../../shared/adapters/sqs/ring-queue.js';
import { createFunctionLogger } from '../../shared/observability/logger.js';
import { createFunctionMetrics } from '../../shared/observability/metrics.js';
import type { AlarmPublisher } from '../../shared/ports/alarms.js';
import { type Clock, systemClock } from '../../shared/ports/clock.js';
import type { Logger } from '../../shared/ports/logger.js';
import type { Metrics } from '../../shared/ports/metrics.js';
import type { RegistryDeps } from '../../shared/use-cases/registry.js';
import type { RunOutcomeDeps } from '../../shared/use-cases/run-outcome.js';
import type { CallbackConfig } from './config.js';

/** What the local stack or a test may swap. */
export interface CallbackRuntime {
  readonly clients: AwsClients;
  readonly logger: Logger;
  readonly metrics: Metrics & { flush(): void };
  readonly clock: Clock;
  /** Reads the access token when it is given as a secret ARN. */
  readonly secrets: SecretsManagerClient;
  readonly alarms: AlarmPublisher;
}

export interface CallbackDeps {
  readonly outcome: RunOutcomeDeps;
  readonly registry: RegistryDeps;
  readonly logger: Logger;
  /** The access token, read once (from Secrets Manager on the first request of a cold start). */
  readonly accessToken: () => Promise<string>;
  flushMetrics(): void;
}

/** The composition root: built once per cold start. */
export function buildCallbackDeps(config: CallbackConfig, runtime: Partial<CallbackRuntime>): CallbackDeps {
  const clients = runtime.clients ?? createAwsClients(config.aws);
  const clock = runtime.clock ?? systemClock;
  const logger = runtime.logger ?? createFunctionLogger('callback');
  const metrics = runtime.metrics ?? createFunctionMetrics('callback');
  const { doc } = clients;
  const outcome: RunOutcomeDeps = {
    runs: new DynamoRunStore({
      doc,
      runsTable: config.tables.runs,
      controlTable: config.tables.control,
      retentionDays: config.logRetentionDays,
    }),
    jobs: new DynamoJobStore({
      doc,
      jobsTable: config.tables.jobs,
      controlTable: config.tables.control,
      shardCount: config.shardCount,
    }),
    ring: new SqsRingQueue({ sqs: clients.sqs, queueUrls: config.queueUrls }),
    alarms:
      runtime.alarms ?? createAlarmPublisher({ sns: clients.sns, topicArn: config.alarmTopicArn, logger }),
    reports: new DynamoReportStore({ doc, controlTable: config.tables.control }),
    clock,
    logger,
    metrics,
  };
  const registry = new DynamoRegistryStore({
    doc,
    registryTable: config.tables.registry,
    expireAfterSeconds: config.registryDeadSeconds * 3,
  });
  const accessToken = cachedTokenReader(config.accessToken, {
    region: config.aws.region,
    client: runtime.secrets,
  });
  return {
    outcome,
    registry: { registry, clock, logger },
    logger,
    accessToken,
    flushMetrics: () => metrics.flush(),
  };
}
