import type { TriggerStatus } from '@tickring/core/jobs';
import {
  isActiveRun,
  type JsonValue,
  type NodeRuns,
  type NodeState,
  type NodeTimes,
  nodeStateOf,
  type StoredNode,
  type StoredRunStatus,
  stalledSince,
  storedDefinitionOf,
  storedNodeOf,
  type WorkflowRecord,
  type WorkflowRunRecord,
  type WorkflowRunTrigger,
} from '@tickring/core/workflows';
import type { SqlRow, SqlValue } from '../database.js';

// ---------------------------------------------------------------------------------------------
// Workflows

/** The columns a workflow's head is read with. */
export const WORKFLOW_COLUMNS =
  'id, version, definition, trigger_status, starter_job_id, active_runs, buffered_run_id, created_at, updated_at, deadline_set_at, last_success_at';

export function workflowOf(row: SqlRow): WorkflowRecord {
  return {
    id: Number(row.id),
    version: Number(row.version),
    definition: storedDefinitionOf(row.definition),
    triggerStatus: String(row.trigger_status) as TriggerStatus,
    ...(row.starter_job_id !== null ? { starterJobId: Number(row.starter_job_id) } : {}),
    activeRuns: Number(row.active_runs),
    ...(row.buffered_run_id !== null ? { bufferedRunId: String(row.buffered_run_id) } : {}),
    ...(row.deadline_set_at !== null ? { deadlineSetAt: Number(row.deadline_set_at) } : {}),
    ...(row.last_success_at !== null ? { lastSuccessAt: Number(row.last_success_at) } : {}),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

// ---------------------------------------------------------------------------------------------
// Runs

/** Everything of a run that no column holds, but its results and node runs. */
interface StoredHead {
  readonly version: number;
  readonly workflowName: string;
  readonly stateStatus: WorkflowRunRecord['state']['status'];
  readonly input: JsonValue;
  readonly nodes: Record<string, StoredNode>;
  readonly failedNodes: readonly string[];
  readonly trigger: WorkflowRunTrigger;
  readonly startedAt?: number;
  readonly finishedAt?: number;
  readonly nodeTimes: Record<string, NodeTimes>;
}

/** The columns of a run's row, in the order RUN_ROW_COLUMNS names them (id and node runs apart). */
export const RUN_ROW_COLUMNS =
  'workflow_id, app_name, status, revision, created_at, moved_at, stalled_since, expires_at, head';

/** The values of RUN_ROW_COLUMNS for `run`, expiring at `expiresAt` (epoch s). */
export function runRowValues(run: WorkflowRunRecord, expiresAt: number): SqlValue[] {
  return [
    run.workflowId,
    run.appName,
    run.status,
    run.state.revision,
    run.createdAt,
    run.movedAt,
    isActiveRun(run.status) ? stalledSince(run.movedAt) : null,
    expiresAt,
    JSON.stringify(headOf(run)),
  ];
}

function headOf(run: WorkflowRunRecord): StoredHead {
  const nodes: Record<string, StoredNode> = {};
  // A node's result is a row of its own.
  for (const [key, node] of Object.entries(run.state.nodes)) nodes[key] = storedNodeOf(node);
  return {
    version: run.version,
    workflowName: run.workflowName,
    stateStatus: run.state.status,
    input: run.state.input,
    nodes,
    failedNodes: run.state.failedNodes,
    trigger: run.trigger,
    ...(run.startedAt !== undefined ? { startedAt: run.startedAt } : {}),
    ...(run.finishedAt !== undefined ? { finishedAt: run.finishedAt } : {}),
    nodeTimes: run.nodeTimes,
  };
}

export function nodeRunsText(nodeRuns: Readonly<Record<string, NodeRuns>>): string {
  return JSON.stringify(nodeRuns);
}

export function nodeRunsOf(text: SqlValue | undefined): Record<string, NodeRuns> {
  return typeof text === 'string' ? (JSON.parse(text) as Record<string, NodeRuns>) : {};
}

/** The columns a run is read with (its results apart). */
export const RUN_COLUMNS =
  'id, workflow_id, app_name, status, revision, created_at, moved_at, head, node_runs';

/** A run read back; `results` by node key (only nodes whose head says they have one get theirs). */
export function runOf(row: SqlRow, results: Readonly<Record<string, string>> = {}): WorkflowRunRecord {
  const head = JSON.parse(String(row.head)) as StoredHead;
  const nodes: Record<string, NodeState> = {};
  for (const [key, node] of Object.entries(head.nodes)) {
    nodes[key] = nodeStateOf(node, Object.hasOwn(results, key) ? results[key] : undefined);
  }
  return {
    id: String(row.id),
    workflowId: Number(row.workflow_id),
    version: head.version,
    appName: String(row.app_name),
    workflowName: head.workflowName,
    status: String(row.status) as StoredRunStatus,
    state: {
      status: head.stateStatus,
      input: head.input,
      nodes,
      revision: Number(row.revision),
      failedNodes: head.failedNodes,
    },
    trigger: head.trigger,
    createdAt: Number(row.created_at),
    ...(head.startedAt !== undefined ? { startedAt: head.startedAt } : {}),
    ...(head.finishedAt !== undefined ? { finishedAt: head.finishedAt } : {}),
    movedAt: Number(row.moved_at),
    nodeRuns: nodeRunsOf(row.node_runs),
    nodeTimes: head.nodeTimes,
  };
}
