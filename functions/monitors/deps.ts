import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { executorAccessTokens } from '../../shared/adapters/access-tokens.js';
import { type AwsClients, createAwsClients } from '../../shared/adapters/aws-clients.js';
import { DynamoGroupStore } from '../../shared/adapters/dynamodb/group-store.js';
import { DynamoRegistryStore } from '../../shared/adapters/dynamodb/registry-store.js';
import { createExecutorTransport } from '../../shared/adapters/executor-transport.js';
import { createRunOutcomeDeps } from '../../shared/adapters/run-outcome-deps.js';
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
  const outcome = createRunOutcomeDeps(config, {
    clients,
    clock: runtime.clock ?? systemClock,
    logger,
    metrics,
    alarms: runtime.alarms,
  });
  const { flushReports, ...outcomeDeps } = outcome;
  const groups = new DynamoGroupStore({ doc, groupsTable: config.tables.groups });
  const tokens = executorAccessTokens(config, {
    groups,
    clock: outcomeDeps.clock,
    region: config.aws.region,
    client: runtime.secrets,
  });
  const deps: MonitorDeps = {
    ...outcomeDeps,
    workflowSweep: {
      sweepStalledRuns: () => outcomeDeps.workflows.sweepStalledRuns(config.workflowStalledMs),
    },
    groups,
    registry: new DynamoRegistryStore({ doc, registryTable: config.tables.registry }),
    executors:
      runtime.executors ??
      createExecutorTransport({
        accessToken: tokens.forGroup,
        timeoutMs: config.executorTimeoutMs,
        lambda: clients.lambda,
      }),
  };
  const settings: MonitorSettings = {
    registryDeadSeconds: config.registryDeadSeconds,
    settleMs: config.lostRunSettleMs,
    batchSize: config.batchSize,
  };
  return {
    deps,
    settings,
    /** The runs a sweep finishes are counted with one write per day, at the end of the sweep. */
    flushReports,
    flushMetrics: () => metrics.flush(),
  };
}
