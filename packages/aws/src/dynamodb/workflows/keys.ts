/**
 * The workflows table holds, by partition:
 * - `W#{id}`: the workflow's head (`head`: the current definition as JSON text, the schedule's
 *   status and starter job, the running count `activeRuns` and the buffered run; `listPk` + `wfId`
 *   list it) and every version of its definition (`v#{version, 10 digits}`), kept while runs may
 *   refer to them (after a delete they expire with the runs);
 * - `R#{runId}`: the run's head (`head`: every field of the record but the node results; each node
 *   that has a result names it by a digest of its text, `resultTag`; before tags, `hasResult`), its
 *   node results (`result#{key}#{resultTag}`: an item per result text, written before the head that
 *   names it and never changed after, so a save needs no transaction for them and a save that lost
 *   its race leaves only an item nobody names; a head stays far below 400 KB however long the
 *   results are; runs saved before the tags have `result#{key}`, changed with their head), and the
 *   final outcomes of broadcast shards (`shard#{key}#{attempt}#{index, 6 digits}`);
 * - `counter` / `workflowId`: the id sequence.
 * A run's head carries `runWorkflowId` and `runList` (its workflow's and all runs, by createdAt),
 * and while QUEUED or RUNNING only `activeWorkflowId`, `activeList` and `stalledSince` (the sparse
 * active and stalled indexes, the latter by movedAt's 10 s). Every index is KEYS_ONLY: the
 * readers read the items, and a change of progress or of a running count writes no index entry,
 * but for the stalled entry's move into a new 10 s (at most once per 10 s per run).
 */
import type { Item } from '../util.js';

export const HEAD = 'head';
export const LIST_PK = 'workflow';
export const RUN_LIST = 'run';
export const ACTIVE_LIST = 'active';
export const COUNTER_KEY = { pk: 'counter', sk: 'workflowId' } as const;
export const RESULT_PREFIX = 'result#';
/** Above every `result#…` key (and below `shard#`): head and results are read by one key range. */
export const RESULTS_END = 'result$';

/** A node result's key: by its text's digest (see `resultTag`); without one, the key runs saved before tags have. */
export function resultSk(node: string, tag?: string): string {
  return tag === undefined ? `${RESULT_PREFIX}${node}` : `${RESULT_PREFIX}${node}#${tag}`;
}

export function workflowPk(id: number): string {
  return `W#${id}`;
}

export function workflowKey(id: number): Item {
  return { pk: workflowPk(id), sk: HEAD };
}

export function versionSk(version: number): string {
  return `v#${String(version).padStart(10, '0')}`;
}

export function runPk(id: string): string {
  return `R#${id}`;
}

export function runKey(id: string): Item {
  return { pk: runPk(id), sk: HEAD };
}

/** The table key of an index entry (a KEYS_ONLY entry holds it). */
export function baseKey(entry: Item): { pk: string; sk: string } {
  return { pk: String(entry.pk), sk: String(entry.sk) };
}
