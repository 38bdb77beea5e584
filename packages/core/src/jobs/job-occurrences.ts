/**
 * One-off exceptions of a job's schedule through the API: skip one occurrence, move it, take the
 * exception back, list the upcoming occurrences with theirs. Stored on the job, written with its
 * version (a conflict reads again, as job edits do); the pure rules are in schedule/occurrences.ts.
 */
import { allowedEffectiveFire, type CalendarGate } from '../calendars/calendar-schedule.js';
import { ConflictError, type Problem, RequestValidationError, ValidationError } from '../common/errors.js';
import {
  exceptionAt,
  firstFireTime,
  MAX_PENDING_EXCEPTIONS,
  moveWindow,
  neighboursOf,
  nominalOf,
  type OccurrenceException,
  PRE_READ_MS,
  pendingExceptions,
  prunedExceptions,
  type Schedule,
} from '../schedule/index.js';
import {
  type AdminJobsDeps,
  getJob,
  modifyJob,
  type PreviewFire,
  planningGate,
  previewSchedule,
} from './admin-jobs.js';
import type { Job } from './job.js';

/**
 * How close to its time an occurrence (or a move's time) can no longer be changed: the tick plans a
 * due job's fires up to 2 × TICKRING_PLAN_AHEAD_SECONDS − 5 s ahead (15 s with the default 10), and
 * a fire on the ring keeps what it was planned with.
 */
export const OCCURRENCE_LEAD_MS = 15_000;
/** Longest reason kept with an exception. */
export const MAX_EXCEPTION_REASON = 500;
/** How long a change waits for a tick that may be planning the job (see `awaitPlanned`). */
const PLANNING_WAIT_MS = 3_000;
const PLANNING_POLL_MS = 250;

export interface OccurrenceChange {
  /** The occurrence's scheduled time: an ISO-8601 instant or epoch ms, as in the path. */
  readonly time: string;
  readonly reason?: unknown;
  /** A move's new time (ISO-8601 instant or epoch ms). */
  readonly to?: unknown;
}

/** Skips one upcoming occurrence: it is not fired, the schedule goes on. Answers the job. */
export function skipOccurrence(
  deps: AdminJobsDeps,
  id: number,
  change: OccurrenceChange,
  by: string,
): Promise<Job> {
  return writeException(deps, id, change, by, 'skip');
}

/** Moves one upcoming occurrence to `to` (between its neighbours); it keeps its scheduled time. */
export function moveOccurrence(
  deps: AdminJobsDeps,
  id: number,
  change: OccurrenceChange,
  by: string,
): Promise<Job> {
  return writeException(deps, id, change, by, 'move');
}

/** Takes an occurrence's exception back: it fires at its own time again. */
export async function removeOccurrenceException(deps: AdminJobsDeps, id: number, time: string): Promise<Job> {
  const at = parseInstant(time, 'time');
  if (typeof at !== 'number') throw new RequestValidationError([at]);
  await awaitPlanned(deps, id);
  const job = await modifyJob(deps, id, async (current, now) => {
    const exception = exceptionAt(current.occurrenceExceptions, at);
    if (exception === undefined) {
      throw new ValidationError(`job ${id} has no exception for the occurrence at ${iso(at)}`, 'time');
    }
    const gate = await planningGate(deps, current.calendars);
    refuseTooLate(current, Math.min(at, exception.to ?? at), now, gate);
    const rest = (current.occurrenceExceptions ?? []).filter((e) => e.at !== at);
    return withExceptions(current, rest, now, gate);
  });
  deps.logger.info('occurrence exception removed', { jobId: id, at: iso(at) });
  return job;
}

/** An upcoming occurrence as listed: when it fires (null: skipped), its exception, whether it may still change. */
export interface ListedOccurrence extends PreviewFire {
  readonly changeable: boolean;
}

/**
 * The job's occurrences from `from` (default now) to `to` (at most `limit`), within its bounds, each
 * with its real time (jitter, or its move) and its exception; and every exception the job holds.
 */
export async function listOccurrences(
  deps: AdminJobsDeps,
  id: number,
  query: { readonly from?: number; readonly to?: number; readonly limit: number },
): Promise<{ job: Job; occurrences: ListedOccurrence[]; exceptions: readonly OccurrenceException[] }> {
  const job = await getJob(deps, id);
  const now = deps.clock.now();
  const exceptions = job.occurrenceExceptions ?? [];
  if (job.scheduleType === 'NONE') return { job, occurrences: [], exceptions };
  const schedule = scheduleOf(job);
  const gate = await planningGate(deps, job.calendars);
  const anchor = firstUnplanned(job, now, gate);
  // A FIX_RATE schedule counts from its next fire; a stopped one has none to list.
  if (schedule.type === 'FIX_RATE' && anchor === null) return { job, occurrences: [], exceptions };
  const from = Math.max(query.from ?? now, now);
  // The preview lists fires strictly after its start: a FIX_RATE one's from a fire on its grid.
  const period = Number(schedule.conf) * 1000;
  const start =
    schedule.type === 'FIX_RATE' && anchor !== null
      ? anchor + (Math.ceil((from - anchor) / period) - 1) * period
      : from;
  const preview = previewSchedule(schedule, start, query.limit, {
    bounds: boundsOf(job),
    ...(job.maxRuns === undefined
      ? {}
      : { runsRemaining: Math.max(0, job.maxRuns - (job.scheduledFires ?? 0)) }),
    jitterSeconds: job.jitterSeconds ?? 0,
    jobId: job.id,
    exceptions,
    ...(gate === undefined ? {} : { calendars: gate }),
  });
  const until = query.to;
  const occurrences = preview.fires
    .filter((f) => until === undefined || f.time <= until)
    .map((f) => ({ ...f, changeable: !isTooLate(job, Math.min(f.time, f.fireAt ?? f.time), now, gate) }));
  return { job, occurrences, exceptions };
}

async function writeException(
  deps: AdminJobsDeps,
  id: number,
  change: OccurrenceChange,
  by: string,
  action: 'skip' | 'move',
): Promise<Job> {
  const problems: Problem[] = [];
  const at = parseInstant(change.time, 'time');
  if (typeof at !== 'number') problems.push(at);
  let to: number | undefined;
  if (action === 'move') {
    const parsed = change.to === undefined ? missing('to') : parseInstant(change.to, 'to');
    if (typeof parsed === 'number') to = parsed;
    else problems.push(parsed);
  }
  const reason = change.reason;
  if (reason !== undefined && (typeof reason !== 'string' || reason.length > MAX_EXCEPTION_REASON)) {
    problems.push({
      field: 'reason',
      message: `reason must be a string of at most ${MAX_EXCEPTION_REASON} characters`,
    });
  }
  const [first, ...rest] = problems;
  if (first) throw new RequestValidationError([first, ...rest]);
  if (typeof at !== 'number') throw new TypeError('unreachable');
  await awaitPlanned(deps, id);
  const job = await modifyJob(deps, id, async (current, now) => {
    const gate = await planningGate(deps, current.calendars);
    const refusal = checkChange(current, at, to, now, gate);
    if (refusal) throw refusal;
    const exception: OccurrenceException = {
      at,
      action,
      ...(to === undefined ? {} : { to }),
      ...(typeof reason === 'string' && reason !== '' ? { reason } : {}),
      by,
      createdAt: now,
    };
    const others = (current.occurrenceExceptions ?? []).filter((e) => e.at !== at);
    if (pendingExceptions(others, now).length >= MAX_PENDING_EXCEPTIONS) {
      throw new ValidationError(
        `job ${id} already has ${MAX_PENDING_EXCEPTIONS} exceptions ahead, the most it may hold; take one back first`,
        'time',
      );
    }
    return withExceptions(current, [...others, exception], now, gate);
  });
  deps.logger.info(action === 'skip' ? 'occurrence skipped' : 'occurrence moved', {
    jobId: id,
    at: iso(at),
    ...(to === undefined ? {} : { to: iso(to) }),
    by,
  });
  return job;
}

/**
 * Why the change cannot be made (every problem of the request at once), or undefined: the time must
 * be a future occurrence of the job's schedule (400 naming the nearest before and after), not one
 * already planned (409), and a move's time in the future, inside its window (400 naming it).
 */
function checkChange(
  job: Job,
  at: number,
  to: number | undefined,
  now: number,
  gate: CalendarGate | undefined,
): Error | undefined {
  if (job.workflowId !== undefined) {
    return new ConflictError(
      `job ${job.id} is the schedule of workflow ${job.workflowId}; its occurrences are changed through the workflow's schedule`,
    );
  }
  if (job.scheduleType === 'NONE') {
    return new ValidationError(
      `job ${job.id} has no schedule (scheduleType NONE): no occurrence to change`,
      'time',
    );
  }
  const schedule = scheduleOf(job);
  const anchor = firstUnplanned(job, now, gate);
  if (anchor === null) {
    return new ValidationError(
      job.scheduleType === 'FIX_RATE'
        ? `job ${job.id} is stopped: a FIX_RATE schedule counts from its start, so it has no occurrence to change until started`
        : `job ${job.id}'s schedule fires no more after now`,
      'time',
    );
  }
  const problems: Problem[] = [];
  const place = neighboursOf(schedule, anchor, at);
  if (at <= now || !place.isOccurrence) {
    problems.push({
      field: 'time',
      message: `${iso(at)} is not ${at <= now ? 'a future' : 'a'} fire of job ${job.id}'s schedule; the nearest are ${nearest(place, now)}`,
    });
  }
  if (to !== undefined) {
    if (to <= now) problems.push({ field: 'to', message: `to (${iso(to)}) must be in the future` });
    else if (to === at)
      problems.push({ field: 'to', message: 'to is the occurrence’s own time: nothing to move' });
    else if (place.isOccurrence) {
      const { from, until } = moveWindow(schedule, anchor, at, job.occurrenceExceptions);
      if ((from !== null && to <= from) || (until !== null && to >= until)) {
        problems.push({
          field: 'to',
          message: `to (${iso(to)}) must lie strictly between the fires before and after the occurrence, so the job's fires stay in order: after ${from === null ? 'now' : iso(from)} and before ${until === null ? 'ever' : iso(until)}`,
        });
      }
    }
  }
  const [first, ...rest] = problems;
  if (first) return new RequestValidationError([first, ...rest]);
  return tooLate(job, Math.min(at, to ?? at), now, gate);
}

function isTooLate(job: Job, time: number, now: number, gate: CalendarGate | undefined): boolean {
  return tooLate(job, time, now, gate) !== undefined;
}

function refuseTooLate(job: Job, time: number, now: number, gate: CalendarGate | undefined): void {
  const refusal = tooLate(job, time, now, gate);
  if (refusal) throw refusal;
}

/** A ConflictError when the occurrence is planned already, or so close that it may be any moment. */
function tooLate(
  job: Job,
  time: number,
  now: number,
  gate: CalendarGate | undefined,
): ConflictError | undefined {
  const anchor = firstUnplanned(job, now, gate);
  const planned = job.triggerStatus === 'RUNNING' && anchor !== null && time < anchor;
  if (!planned && time > now + OCCURRENCE_LEAD_MS) return undefined;
  return new ConflictError(
    `too late: the fire at ${iso(time)} is ${planned ? 'planned already' : `less than ${OCCURRENCE_LEAD_MS / 1000} s away and may be planned already`}; only fires after ${iso(Math.max(now + OCCURRENCE_LEAD_MS, anchor ?? 0))} can still be changed`,
  );
}

/**
 * The first occurrence no tick has planned: a running job's next one (the occurrence its stored next
 * fire stands for, and before it the skipped ones the tick stepped over), or a stopped job's first
 * from now (none for a stopped FIX_RATE, which counts from its start).
 */
function firstUnplanned(job: Job, now: number, gate: CalendarGate | undefined): number | null {
  const schedule = scheduleOf(job);
  if (job.triggerStatus !== 'RUNNING' || job.triggerNextTime === null) {
    return schedule.type === 'FIX_RATE' ? null : firstFireTime(schedule, now);
  }
  const exceptions = job.occurrenceExceptions ?? [];
  let anchor = nominalOf(job.triggerNextTime, exceptions);
  const stepped = Math.max(job.triggerLastTime, now);
  for (const e of [...exceptions].reverse()) {
    if (e.action !== 'skip' || e.at >= anchor || e.at <= stepped) continue;
    // Unplanned when nothing fires between it and the stored next fire: every occurrence between
    // is skipped too, or on a day the calendars remove.
    const from = allowedEffectiveFire(schedule, gate, e.at, exceptions);
    if (!('time' in from) || from.time !== job.triggerNextTime) break;
    anchor = e.at;
  }
  return anchor;
}

/**
 * The job with these exceptions (passed ones pruned), its next fire the effective one from its first
 * unplanned occurrence that its calendars (`gate`) allow.
 */
function withExceptions(
  current: Job,
  exceptions: readonly OccurrenceException[],
  now: number,
  gate: CalendarGate | undefined,
): Job {
  const anchor = firstUnplanned(current, now, gate);
  const kept = prunedExceptions(exceptions, now);
  const { occurrenceExceptions: _old, ...rest } = current;
  const running = current.triggerStatus === 'RUNNING' && current.triggerNextTime !== null;
  const next = running ? allowedEffectiveFire(scheduleOf(current), gate, anchor, kept) : undefined;
  return {
    ...rest,
    ...(kept.length === 0 ? {} : { occurrenceExceptions: kept }),
    triggerNextTime: next === undefined ? current.triggerNextTime : 'time' in next ? next.time : null,
    updatedAt: now,
    version: current.version + 1,
  };
}

/**
 * Waits (a few seconds at most) while a tick may be planning the job: a tick that read it before
 * this change would advance it past the changed occurrence without knowing of the change.
 */
async function awaitPlanned(deps: AdminJobsDeps, id: number): Promise<void> {
  const started = deps.clock.now();
  for (;;) {
    const job = await getJob(deps, id);
    const now = deps.clock.now();
    const due =
      job.triggerStatus === 'RUNNING' &&
      job.triggerNextTime !== null &&
      job.triggerNextTime <= now + PRE_READ_MS;
    if (!due || now - started >= PLANNING_WAIT_MS) return;
    await deps.clock.sleep(PLANNING_POLL_MS);
  }
}

function nearest(place: { before: number | null; after: number | null }, now: number): string {
  const before = place.before !== null && place.before > now ? iso(place.before) : 'none ahead';
  return `${before} before and ${place.after === null ? 'none' : iso(place.after)} after`;
}

/** An ISO-8601 instant (with a zone) or epoch ms, as a number; a problem naming `field` otherwise. */
export function parseInstant(value: unknown, field: string): number | Problem {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,16}$/.test(value)) return Number(value);
  if (
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|z|[+-]\d{2}:?\d{2})$/.test(value)
  ) {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  return {
    field,
    message: `${field} must be an ISO-8601 instant with a zone (2030-01-01T09:00:00Z) or epoch milliseconds; got ${JSON.stringify(value)}`,
  };
}

function missing(field: string): Problem {
  return { field, message: `${field} is required: the time to move the occurrence to` };
}

function scheduleOf(job: Job): Schedule {
  return { type: job.scheduleType, conf: job.scheduleConf, timeZone: job.timeZone };
}

function boundsOf(job: Job) {
  return {
    ...(job.startAt === undefined ? {} : { startAt: job.startAt }),
    ...(job.endAt === undefined ? {} : { endAt: job.endAt }),
    ...(job.maxRuns === undefined ? {} : { maxRuns: job.maxRuns }),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
