import type { AwsClients } from '@tickring/aws/clients';
import { LambdaDispatcherHandOff } from '@tickring/aws/lambda';
import type { Clock, Logger, Metrics } from '@tickring/core/common';
import type { FireHandOff } from '@tickring/core/dispatch';
import type { AlarmPublisher } from '@tickring/core/runs';
import { BufferedReportStore } from '@tickring/core/runs';
import type { RunOutcomeDeps } from '@tickring/core/runs/use-cases';
import type { WorkflowStore } from '@tickring/core/workflows';
import { WorkflowEngine, type WorkflowEngineDeps } from '@tickring/core/workflows/use-cases';
import type { DispatcherHandOffConfig } from './hand-off-config.js';
import type { StoreConfig } from './store-config.js';
import { createStoreKit, type StoreKit } from './stores.js';

/** The part of a function's config the run-outcome adapters read (every such config has it). */
export interface RunOutcomeConfig extends DispatcherHandOffConfig {
  readonly store: StoreConfig<'jobs' | 'runs' | 'control' | 'workflows' | 'audit'>;
  readonly shardCount: number;
  readonly logRetentionDays: number;
  /** A pause by a job's failure policy is recorded in the audit log, kept this long. */
  readonly auditRetentionDays: number;
}

export interface RunOutcomeRuntime {
  readonly clients: AwsClients;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** The function's stores; made from `config.store` when not given. */
  readonly stores?: StoreKit;
  /** Replaces the alarm publisher of the store kit (SNS or log) + webhook (tests). */
  readonly alarms?: AlarmPublisher;
  /** Kills a job run (a workflow cancel's running nodes), where the function can call executors. */
  readonly killRun?: (logId: number) => Promise<void>;
  /** Where the engine hands the nodes it fires (the local stack's in-process dispatcher); else by config. */
  readonly handOff?: FireHandOff | undefined;
}

/**
 * How the engine hands a decided node's fire to a dispatcher: the one the runtime gives (the local
 * stack's), else an asynchronous Invoke of the configured dispatcher function, else none (the ring).
 */
function fireHandOff(
  config: DispatcherHandOffConfig,
  runtime: { readonly clients: AwsClients; readonly handOff?: FireHandOff | undefined },
): FireHandOff | undefined {
  if (runtime.handOff) return runtime.handOff;
  if (config.dispatcherFunction === undefined) return undefined;
  return new LambdaDispatcherHandOff({
    lambda: runtime.clients.lambda,
    functionName: config.dispatcherFunction,
  });
}

/**
 * The adapters behind `onRunFinished` (runs, jobs, ring, alarms, reports, and the workflow engine
 * that a workflow node's run advances), built the same way by
 * every function that finishes runs: the dispatcher, the callback and the monitors. The daily
 * counters are summed in memory (one write per day instead of one per run): the function calls
 * `flushReports` once per batch, request or sweep, before it answers.
 */
export function createRunOutcomeDeps(
  config: RunOutcomeConfig,
  runtime: RunOutcomeRuntime,
): RunOutcomeDeps & {
  /** Writes the counters summed so far; never rejects (a failure is logged: counters are best-effort). */
  flushReports(): Promise<void>;
  readonly workflows: WorkflowEngine;
} {
  const { logger } = runtime;
  const stores =
    runtime.stores ??
    createStoreKit(config.store, { clients: runtime.clients, clock: runtime.clock, logger });
  const reports = new BufferedReportStore(stores.reports());
  const runs = stores.runs(config.logRetentionDays);
  const jobs = stores.jobs(config.shardCount);
  const ring = stores.ring();
  const alarms = runtime.alarms ?? stores.alarms();
  const audit = stores.auditLog(config.auditRetentionDays);
  const { engine: workflows } = createWorkflowEngine(config, {
    stores,
    jobs,
    runs,
    ring,
    alarms,
    clock: runtime.clock,
    logger,
    metrics: runtime.metrics,
    ...(runtime.killRun ? { killRun: runtime.killRun } : {}),
    clients: runtime.clients,
    handOff: runtime.handOff,
  });
  return {
    runs,
    jobs,
    ring,
    alarms,
    audit,
    workflows,
    reports,
    flushReports: () => reports.flushOrLog(logger),
    clock: runtime.clock,
    logger,
    metrics: runtime.metrics,
  };
}

/**
 * The workflow engine over the workflow store, from the stores a function has already made:
 * every function that advances workflow runs (the api too, whose other stores are its own) builds
 * it here, with its hand-off. Answers the store as well, for the api's reads and authorisation.
 */
export function createWorkflowEngine(
  config: { readonly logRetentionDays: number } & DispatcherHandOffConfig,
  parts: Omit<WorkflowEngineDeps, 'workflows' | 'newId' | 'handOff'> & {
    readonly stores: StoreKit;
    readonly clients: AwsClients;
    /** The runtime's hand-off (the local stack's in-process dispatcher); else by config. */
    readonly handOff?: FireHandOff | undefined;
  },
): { engine: WorkflowEngine; store: WorkflowStore } {
  const { stores, clients, handOff: given, ...engineParts } = parts;
  const store = stores.workflows(config.logRetentionDays);
  const handOff = fireHandOff(config, { clients, handOff: given });
  return {
    engine: new WorkflowEngine({ ...engineParts, workflows: store, ...(handOff ? { handOff } : {}) }),
    store,
  };
}
