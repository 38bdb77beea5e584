/**
 * The states of a workflow run and of its nodes. A node is PENDING until fired, RUNNING until the
 * engine reports its outcome, then SUCCEEDED or FAILED; SKIPPED when one of its upstream conditions
 * can no longer be met; CANCELLED when the run was cancelled before it was fired.
 */
export const NODE_STATUSES = ['PENDING', 'RUNNING', 'SUCCEEDED', 'FAILED', 'SKIPPED', 'CANCELLED'] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

/** A node that will not change again in this run (until a retry resets it). */
export function isTerminal(status: NodeStatus): boolean {
  return status !== 'PENDING' && status !== 'RUNNING';
}

/** A node that was fired and finished: it has a result. */
export function ran(status: NodeStatus): boolean {
  return status === 'SUCCEEDED' || status === 'FAILED';
}

export const RUN_STATUSES = ['RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'] as const;
export type WorkflowRunStatus = (typeof RUN_STATUSES)[number];

/**
 * When a node may run after one of its upstream nodes (each edge has its own):
 * - `ON_SUCCESS` (the default): the upstream node SUCCEEDED;
 * - `ON_FAILURE`: it FAILED (a failure handler; it handles that failure, see progress.ts);
 * - `ALWAYS`: it finished in any way: SUCCEEDED, FAILED or SKIPPED (cleanup, notification).
 */
export const EDGE_CONDITIONS = ['ON_SUCCESS', 'ON_FAILURE', 'ALWAYS'] as const;
export type EdgeCondition = (typeof EDGE_CONDITIONS)[number];
