/**
 * How a job run knows it is a workflow node's: the fire that starts it, and every run that follows
 * from it (its retries, a broadcast's shards), carries a link to the workflow run, the node and the
 * node's attempt. The dispatcher records the link with the run; when the run ends for good its
 * outcome advances the workflow run.
 */
export interface WorkflowLink {
  /** The workflow run (`wr-…`). */
  readonly runId: string;
  /** The node's key. */
  readonly node: string;
  /** The node's attempt the run belongs to (NodeState.attempt when it was fired). */
  readonly attempt: number;
}

/**
 * The fire of one attempt of one node: the dispatcher claims each dedupKey once, so whatever resends
 * it (a re-drive, a redelivery) the attempt runs once.
 */
export function nodeFireKey(link: WorkflowLink): string {
  return `wf#${link.runId}#${link.node}#${link.attempt}`;
}

/** A workflow run's id: `wr-` and a lowercase token (letters, digits, '-'), at most 64 characters. */
export const WORKFLOW_RUN_ID = /^wr-[a-z0-9-]{1,61}$/;

/** The id of the run a scheduled fire (the starter job's run `logId`) starts: one per fire, whoever starts it. */
export function scheduledRunId(starterLogId: number): string {
  return `wr-s${starterLogId}`;
}

/**
 * The pseudo-executor address of a workflow's starter job: the dispatcher starts the workflow run
 * itself instead of calling an executor (see the workflow engine).
 */
export const WORKFLOW_STARTER_PREFIX = 'workflow:';

export function starterAddress(workflowId: number): string {
  return `${WORKFLOW_STARTER_PREFIX}${workflowId}`;
}

/** The workflow id of a starter address, or undefined for any other address. */
export function workflowOfAddress(address: string): number | undefined {
  if (!address.startsWith(WORKFLOW_STARTER_PREFIX)) return undefined;
  const id = Number(address.slice(WORKFLOW_STARTER_PREFIX.length));
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

export function isWorkflowLink(value: unknown): value is WorkflowLink {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.runId === 'string' &&
    WORKFLOW_RUN_ID.test(v.runId) &&
    typeof v.node === 'string' &&
    typeof v.attempt === 'number' &&
    Number.isSafeInteger(v.attempt) &&
    v.attempt >= 1
  );
}
