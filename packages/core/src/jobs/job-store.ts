import type { OutcomeHistory } from './failure-policy.js';
import type { Group, Job, ScheduleEnded } from './job.js';

export interface Page<T> {
  readonly items: T[];
  /** Opaque; pass back to get the next page. Absent on the last page. */
  readonly nextCursor?: string;
}

export interface JobQuery {
  readonly appName?: string;
  readonly triggerStatus?: Job['triggerStatus'];
  readonly limit: number;
  readonly cursor?: string;
}

/**
 * How much a read may lag: `eventual` may miss the writes of about the last second (DynamoDB's
 * eventually consistent read, half the price of a strong one); stores that are always consistent
 * answer it strongly. The default is `strong`.
 */
export interface ReadOptions {
  readonly consistency?: 'strong' | 'eventual';
}

export interface DueJobRef {
  readonly id: number;
  readonly nextTriggerTime: number;
}

/** Advancing a job's schedule after its fires were enqueued; `expectedNext` is the value that was read. */
export interface ScheduleAdvance {
  readonly id: number;
  readonly expectedNext: number;
  /** null ends the schedule: the job stops (as XXL-JOB does when there is no next time). */
  readonly nextTriggerTime: number | null;
  readonly triggerLastTime: number;
  /** The first of the logIds reserved for the fires the next advance plans (see `PlannableJob`). */
  readonly nextLogIdBlock: number;
  /**
   * The `due` the enqueued plan started from, kept as `lastPlanDue` (see `PlannableJob`); undefined
   * for a plan after a misfire, whose fires are not the schedule's from `due` (nothing to re-send).
   */
  readonly planDue: number | undefined;
  /**
   * The job's `scheduledFires` with this plan's fires counted (set only while it has a maxRuns):
   * written by the same conditional write, so a retried tick that read the same job writes the same.
   */
  readonly scheduledFires?: number;
  /** Set when the schedule stops itself with this advance (nextTriggerTime null): kept on the job. */
  readonly ended?: ScheduleEnded;
}

/**
 * A due job as the tick reads it. `logIdBlock` is the first of LOG_IDS_PER_PLAN logIds reserved for
 * the fires planned from the job's current `triggerNextTime`, in the job's planned range (see
 * `firstPlannedLogId`): stored by the advance before, it makes a re-plan after a crash (fires sent,
 * advance lost) give the same fires the same logIds. Each advance moves it on by one block. A save
 * through the API keeps it unless the schedule's revision changes (then the old fires are dropped
 * by the dispatcher and the new schedule starts one block on).
 */
export interface PlannableJob {
  readonly job: Job;
  readonly logIdBlock?: number;
  /**
   * Where the last plan started: its fires are the schedule's from here up to `triggerLastTime`,
   * with the logIds of the block before `logIdBlock`, in schedule order. A restart that lost the
   * ring's messages re-sends the ones never claimed (see `replanLostFires`). Absent before the first
   * plan, and after a save that changed the schedule (the old plan's fires are dropped then).
   */
  readonly lastPlanDue?: number;
  /**
   * Where the plan before the last one started, when both were plans of the schedule from their
   * `due`: its fires (up to `lastPlanDue`, with the logIds of the block before the last plan's) may
   * still be on the ring too, since a job is planned again up to 5 s before its last plan ends.
   */
  readonly prevPlanDue?: number;
}

/** What a save keeps of the job's planning state (see PlannableJob). */
export type PlanState = Pick<PlannableJob, 'logIdBlock' | 'lastPlanDue' | 'prevPlanDue'>;

export interface JobStore {
  /** A new unique job id (1, 2, 3, ...). */
  allocateId(): Promise<number>;
  /** Fails with ConflictError when the id exists. `plan`: see PlannableJob. */
  create(job: Job, plan?: PlanState): Promise<void>;
  get(id: number): Promise<Job | undefined>;
  /** Reads of several jobs (strongly consistent unless `read` says otherwise); missing ids are left out. */
  getMany(ids: readonly number[], read?: ReadOptions): Promise<Job[]>;
  /**
   * Replaces the job if it is still as read (`expected`: its version and schedule state, which the
   * tick also moves); ConflictError otherwise, NotFoundError when it is gone.
   */
  /** `plan`: the logIds reserved for the saved schedule's next plan and where its last began (see PlannableJob). */
  replace(
    job: Job,
    expected: Pick<Job, 'version' | 'triggerNextTime' | 'triggerStatus'>,
    plan?: PlanState,
  ): Promise<void>;
  /** NotFoundError when it does not exist. */
  delete(id: number): Promise<void>;
  list(query: JobQuery): Promise<Page<Job>>;
  existsForApp(appName: string): Promise<boolean>;
  /** Running jobs of a shard due before `untilMs`, oldest first (eventually consistent). */
  queryDue(shard: number, untilMs: number, limit: number, cursor?: string): Promise<Page<DueJobRef>>;
  /** CAS on nextTriggerTime (and RUNNING); false when someone else moved it first. */
  advanceSchedule(advance: ScheduleAdvance): Promise<boolean>;
  /** Jobs (any status) with a `lastPlanDue`, with their planning state, a page at a time (strongly read). */
  listLastPlans(limit: number, cursor?: string): Promise<Page<PlannableJob>>;
  /** The jobs with these ids (strongly read) with their reserved logIds; missing ids are left out. */
  getPlannable(ids: readonly number[]): Promise<PlannableJob[]>;
  /** Marks a job slow (fires go to the slow ring queue) until `untilMs`. */
  markSlow(id: number, untilMs: number): Promise<void>;
  /**
   * The job's final outcomes (failure policy, deadline), kept on a small record of its own beside the
   * job, so the admin's whole-job writes never race it; undefined before the first one.
   */
  getOutcomeHistory(id: number): Promise<OutcomeHistory | undefined>;
  /**
   * Writes the history if the stored one is still at `expectedRevision` (0: none stored yet); false
   * when another writer came first (read again).
   */
  putOutcomeHistory(id: number, history: OutcomeHistory, expectedRevision: number): Promise<boolean>;
  /**
   * Claims the missed-deadline alarm of the job's window that closed at `deadlineAt`: true for the
   * first caller only (a second sweep, a second monitors instance get false). Kept at least 7 days.
   */
  claimDeadlineMiss(id: number, deadlineAt: number): Promise<boolean>;
  /**
   * Claims the dead-man alarm of the job's unexplained fires in the window that starts at
   * `windowStart`: true for the first caller only. Kept at least 7 days.
   */
  claimFiresUnexplained(id: number, windowStart: number): Promise<boolean>;
}

export interface GroupStore {
  /** ConflictError when the appName exists. */
  create(group: Group): Promise<void>;
  /** Strongly consistent unless `read` says otherwise. */
  get(appName: string, read?: ReadOptions): Promise<Group | undefined>;
  list(): Promise<Group[]>;
  /**
   * NotFoundError when missing. Leaves the group's access token as it is; its alert channels are
   * the given group's (none when it has none).
   */
  replace(group: Group): Promise<void>;
  delete(appName: string): Promise<void>;
  /** Stores the group's own access token, sealed; NotFoundError when the group is missing. */
  setAccessToken(appName: string, sealed: string, setAt: number): Promise<void>;
  /** Drops the group's own token (its executors go back to the global one); NotFoundError when missing. */
  clearAccessToken(appName: string): Promise<void>;
  /** The sealed token; undefined when the group has none of its own (or does not exist). */
  getSealedAccessToken(appName: string): Promise<string | undefined>;
}

/**
 * Seals secrets that must be read back (a group's access token is sent to its executors, so it
 * cannot be stored as a hash). Bound to a context (the appName): a sealed value copied to another
 * group does not open.
 */
export interface SecretSealer {
  seal(context: string, secret: string): Promise<string>;
  /** Throws when the value was not sealed with this key and context. */
  open(context: string, sealed: string): Promise<string>;
}
