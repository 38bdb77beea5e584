import { createHash } from 'node:crypto';
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
  type WorkflowRunState,
  type WorkflowRunTrigger,
} from '@tickring/core/workflows';
import type { Item } from '../util.js';
import {
  ACTIVE_LIST,
  LIST_PK,
  RUN_LIST,
  resultSk,
  runKey,
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
    ...(workflow.deadlineSetAt !== undefined ? { deadlineSetAt: workflow.deadlineSetAt } : {}),
    ...(workflow.lastSuccessAt !== undefined ? { lastSuccessAt: workflow.lastSuccessAt } : {}),
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

/** What names a node result's item (see keys.ts): a digest of its text, so an item is never rewritten. */
export function resultTag(result: string): string {
  // 72 bits: two texts of one node that share a tag would take the same item (one of a node's few
  // results), and the head stays small (it is written at every save; its size sets the units).
  return createHash('sha256').update(result).digest('base64url').slice(0, 12);
}

/** A node as the head stores it: `resultTag` names the item of its result (and stands for `hasResult`). */
type StoredHeadNode = Omit<StoredNode, 'hasResult'> & { readonly resultTag?: string };

/** A run's head: every field of the record but the node results, expiring at `expiresAt` (epoch s). */
export function runHeadItem(run: WorkflowRunRecord, expiresAt: number): Item {
  const nodes: Record<string, StoredHeadNode> = {};
  for (const [key, node] of Object.entries(run.state.nodes)) {
    const { hasResult: _implied, ...stored } = storedNodeOf(node);
    nodes[key] = { ...stored, ...(node.result !== undefined ? { resultTag: resultTag(node.result) } : {}) };
  }
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
    ...(isActiveRun(run.status)
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
    definition: storedDefinitionOf(item.definition),
    triggerStatus: item.triggerStatus as TriggerStatus,
    ...(typeof item.starterJobId === 'number' ? { starterJobId: item.starterJobId } : {}),
    activeRuns: Number(item.activeRuns ?? 0),
    ...(typeof item.bufferedRunId === 'string' ? { bufferedRunId: item.bufferedRunId } : {}),
    ...(typeof item.deadlineSetAt === 'number' ? { deadlineSetAt: item.deadlineSetAt } : {}),
    ...(typeof item.lastSuccessAt === 'number' ? { lastSuccessAt: item.lastSuccessAt } : {}),
    createdAt: Number(item.createdAt),
    updatedAt: Number(item.updatedAt),
  };
}

/**
 * A node's result: the item its head names by `resultTag`; a head saved before tags, the node's one
 * untagged item; and that item too when it holds the very text the tag names (a run saved before
 * tags and saved on since keeps the results it had as they were).
 */
function resultOf(node: string, tag: unknown, results: ReadonlyMap<string, string>): string | undefined {
  const untagged = results.get(resultSk(node));
  if (typeof tag !== 'string') return untagged;
  return (
    results.get(resultSk(node, tag)) ??
    (untagged !== undefined && resultTag(untagged) === tag ? untagged : undefined)
  );
}

/**
 * A run from its head and its result items, by their keys (`resultSk`): see `resultOf`.
 */
export function runOf(item: Item, results: ReadonlyMap<string, string>): WorkflowRunRecord {
  const nodes: Record<string, NodeState> = {};
  for (const [key, raw] of Object.entries(recordOf(item.nodes))) {
    if (!isRecord(raw)) continue;
    const stored: StoredNode = {
      status: raw.status as NodeState['status'],
      attempt: Number(raw.attempt ?? 0),
      ...(typeof raw.reason === 'string' ? { reason: raw.reason } : {}),
      // A head saved before tags says `hasResult`; one since, `resultTag`.
      ...(raw.hasResult === true || typeof raw.resultTag === 'string' ? { hasResult: true } : {}),
    };
    nodes[key] = nodeStateOf(stored, resultOf(key, raw.resultTag, results));
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
      ...(typeof raw.logId === 'number' ? { logId: raw.logId } : {}),
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
