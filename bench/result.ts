import type { Schedule } from '@tickring/core/schedule';
import { type PerTrigger, perTrigger, type TriggerCost, usdPerMillionTriggers } from './cost.js';
import type { DynamoUsage } from './dynamo-meter.js';
import type { Fire, FireCount } from './fire-count.js';
import type { FunctionUsage } from './invocation-meter.js';
import type { StandInLimits } from './limits.js';
import type { ResourceReport } from './process-stats.js';
import type { SqsUsage } from './sqs-meter.js';
import type { Summary } from './stats.js';
import type { TickLoad } from './tick-meter.js';
import type { LatencySummary } from './workflow-shape.js';

/** The result's one-line JSON form: what `npm run bench` prints last. */
export interface BenchLine {
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
    readonly dynamodbReadUnits: number;
    readonly dynamodbWriteUnits: number;
    readonly sqsRequests: number;
    readonly lambdaInvocations: number;
  };
  readonly usdPerMillionTriggers: number;
  readonly limits: {
    readonly dynamodbConditionalWritesPerSecond: number;
    readonly sqsMessagesPerSecond: number;
    readonly sqsDelayP99Ms: number;
  };
  readonly tickMsPerSecond: { readonly p50: number; readonly max: number };
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
  readonly dynamodb: DynamoUsage;
  readonly sqs: SqsUsage;
  readonly functions: readonly FunctionUsage[];
  readonly tick: TickLoad;
  /** The window opened this long after the last job's first fire, s. */
  readonly warmupSeconds: number;
  /** The dispatcher's lateness just before sending (its `Lateness` metric), ms. */
  readonly sendLatenessMs: Summary;
  readonly limits: StandInLimits | null;
  /** Messages in the ring queues' dead-letter queues at the end. */
  readonly deadLetters: number;
  readonly resources: ResourceReport;
}

export interface BenchResult {
  readonly line: BenchLine;
  readonly details: BenchDetails;
}

/** The window's usage per trigger executed in it, and its price. */
export function price(
  dynamodb: DynamoUsage,
  sqs: SqsUsage,
  functions: readonly FunctionUsage[],
  triggers: number,
): { per: PerTrigger; usd: TriggerCost } {
  const per = perTrigger(
    {
      dynamodbReadUnits: dynamodb.readUnits,
      dynamodbWriteUnits: dynamodb.writeUnits,
      sqsRequests: sqs.requests,
      lambdaInvocations: functions.reduce((n, f) => n + f.invocations, 0),
      lambdaGbSeconds: functions.reduce((n, f) => n + f.gbSeconds, 0),
    },
    triggers,
  );
  return { per, usd: usdPerMillionTriggers(per) };
}

/** The JSON line's fields, in its order (limits not measured are NaN, i.e. null). */
export function benchLine(
  run: { readonly jobs: number; readonly seconds: number },
  count: FireCount,
  per: PerTrigger,
  usd: TriggerCost,
  limits: StandInLimits | null,
  tick: TickLoad,
): BenchLine {
  return {
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
      dynamodbReadUnits: per.dynamodbReadUnits,
      dynamodbWriteUnits: per.dynamodbWriteUnits,
      sqsRequests: per.sqsRequests,
      lambdaInvocations: per.lambdaInvocations,
    },
    usdPerMillionTriggers: usd.total,
    limits: {
      dynamodbConditionalWritesPerSecond: limits?.dynamodbConditionalWritesPerSecond ?? Number.NaN,
      sqsMessagesPerSecond: limits?.sqsMessagesPerSecond ?? Number.NaN,
      sqsDelayP99Ms: limits?.sqsDelayP99Ms ?? Number.NaN,
    },
    tickMsPerSecond: { p50: tick.p50, max: tick.max },
  };
}

// ---------------------------------------------------------------------------------------------
// The workflow mode (`--workflows N`, see workflow-bench.ts).

/** The workflow mode's one-line JSON form. */
export interface WorkflowBenchLine {
  readonly mode: 'workflows';
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
    readonly dynamodbRequests: number;
    readonly sqsRequests: number;
    readonly lambdaInvocations: number;
  };
  readonly usdPerMillionNodeRuns: number;
  readonly limits: BenchLine['limits'];
}

/** An idle stack's usage per second (measured before the runs), for what the phase would have used anyway. */
export interface IdleRates {
  readonly seconds: number;
  readonly dynamodbReadUnitsPerSecond: number;
  readonly dynamodbWriteUnitsPerSecond: number;
  readonly dynamodbRequestsPerSecond: number;
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
  /** Each DynamoDB request (attempt) of the stack's client in the phase, sent → answered, ms. */
  readonly dynamodbRequestMs: LatencySummary;
  readonly perNodeRun: PerTrigger;
  readonly usd: TriggerCost;
  readonly idle: IdleRates;
  readonly dynamodb: DynamoUsage;
  readonly sqs: SqsUsage;
  readonly functions: readonly FunctionUsage[];
  readonly limits: StandInLimits | null;
  readonly deadLetters: number;
  readonly resources: ResourceReport;
}

export interface WorkflowBenchResult {
  readonly line: WorkflowBenchLine;
  readonly details: WorkflowBenchDetails;
}
