import type { TriggerStatus } from '@tickring/core/jobs';
import type {
  JsonValue,
  NodeRuns,
  NodeState,
  NodeTimes,
  StoredRunStatus,
  WorkflowDefinition,
  WorkflowRecord,
  WorkflowRunRecord,
  WorkflowRunState,
  WorkflowRunTrigger,
} from '@tickring/core/workflows';
import type { Item } from '../util.js';
import {
  ACTIVE_LIST,
  LIST_PK,
  RUN_LIST,
  runKey,
  stalledSince,
  versionSk,
  workflowKey,
  workflowPk,
} from './keys.js';

// ---------------------------------------------------------------------------------------------
// Writing items

export function workflowHeadItem(workflow: WorkflowRecord, definition: string): Item {
  return {
    ...workflowKey(workflow.id),
    id: workflow.id,
    version: workflow.version,
    definition,
    triggerStatus: workflow.triggerStatus,
    ...(workflow.starterJobId !== undefined ? { starterJobId: workflow.starterJobId } : {}),
    activeRuns: workflow.activeRuns,
    ...(workflow.bufferedRunId !== undefined ? { bufferedRunId: workflow.bufferedRunId } : {}),
    createdAt: workflow.createdAt,
    updatedAt: workflow.updatedAt,
    appName: workflow.definition.appName,
    listPk: LIST_PK,
    wfId: workflow.id,
  };
}

export function versionItem(workflow: WorkflowRecord, definition: string): Item {
  return {
    pk: workflowPk(workflow.id),
    sk: versionSk(workflow.version),
    version: workflow.version,
    definition,
    createdAt: workflow.updatedAt,
  };
}

/** A run's head: every field of the record but the node results, expiring at `expiresAt` (epoch s). */
export function runHeadItem(run: WorkflowRunRecord, expiresAt: number): Item {
  const nodes: Record<string, Item> = {};
  for (const [key, node] of Object.entries(run.state.nodes)) {
    nodes[key] = {
      status: node.status,
      attempt: node.attempt,
      ...(node.reason !== undefined ? { reason: node.reason } : {}),
      ...(node.result !== undefined ? { hasResult: true } : {}),
    };
  }
  const active = run.status === 'QUEUED' || run.status === 'RUNNING';
  return {
    ...runKey(run.id),
    id: run.id,
    workflowId: run.workflowId,
    version: run.version,
    appName: run.appName,
    workflowName: run.workflowName,
    status: run.status,
    stateStatus: run.state.status,
    input: JSON.stringify(run.state.input),
    nodes,
    revision: run.state.revision,
    failedNodes: [...run.state.failedNodes],
    trigger: { ...run.trigger },
    createdAt: run.createdAt,
    ...(run.startedAt !== undefined ? { startedAt: run.startedAt } : {}),
    ...(run.finishedAt !== undefined ? { finishedAt: run.finishedAt } : {}),
    movedAt: run.movedAt,
    nodeRuns: Object.fromEntries(
      Object.entries(run.nodeRuns).map(([k, v]) => [k, { attempt: v.attempt, logIds: [...v.logIds] }]),
    ),
    nodeTimes: Object.fromEntries(Object.entries(run.nodeTimes).map(([k, v]) => [k, { ...v }])),
    runWorkflowId: run.workflowId,
    runList: RUN_LIST,
    ...(active
      ? {
          activeWorkflowId: run.workflowId,
          activeList: ACTIVE_LIST,
          stalledSince: stalledSince(run.movedAt),
        }
      : {}),
    expiresAt,
  };
}

// ---------------------------------------------------------------------------------------------
// Reading items back

export function workflowOf(item: Item): WorkflowRecord {
  return {
    id: Number(item.id),
    version: Number(item.version),
    definition: definitionOf(item.definition),
    triggerStatus: item.triggerStatus as TriggerStatus,
    ...(typeof item.starterJobId === 'number' ? { starterJobId: item.starterJobId } : {}),
    activeRuns: Number(item.activeRuns ?? 0),
    ...(typeof item.bufferedRunId === 'string' ? { bufferedRunId: item.bufferedRunId } : {}),
    createdAt: Number(item.createdAt),
    updatedAt: Number(item.updatedAt),
  };
}

/** A stored definition, deeply frozen as checked definitions are (the engine caches by frozen object). */
export function definitionOf(text: unknown): WorkflowDefinition {
  if (typeof text !== 'string') throw new Error('a stored workflow definition is not JSON text');
  return deepFreeze(JSON.parse(text)) as WorkflowDefinition;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

export function runOf(item: Item, results: ReadonlyMap<string, string>): WorkflowRunRecord {
  const nodes: Record<string, NodeState> = {};
  for (const [key, raw] of Object.entries(recordOf(item.nodes))) {
    if (!isRecord(raw)) continue;
    const result = raw.hasResult === true ? results.get(key) : undefined;
    nodes[key] = {
      status: raw.status as NodeState['status'],
      attempt: Number(raw.attempt ?? 0),
      ...(typeof raw.reason === 'string' ? { reason: raw.reason } : {}),
      ...(result !== undefined ? { result } : {}),
    };
  }
  const state: WorkflowRunState = {
    status: item.stateStatus as WorkflowRunState['status'],
    input: typeof item.input === 'string' ? (JSON.parse(item.input) as JsonValue) : {},
    nodes,
    revision: Number(item.revision ?? 0),
    failedNodes: Array.isArray(item.failedNodes) ? item.failedNodes.map(String) : [],
  };
  const nodeRuns: Record<string, NodeRuns> = {};
  for (const [key, raw] of Object.entries(recordOf(item.nodeRuns))) {
    if (!isRecord(raw)) continue;
    nodeRuns[key] = {
      attempt: Number(raw.attempt ?? 0),
      logIds: Array.isArray(raw.logIds) ? raw.logIds.map(Number) : [],
    };
  }
  const nodeTimes: Record<string, NodeTimes> = {};
  for (const [key, raw] of Object.entries(recordOf(item.nodeTimes))) {
    if (!isRecord(raw)) continue;
    nodeTimes[key] = {
      ...(typeof raw.firedAt === 'number' ? { firedAt: raw.firedAt } : {}),
      ...(typeof raw.finishedAt === 'number' ? { finishedAt: raw.finishedAt } : {}),
    };
  }
  return {
    id: String(item.id),
    workflowId: Number(item.workflowId),
    version: Number(item.version),
    appName: String(item.appName ?? ''),
    workflowName: String(item.workflowName ?? ''),
    status: item.status as StoredRunStatus,
    state,
    trigger: triggerOf(item.trigger),
    createdAt: Number(item.createdAt),
    ...(typeof item.startedAt === 'number' ? { startedAt: item.startedAt } : {}),
    ...(typeof item.finishedAt === 'number' ? { finishedAt: item.finishedAt } : {}),
    movedAt: Number(item.movedAt ?? item.createdAt),
    nodeRuns,
    nodeTimes,
  };
}

function triggerOf(raw: unknown): WorkflowRunTrigger {
  const t = recordOf(raw);
  return {
    type: t.type === 'SCHEDULE' ? 'SCHEDULE' : 'MANUAL',
    ...(typeof t.starterLogId === 'number' ? { starterLogId: t.starterLogId } : {}),
    ...(typeof t.by === 'string' ? { by: t.by } : {}),
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function recordOf(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}
