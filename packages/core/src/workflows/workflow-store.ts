import type { TriggerStatus } from '../jobs/job.js';
import type { Page } from '../jobs/job-store.js';
import type { WorkflowDefinition, WorkflowRunState, WorkflowRunStatus } from './model/index.js';
import type { WorkflowLink } from './model/link.js';

/**
 * A workflow as stored: its current definition (one version; every version stays readable for the
 * runs made from it), whether its schedule is on, the job that starts it on its schedule, and the
 * count of its runs that are running (kept in the same transactions that start and end them, so
 * the overlap policy reads an exact count).
 */
export interface WorkflowRecord {
  readonly id: number;
  /** 1 on create, +1 per edit of the definition. */
  readonly version: number;
  readonly definition: WorkflowDefinition;
  /** Whether its schedule fires (a NONE schedule never does; trigger works either way). */
  readonly triggerStatus: TriggerStatus;
  /** The job of its group that its schedule fires (see the workflow engine); absent for NONE. */
  readonly starterJobId?: number;
  /** Runs RUNNING now. */
  readonly activeRuns: number;
  /** The run BUFFER_ONE keeps waiting (QUEUED), if any. */
  readonly bufferedRunId?: string;
  /**
   * When the definition's deadline was set or last changed (epoch ms): windows that began before are
   * never missed. Absent without a deadline. Written by create and update (an editable field).
   */
  readonly deadlineSetAt?: number;
  /**
   * When a run of the workflow last ended SUCCEEDED (its finishedAt, epoch ms): written by the store
   * in the save that ends the run, so a deadline is judged without reading the runs.
   */
  readonly lastSuccessAt?: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** Where a workflow run came from. */
export interface WorkflowRunTrigger {
  /**
   * SCHEDULE: its schedule (the starter job's fire `starterLogId`); MANUAL: POST …/trigger; BACKFILL:
   * a backfill of its schedule (the starter job's BACKFILL fire `starterLogId`); RETRY is not a start.
   */
  readonly type: 'SCHEDULE' | 'MANUAL' | 'BACKFILL';
  readonly starterLogId?: number;
  /** BACKFILL: the past fire's scheduled time (epoch ms), also the run's input `scheduledTime`. */
  readonly scheduledTime?: number;
  /** Who triggered it (the principal's display name), for MANUAL. */
  readonly by?: string;
}

/** The job runs of a node's current attempt, as the dispatcher recorded them. */
export interface NodeRuns {
  readonly attempt: number;
  /** One per broadcast shard (its latest retry's), else one. */
  readonly logIds: readonly number[];
}

/** When a node was last fired and last finished (epoch ms). */
export interface NodeTimes {
  readonly firedAt?: number;
  readonly finishedAt?: number;
  /** The logId given out for the run of its last fire (every copy of that fire carries it). */
  readonly logId?: number;
}

export interface NodeFireState {
  readonly awaited: boolean;
  readonly claimed: boolean;
}

/** A run's status as stored: QUEUED while BUFFER_ONE keeps it waiting, then the state's status. */
export type StoredRunStatus = 'QUEUED' | WorkflowRunStatus;

export interface WorkflowRunRecord {
  readonly id: string;
  readonly workflowId: number;
  /** The definition version the run follows, whatever edits come later. */
  readonly version: number;
  readonly appName: string;
  readonly workflowName: string;
  readonly status: StoredRunStatus;
  /**
   * The progress (progress.ts), node results included. A QUEUED run's has its input, no nodes and
   * revision 0. Every write of the run is conditional on the revision read.
   */
  readonly state: WorkflowRunState;
  readonly trigger: WorkflowRunTrigger;
  readonly createdAt: number;
  readonly startedAt?: number;
  readonly finishedAt?: number;
  /** Last time the run changed (or a sweep looked at it): the monitors re-drive runs that stopped moving. */
  readonly movedAt: number;
  readonly nodeRuns: Readonly<Record<string, NodeRuns>>;
  readonly nodeTimes: Readonly<Record<string, NodeTimes>>;
}

/** How a new run is admitted against the workflow's running and buffered runs (see overlapDecision). */
export interface Admission {
  /** Start it (RUNNING, +1 running) or buffer it (QUEUED, the workflow's one buffered run). */
  readonly as: 'start' | 'buffer';
  /** The count of running runs the decision was made on; undefined: whatever it is (ALLOW, CANCEL_PREVIOUS). */
  readonly expectActiveRuns?: number;
  /** The decision was made with no run buffered. */
  readonly expectNoBuffered: boolean;
}

export type AdmitResult =
  /** Written. */
  | 'admitted'
  /** A run with this id exists (a scheduled start repeated): nothing written. */
  | 'exists'
  /** The workflow's counts changed since read (or it is gone): read again and decide again. */
  | 'conflict';

export interface ShardOutcome {
  readonly index: number;
  readonly ok: boolean;
  readonly result: string;
}

export interface WorkflowRunQuery {
  readonly workflowId?: number;
  readonly status?: StoredRunStatus;
  /** Only runs created in [createdFrom, createdBefore) (epoch ms); either bound may be absent. */
  readonly createdFrom?: number;
  readonly createdBefore?: number;
  /** Only runs of these groups (a caller's visible groups); undefined: all. */
  readonly appNames?: readonly string[];
  readonly limit: number;
  readonly cursor?: string;
}

export interface WorkflowQuery {
  readonly appNames?: readonly string[];
  readonly limit: number;
  readonly cursor?: string;
}

/**
 * Workflows and their runs. Writes of a run are conditional on the revision read; the workflow's
 * running count and buffered run change in the same transaction as the run that changes them.
 */
export interface WorkflowStore {
  /** A new unique workflow id (1, 2, 3, ...). */
  allocateId(): Promise<number>;
  /** Stores a new workflow (version 1) and its version; ConflictError when the id exists. */
  create(workflow: WorkflowRecord): Promise<void>;
  get(id: number): Promise<WorkflowRecord | undefined>;
  /** The definition of one version (kept while runs may refer to it); undefined when unknown. */
  getVersion(id: number, version: number): Promise<WorkflowDefinition | undefined>;
  list(query: WorkflowQuery): Promise<Page<WorkflowRecord>>;
  /**
   * Stores a new version of the definition (`next.version` = expected + 1) and the head's other
   * editable fields (triggerStatus, starterJobId, deadlineSetAt, updatedAt), if the stored version is still
   * `expectedVersion`; ConflictError otherwise, NotFoundError when gone. Running counts are kept.
   */
  update(next: WorkflowRecord, expectedVersion: number): Promise<void>;
  /**
   * Sets the schedule's status and the starter job (no new version). NotFoundError when gone;
   * ConflictError when `expectedStarterJobId` is given (null: none) and the stored one differs.
   */
  setSchedule(
    id: number,
    triggerStatus: TriggerStatus,
    starterJobId: number | undefined,
    updatedAt: number,
    expectedStarterJobId?: number | null,
  ): Promise<void>;
  /** Deletes the workflow, if no run is running or buffered (ConflictError otherwise). Its runs stay until they expire. */
  delete(id: number): Promise<void>;

  /** Stores a new run as `admission` says, in one transaction with the workflow's counts. */
  admit(run: WorkflowRunRecord, admission: Admission): Promise<AdmitResult>;
  /** A run with its node results (strongly consistent). */
  getRun(id: string): Promise<WorkflowRunRecord | undefined>;
  /**
   * Writes `next` over `prev` if the stored revision is still `prev.state.revision` (false
   * otherwise). The workflow's counts follow the status change: QUEUED → RUNNING moves the buffered
   * run to running, RUNNING → an end is one running less, an end → RUNNING (a retry) one more,
   * QUEUED → CANCELLED frees the buffer; the active/stalled index entries follow too. RUNNING →
   * SUCCEEDED also sets the workflow's `lastSuccessAt` to the run's finishedAt (its movedAt without).
   * Node results are stored beside the run (a run holds up to 200 of 15,000 characters each).
   */
  saveRun(prev: WorkflowRunRecord, next: WorkflowRunRecord): Promise<boolean>;
  /**
   * Records the job runs of a node's attempt (the dispatcher, when it claims them): kept unless a
   * later attempt is recorded already. With `shard`, only that broadcast shard's logId is replaced
   * (a shard's retry), if the attempt is the one recorded. Not revision-conditional (it changes no
   * progress).
   */
  noteNodeRuns(link: WorkflowLink, logIds: readonly number[], shard?: number): Promise<void>;
  /**
   * What the run says of a node's attempt (a cheap read of three fields): `awaited` when the run is
   * RUNNING and the node RUNNING at `link.attempt`; `claimed` when job runs are recorded for that
   * attempt. The dispatcher asks before sending a node's run: a cancelled run fires nothing more.
   */
  nodeFireState(link: WorkflowLink): Promise<NodeFireState>;
  /** Sets movedAt (a sweep looked at the run), leaving the revision. */
  touch(id: string, movedAt: number): Promise<void>;
  /** Newest first. */
  listRuns(query: WorkflowRunQuery): Promise<Page<WorkflowRunRecord>>;
  /**
   * Claims the missed-deadline alarm of the workflow's window ending at `deadlineAt`: true for the
   * first caller only (a second sweep, or another monitors instance, sends none). Kept 7 days.
   */
  claimDeadlineMiss(id: number, deadlineAt: number): Promise<boolean>;
  /** The workflow's QUEUED and RUNNING runs (ids and statuses), oldest first. */
  listActive(workflowId: number): Promise<{ id: string; status: StoredRunStatus }[]>;
  /**
   * QUEUED and RUNNING runs of every workflow that have not moved since `before`, oldest first; by
   * the 10 s (a run is listed once the 10 s it last moved in ended before `before`).
   */
  listStalled(before: number, limit: number): Promise<string[]>;
  /**
   * Records one broadcast shard's final outcome for the node's attempt (the first record of a shard
   * stands) and answers every shard outcome recorded so far (strongly consistent).
   */
  recordShard(link: WorkflowLink, outcome: ShardOutcome): Promise<ShardOutcome[]>;
}
