import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { type AwsClients, createAwsClients } from '@tickring/aws/clients';
import { createExecutorTransport } from '@tickring/aws/lambda';
import { createFunctionLogger, createFunctionMetrics } from '@tickring/aws/observability';
import { cachedTokenReader } from '@tickring/aws/secrets';
import { httpAlertSender } from '@tickring/aws/sns';
import type { AdminDashboardDeps } from '@tickring/core/activity/use-cases';
import type { AlertSender } from '@tickring/core/alerts';
import { type AdminAlertsDeps, getAlertChannel } from '@tickring/core/alerts/use-cases';
import { type AuditDeps, recordChange } from '@tickring/core/audit/use-cases';
import { type AdminWorkflowBackfillsDeps, getBackfill } from '@tickring/core/backfills/use-cases';
import { type AdminCalendarsDeps, getCalendar } from '@tickring/core/calendars/use-cases';
import type { Logger, Metrics } from '@tickring/core/common';
import { type Clock, systemClock } from '@tickring/core/common';
import type { FireHandOff } from '@tickring/core/dispatch';
import type { AdminTriggerDeps } from '@tickring/core/dispatch/use-cases';
import type { ExecutorTransport } from '@tickring/core/executors';
import type {
  AdminExecutorsDeps,
  AdminGroupsDeps,
  AdminRefusalsDeps,
  ExecutorSettings,
  GroupTokenDeps,
} from '@tickring/core/executors/use-cases';
import { getGroup } from '@tickring/core/executors/use-cases';
import type { IdentityDeps } from '@tickring/core/identity/use-cases';
import type { AdminJobsDeps } from '@tickring/core/jobs/use-cases';
import type { AlarmPublisher } from '@tickring/core/runs';
import { type AdminRunsDeps, type JobLedgerDeps, killRun } from '@tickring/core/runs/use-cases';
import type { AdminWorkflowsDeps, WorkflowLedgerDeps } from '@tickring/core/workflows/use-cases';
import { executorAccessTokens } from '../wiring/access-tokens.js';
import { createWorkflowEngine } from '../wiring/run-outcome-deps.js';
import { createStoreKit } from '../wiring/stores.js';
import { buildAuditDeps } from './audit-deps.js';
import type { GuardDeps } from './authorize.js';
import type { ApiConfig } from './config.js';
import { buildIdentityDeps } from './identity-deps.js';
import { channelView } from './routes-alerts.js';
import { backfillView } from './routes-backfills.js';
import { calendarView } from './routes-calendars.js';
import { identityBeforeLoaders } from './routes-identity.js';
import { describeWorkflow, describeWorkflowRun } from './routes-workflows.js';
import { groupView } from './views.js';

/** While the edge secret cannot be read, how long a failed read stands (the caller's address is the gateway's meanwhile). */
const EDGE_SECRET_RETRY_MS = 5_000;

/** What the local stack or a test may swap. */
export interface ApiRuntime {
  readonly clients: AwsClients;
  readonly logger: Logger;
  readonly clock: Clock;
  /** Reads the admin and access tokens when they are given as secret ARNs. */
  readonly secrets: SecretsManagerClient;
  /** The admin → executor calls (`/log`, `/kill`). */
  readonly transport: ExecutorTransport;
  readonly metrics: Metrics & { flush(): void };
  /** Replaces the publisher (SNS or log, + webhook) a failed workflow run is alarmed with (tests). */
  readonly alarms: AlarmPublisher;
  /** How a channel's test message leaves (webhook and slack POSTs, email). */
  readonly alertSender: AlertSender;
  /** Where the workflow engine hands the nodes it fires (the local stack's dispatcher); else by config. */
  readonly handOff: FireHandOff;
}

export interface ApiDeps {
  readonly jobs: AdminJobsDeps;
  readonly groups: AdminGroupsDeps;
  readonly groupTokens: GroupTokenDeps;
  readonly runs: AdminRunsDeps;
  readonly trigger: AdminTriggerDeps;
  /** Workflows, their schedules, triggers and runs. */
  readonly workflows: AdminWorkflowsDeps;
  /** Business calendars. */
  readonly calendars: AdminCalendarsDeps;
  /** Backfills of jobs' and workflows' schedules. */
  readonly backfills: AdminWorkflowBackfillsDeps;
  /** Jobs' and workflows' fire ledgers. */
  readonly ledger: JobLedgerDeps & WorkflowLedgerDeps;
  /** Alert channels, silences and the alert history. */
  readonly alerts: AdminAlertsDeps;
  readonly executors: AdminExecutorsDeps;
  /** Refused executor requests, for the executors list. */
  readonly refusals: AdminRefusalsDeps;
  readonly dashboard: AdminDashboardDeps;
  readonly settings: ExecutorSettings;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The authorisation step's reads and the audit log. */
  readonly guard: GuardDeps;
  readonly audit: AuditDeps;
  /** Users, sessions, API tokens, the bootstrap token. */
  readonly identity: IdentityDeps;
  /** Publishes the invocation's metrics (failed logins, audit writes). */
  readonly flushMetrics: () => void;
  /** The console's CloudFront edge secret, read on first use (undefined: none configured). */
  readonly edgeSecret: (() => Promise<string>) | undefined;
}

/** The composition root: built once per cold start. */
export function buildApiDeps(config: ApiConfig, runtime: Partial<ApiRuntime>): ApiDeps {
  const clients = runtime.clients ?? createAwsClients(config.aws);
  const clock = runtime.clock ?? systemClock;
  const logger = runtime.logger ?? createFunctionLogger('api');
  const metrics = runtime.metrics ?? createFunctionMetrics('api');
  const stores = createStoreKit(config.store, { clients, clock, logger });
  const jobs = stores.jobs(config.shardCount);
  const groups = stores.groups();
  const runs = stores.runs(config.logRetentionDays);
  const registry = stores.registry();
  const reports = stores.reports();
  const secrets = { region: config.aws.region, client: runtime.secrets };
  const adminToken = cachedTokenReader(config.adminToken, secrets);
  // Every console request through CloudFront asks for it: while Secrets Manager fails, read again every 5 s, not per request.
  const edgeSecret =
    config.edgeSecret &&
    cachedTokenReader(config.edgeSecret, secrets, { failureBackoffMs: EDGE_SECRET_RETRY_MS });
  const tokens = executorAccessTokens(config, { groups, clock, ...secrets });
  const transport =
    runtime.transport ??
    createExecutorTransport({
      accessToken: tokens.forGroup,
      timeoutMs: config.executorTimeoutMs,
      lambda: clients.lambda,
    });
  const executors: AdminExecutorsDeps = { groups, registry, clock };
  const identity = buildIdentityDeps({
    store: stores.principals(),
    bootstrapToken: adminToken,
    clock,
    logger,
    metrics,
    sessionIdleMinutes: config.sessionIdleMinutes,
    sessionMaxHours: config.sessionMaxHours,
    passwordHashCost: config.passwordHashCost,
  });
  const audit = buildAuditDeps({
    log: stores.auditLog(config.auditRetentionDays),
    clock,
    logger,
    metrics,
  });
  const alertStore = stores.alerts();
  const groupsDeps = {
    groups,
    jobs,
    registry,
    registryDeadSeconds: config.registryDeadSeconds,
    alertChannels: alertStore,
    clock,
    logger,
  };
  const ring = stores.ring();
  // A cancel kills its running nodes' job runs as the kill route does; a killed node's run (from
  // either) advances its workflow run, which may end it (and alarm it, FAILED).
  const { engine, store: workflowStore } = createWorkflowEngine(config, {
    stores,
    jobs,
    runs,
    ring,
    alarms: runtime.alarms ?? stores.alarms(),
    clock,
    logger,
    metrics,
    killRun: (logId) => killRun(adminRunsDeps, logId).then(() => undefined),
    clients,
    handOff: runtime.handOff,
  });
  const adminRunsDeps: AdminRunsDeps = {
    runs,
    executors: transport,
    reports,
    clock,
    logger,
    workflows: engine,
  };
  const calendarStore = stores.calendars();
  const workflows: AdminWorkflowsDeps = {
    workflows: workflowStore,
    engine,
    jobs,
    groups,
    calendars: calendarStore,
    clock,
    logger,
  };
  const jobsDeps = {
    jobs,
    groups,
    calendars: calendarStore,
    alertChannels: alertStore,
    clock,
    logger,
    logRetentionDays: config.logRetentionDays,
  };
  const calendars: AdminCalendarsDeps = {
    calendars: calendarStore,
    jobs: jobsDeps,
    audit: audit.log,
    clock,
    logger,
  };
  const backfills: AdminWorkflowBackfillsDeps = {
    jobs,
    backfills: stores.backfills(),
    calendars: calendarStore,
    workflows: workflowStore,
    workflowRuns: workflowStore,
    runs,
    ring,
    clock,
    logger,
  };
  return {
    jobs: jobsDeps,
    groups: groupsDeps,
    groupTokens: { groups, sealer: tokens.sealer, clock, logger },
    runs: adminRunsDeps,
    trigger: {
      jobs,
      runs,
      groups,
      registry,
      registryDeadSeconds: config.registryDeadSeconds,
      ring,
      clock,
      logger,
    },
    workflows,
    calendars,
    backfills,
    ledger: { jobs, runs, workflows: workflowStore, calendars: calendarStore, audit: audit.log, clock },
    alerts: {
      alerts: alertStore,
      sealer: tokens.sealer,
      clock,
      sender: runtime.alertSender ?? httpAlertSender({ email: stores.alertEmail() }),
      jobs,
      groups,
      logger,
    },
    executors,
    refusals: { refusals: stores.registrationRefusals() },
    dashboard: { ...executors, jobs, reports },
    settings: { registryDeadSeconds: config.registryDeadSeconds },
    clock,
    logger,
    identity,
    audit,
    flushMetrics: () => metrics.flush(),
    edgeSecret,
    guard: {
      jobs,
      runs,
      workflows: workflowStore,
      logger,
      recordChange: async (change) => {
        await recordChange(audit, change);
      },
      loadBefore: {
        group: async (appName) => groupView(await getGroup(groupsDeps, appName)),
        calendar: async (id) => calendarView(await getCalendar(calendars, id)),
        backfill: async (id) => backfillView(await getBackfill(backfills, id)),
        alertChannel: async (id) => channelView(await getAlertChannel({ alerts: alertStore }, id)),
        ...identityBeforeLoaders(identity),
      },
      describe: {
        workflow: (workflow) => describeWorkflow(workflows, workflow),
        workflowRun: (run) => describeWorkflowRun(workflows, run),
      },
    },
  };
}
