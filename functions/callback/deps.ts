import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { type AwsClients, createAwsClients } from '@tickring/aws/clients';
import { createFunctionLogger, createFunctionMetrics } from '@tickring/aws/observability';
import type { Logger, Metrics } from '@tickring/core/common';
import { type Clock, systemClock } from '@tickring/core/common';
import type { FireHandOff } from '@tickring/core/dispatch';
import type { RegistryDeps } from '@tickring/core/executors/use-cases';
import {
  DEFAULT_REFUSAL_RECORDER_SETTINGS,
  executorAuthorizer,
  refusalRecorder,
} from '@tickring/core/executors/use-cases';
import type { AlarmPublisher } from '@tickring/core/runs';
import type { RunOutcomeDeps } from '@tickring/core/runs/use-cases';
import { executorAccessTokens } from '../wiring/access-tokens.js';
import { createRunOutcomeDeps } from '../wiring/run-outcome-deps.js';
import { createStoreKit } from '../wiring/stores.js';
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
  /** Where the workflow engine hands the nodes it fires (the local stack's dispatcher); else by config. */
  readonly handOff: FireHandOff;
}

export interface CallbackDeps {
  readonly outcome: RunOutcomeDeps;
  readonly registry: RegistryDeps;
  readonly logger: Logger;
  /** Checks an executor's token against its group's (read once per cold start, groups' kept 30 s). */
  readonly authorize: ReturnType<typeof executorAuthorizer>;
  /** Counts a refused request per (appName, address, reason) beside the registry, and logs it (rate-limited). */
  readonly recordRefusal: ReturnType<typeof refusalRecorder>;
  /**
   * Writes the daily counters the request added (`outcome.reports` buffers them); never rejects,
   * a failure is logged (the counters are best-effort).
   */
  flushReports(): Promise<void>;
  flushMetrics(): void;
}

/** The composition root: built once per cold start. */
export function buildCallbackDeps(config: CallbackConfig, runtime: Partial<CallbackRuntime>): CallbackDeps {
  const clients = runtime.clients ?? createAwsClients(config.aws);
  const clock = runtime.clock ?? systemClock;
  const logger = runtime.logger ?? createFunctionLogger('callback');
  const metrics = runtime.metrics ?? createFunctionMetrics('callback');
  const stores = createStoreKit(config.store, { clients, clock, logger });
  const { flushReports, ...outcome } = createRunOutcomeDeps(config, {
    clients,
    clock,
    stores,
    logger,
    metrics,
    alarms: runtime.alarms,
    handOff: runtime.handOff,
  });
  const registry = stores.registry({ expireAfterSeconds: config.registryDeadSeconds * 3 });
  const tokens = executorAccessTokens(config, {
    groups: stores.groups(),
    clock,
    region: config.aws.region,
    client: runtime.secrets,
  });
  const authorize = executorAuthorizer({
    tokenFor: tokens.forGroup,
    globalToken: tokens.global,
    jobs: outcome.jobs,
    clock,
    logger,
  });
  const recordRefusal = refusalRecorder(
    { refusals: stores.registrationRefusals(), groups: stores.groups(), clock, logger },
    { ...DEFAULT_REFUSAL_RECORDER_SETTINGS, writeEveryMs: config.refusalWriteSeconds * 1000 },
  );
  return {
    outcome,
    registry: { registry, clock, logger },
    logger,
    authorize,
    recordRefusal,
    // One counter write per day per request, not one per result.
    flushReports,
    flushMetrics: () => metrics.flush(),
  };
}
