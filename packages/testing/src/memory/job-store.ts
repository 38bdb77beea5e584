import { ConflictError, NotFoundError, ValidationError } from '@tickring/core/common';
import type {
  DueJobRef,
  Job,
  JobQuery,
  JobStore,
  OutcomeHistory,
  Page,
  PlannableJob,
  PlanState,
  ScheduleAdvance,
} from '@tickring/core/jobs';
import { decodeCursor, pageOf } from './cursor.js';

export interface MemoryJobStoreOptions {
  /** Shards of the due list: a job is in shard `id % shardCount`. Default 4 (the setting's default). */
  readonly shardCount?: number;
}

/**
 * Jobs in memory, with the DynamoDB store's rules: a job is due (in its shard's due list) while
 * RUNNING with a next fire, and a job that is not due keeps no next fire; saves are conditional on
 * the version and schedule state read; the tick's advance on the next fire read.
 */
export class MemoryJobStore implements JobStore {
  /** The stored jobs by id (a test may set one directly). */
  readonly jobs = new Map<number, Job>();
  /** Each job's planning state (see PlannableJob). */
  readonly plans = new Map<number, PlanState>();
  /** Each job's outcome history (see JobStore.getOutcomeHistory). */
  readonly outcomes = new Map<number, OutcomeHistory>();
  /** Claimed missed-deadline alarms: `${jobId}@${deadlineAt}`. */
  readonly deadlineMisses = new Set<string>();
  readonly unexplainedClaims = new Set<string>();
  private sequence = 0;
  private readonly shardCount: number;

  constructor(options: MemoryJobStoreOptions = {}) {
    this.shardCount = options.shardCount ?? 4;
  }

  async allocateId(): Promise<number> {
    return ++this.sequence;
  }

  async create(job: Job, plan?: PlanState): Promise<void> {
    if (this.jobs.has(job.id)) throw new ConflictError(`job ${job.id} already exists`);
    this.store(job, plan);
  }

  async get(id: number): Promise<Job | undefined> {
    const job = this.jobs.get(id);
    return job && structuredClone(job);
  }

  async getMany(ids: readonly number[]): Promise<Job[]> {
    return (await this.getPlannable(ids)).map((p) => p.job);
  }

  async getPlannable(ids: readonly number[]): Promise<PlannableJob[]> {
    return [...new Set(ids)].flatMap((id) => {
      const job = this.jobs.get(id);
      return job ? [this.plannable(job)] : [];
    });
  }

  async listLastPlans(limit: number, cursor?: string): Promise<Page<PlannableJob>> {
    const after = idOf(decodeCursor(cursor));
    const planned = this.sorted().filter(
      (j) => j.id > after && this.plans.get(j.id)?.lastPlanDue !== undefined,
    );
    const page = pageOf(planned, limit, (last) => ({ id: last.id }));
    return { ...page, items: page.items.map((job) => this.plannable(job)) };
  }

  async replace(
    job: Job,
    expected: Pick<Job, 'version' | 'triggerNextTime' | 'triggerStatus'>,
    plan?: PlanState,
  ): Promise<void> {
    const current = this.jobs.get(job.id);
    if (!current) throw new NotFoundError(`job ${job.id} does not exist`);
    // Also conditional on the schedule state that was read, so a write cannot undo a tick's advance.
    const asRead = isDue(expected)
      ? isDue(current) && current.triggerNextTime === expected.triggerNextTime
      : !isDue(current);
    if (current.version !== expected.version || !asRead) {
      throw new ConflictError(`job ${job.id} was changed meanwhile; read it again and retry`);
    }
    this.store(job, plan);
  }

  async delete(id: number): Promise<void> {
    if (!this.jobs.delete(id)) throw new NotFoundError(`job ${id} does not exist`);
    this.plans.delete(id);
  }

  async list(query: JobQuery): Promise<Page<Job>> {
    const position = decodeCursor(query.cursor);
    // A cursor must come from the same query (all jobs, or this app's).
    if (position !== undefined && position.appName !== query.appName) {
      throw new ValidationError('cursor is not a cursor of this query', 'cursor');
    }
    const after = idOf(position);
    const matching = this.sorted().filter(
      (j) =>
        j.id > after &&
        (query.appName === undefined || j.appName === query.appName) &&
        (query.triggerStatus === undefined || j.triggerStatus === query.triggerStatus),
    );
    const page = pageOf(matching, query.limit, (last) => ({ appName: query.appName, id: last.id }));
    return { ...page, items: page.items.map((job) => structuredClone(job)) };
  }

  async existsForApp(appName: string): Promise<boolean> {
    return [...this.jobs.values()].some((j) => j.appName === appName);
  }

  async queryDue(shard: number, untilMs: number, limit: number, cursor?: string): Promise<Page<DueJobRef>> {
    const position = decodeCursor(cursor);
    const after = { next: Number(position?.nextTriggerTime ?? Number.NEGATIVE_INFINITY), id: idOf(position) };
    const due = [...this.jobs.values()]
      .flatMap((j): DueJobRef[] =>
        isDue(j) && j.id % this.shardCount === shard && j.triggerNextTime < untilMs
          ? [{ id: j.id, nextTriggerTime: j.triggerNextTime }]
          : [],
      )
      .sort((a, b) => a.nextTriggerTime - b.nextTriggerTime || a.id - b.id)
      .filter((r) => r.nextTriggerTime > after.next || (r.nextTriggerTime === after.next && r.id > after.id));
    return pageOf(due, limit, (last) => ({ nextTriggerTime: last.nextTriggerTime, id: last.id }));
  }

  async advanceSchedule(advance: ScheduleAdvance): Promise<boolean> {
    const job = this.jobs.get(advance.id);
    if (!job || !isDue(job) || job.triggerNextTime !== advance.expectedNext) return false;
    const ended = advance.nextTriggerTime === null;
    this.jobs.set(advance.id, {
      ...job,
      triggerLastTime: advance.triggerLastTime,
      ...(ended
        ? { triggerStatus: 'STOPPED', triggerNextTime: null }
        : { triggerNextTime: advance.nextTriggerTime }),
      ...(advance.scheduledFires === undefined ? {} : { scheduledFires: advance.scheduledFires }),
      ...(advance.ended === undefined ? {} : { scheduleEnded: { ...advance.ended } }),
    });
    const before = this.plans.get(advance.id) ?? {};
    // The plan before moves down; a plan after a misfire forgets both (nothing of it to re-send).
    this.plans.set(
      advance.id,
      definedOnly({
        logIdBlock: advance.nextLogIdBlock,
        lastPlanDue: advance.planDue,
        prevPlanDue: advance.planDue === undefined ? undefined : before.lastPlanDue,
      }),
    );
    return true;
  }

  async markSlow(id: number, untilMs: number): Promise<void> {
    const job = this.jobs.get(id);
    if (job) this.jobs.set(id, { ...job, slowUntil: untilMs });
  }

  async getOutcomeHistory(id: number): Promise<OutcomeHistory | undefined> {
    const history = this.outcomes.get(id);
    return history === undefined ? undefined : structuredClone(history);
  }

  async putOutcomeHistory(id: number, history: OutcomeHistory, expectedRevision: number): Promise<boolean> {
    if ((this.outcomes.get(id)?.revision ?? 0) !== expectedRevision) return false;
    this.outcomes.set(id, structuredClone(history));
    return true;
  }

  async claimFiresUnexplained(id: number, windowStart: number): Promise<boolean> {
    const key = `${id}@${windowStart}`;
    if (this.unexplainedClaims.has(key)) return false;
    this.unexplainedClaims.add(key);
    return true;
  }

  async claimDeadlineMiss(id: number, deadlineAt: number): Promise<boolean> {
    const key = `${id}@${deadlineAt}`;
    if (this.deadlineMisses.has(key)) return false;
    this.deadlineMisses.add(key);
    return true;
  }

  /** Stores a copy of the job (a job that is not due keeps no next fire) and its plan state. */
  private store(job: Job, plan: PlanState = {}): void {
    const copy = structuredClone(job);
    this.jobs.set(job.id, isDue(copy) ? copy : { ...copy, triggerNextTime: null });
    this.plans.set(job.id, definedOnly({ ...plan }));
  }

  private plannable(job: Job): PlannableJob {
    return { job: structuredClone(job), ...this.plans.get(job.id) };
  }

  private sorted(): Job[] {
    return [...this.jobs.values()].sort((a, b) => a.id - b.id);
  }
}

/** Whether the job is on the due list: RUNNING with a next fire. */
function isDue<J extends Pick<Job, 'triggerStatus' | 'triggerNextTime'>>(
  job: J,
): job is J & { triggerNextTime: number } {
  return job.triggerStatus === 'RUNNING' && job.triggerNextTime !== null;
}

function idOf(position: Record<string, unknown> | undefined): number {
  if (position === undefined) return Number.NEGATIVE_INFINITY;
  if (!Number.isSafeInteger(position.id))
    throw new ValidationError('cursor is not a cursor of this query', 'cursor');
  return position.id as number;
}

function definedOnly(plan: { [K in keyof PlanState]: PlanState[K] | undefined }): PlanState {
  return Object.fromEntries(Object.entries(plan).filter(([, value]) => value !== undefined));
}
