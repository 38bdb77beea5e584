/**
 * The rules every WorkflowStore keeps in the same way, whatever holds the records: which runs are
 * active and when they count as stalled, how a run's head keeps its nodes (results apart), which
 * node runs a save writes and a dispatcher's note keeps, and how a stored definition is read back.
 */

import type { NodeState, WorkflowDefinition } from './model/index.js';
import type { WorkflowLink } from './model/link.js';
import type { NodeRuns, WorkflowRunRecord } from './workflow-store.js';

/**
 * The stalled list files an active run under the 10 s it last moved in, not the millisecond: a run
 * saved several times in 10 s (every node outcome) is refiled once, not per save.
 */
export const STALLED_BUCKET_MS = 10_000;

/** The start of the 10 s a run that last moved at `movedAt` is filed under in the stalled list. */
export function stalledSince(movedAt: number): number {
  return Math.floor(movedAt / STALLED_BUCKET_MS) * STALLED_BUCKET_MS;
}

/** Whether a run of this stored status is active (QUEUED or RUNNING): counted, listed as active, watched. */
export function isActiveRun(status: string): boolean {
  return status === 'QUEUED' || status === 'RUNNING';
}

/** `value`, frozen all the way down (and answered as it is). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** A stored definition (JSON text), deeply frozen as checked definitions are (the engine caches by frozen object). */
export function storedDefinitionOf(text: unknown): WorkflowDefinition {
  if (typeof text !== 'string') throw new Error('a stored workflow definition is not JSON text');
  return deepFreeze(JSON.parse(text)) as WorkflowDefinition;
}

/** A node as a run's head keeps it: its result is stored apart (a run holds megabytes of them). */
export interface StoredNode {
  readonly status: NodeState['status'];
  readonly attempt: number;
  readonly reason?: string;
  readonly hasResult?: true;
}

export function storedNodeOf(node: NodeState): StoredNode {
  return {
    status: node.status,
    attempt: node.attempt,
    ...(node.reason !== undefined ? { reason: node.reason } : {}),
    ...(node.result !== undefined ? { hasResult: true } : {}),
  };
}

/** A node read back from its stored form and its stored result (which counts only when the head says it has one). */
export function nodeStateOf(stored: StoredNode, result: string | undefined): NodeState {
  return {
    status: stored.status,
    attempt: stored.attempt,
    ...(stored.reason !== undefined ? { reason: stored.reason } : {}),
    ...(stored.hasResult && result !== undefined ? { result } : {}),
  };
}

export function sameNodeRuns(a: NodeRuns | undefined, b: NodeRuns | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.attempt === b.attempt &&
    a.logIds.length === b.logIds.length &&
    a.logIds.every((id, i) => id === b.logIds[i])
  );
}

/**
 * The nodes whose runs a save from `prev` to `next` changes, with their runs after it (undefined:
 * removed). A save writes only these: a note the dispatcher made since the engine's read stays.
 */
export function changedNodeRuns(
  prev: WorkflowRunRecord,
  next: WorkflowRunRecord,
): [node: string, after: NodeRuns | undefined][] {
  const changed: [string, NodeRuns | undefined][] = [];
  for (const key of new Set([...Object.keys(prev.nodeRuns), ...Object.keys(next.nodeRuns)])) {
    const before = Object.hasOwn(prev.nodeRuns, key) ? prev.nodeRuns[key] : undefined;
    const after = Object.hasOwn(next.nodeRuns, key) ? next.nodeRuns[key] : undefined;
    if (!sameNodeRuns(before, after)) changed.push([key, after]);
  }
  return changed;
}

/** The node runs stored after a save from `prev` to `next` over `stored` (see {@link changedNodeRuns}). */
export function nodeRunsAfterSave(
  stored: Readonly<Record<string, NodeRuns>>,
  prev: WorkflowRunRecord,
  next: WorkflowRunRecord,
): Record<string, NodeRuns> {
  const nodeRuns = { ...stored };
  for (const [key, after] of changedNodeRuns(prev, next)) {
    if (after) nodeRuns[key] = { attempt: after.attempt, logIds: [...after.logIds] };
    else delete nodeRuns[key];
  }
  return nodeRuns;
}

/**
 * A node's runs after a dispatcher's note of `logIds` for `link.attempt` over what is `noted`, or
 * undefined when the note changes nothing: a later attempt is recorded already, or (with `shard`, a
 * broadcast shard's retry, which replaces that shard's run only) the attempt recorded is another one
 * or has no such shard.
 */
export function notedNodeRuns(
  noted: NodeRuns | undefined,
  link: WorkflowLink,
  logIds: readonly number[],
  shard?: number,
): NodeRuns | undefined {
  const [first] = logIds;
  const oneShard = shard !== undefined && Number.isSafeInteger(shard) && shard >= 0;
  if (oneShard && first !== undefined) {
    if (noted?.attempt !== link.attempt || noted.logIds.length <= shard) return undefined;
    return { attempt: noted.attempt, logIds: noted.logIds.map((id, i) => (i === shard ? first : id)) };
  }
  if (noted !== undefined && noted.attempt > link.attempt) return undefined;
  return { attempt: link.attempt, logIds: [...logIds] };
}

/** Why a workflow with runs running or waiting is not deleted (the start of its ConflictError). */
export function describeActiveRuns(activeRuns: number, bufferedRunId: string | undefined): string {
  const running = `${activeRuns} run${activeRuns === 1 ? '' : 's'} of the workflow ${activeRuns === 1 ? 'is' : 'are'} running`;
  if (bufferedRunId === undefined) return running;
  return activeRuns === 0
    ? `a run of the workflow is waiting (${bufferedRunId})`
    : `${running} and one is waiting (${bufferedRunId})`;
}

/**
 * The time a save from `prev` to `next` sets as its workflow's `lastSuccessAt`: the run's finishedAt
 * (its movedAt without one) when the save ends it SUCCEEDED (a run ends from RUNNING only, so the same
 * save moves the running count); undefined when it does not.
 */
export function succeededAt(prev: WorkflowRunRecord, next: WorkflowRunRecord): number | undefined {
  if (next.status !== 'SUCCEEDED' || prev.status !== 'RUNNING') return undefined;
  return next.finishedAt ?? next.movedAt;
}

/** Whether a run created at `createdAt` is within a list's created range (either bound may be absent). */
export function createdWithin(
  createdAt: number,
  range: { readonly createdFrom?: number; readonly createdBefore?: number },
): boolean {
  return (
    (range.createdFrom === undefined || createdAt >= range.createdFrom) &&
    (range.createdBefore === undefined || createdAt < range.createdBefore)
  );
}
