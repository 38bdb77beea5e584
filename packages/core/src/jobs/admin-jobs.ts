import type { AlertStore } from '../alerts/alert-store.js';
import { savingWithChannels } from '../alerts/channel-references.js';
import type { Calendar } from '../calendars/calendar.js';
import {
  type AllowedFire,
  allowedEffectiveFire,
  type CalendarBlock,
  type CalendarGate,
  calendarGate,
  gatedFireTimes,
  SCHEDULE_CALENDAR_LISTS,
  type ScheduleCalendars,
  scheduleCalendarIds,
} from '../calendars/calendar-schedule.js';
import type { CalendarStore } from '../calendars/calendar-store.js';
import type { Clock } from '../common/clock.js';
import {
  ConflictError,
  NotFoundError,
  type Problem,
  RequestValidationError,
  ValidationError,
} from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import { readOnPastEmptyPages } from '../common/paging.js';
import { SETTINGS } from '../config/settings.js';
import { LOG_IDS_PER_PLAN } from '../dispatch/trigger.js';
import { ALL_GROUPS, isVisible, listScope, type VisibleGroups } from '../identity/access.js';
import { firstPlannedLogId, MAX_JOB_ID } from '../runs/run.js';
import {
  DST_POLICY_TEXT,
  type DstFireMark,
  type DstTransition,
  dstMarks,
  exceptionsFitting,
  jitterOffsetMs,
  markOccurrences,
  type OccurrenceException,
  previewFireTimes,
  type Schedule,
  type ScheduleBounds,
  type ScheduleEndReason,
} from '../schedule/index.js';
import { type DeadlineStatus, deadlineStatus } from './deadline.js';
import type { Job, PausedBy } from './job.js';
import { jobsWhere } from './job-scan.js';
import type { GroupStore, JobQuery, JobStore, Page, PlanState } from './job-store.js';
import {
  boundsProblems,
  checkSchedule,
  findChildCycle,
  firstFireForStart,
  JOB_EDITABLE_FIELDS,
  type JobSpec,
  parseJobSpec,
  scheduleChanged,
  scheduleOf,
  withoutUndefined,
} from './job-validation.js';
import { estimateRetention, firesPerDay, type RetentionEstimate } from './log-retention.js';

export interface AdminJobsDeps {
  readonly jobs: JobStore;
  readonly groups: Pick<GroupStore, 'get'>;
  /** Where a schedule's calendars are read; absent: a job that names calendars is refused. */
  readonly calendars?: Pick<CalendarStore, 'get'>;
  /** Where the alert channels a job names are looked up; absent: a job that names channels is refused. */
  readonly alertChannels?: Pick<AlertStore, 'listChannels'>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The deployment's run retention (TICKRING_LOG_RETENTION_DAYS), for the retention estimate; absent: 30. */
  readonly logRetentionDays?: number;
}

/** Read-modify-write attempts before a ConflictError (the tick moves running jobs every few seconds). */
export const MAX_WRITE_ATTEMPTS = 8;

/**
 * Creates a job with a new id. Started right away when `triggerStatus` is RUNNING (its first fire
 * is the first after now + 5 s, as in XXL-JOB). Alert channels it names must exist (their ids
 * missing are answered beside the body's other problems).
 */
export async function createJob(deps: AdminJobsDeps, input: unknown): Promise<Job> {
  return savingWithChannels(deps.alertChannels, input, (refuseMissing) =>
    createCheckedJob(deps, input, refuseMissing),
  );
}

async function createCheckedJob(
  deps: AdminJobsDeps,
  input: unknown,
  refuseMissing: () => void,
): Promise<Job> {
  const now = deps.clock.now();
  const spec = parseJobSpec(input, { nowMs: now });
  await requireGroup(deps, spec.appName);
  await requireChildren(deps, undefined, spec.childJobIds);
  const gate = await requireCalendars(deps, spec.calendars);
  refuseMissing();
  const triggerNextTime = spec.triggerStatus === 'RUNNING' ? firstFireForStart(spec, now, gate) : null;
  const id = await deps.jobs.allocateId();
  if (id > MAX_JOB_ID) {
    // logIds carry their job id (see `jobIdOfLogId`), which caps the ids ever handed out.
    throw new ConflictError(`no job id left: tickring numbers at most ${MAX_JOB_ID} jobs`);
  }
  const job: Job = {
    ...spec,
    id,
    glueUpdatetime: now,
    triggerLastTime: 0,
    triggerNextTime,
    slowUntil: 0,
    scheduleRevision: 1,
    ...(spec.maxRuns === undefined ? {} : { scheduledFires: 0 }),
    ...(spec.deadline === undefined ? {} : { deadlineSetAt: now }),
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  await deps.jobs.create(job, { logIdBlock: firstPlannedLogId(job.id) });
  deps.logger.info('job created', { jobId: job.id, appName: job.appName, triggerStatus: job.triggerStatus });
  return job;
}

export async function getJob(deps: AdminJobsDeps, id: number): Promise<Job> {
  const job = await deps.jobs.get(id);
  if (!job) throw new NotFoundError(`job ${id} does not exist`);
  return job;
}

/** Where the job stands against its deadline now (one read of its outcome history); null without one. */
export async function getDeadlineStatus(
  deps: Pick<AdminJobsDeps, 'jobs' | 'clock'>,
  job: Job,
): Promise<DeadlineStatus | null> {
  if (job.deadline === undefined) return null;
  const history = await deps.jobs.getOutcomeHistory(job.id);
  return deadlineStatus(
    job.deadline,
    history?.lastSuccessAt,
    job.deadlineSetAt ?? job.createdAt,
    deps.clock.now(),
  );
}

/**
 * What keeping the job's run history costs, an estimate (see `estimateRetention`): its schedule's
 * fires in the next day (`firesPerDay`) × its retention × the share kept × bytes per run record ×
 * the DynamoDB storage price. No read.
 */
export function getRetentionEstimate(
  deps: Pick<AdminJobsDeps, 'clock' | 'logRetentionDays'>,
  job: Job,
): RetentionEstimate {
  const defaultDays = deps.logRetentionDays ?? SETTINGS.logRetentionDays.default;
  return estimateRetention(job, firesPerDay(scheduleOf(job), deps.clock.now()), defaultDays);
}

/**
 * A page of jobs of the groups the caller sees; never empty while a cursor follows, within the
 * read-on budget (a filtered scan). A group the caller does not see lists nothing.
 */
export async function listJobs(
  deps: AdminJobsDeps,
  query: JobQuery,
  visible: VisibleGroups = ALL_GROUPS,
): Promise<Page<Job>> {
  const scope = listScope(query.appName, visible);
  if (scope === null) return { items: [] };
  const scoped = scope.appName === undefined ? query : { ...query, appName: scope.appName };
  return readOnPastEmptyPages(deps.clock, query.cursor, async (cursor) => {
    const page = await deps.jobs.list({ ...scoped, cursor });
    return { ...page, items: page.items.filter((job) => isVisible(visible, job.appName)) };
  });
}

/**
 * Lays the given fields over the job and checks the result as a whole. A `version` in the body
 * must match (optimistic concurrency); an `id` must be the job's. Editing a running job's schedule
 * re-plans its next fire from now; other edits keep it.
 */
export async function updateJob(deps: AdminJobsDeps, id: number, input: unknown): Promise<Job> {
  const job = await savingWithChannels(deps.alertChannels, input, (refuseMissing) =>
    modifyJob(deps, id, async (current, now) => {
      refuseManaged(current, 'edited');
      checkIdentity(current, input);
      const spec = parseJobSpec(input, { base: specOf(current), id, nowMs: now });
      if (spec.appName !== current.appName) await requireGroup(deps, spec.appName);
      if (!sameIds(spec.childJobIds, current.childJobIds)) await requireChildren(deps, id, spec.childJobIds);
      const gate = await requireCalendars(deps, spec.calendars);
      refuseMissing();
      return withSpec(current, spec, now, gate);
    }),
  );
  deps.logger.info('job updated', { jobId: id, version: job.version });
  return job;
}

/** Schedules the job from now; a job already running is left as it is. */
export async function startJob(deps: AdminJobsDeps, id: number): Promise<Job> {
  const job = await modifyJob(deps, id, async (current, now) => {
    refuseManaged(current, 'started');
    return current.triggerStatus === 'RUNNING'
      ? current
      : withSpec(
          current,
          { ...specOf(current), triggerStatus: 'RUNNING' },
          now,
          await requireCalendars(deps, current.calendars),
        );
  });
  deps.logger.info('job started', { jobId: id, triggerNextTime: job.triggerNextTime });
  return job;
}

/** Stops scheduling (fires already enqueued are dropped by revision); a stopped job is left as it is. */
export async function stopJob(deps: AdminJobsDeps, id: number): Promise<Job> {
  const job = await modifyJob(deps, id, (current, now) => {
    refuseManaged(current, 'stopped');
    return current.triggerStatus === 'STOPPED'
      ? current
      : withSpec(current, { ...specOf(current), triggerStatus: 'STOPPED' }, now);
  });
  deps.logger.info('job stopped', { jobId: id });
  return job;
}

/**
 * Stops a running job because its failure policy's rule was met (see failure-policy.ts): as a stop,
 * plus `pausedBy` (and when it starts again, with a cooling-off period). Undefined when the job is
 * gone or no longer running (someone stopped it meanwhile: left as it is).
 */
export async function pauseJobByPolicy(
  deps: Pick<AdminJobsDeps, 'jobs' | 'clock' | 'logger'>,
  id: number,
  rule: { readonly failures: number; readonly ofLast: number },
): Promise<Job | undefined> {
  let paused = false;
  const job = await modifyJob(deps, id, (current, now) => {
    if (current.triggerStatus !== 'RUNNING' || current.workflowId !== undefined) return current;
    paused = true;
    const resumeAfter = current.failurePolicy?.resumeAfterSeconds;
    const pausedBy: PausedBy = {
      reason: 'failurePolicy',
      at: now,
      failures: rule.failures,
      ofLast: rule.ofLast,
      ...(resumeAfter === undefined ? {} : { resumeAt: now + resumeAfter * 1000 }),
    };
    return { ...withSpec(current, { ...specOf(current), triggerStatus: 'STOPPED' }, now), pausedBy };
  }).catch((err: unknown) => {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  });
  return paused ? job : undefined;
}

/**
 * Starts a job its failure policy paused once its cooling-off period is over (the monitors call it).
 * Undefined when it is no longer that pause (started or stopped by a user meanwhile: left as it is).
 */
export async function resumePausedJob(
  deps: Pick<AdminJobsDeps, 'jobs' | 'clock' | 'logger'>,
  id: number,
  pausedAt: number,
): Promise<Job | undefined> {
  let resumed = false;
  const job = await modifyJob(deps, id, (current, now) => {
    const pause = current.pausedBy;
    if (current.triggerStatus !== 'STOPPED' || pause?.at !== pausedAt || pause.resumeAt === undefined)
      return current;
    if (pause.resumeAt > now) return current;
    resumed = true;
    return withSpec(current, { ...specOf(current), triggerStatus: 'RUNNING' }, now);
  }).catch((err: unknown) => {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  });
  return resumed ? job : undefined;
}

/**
 * Deletes the job. As in XXL-JOB, jobs naming it as a child are left alone (a missing child is
 * skipped when triggered), and fires already enqueued find no job and are dropped.
 */
export async function deleteJob(deps: AdminJobsDeps, id: number): Promise<void> {
  const job = await deps.jobs.get(id);
  if (job) refuseManaged(job, 'deleted');
  await deps.jobs.delete(id);
  deps.logger.info('job deleted', { jobId: id });
}

/**
 * Saves a job a workflow manages (its starter job) to `spec`, bypassing the refusal the job routes
 * give such a job; the workflow use-cases call it when the workflow's schedule changes.
 */
export async function saveManagedJob(deps: AdminJobsDeps, id: number, spec: JobSpec): Promise<Job> {
  const gate = await requireCalendars(deps, spec.calendars);
  return modifyJob(deps, id, (current, now) => withSpec(current, spec, now, gate));
}

/**
 * The calendars a schedule names, read (one store read each), as the rules ask them; undefined for
 * a schedule without calendars. A calendar that does not exist is a 400 naming each one missing.
 */
export async function requireCalendars(
  deps: Pick<AdminJobsDeps, 'calendars'>,
  calendars: ScheduleCalendars | undefined,
): Promise<CalendarGate | undefined> {
  const ids = scheduleCalendarIds(calendars);
  if (ids.length === 0) return undefined;
  const store = deps.calendars;
  if (!store) throw new ValidationError('calendars cannot be read here; leave them out', 'calendars');
  const read = new Map<string, Calendar | undefined>(
    await Promise.all(ids.map(async (id) => [id, await store.get(id)] as const)),
  );
  const problems: Problem[] = SCHEDULE_CALENDAR_LISTS.flatMap((list) => {
    const missing = (calendars?.[list] ?? []).filter((id) => read.get(id) === undefined);
    return missing.length === 0
      ? []
      : [
          {
            field: `calendars.${list}`,
            message: `calendars.${list} names calendars that do not exist: ${missing.join(', ')}; create them first (POST /v1/calendars)`,
          },
        ];
  });
  const [first, ...rest] = problems;
  if (first) throw new RequestValidationError([first, ...rest]);
  return calendarGate(calendars, read);
}

/** The jobs (any status, any group) whose schedule names the calendar, by id (a scan of every job). */
export async function jobsUsingCalendar(
  deps: Pick<AdminJobsDeps, 'jobs'>,
  calendarId: string,
): Promise<Job[]> {
  return jobsWhere(deps.jobs, (job) => scheduleCalendarIds(job.calendars).includes(calendarId));
}

/**
 * The calendars a stored job names, read for planning its next fire: a calendar deleted meanwhile
 * counts as one with no working day (its `only` allows nothing, its `exclude` removes nothing),
 * where a save would refuse it (see `requireCalendars`).
 */
export async function planningGate(
  deps: Pick<AdminJobsDeps, 'calendars'>,
  calendars: ScheduleCalendars | undefined,
): Promise<CalendarGate | undefined> {
  return requireCalendars(deps, calendars).catch((err: unknown) => {
    if (err instanceof RequestValidationError) return calendarGate(calendars, new Map());
    throw err;
  });
}

const nextTimeOf = (fire: AllowedFire): number | null => ('time' in fire ? fire.time : null);

/** A running job re-planned after a change of one of its calendars: its next fire before and after. */
export interface CalendarReplan {
  readonly before: Job;
  readonly after: Job;
}

/**
 * Re-plans a running job after a change of its calendars, as a schedule edit: its next fire is the
 * first one after now + 5 s that the calendars (as now stored) allow, and its revision moves on, so
 * the dispatcher drops every fire the old plan put on the ring (none of them runs, allowed or not;
 * the tick plans the new ones). With no allowed fire left (within 5 years) the job stops itself
 * (scheduleEnded `calendar`). A job stopped, or no longer naming the calendar, is left as it is
 * (undefined).
 */
export async function replanForCalendar(
  deps: AdminJobsDeps,
  id: number,
  calendarId: string,
): Promise<CalendarReplan | undefined> {
  let before: Job | undefined;
  const after = await modifyJob(deps, id, async (current, now) => {
    before = current;
    if (current.triggerStatus !== 'RUNNING') return current;
    if (!scheduleCalendarIds(current.calendars).includes(calendarId)) return current;
    const gate = await planningGate(deps, current.calendars);
    const replanned = {
      scheduleRevision: current.scheduleRevision + 1,
      updatedAt: now,
      version: current.version + 1,
    };
    try {
      const first = firstFireForStart(current, now, gate);
      const next = allowedEffectiveFire(scheduleOfSpec(current), gate, first, current.occurrenceExceptions);
      return { ...current, ...replanned, triggerNextTime: 'time' in next ? next.time : null };
    } catch (err) {
      if (!(err instanceof ValidationError) && !(err instanceof ConflictError)) throw err;
      return {
        ...current,
        ...replanned,
        triggerStatus: 'STOPPED',
        triggerNextTime: null,
        scheduleEnded: { reason: 'calendar', at: now },
      };
    }
  });
  if (!before || after === before) return undefined;
  deps.logger.info('job re-planned: its calendar changed', {
    jobId: id,
    calendarId,
    triggerNextTime: after.triggerNextTime,
    triggerStatus: after.triggerStatus,
  });
  return { before, after };
}

/** ConflictError for a job a workflow manages (its starter job): changed through the workflow only. */
function refuseManaged(job: Job, what: string): void {
  if (job.workflowId === undefined) return;
  throw new ConflictError(
    `job ${job.id} is the schedule of workflow ${job.workflowId} and cannot be ${what} here; change the workflow (PUT /v1/workflows/${job.workflowId}, or its start/stop)`,
  );
}

/** What a preview is asked about beyond the schedule: its bounds, its jitter and whose fires they are. */
export interface PreviewOptions {
  readonly bounds?: ScheduleBounds;
  /** Scheduled fires left under `bounds.maxRuns` (a job's runsRemaining); all of them when absent. */
  readonly runsRemaining?: number;
  readonly jitterSeconds?: number;
  /** The job whose fires these are: a fire's jitter depends on it. */
  readonly jobId?: number;
  /** The job's one-off exceptions: a skipped fire is shown without a time, a moved one at its new time. */
  readonly exceptions?: readonly OccurrenceException[];
  /** The schedule's calendars, read: the fires they remove are not fires, they are listed as skipped. */
  readonly calendars?: CalendarGate;
}

/** A fire the calendars removed (the first of each run of days removed), and which calendar did. */
export type SkippedFire = CalendarBlock & { readonly time: number };

/**
 * One previewed fire: its scheduled time, when it really fires (jitter or a move; null: skipped, or
 * not known without a job), a DST mark, its one-off exception.
 */
export interface PreviewFire {
  readonly time: number;
  readonly fireAt: number | null;
  readonly dst?: DstFireMark;
  readonly exception?: OccurrenceException;
}

export interface SchedulePreview {
  readonly fires: PreviewFire[];
  /** Fires the calendars removed between the first fire shown and the last (or the end). */
  readonly skipped: SkippedFire[];
  /** Set when the schedule ends within the preview (its bounds, or no next fire). */
  readonly ends?: ScheduleEndReason;
  readonly dst: { readonly policy: string; readonly transitions: DstTransition[] };
}

/**
 * The next `count` fires from `fromMs` as the job would make them: within its bounds (startAt,
 * endAt, the runs remaining), each with its jittered time, the clock changes they meet and what the
 * job does there; 400 for a bad schedule or bounds (every problem of the bounds at once).
 */
export function previewSchedule(
  schedule: Schedule,
  fromMs: number,
  count: number,
  options: PreviewOptions = {},
): SchedulePreview {
  checkSchedule(schedule);
  const bounds = options.bounds ?? {};
  const jitterSeconds = options.jitterSeconds ?? 0;
  const [first, ...rest] = boundsProblems(
    {
      scheduleType: schedule.type,
      scheduleConf: schedule.conf,
      timeZone: schedule.timeZone,
      ...bounds,
      jitterSeconds,
    },
    fromMs,
  );
  if (first) throw new RequestValidationError([first, ...rest]);
  const remaining = options.runsRemaining ?? bounds.maxRuns;
  const limit = remaining === undefined ? count : Math.min(count, remaining);
  const start = bounds.startAt !== undefined && bounds.startAt - 1 > fromMs ? bounds.startAt - 1 : fromMs;
  // One more than shown: whether the schedule goes on after the last one shown.
  const gated = options.calendars
    ? gatedFireTimes(schedule, options.calendars, start, limit + 1)
    : { times: previewFireTimes(schedule, start, limit + 1), skipped: [] };
  let times = gated.times;
  const { endAt } = bounds;
  const cutByEnd = endAt !== undefined && times.some((t) => t > endAt);
  if (cutByEnd) times = times.filter((t) => t <= endAt);
  // In the tick's order of precedence (see boundDecision).
  let ends: ScheduleEndReason | undefined;
  if (remaining !== undefined && remaining <= count && times.length >= remaining) ends = 'maxRuns';
  else if (cutByEnd && times.length <= limit) ends = 'endAt';
  else if (times.length <= limit) ends = gated.ended ?? 'noNextFire';
  times = times.slice(0, limit);
  // The skipped fires up to the last fire shown (or all of them, when the schedule ends there).
  const shownUntil = ends === undefined ? (times.at(-1) ?? start) : Number.POSITIVE_INFINITY;
  const skipped = gated.skipped.filter(
    (f) => f.time < shownUntil && (endAt === undefined || f.time <= endAt),
  );
  const marks = dstMarks(schedule, fromMs, times);
  const jitteredAt = (time: number) =>
    jitterSeconds === 0
      ? time
      : options.jobId === undefined
        ? null
        : time + jitterOffsetMs(options.jobId, time, jitterSeconds);
  return {
    fires: markOccurrences(times, options.exceptions, jitteredAt).map((fire) => {
      const dst = marks.fires.find((m) => m.time === fire.time);
      return { ...fire, ...(dst ? { dst } : {}) };
    }),
    skipped,
    ...(ends === undefined ? {} : { ends }),
    dst: { policy: DST_POLICY_TEXT, transitions: marks.transitions },
  };
}

/** The editable part of a job (bounds it does not have left out). */
export function specOf(job: Job): JobSpec {
  return withoutUndefined(
    Object.fromEntries(JOB_EDITABLE_FIELDS.map((f) => [f, job[f]])) as unknown as JobSpec,
  );
}

/**
 * The job with `spec` applied at `now`: the next fire is planned on start or schedule edit and
 * cleared on stop; the revision moves with schedule or status, glueUpdatetime with the glue.
 */
export function withSpec(current: Job, spec: JobSpec, now: number, gate?: CalendarGate): Job {
  const scheduleEdited = scheduleChanged(current, spec);
  const statusChanged = spec.triggerStatus !== current.triggerStatus;
  // maxRuns counts from when it is set; raised or lowered, it keeps the count; removed, it forgets it.
  const scheduledFires =
    spec.maxRuns === undefined
      ? undefined
      : current.maxRuns === undefined
        ? 0
        : (current.scheduledFires ?? 0);
  // A changed schedule keeps the one-off exceptions that still name its occurrences.
  const exceptions = scheduleEdited
    ? exceptionsFitting(scheduleOfSpec(spec), current.occurrenceExceptions)
    : current.occurrenceExceptions;
  let triggerNextTime: number | null = null;
  if (spec.triggerStatus === 'RUNNING') {
    triggerNextTime =
      scheduleEdited || statusChanged || current.triggerNextTime === null
        ? nextTimeOf(
            allowedEffectiveFire(
              scheduleOfSpec(spec),
              gate,
              firstFireForStart({ ...spec, scheduledFires }, now, gate),
              exceptions,
            ),
          )
        : current.triggerNextTime;
  }
  const glueEdited = spec.glueType !== current.glueType || spec.glueSource !== current.glueSource;
  const {
    startAt: _s,
    endAt: _e,
    maxRuns: _m,
    jitterSeconds: _j,
    calendars: _c,
    scheduledFires: _f,
    scheduleEnded,
    failurePolicy: _p,
    deadline: _d,
    pausedBy,
    deadlineSetAt,
    occurrenceExceptions: _x,
    // Optional spec fields: the spec's own value or none (a null in the update clears them).
    alertChannels: _a,
    logRetentionDays: _r,
    keepSuccessfulRuns: _k,
    ...kept
  } = current;
  const deadlineSince =
    spec.deadline === undefined
      ? undefined
      : JSON.stringify(spec.deadline) === JSON.stringify(current.deadline) && deadlineSetAt !== undefined
        ? deadlineSetAt
        : now;
  return {
    ...kept,
    ...spec,
    ...(exceptions === undefined || exceptions.length === 0 ? {} : { occurrenceExceptions: exceptions }),
    ...(scheduledFires === undefined ? {} : { scheduledFires }),
    // Why the schedule ended (or paused) stays with the stopped job until it is started again.
    ...(scheduleEnded === undefined || spec.triggerStatus === 'RUNNING' ? {} : { scheduleEnded }),
    ...(pausedBy === undefined || spec.triggerStatus === 'RUNNING' ? {} : { pausedBy }),
    ...(deadlineSince === undefined ? {} : { deadlineSetAt: deadlineSince }),
    triggerNextTime,
    scheduleRevision: current.scheduleRevision + (scheduleEdited || statusChanged ? 1 : 0),
    glueUpdatetime: glueEdited ? now : current.glueUpdatetime,
    updatedAt: now,
    version: current.version + 1,
  };
}

function scheduleOfSpec(spec: Pick<JobSpec, 'scheduleType' | 'scheduleConf' | 'timeZone'>): Schedule {
  return { type: spec.scheduleType, conf: spec.scheduleConf, timeZone: spec.timeZone };
}

/**
 * Read, change, conditional write; on a ConflictError from the write (someone, usually the tick,
 * moved the job meanwhile) read again and retry. `change` returning the job unchanged skips the write.
 */
export async function modifyJob(
  deps: Pick<AdminJobsDeps, 'jobs' | 'clock' | 'logger'>,
  id: number,
  change: (current: Job, now: number) => Job | Promise<Job>,
): Promise<Job> {
  for (let attempt = 1; ; attempt++) {
    const [stored] = await deps.jobs.getPlannable([id]);
    if (!stored) throw new NotFoundError(`job ${id} does not exist`);
    const current = stored.job;
    const next = await change(current, deps.clock.now());
    if (next === current) return current;
    // The same schedule keeps its reserved logIds and its last plan: fires a crashed tick sent with
    // them must keep their numbers when planned again, or re-sent after a restart lost the ring.
    // A new revision (its old fires are dropped) gets new logIds and forgets the old plan.
    const block = stored.logIdBlock ?? firstPlannedLogId(id);
    const { job: _read, ...kept } = stored;
    const plan: PlanState =
      next.scheduleRevision === current.scheduleRevision
        ? { ...kept, logIdBlock: block }
        : { logIdBlock: block + LOG_IDS_PER_PLAN };
    try {
      await deps.jobs.replace(next, current, plan);
      return next;
    } catch (err) {
      if (!(err instanceof ConflictError) || attempt >= MAX_WRITE_ATTEMPTS) throw err;
      deps.logger.debug('job write conflict, retrying', { jobId: id, attempt });
      // Apart, at random: edits that collided at once would otherwise collide again (8 at once lost 5 times).
      await deps.clock.sleep(Math.floor(Math.random() * 20 * attempt));
    }
  }
}

function checkIdentity(current: Job, input: unknown): void {
  if (typeof input !== 'object' || input === null) return;
  const { id, version } = input as { id?: unknown; version?: unknown };
  if (id !== undefined && id !== current.id) {
    throw new ValidationError(
      `id ${JSON.stringify(id)} does not match the job in the path (${current.id})`,
      'id',
    );
  }
  if (version !== undefined && version !== current.version) {
    throw new ConflictError(
      `job ${current.id} is at version ${current.version}, not ${JSON.stringify(version)}; read it again and retry`,
    );
  }
}

async function requireGroup(deps: AdminJobsDeps, appName: string): Promise<void> {
  if (!(await deps.groups.get(appName))) {
    throw new ValidationError(
      `appName ${JSON.stringify(appName)} is not an executor group; create the group first`,
      'appName',
    );
  }
}

/** Every child must exist, and (for an existing job) the children must not lead back to it. */
async function requireChildren(
  deps: AdminJobsDeps,
  id: number | undefined,
  childIds: readonly number[],
): Promise<void> {
  if (childIds.length === 0) return;
  const children = await deps.jobs.getMany(childIds);
  const found = new Set(children.map((j) => j.id));
  const missing = childIds.filter((c) => !found.has(c));
  if (missing.length > 0) {
    throw new ValidationError(
      `childJobIds names jobs that do not exist: ${missing.join(', ')}`,
      'childJobIds',
    );
  }
  if (id === undefined) return;
  const cycle = await findChildCycle(id, childIds, async (ids) => {
    const jobs = await deps.jobs.getMany(ids);
    return new Map(jobs.map((j) => [j.id, j.childJobIds]));
  });
  if (cycle) {
    throw new ValidationError(`childJobIds would make a cycle: ${cycle.join(' → ')}`, 'childJobIds');
  }
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
