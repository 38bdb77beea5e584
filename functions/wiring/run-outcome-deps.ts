import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AwsClients } from '@tickring/aws/clients';
import {
  DynamoJobStore,
  DynamoReportStore,
  DynamoRunStore,
  DynamoWorkflowStore,
} from '@tickring/aws/dynamodb';
import { createAlarmPublisher } from '@tickring/aws/sns';
import { SqsRingQueue } from '@tickring/aws/sqs';
import type { Clock, Logger, Metrics } from '@tickring/core/common';
import type { AlarmPublisher } from '@tickring/core/runs';
import { BufferedReportStore } from '@tickring/core/runs';
import type { RunOutcomeDeps } from '@tickring/core/runs/use-cases';
import { WorkflowEngine, type WorkflowEngineDeps } from '@tickring/core/workflows/use-cases';

/** The part of a function's config the run-outcome adapters read (every such config has it). */
export interface RunOutcomeConfig {
  readonly tables: {
    readonly jobs: string;
    readonly runs: string;
    readonly control: string;
    readonly workflows: string;
  };
  readonly queueUrls: { readonly fast: string; readonly slow: string };
  readonly alarmTopicArn: string;
  readonly shardCount: number;
  readonly logRetentionDays: number;
}

export interface RunOutcomeRuntime {
  readonly clients: AwsClients;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Replaces the SNS + webhook publisher (tests). */
  readonly alarms?: AlarmPublisher;
  /** Kills a job run (a workflow cancel's running nodes), where the function can call executors. */
  readonly killRun?: (logId: number) => Promise<void>;
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
  const { tables } = config;
  const { clients, logger } = runtime;
  const { doc } = clients;
  const reports = new BufferedReportStore(new DynamoReportStore({ doc, controlTable: tables.control }));
  const runs = new DynamoRunStore({
    doc,
    runsTable: tables.runs,
    controlTable: tables.control,
    retentionDays: config.logRetentionDays,
  });
  const jobs = new DynamoJobStore({
    doc,
    jobsTable: tables.jobs,
    controlTable: tables.control,
    shardCount: config.shardCount,
  });
  const ring = new SqsRingQueue({ sqs: clients.sqs, queueUrls: config.queueUrls });
  const alarms =
    runtime.alarms ?? createAlarmPublisher({ sns: clients.sns, topicArn: config.alarmTopicArn, logger });
  const { engine: workflows } = createWorkflowEngine(config, {
    doc,
    jobs,
    runs,
    ring,
    alarms,
    clock: runtime.clock,
    logger,
    metrics: runtime.metrics,
    ...(runtime.killRun ? { killRun: runtime.killRun } : {}),
  });
  return {
    runs,
    jobs,
    ring,
    alarms,
    workflows,
    reports,
    flushReports: () => reports.flushOrLog(logger),
    clock: runtime.clock,
    logger,
    metrics: runtime.metrics,
  };
}

/**
 * The workflow engine over the workflows table, from the stores a function has already made:
 * every function that advances workflow runs (the api too, whose other stores are its own) builds
 * it here. Answers the store as well, for the api's reads and authorisation.
 */
export function createWorkflowEngine(
  config: { readonly tables: { readonly workflows: string }; readonly logRetentionDays: number },
  parts: Omit<WorkflowEngineDeps, 'workflows' | 'newId'> & { readonly doc: DynamoDBDocumentClient },
): { engine: WorkflowEngine; store: DynamoWorkflowStore } {
  const { doc, ...engineParts } = parts;
  const store = new DynamoWorkflowStore({
    doc,
    workflowsTable: config.tables.workflows,
    retentionDays: config.logRetentionDays,
    now: () => parts.clock.now(),
    logger: parts.logger,
  });
  return { engine: new WorkflowEngine({ ...engineParts, workflows: store }), store };
}
