import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { type AwsClients, createAwsClients } from '@tickring/aws/clients';
import { createExecutorTransport } from '@tickring/aws/lambda';
import { createFunctionLogger, createFunctionMetrics } from '@tickring/aws/observability';
import type { Logger, Metrics } from '@tickring/core/common';
import { type Clock, systemClock } from '@tickring/core/common';
import type { FireHandOff } from '@tickring/core/dispatch';
import {
  DISPATCH_DEFAULTS,
  type DispatchDeps,
  type DispatchSettings,
  JobTurns,
} from '@tickring/core/dispatch/use-cases';
import type { ExecutorTransport } from '@tickring/core/executors';
import { killRun } from '@tickring/core/runs/use-cases';
import { WorkflowFireHook } from '@tickring/core/workflows/use-cases';
import { executorAccessTokens } from '../wiring/access-tokens.js';
import { createRunOutcomeDeps } from '../wiring/run-outcome-deps.js';
import { createStoreKit } from '../wiring/stores.js';
import type { DispatcherConfig } from './config.js';

/** What the local stack or a test may swap: clients shared with other functions, logger, clock, transport. */
export interface DispatcherRuntime {
  readonly clients: AwsClients;
  readonly logger: Logger;
  readonly metrics: Metrics & { flush(): void };
  readonly clock: Clock;
  readonly random: () => number;
  /** Reads the access token when it is given as a secret ARN. */
  readonly secrets: SecretsManagerClient;
  readonly transport: ExecutorTransport;
  /** Where the workflow engine hands the nodes it fires (the local stack's dispatcher); else by config. */
  readonly handOff: FireHandOff;
}

/**
 * How the dispatcher waits, claims and sends: nothing is sent in the invocation's last executor
 * timeout + 2 s (the call and the record's write must fit in what is left).
 */
export function dispatchSettings(config: DispatcherConfig): DispatchSettings {
  return {
    registryDeadSeconds: config.registryDeadSeconds,
    claimStaleMs: config.claimStaleMs,
    maxWaitMs: DISPATCH_DEFAULTS.maxWaitMs,
    claimLeadMs: DISPATCH_DEFAULTS.claimLeadMs,
    sendMarginMs: config.executorTimeoutMs + 2_000,
  };
}

/** The composition root: built once per cold start. */
export function buildDispatchDeps(config: DispatcherConfig, runtime: Partial<DispatcherRuntime>) {
  const clients = runtime.clients ?? createAwsClients(config.aws);
  const logger = runtime.logger ?? createFunctionLogger('dispatcher');
  const metrics = runtime.metrics ?? createFunctionMetrics('dispatcher');
  const clock = runtime.clock ?? systemClock;
  const stores = createStoreKit(config.store, { clients, clock, logger });
  // A CANCEL_PREVIOUS start cancels the running workflow runs: their nodes' runs are killed through
  // this dispatcher's transport, which is made below.
  let killRunOf: ((logId: number) => Promise<void>) | undefined;
  const outcome = createRunOutcomeDeps(config, {
    clients,
    clock,
    stores,
    logger,
    metrics,
    killRun: (logId) => (killRunOf ? killRunOf(logId) : Promise.resolve()),
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
  const deps: DispatchDeps = {
    ...outcomeDeps,
    groups,
    registry: stores.registry(),
    routeStates: stores.routeStates(),
    slowTracker: stores.slowTracker(),
    transport:
      runtime.transport ??
      createExecutorTransport({
        accessToken: tokens.forGroup,
        timeoutMs: config.executorTimeoutMs,
        lambda: clients.lambda,
      }),
    random: runtime.random ?? Math.random,
    // The workflows' part of a fire: a node's fire, a workflow's starter job.
    fireHook: new WorkflowFireHook(outcomeDeps),
  };
  killRunOf = async (logId) => {
    await killRun({ ...deps, executors: deps.transport }, logId);
  };
  return {
    ...deps,
    /** The lane of a ring record (by the queue it came from). */
    laneOf: stores.laneOf,
    settings: dispatchSettings(config),
    // One per process: the concurrent batches of a local poller share it.
    jobTurns: new JobTurns(),
    flushMetrics: () => metrics.flush(),
    // Daily counters are summed over a batch and written once per day at its end.
    flushReports,
  };
}
