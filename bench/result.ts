import type { Schedule } from '@tickring/core/schedule';
import type { BenchStore, StoreLimits, StoreUsage } from './bench-stack.js';
import { type PerTrigger, perTrigger, type TriggerCost, usdPerMillionTriggers } from './cost.js';
import type { Fire, FireCount } from './fire-count.js';
import type { FunctionUsage } from './invocation-meter.js';
import type { ResourceReport } from './process-stats.js';
import type { Summary } from './stats.js';
import type { TickLoad } from './tick-meter.js';
import type { LatencySummary } from './workflow-shape.js';

/** The result's one-line JSON form: what `npm run bench` prints last. */
export interface BenchLine {
  readonly store: BenchStore;
  readonly jobs: number;
  readonly seconds: number;
  readonly expected: number;
  readonly executed: number;
  readonly missed: number;
  readonly duplicates: number;
  readonly outOfOrder: number;
  readonly latenessMs: FireCount['latenessMs'];
  readonly triggersPerSecond: number;
  readonly perTrigger: {
    /** DynamoDB requests (attempts), or SQLite statements (the ring's included). */
    readonly storeRequests: number;
    /** SQLite only: write transactions (BEGIN IMMEDIATE); a statement outside one commits alone. */
    readonly sqliteTransactions: number;
    /** AWS units and requests: DynamoDB Local only (NaN on SQLite). */
    readonly dynamodbReadUnits: number;
    readonly dynamodbWriteUnits: number;
    readonly sqsRequests: number;
    readonly lambdaInvocations: number;
  };
  /** At AWS list prices: DynamoDB Local only (NaN on SQLite). */
  readonly usdPerMillionTriggers: number;
  readonly limits: LineLimits;
  readonly tickMsPerSecond: { readonly p50: number; readonly max: number };
  /** CPU seconds per wall second in the window: the node process, and by thread (NaN when unknown). */
  readonly cpuCores: CpuLine;
}

/** The store's own limits as the JSON line shows them (the whole measurement is in `details.limits`). */
export type LineLimits =
  | {
      readonly dynamodbConditionalWritesPerSecond: number;
      readonly sqsMessagesPerSecond: number;
      readonly sqsDelayP99Ms: number;
    }
  | {
      readonly sqliteConditionalInsertsPerSecond: number;
      readonly sqliteUpdatesPerSecond: number;
      readonly sqliteRangeReadsPerSecond: number;
      readonly ringMessagesPerSecond: number;
    };

export interface CpuLine {
  /** The whole node process: the stack, the executors' worker threads and the runtime's threads. */
  readonly node: number;
  /** Its main thread: the hosted functions, pollers, gateway and (on SQLite) the statements. */
  readonly stack: number;
  readonly executors: number;
  readonly otherThreads: number;
  /** DynamoDB Local's JVM (NaN on SQLite). */
  readonly dynamodbLocal: number;
}

/** Everything behind the line, for the summary and the JSON file. */
export interface BenchDetails {
  readonly schedule: Schedule;
  readonly executors: number;
  readonly idleJobs: number;
  readonly shards: number;
  readonly window: { readonly start: string; readonly end: string };
  readonly setupSeconds: { readonly idleJobs: number; readonly executors: number; readonly jobs: number };
  readonly unexpected: number;
  /** Runs received before the drain ended (every job, every scheduled time). */
  readonly receipts: number;
  readonly drainedInSeconds: number | null;
  readonly faults: { readonly dropped?: Fire; readonly duplicated?: Fire };
  readonly perTrigger: PerTrigger;
  readonly usd: TriggerCost;
  /** Everything the stack asked of its store in the window, by operation and table. */
  readonly usage: StoreUsage;
  readonly functions: readonly FunctionUsage[];
  readonly tick: TickLoad;
  /** The window opened this long after the last job's first fire, s. */
  readonly warmupSeconds: number;
  /** The dispatcher's lateness just before sending (its `Lateness` metric), ms. */
  readonly sendLatenessMs: Summary;
  readonly limits: StoreLimits | null;
  /** Messages in the ring queues' dead-letter queues at the end; null on SQLite (none: logged and dropped). */
  readonly deadLetters: number | null;
  readonly resources: ResourceReport;
}

export interface BenchResult {
  readonly line: BenchLine;
  readonly details: BenchDetails;
}

/**
 * The window's usage per trigger executed in it, and its price at AWS list prices: on DynamoDB Local
 * its units and SQS requests; on SQLite only the invocations carry over (units and USD are NaN).
 */
export function price(
  usage: StoreUsage,
  functions: readonly FunctionUsage[],
  triggers: number,
): { per: PerTrigger; usd: TriggerCost } {
  const aws = usage.store === 'dynamodb-local';
  const per = perTrigger(
    {
      dynamodbReadUnits: aws ? usage.dynamodb.readUnits : Number.NaN,
      dynamodbWriteUnits: aws ? usage.dynamodb.writeUnits : Number.NaN,
      sqsRequests: aws ? usage.sqs.requests : Number.NaN,
      lambdaInvocations: functions.reduce((n, f) => n + f.invocations, 0),
      lambdaGbSeconds: functions.reduce((n, f) => n + f.gbSeconds, 0),
    },
    triggers,
  );
  return { per, usd: usdPerMillionTriggers(per) };
}

/** Store requests of the usage: DynamoDB attempts, or SQLite statements. */
export function storeRequests(usage: StoreUsage): number {
  return usage.store === 'dynamodb-local' ? usage.dynamodb.requests : usage.sqlite.statements;
}

/** The limits' headline figures for the JSON line (NaN when not measured). */
export function lineLimits(store: BenchStore, limits: StoreLimits | null): LineLimits {
  if (store === 'sqlite') {
    const l = limits?.store === 'sqlite' ? limits : undefined;
    return {
      sqliteConditionalInsertsPerSecond: l?.conditionalInsertsPerSecond ?? Number.NaN,
      sqliteUpdatesPerSecond: l?.updatesPerSecond ?? Number.NaN,
      sqliteRangeReadsPerSecond: l?.rangeReadsPerSecond ?? Number.NaN,
      ringMessagesPerSecond: l?.ringMessagesPerSecond ?? Number.NaN,
    };
  }
  const l = limits?.store === 'dynamodb-local' ? limits : undefined;
  return {
    dynamodbConditionalWritesPerSecond: l?.dynamodbConditionalWritesPerSecond ?? Number.NaN,
    sqsMessagesPerSecond: l?.sqsMessagesPerSecond ?? Number.NaN,
    sqsDelayP99Ms: l?.sqsDelayP99Ms ?? Number.NaN,
  };
}

/** The process's CPU split for the JSON line. */
export function cpuLine(resources: ResourceReport): CpuLine {
  const threads = resources.node.threads;
  return {
    node: resources.node.cpuCores,
    stack: threads?.main.cpuCores ?? Number.NaN,
    executors: threads?.executors?.cpuCores ?? Number.NaN,
    otherThreads: threads?.other.cpuCores ?? Number.NaN,
    dynamodbLocal: resources.jvm?.cpuCores ?? Number.NaN,
  };
}

/** The JSON line's fields, in its order (limits not measured are NaN, i.e. null). */
export function benchLine(
  run: { readonly jobs: number; readonly seconds: number },
  count: FireCount,
  usage: StoreUsage,
  per: PerTrigger,
  usd: TriggerCost,
  limits: StoreLimits | null,
  tick: TickLoad,
  resources: ResourceReport,
): BenchLine {
  const perRun = (n: number) => (count.executed > 0 ? n / count.executed : Number.NaN);
  return {
    store: usage.store,
    jobs: run.jobs,
    seconds: run.seconds,
    expected: count.expected,
    executed: count.executed,
    missed: count.missed,
    duplicates: count.duplicates,
    outOfOrder: count.outOfOrder,
    latenessMs: count.latenessMs,
    triggersPerSecond: count.triggersPerSecond,
    perTrigger: {
      storeRequests: perRun(storeRequests(usage)),
      sqliteTransactions: usage.store === 'sqlite' ? perRun(usage.sqlite.transactions) : Number.NaN,
      dynamodbReadUnits: per.dynamodbReadUnits,
      dynamodbWriteUnits: per.dynamodbWriteUnits,
      sqsRequests: per.sqsRequests,
      lambdaInvocations: per.lambdaInvocations,
    },
    usdPerMillionTriggers: usd.total,
    limits: lineLimits(usage.store, limits),
    tickMsPerSecond: { p50: tick.p50, max: tick.max },
    cpuCores: cpuLine(resources),
  };
}

// ---------------------------------------------------------------------------------------------
// The workflow mode (`--workflows N`, see workflow-bench.ts).

/** The workflow mode's one-line JSON form. */
export interface WorkflowBenchLine {
  readonly mode: 'workflows';
  readonly store: BenchStore;
  /** Workflow runs measured (triggered). */
  readonly workflows: number;
  readonly nodesPerRun: number;
  readonly succeeded: number;
  /** Runs that ended otherwise, or had not ended when the bench stopped waiting. */
  readonly notSucceeded: number;
  /** Node job runs the executors' handlers received. */
  readonly nodeRuns: number;
  readonly missingNodes: number;
  readonly duplicateNodes: number;
  /** Succeeded runs whose last node did not get the results passed along. */
  readonly wrongResults: number;
  /** A non-root node's job run dispatched − the latest upstream job run's result recorded, ms. */
  readonly latenessMs: {
    readonly p50: number;
    readonly p95: number;
    readonly p99: number;
    readonly max: number;
  };
  /** The workflow phase's usage of the whole stack ÷ node runs. */
  readonly perNodeRun: {
    readonly dynamodbReadUnits: number;
    readonly dynamodbWriteUnits: number;
    /** DynamoDB requests (attempts), or SQLite statements. */
    readonly storeRequests: number;
    readonly sqsRequests: number;
    readonly lambdaInvocations: number;
  };
  readonly usdPerMillionNodeRuns: number;
  readonly limits: BenchLine['limits'];
  readonly cpuCores: CpuLine;
}

/** An idle stack's usage per second (measured before the runs), for what the phase would have used anyway. */
export interface IdleRates {
  readonly seconds: number;
  readonly dynamodbReadUnitsPerSecond: number;
  readonly dynamodbWriteUnitsPerSecond: number;
  /** DynamoDB requests, or SQLite statements. */
  readonly storeRequestsPerSecond: number;
  readonly sqsRequestsPerSecond: number;
}

export interface WorkflowBenchDetails {
  readonly executors: number;
  readonly shards: number;
  readonly shape: string;
  /** The nodes' handler: this long, then its small JSON result. */
  readonly handlerMs: number;
  /** The runs were triggered evenly over this long, ms (ALLOW: side by side). */
  readonly triggerSpreadMs: number;
  readonly phase: { readonly start: string; readonly end: string; readonly seconds: number };
  readonly setupSeconds: { readonly executors: number; readonly workflows: number; readonly warmup: number };
  readonly statuses: Readonly<Record<string, number>>;
  readonly expectedNodeRuns: number;
  readonly retriedNodes: number;
  readonly latenessMs: LatencySummary;
  readonly toFiredMs: LatencySummary;
  readonly firedToDispatchedMs: LatencySummary;
  readonly dispatchedToReceivedMs: LatencySummary;
  readonly toReceivedMs: LatencySummary;
  readonly rootStartMs: LatencySummary;
  readonly runMs: LatencySummary;
  /** Each store request of the stack in the phase (DynamoDB attempt sent → answered, or SQLite statement), ms. */
  readonly storeRequestMs: LatencySummary;
  readonly perNodeRun: PerTrigger;
  readonly usd: TriggerCost;
  readonly idle: IdleRates;
  readonly usage: StoreUsage;
  readonly functions: readonly FunctionUsage[];
  readonly limits: StoreLimits | null;
  readonly deadLetters: number | null;
  readonly resources: ResourceReport;
}

export interface WorkflowBenchResult {
  readonly line: WorkflowBenchLine;
  readonly details: WorkflowBenchDetails;
}
