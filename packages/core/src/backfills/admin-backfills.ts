/**
 * The backfills' use-cases (the /v1 backfill routes): preview, start, read, list and cancel. A start
 * checks everything at once and starts its first fires at once; the sweep (`backfill-sweep.ts`) moves
 * it on from there.
 */
import type { Calendar } from '../calendars/calendar.js';
import { type CalendarGate, calendarGate, scheduleCalendarIds } from '../calendars/calendar-schedule.js';
import type { CalendarStore } from '../calendars/calendar-store.js';
import type { Clock } from '../common/clock.js';
import { ConflictError, NotFoundError, type Problem, RequestValidationError } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import type { Job } from '../jobs/job.js';
import type { JobStore, Page } from '../jobs/job-store.js';
import { boundsOf, scheduleOf } from '../jobs/job-validation.js';
import type { WorkflowStore } from '../workflows/workflow-store.js';
import { BACKFILL_LIMITS, type Backfill, jobIdOfBackfill, newBackfillId } from './backfill.js';
import { backfillFires, gateWithin } from './backfill-fires.js';
import type { BackfillStore } from './backfill-store.js';
import { advanceBackfill, type BackfillSweepDeps } from './backfill-sweep.js';

export interface AdminBackfillsDeps extends BackfillSweepDeps {
  readonly jobs: Pick<JobStore, 'get'>;
  readonly backfills: BackfillStore;
  /** Where the job's calendars are read when a backfill starts (and for its preview). */
  readonly calendars: Pick<CalendarStore, 'get'>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** For the id's suffix; Math.random by default. */
  readonly random?: () => number;
}

/** A workflow's backfills: the workflow's record names its starter job. */
export interface AdminWorkflowBackfillsDeps extends AdminBackfillsDeps {
  readonly workflows: Pick<WorkflowStore, 'get'>;
}

/** What a start asks for (the API's body, its shape checked there). */
export interface BackfillRequest {
  /** ISO-8601 instants (or epoch ms): fires at or after `from` and before `to`. */
  readonly from: string | number;
  readonly to: string | number;
  readonly parallelism?: number;
  readonly ratePerMinute?: number;
}

export interface BackfillPreview {
  readonly jobId: number;
  /** Set for a workflow's backfill (`jobId` is then its starter job). */
  readonly workflowId?: number;
  readonly from: number;
  readonly to: number;
  /** The fires the range holds; at most the limit + 1 (`tooMany` then says so). */
  readonly total: number;
  readonly tooMany: boolean;
  readonly limit: number;
  /** The first and last fire's scheduled time (absent when there is none). */
  readonly first?: number;
  readonly last?: number;
}

const notFound = (id: string) => new NotFoundError(`no backfill has the id ${id}`);

/** The fires a backfill of the range would make, without starting it (the console's preview). */
export async function previewBackfill(
  deps: Pick<AdminBackfillsDeps, 'jobs' | 'calendars' | 'clock'>,
  jobId: number,
  input: BackfillRequest,
): Promise<BackfillPreview> {
  return previewOf(deps, await jobOf(deps, jobId), input);
}

/** A workflow's backfill preview: the fires of its schedule (its starter job's) in the range. */
export async function previewWorkflowBackfill(
  deps: Pick<AdminWorkflowBackfillsDeps, 'jobs' | 'workflows' | 'calendars' | 'clock'>,
  workflowId: number,
  input: BackfillRequest,
): Promise<BackfillPreview> {
  return previewOf(deps, await starterJobOf(deps, workflowId), input);
}

async function previewOf(
  deps: Pick<AdminBackfillsDeps, 'calendars' | 'clock'>,
  job: Job,
  input: BackfillRequest,
): Promise<BackfillPreview> {
  const gate = await calendarsOf(deps, job);
  const { from, to, fires } = checkRequest(job, gate, input, deps.clock.now(), { countLimit: false });
  const listed = fires.slice(0, BACKFILL_LIMITS.fires);
  return {
    jobId: job.id,
    ...(job.workflowId === undefined ? {} : { workflowId: job.workflowId }),
    from,
    to,
    total: fires.length,
    tooMany: fires.length > BACKFILL_LIMITS.fires,
    limit: BACKFILL_LIMITS.fires,
    ...(listed.length > 0 ? { first: listed[0], last: listed.at(-1) } : {}),
  };
}

/**
 * Starts a backfill of the job's schedule over [from, to): every problem at once (400), a job with an
 * active backfill 409 (naming it). Its first fires are started before it answers.
 */
export async function startBackfill(
  deps: AdminBackfillsDeps,
  jobId: number,
  input: BackfillRequest,
  by: string,
): Promise<Backfill> {
  return startFor(deps, await jobOf(deps, jobId), input, by);
}

/**
 * Starts a backfill of a workflow's schedule: its starter job's past fires, each starting a workflow
 * run (trigger BACKFILL, its scheduled time in the run's trigger and input), counted as running until
 * that run ends. Checked as a job's backfill is; a workflow without a schedule 400.
 */
export async function startWorkflowBackfill(
  deps: AdminWorkflowBackfillsDeps,
  workflowId: number,
  input: BackfillRequest,
  by: string,
): Promise<Backfill> {
  return startFor(deps, await starterJobOf(deps, workflowId), input, by);
}

async function startFor(
  deps: AdminBackfillsDeps,
  job: Job,
  input: BackfillRequest,
  by: string,
): Promise<Backfill> {
  const jobId = job.id;
  // The calendars as they are now: a later change of them does not change this backfill's fires.
  const gate = await calendarsOf(deps, job);
  const now = deps.clock.now();
  const { from, to, fires, parallelism, ratePerMinute } = checkRequest(job, gate, input, now, {
    countLimit: true,
  });
  const backfill: Backfill = {
    id: newBackfillId(jobId, now, deps.random),
    jobId,
    ...(job.workflowId === undefined ? {} : { workflowId: job.workflowId }),
    appName: job.appName,
    from,
    to,
    parallelism,
    ...(ratePerMinute === undefined ? {} : { ratePerMinute }),
    schedule: scheduleOf(job),
    bounds: boundsWithin(job),
    ...(gate === undefined ? {} : { calendars: gateWithin(gate, { from, to }) }),
    total: fires.length,
    ...(fires.length > 0 ? { nextFireTime: fires[0] } : {}),
    dispatched: 0,
    succeeded: 0,
    failed: 0,
    running: [],
    failures: [],
    state: fires.length > 0 ? 'RUNNING' : 'COMPLETED',
    createdAt: now,
    createdBy: by,
    ...(fires.length > 0 ? {} : { endedAt: now }),
    revision: 1,
  };
  await deps.backfills.create(backfill);
  deps.logger.info('backfill started', {
    backfillId: backfill.id,
    jobId,
    ...(job.workflowId === undefined ? {} : { workflowId: job.workflowId }),
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    total: backfill.total,
    parallelism,
    ratePerMinute,
    by,
  });
  if (backfill.state !== 'RUNNING') return backfill;
  // The first fires start now; a lost race (a sweep got there first) leaves them to it.
  const step = await advanceBackfill(deps, backfill);
  return step.backfill ?? (await deps.backfills.get(backfill.id)) ?? backfill;
}

export async function getBackfill(
  deps: Pick<AdminBackfillsDeps, 'backfills'>,
  id: string,
): Promise<Backfill> {
  const backfill = jobIdOfBackfill(id) === undefined ? undefined : await deps.backfills.get(id);
  if (!backfill) throw notFound(id);
  return backfill;
}

export async function listJobBackfills(
  deps: Pick<AdminBackfillsDeps, 'backfills'>,
  jobId: number,
  query: { readonly limit?: number; readonly cursor?: string },
): Promise<Page<Backfill>> {
  return deps.backfills.listByJob(jobId, {
    limit: query.limit ?? 20,
    ...(query.cursor ? { cursor: query.cursor } : {}),
  });
}

/** A workflow's backfills (its starter job's), newest first. */
export async function listWorkflowBackfills(
  deps: Pick<AdminWorkflowBackfillsDeps, 'backfills' | 'workflows'>,
  workflowId: number,
  query: { readonly limit?: number; readonly cursor?: string },
): Promise<Page<Backfill>> {
  const workflow = await deps.workflows.get(workflowId);
  if (!workflow) throw new NotFoundError(`workflow ${workflowId} does not exist`);
  // A workflow without a schedule has no starter job, so no backfill.
  if (workflow.starterJobId === undefined) return { items: [] };
  return listJobBackfills(deps, workflow.starterJobId, query);
}

/**
 * Cancels a running backfill: no new fire starts; the running ones finish and are counted. 409 for
 * one that already ended or was cancelled. A lost race with a sweep reads it again.
 */
export async function cancelBackfill(
  deps: Pick<AdminBackfillsDeps, 'backfills' | 'clock' | 'logger'>,
  id: string,
  by: string,
): Promise<Backfill> {
  for (let attempt = 1; ; attempt++) {
    const current = await getBackfill(deps, id);
    if (current.state !== 'RUNNING') {
      throw new ConflictError(`backfill ${id} is ${current.state}; only a RUNNING backfill can be cancelled`);
    }
    const now = deps.clock.now();
    const { nextFireTime: _next, notBefore: _notBefore, ...rest } = current;
    const next: Backfill = {
      ...rest,
      state: 'CANCELLED',
      cancelledAt: now,
      cancelledBy: by,
      ...(current.running.length === 0 ? { endedAt: now } : {}),
      revision: current.revision + 1,
    };
    try {
      await deps.backfills.update(next, current.revision);
      deps.logger.info('backfill cancelled', {
        backfillId: id,
        jobId: current.jobId,
        dispatched: current.dispatched,
        running: current.running.length,
        by,
      });
      return next;
    } catch (err) {
      if (!(err instanceof ConflictError) || attempt >= 5) throw err;
    }
  }
}

/** A job to backfill through the jobs' routes: a workflow's starter job is backfilled through its workflow. */
async function jobOf(deps: Pick<AdminBackfillsDeps, 'jobs'>, jobId: number): Promise<Job> {
  const job = await deps.jobs.get(jobId);
  if (!job) throw new NotFoundError(`job ${jobId} does not exist`);
  if (job.workflowId !== undefined) {
    throw new RequestValidationError([
      {
        field: 'jobId',
        message: `job ${job.id} is the starter job of workflow ${job.workflowId}; backfill the workflow instead (POST /v1/workflows/${job.workflowId}/backfill, tickring workflows backfill ${job.workflowId})`,
      },
    ]);
  }
  return job;
}

/** The job a workflow's schedule fires; 400 for a workflow without a schedule. */
async function starterJobOf(
  deps: Pick<AdminWorkflowBackfillsDeps, 'jobs' | 'workflows'>,
  workflowId: number,
): Promise<Job> {
  const workflow = await deps.workflows.get(workflowId);
  if (!workflow) throw new NotFoundError(`workflow ${workflowId} does not exist`);
  const starter =
    workflow.starterJobId === undefined ? undefined : await deps.jobs.get(workflow.starterJobId);
  if (!starter) {
    throw new RequestValidationError([
      {
        field: 'workflowId',
        message: `workflow ${workflowId} has no schedule (scheduleType ${workflow.definition.scheduleType}); only a CRON or FIX_RATE schedule can be backfilled`,
      },
    ]);
  }
  return starter;
}

/**
 * The job's calendars, read as the tick reads them: one deleted meanwhile counts as having no working
 * day (see `calendarGate`). Undefined for a job that names none.
 */
async function calendarsOf(
  deps: Pick<AdminBackfillsDeps, 'calendars'>,
  job: Job,
): Promise<CalendarGate | undefined> {
  const ids = scheduleCalendarIds(job.calendars);
  if (ids.length === 0) return undefined;
  const read = await Promise.all(ids.map(async (id) => [id, await deps.calendars.get(id)] as const));
  return calendarGate(job.calendars, new Map<string, Calendar | undefined>(read));
}

function boundsWithin(job: Job): Backfill['bounds'] {
  const { startAt, endAt } = boundsOf(job);
  return { ...(startAt === undefined ? {} : { startAt }), ...(endAt === undefined ? {} : { endAt }) };
}

interface CheckedRequest {
  readonly from: number;
  readonly to: number;
  readonly fires: number[];
  readonly parallelism: number;
  readonly ratePerMinute?: number;
}

/** Every problem of a request against its job, at once. */
function checkRequest(
  job: Job,
  gate: CalendarGate | undefined,
  input: BackfillRequest,
  now: number,
  options: { readonly countLimit: boolean },
): CheckedRequest {
  const problems: Problem[] = [];
  const from = instantOf(input.from, 'from', problems);
  const to = instantOf(input.to, 'to', problems);
  if (from !== undefined && to !== undefined && from >= to) {
    problems.push({ field: 'to', message: `to must be after from; got from ${iso(from)}, to ${iso(to)}` });
  }
  if (to !== undefined && to > now) {
    problems.push({
      field: 'to',
      message: `to must not be in the future (a backfill runs past fires); got ${iso(to)}, now is ${iso(now)}`,
    });
  }
  const parallelism = input.parallelism ?? 1;
  wholeIn(parallelism, 'parallelism', 1, BACKFILL_LIMITS.parallelism, problems);
  if (input.ratePerMinute !== undefined) {
    wholeIn(input.ratePerMinute, 'ratePerMinute', 1, BACKFILL_LIMITS.ratePerMinute, problems);
  }
  if (job.scheduleType !== 'CRON' && job.scheduleType !== 'FIX_RATE') {
    problems.push({
      field: job.workflowId === undefined ? 'jobId' : 'workflowId',
      message:
        job.workflowId === undefined
          ? `job ${job.id} has a ${job.scheduleType} schedule; only a CRON or FIX_RATE schedule can be backfilled`
          : `workflow ${job.workflowId} has a ${job.scheduleType} schedule; only a CRON or FIX_RATE schedule can be backfilled`,
    });
  }
  let fires: number[] = [];
  if (problems.length === 0 && from !== undefined && to !== undefined) {
    fires = backfillFires(scheduleOf(job), boundsOf(job), { from, to }, BACKFILL_LIMITS.fires, gate);
    if (options.countLimit && fires.length > BACKFILL_LIMITS.fires) {
      problems.push({
        field: 'to',
        message: `the range holds more than ${BACKFILL_LIMITS.fires} fires of job ${job.id}'s schedule (the first ${
          BACKFILL_LIMITS.fires
        } end at ${iso(fires[BACKFILL_LIMITS.fires - 1] as number)}); a backfill makes at most ${BACKFILL_LIMITS.fires}: split the range`,
      });
    }
  }
  const [first, ...rest] = problems;
  if (first) throw new RequestValidationError([first, ...rest]);
  return {
    from: from as number,
    to: to as number,
    fires,
    parallelism,
    ...(input.ratePerMinute === undefined ? {} : { ratePerMinute: input.ratePerMinute }),
  };
}

function instantOf(value: unknown, field: string, problems: Problem[]): number | undefined {
  const ms =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value !== ''
        ? Date.parse(value)
        : Number.NaN;
  if (Number.isSafeInteger(ms) && ms >= 0) return ms;
  problems.push({
    field,
    message: `${field} must be an ISO-8601 instant (e.g. 2026-11-01T00:00:00Z); got ${JSON.stringify(value)}`,
  });
  return undefined;
}

function wholeIn(value: unknown, field: string, min: number, max: number, problems: Problem[]): void {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return;
  problems.push({
    field,
    message: `${field} must be a whole number from ${min} to ${max}; got ${JSON.stringify(value)}`,
  });
}

const iso = (ms: number) => new Date(ms).toISOString();
