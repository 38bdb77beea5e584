import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { type AwsClients, createAwsClients } from '@tickring/aws/clients';
import { createExecutorTransport } from '@tickring/aws/lambda';
import { createFunctionLogger, createFunctionMetrics } from '@tickring/aws/observability';
import { httpAlertSender } from '@tickring/aws/sns';
import type { AlertSender } from '@tickring/core/alerts';
import { driveAlertDeliveries } from '@tickring/core/alerts/use-cases';
import { driveBackfills } from '@tickring/core/backfills/use-cases';
import type { Logger, Metrics } from '@tickring/core/common';
import { type Clock, systemClock } from '@tickring/core/common';
import type { FireHandOff } from '@tickring/core/dispatch';
import type { ExecutorTransport } from '@tickring/core/executors';
import type { AlarmPublisher } from '@tickring/core/runs';
import { type MonitorDeps, type MonitorSettings, sweepDeadMan } from '@tickring/core/runs/use-cases';
import { sweepWorkflowDeadlines } from '@tickring/core/workflows/use-cases';
import { executorAccessTokens } from '../wiring/access-tokens.js';
import { createRunOutcomeDeps } from '../wiring/run-outcome-deps.js';
import { createStoreKit } from '../wiring/stores.js';
import type { MonitorsConfig } from './config.js';

/** What the local stack or a test may swap. */
export interface MonitorsRuntime {
  readonly clients: AwsClients;
  readonly logger: Logger;
  readonly metrics: Metrics & { flush(): void };
  readonly clock: Clock;
  readonly secrets: SecretsManagerClient;
  readonly alarms: AlarmPublisher;
  /** Where the workflow engine hands the nodes it fires (the local stack's dispatcher); else by config. */
  readonly handOff: FireHandOff;
  readonly executors: Pick<ExecutorTransport, 'beat'>;
  /** How alerts leave (webhook and slack POSTs, email). */
  readonly alertSender: AlertSender;
}

/** The composition root: built once per cold start. */
export function buildMonitorsDeps(config: MonitorsConfig, runtime: Partial<MonitorsRuntime>) {
  const clients = runtime.clients ?? createAwsClients(config.aws);
  const logger = runtime.logger ?? createFunctionLogger('monitors');
  const metrics = runtime.metrics ?? createFunctionMetrics('monitors');
  const clock = runtime.clock ?? systemClock;
  const stores = createStoreKit(config.store, { clients, clock, logger });
  const outcome = createRunOutcomeDeps(config, {
    clients,
    clock,
    stores,
    logger,
    metrics,
    alarms: runtime.alarms,
    handOff: runtime.handOff,
  });
  const { flushReports, ...outcomeDeps } = outcome;
  const groups = stores.groups();
  const tokens = executorAccessTokens(config, {
    groups,
    clock: outcomeDeps.clock,
    region: config.aws.region,
    client: runtime.secrets,
  });
  const workflowStore = stores.workflows(config.logRetentionDays);
  const deps: MonitorDeps = {
    ...outcomeDeps,
    workflowSweep: {
      sweepStalledRuns: () => outcomeDeps.workflows.sweepStalledRuns(config.workflowStalledMs),
    },
    deadManSweep: {
      sweep: () =>
        sweepDeadMan({
          ...outcomeDeps,
          audit: stores.auditLog(config.auditRetentionDays),
          calendars: stores.calendars(),
          // A workflow's schedule is checked by the workflow runs its fires started.
          workflows: workflowStore,
        }),
    },
    workflowDeadlineSweep: {
      sweep: () => sweepWorkflowDeadlines({ ...outcomeDeps, workflowStore }),
    },
    backfillSweep: {
      drive: (untilMs) =>
        driveBackfills(
          {
            jobs: outcomeDeps.jobs,
            backfills: stores.backfills(),
            // A workflow backfill's fire is done when its workflow run is.
            workflowRuns: workflowStore,
            runs: outcomeDeps.runs,
            ring: outcomeDeps.ring,
            clock: outcomeDeps.clock,
            logger,
          },
          untilMs,
        ),
    },
    alertSweep: {
      drive: (untilMs) =>
        driveAlertDeliveries(
          {
            alerts: stores.alerts(),
            sender: runtime.alertSender ?? httpAlertSender({ email: stores.alertEmail() }),
            // A window's count on the job's own path (never through the alert routing again).
            legacy: stores.legacyAlarms(),
            sealer: tokens.sealer,
            clock: outcomeDeps.clock,
            logger,
          },
          untilMs,
        ),
    },
    groups,
    registry: stores.registry(),
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
