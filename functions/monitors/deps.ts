import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { createAlarmPublisher } from '../../shared/adapters/alarms.js';
import { type AwsClients, createAwsClients } from '../../shared/adapters/aws-clients.js';
import { DynamoGroupStore } from '../../shared/adapters/dynamodb/group-store.js';
import { DynamoJobStore } from '../../shared/adapters/dynamodb/job-store.js';
import { DynamoRegistryStore } from '../../shared/adapters/dynamodb/registry-store.js';
import { DynamoReportStore } from '../../shared/adapters/dynamodb/report-store.js';
import { DynamoRunStore } from '../../shared/adapters/dynamodb/run-store.js';
import { HttpExecutorTransport } from '../../shared/adapters/executor-http.js';
import { SchemeExecutorTransport } from '../../shared/adapters/executor-transport.js';
import { LambdaExecutorTransport } from '../../shared/adapters/lambda-transport.js';
import { cachedTokenReader } from '../../shared/adapters/secrets.js';
import { SqsRingQueue } from '../../shared/adapters/sqs/ring-queue.js';
import { createFunctionLogger } from '../../shared/observability/logger.js';
import { createFunctionMetrics } from '../../shared/observability/metrics.js';
import type { AlarmPublisher } from '../../shared/ports/alarms.js';
import { type Clock, systemClock } from '../../shared/ports/clock.js';
import type { ExecutorTransport } from '../../shared/ports/executor-transport.js';
import type { Logger } from '../../shared/ports/logger.js';
import type { Metrics } from '../../shared/ports/metrics.js';
import type { MonitorDeps, MonitorSettings } from '../../shared/use-cases/monitors.js';
import type { MonitorsConfig } from './config.js';

/** What the local stack or a test may swap. */
export interface MonitorsRuntime {
  readonly clients: AwsClients;
  readonly logger: Logger;
  readonly metrics: Metrics & { flush(): void };
  readonly clock: Clock;
  readonly secrets: SecretsManagerClient;
  readonly alarms: AlarmPublisher;
  readonly executors: Pick<ExecutorTransport, 'beat'>;
}

/** The composition root: built once per cold start. */
export function buildMonitorsDeps(config: MonitorsConfig, runtime: Partial<MonitorsRuntime>) {
  const clients = runtime.clients ?? createAwsClients(config.aws);
  const logger = runtime.logger ?? createFunctionLogger('monitors');
  const metrics = runtime.metrics ?? createFunctionMetrics('monitors');
  const { doc } = clients;
  const accessToken = cachedTokenReader(config.accessToken, {
    region: config.aws.region,
    client: runtime.secrets,
  });
  const deps: MonitorDeps = {
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
    groups: new DynamoGroupStore({ doc, groupsTable: config.tables.groups }),
    registry: new DynamoRegistryStore({ doc, registryTable: config.tables.registry }),
    executors:
      runtime.executors ??
      new SchemeExecutorTransport({
        http: new HttpExecutorTransport({ accessToken, timeoutMs: config.executorTimeoutMs }),
        lambda: new LambdaExecutorTransport({ lambda: clients.lambda }),
      }),
    ring: new SqsRingQueue({ sqs: clients.sqs, queueUrls: config.queueUrls }),
    alarms:
      runtime.alarms ?? createAlarmPublisher({ sns: clients.sns, topicArn: config.alarmTopicArn, logger }),
    reports: new DynamoReportStore({ doc, controlTable: config.tables.control }),
    clock: runtime.clock ?? systemClock,
    logger,
    metrics,
  };
  const settings: MonitorSettings = {
    registryDeadSeconds: config.registryDeadSeconds,
    batchSize: config.batchSize,
  };
  return { deps, settings, flushMetrics: () => metrics.flush() };
}
