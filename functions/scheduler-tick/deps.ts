import { type AwsClients, createAwsClients } from '../../shared/adapters/aws-clients.js';
import { DynamoJobStore } from '../../shared/adapters/dynamodb/job-store.js';
import { DynamoLeaseStore } from '../../shared/adapters/dynamodb/lease-store.js';
import { SqsRingQueue } from '../../shared/adapters/sqs/ring-queue.js';
import { createFunctionLogger } from '../../shared/observability/logger.js';
import { createFunctionMetrics } from '../../shared/observability/metrics.js';
import { type Clock, systemClock } from '../../shared/ports/clock.js';
import type { Logger } from '../../shared/ports/logger.js';
import type { Metrics } from '../../shared/ports/metrics.js';
import { DEFAULT_PRE_READ_MS, type TickDeps, type TickSettings } from '../../shared/use-cases/run-tick.js';
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
  const deps: TickDeps = {
    jobs: new DynamoJobStore({
      doc: clients.doc,
      jobsTable: config.tables.jobs,
      controlTable: config.tables.control,
      shardCount: config.shardCount,
    }),
    leases: new DynamoLeaseStore({ doc: clients.doc, controlTable: config.tables.control }),
    ring: new SqsRingQueue({ sqs: clients.sqs, queueUrls: config.queueUrls }),
    clock: runtime.clock ?? systemClock,
    logger: runtime.logger ?? createFunctionLogger('scheduler-tick'),
    metrics,
  };
  const settings: Omit<TickSettings, 'owner'> = {
    shardCount: config.shardCount,
    preReadCount: config.preReadCount,
    preReadMs: DEFAULT_PRE_READ_MS,
    planAheadMs: config.planAheadSeconds * 1000,
    leaseMs: config.leaseMs,
  };
  return { ...deps, settings, signal: runtime.signal, flushMetrics: () => metrics.flush() };
}
