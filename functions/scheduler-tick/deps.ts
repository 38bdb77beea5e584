import { type AwsClients, createAwsClients } from '@tickring/aws/clients';
import { DynamoJobStore, DynamoLeaseStore } from '@tickring/aws/dynamodb';
import { createFunctionLogger, createFunctionMetrics } from '@tickring/aws/observability';
import { SqsRingQueue } from '@tickring/aws/sqs';
import type { Logger, Metrics } from '@tickring/core/common';
import { type Clock, systemClock } from '@tickring/core/common';
import { DEFAULT_PRE_READ_MS, type TickDeps, type TickSettings } from '@tickring/core/tick/use-cases';
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
