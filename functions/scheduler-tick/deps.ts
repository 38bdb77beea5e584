import { type AwsClients, createAwsClients } from '@tickring/aws/clients';
import { createFunctionLogger, createFunctionMetrics } from '@tickring/aws/observability';
import type { Logger, Metrics } from '@tickring/core/common';
import { type Clock, systemClock } from '@tickring/core/common';
import {
  DEFAULT_PRE_READ_MS,
  TickAdmission,
  type TickDeps,
  type TickSettings,
} from '@tickring/core/tick/use-cases';
import { createStoreKit } from '../wiring/stores.js';
import type { SchedulerTickConfig } from './config.js';

/** What the local stack or a test may swap: clients shared with other functions, logger, clock. */
export interface TickRuntime {
  readonly clients: AwsClients;
  readonly logger: Logger;
  readonly metrics: Metrics & { flush(): void };
  readonly clock: Clock;
  /** Ends the loop early (the local stack's stop); Lambda simply times the loop out. */
  readonly signal: AbortSignal;
}

/** The composition root: built once per cold start. */
export function buildTickDeps(config: SchedulerTickConfig, runtime: Partial<TickRuntime>) {
  const clients = runtime.clients ?? createAwsClients(config.aws);
  const metrics = runtime.metrics ?? createFunctionMetrics('scheduler-tick');
  const clock = runtime.clock ?? systemClock;
  const logger = runtime.logger ?? createFunctionLogger('scheduler-tick');
  const stores = createStoreKit(config.store, { clients, clock, logger });
  const ring = stores.ring();
  const deps: TickDeps = {
    jobs: stores.jobs(config.shardCount),
    leases: stores.leases(),
    ring,
    ringGauge: ring,
    audit: stores.auditLog(config.auditRetentionDays),
    calendars: stores.calendars(),
    clock,
    logger,
    metrics,
  };
  const settings: Omit<TickSettings, 'owner'> = {
    shardCount: config.shardCount,
    preReadCount: config.preReadCount,
    preReadMs: DEFAULT_PRE_READ_MS,
    planAheadMs: config.planAheadSeconds * 1000,
    leaseMs: config.leaseMs,
  };
  // Admission control outlives one invocation. The local stack runs every minute's loop and the
  // standby in this one instance, so the next loop goes on from the share the backlog called for; on
  // Lambda an instance's loops are at least two minutes apart, and a share that old is forgotten
  // (STALE_MS): there the next loop goes on from the share the last one handed over with its leases.
  const admission = new TickAdmission();
  return { ...deps, settings, admission, signal: runtime.signal, flushMetrics: () => metrics.flush() };
}
