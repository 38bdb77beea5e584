/**
 * The calendars' use-cases (the /v1/calendars routes): read, create, change and delete with the
 * version read (optimistic concurrency), the days of a range with their reasons, and iCalendar in
 * and out. Nothing is written until the whole input has been checked.
 */
import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../common/clock.js';
import { mapLimit } from '../common/concurrency.js';
import {
  ConflictError,
  NotFoundError,
  type Problem,
  RequestValidationError,
  ValidationError,
} from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import {
  type AdminJobsDeps,
  type CalendarReplan,
  jobsUsingCalendar,
  replanForCalendar,
} from '../jobs/admin-jobs.js';
import type { Page } from '../jobs/job-store.js';
import { CALENDAR_LIMITS, type Calendar, type CalendarDay, type CalendarSpec } from './calendar.js';
import { calendarDays, dayNumber, isIsoDate } from './calendar-rules.js';
import type { CalendarStore } from './calendar-store.js';
import { calendarIdProblem, parseCalendarSpec, rejectProblems } from './calendar-validation.js';
import { calendarToIcs, parseIcs } from './ics.js';

export interface AdminCalendarsDeps {
  readonly calendars: CalendarStore;
  /** The jobs whose schedules name calendars: re-planned when one changes, and a delete's check. */
  readonly jobs: AdminJobsDeps;
  /** Where a job re-planned by a calendar change is recorded; absent: only logged. */
  readonly audit?: Pick<AuditLog, 'append'>;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** Jobs re-planned at once after a calendar change. */
const REPLAN_CONCURRENCY = 8;
/** The jobs a refused delete names (the rest are counted). */
const JOBS_NAMED = 20;

const notFound = (id: string) => new NotFoundError(`no calendar has the id ${id}`);

export async function listCalendars(
  deps: AdminCalendarsDeps,
  query: { readonly limit?: number; readonly cursor?: string },
): Promise<Page<Calendar>> {
  return deps.calendars.list({ limit: query.limit ?? 50, ...(query.cursor ? { cursor: query.cursor } : {}) });
}

export async function getCalendar(deps: AdminCalendarsDeps, id: string): Promise<Calendar> {
  const calendar = await deps.calendars.get(id);
  if (!calendar) throw notFound(id);
  return calendar;
}

/** A new calendar, version 1, under the body's `id` (409 when a calendar has it). */
export async function createCalendar(
  deps: AdminCalendarsDeps,
  input: unknown,
  by: string,
): Promise<Calendar> {
  const { id, spec } = parseNewCalendar(input);
  return store(deps, id, spec, by);
}

/**
 * Replaces a calendar's spec, if it is still at `expectedVersion` (the body's `expectedVersion` or
 * the request's If-Match): 409 otherwise, naming the version it is at.
 */
export async function updateCalendar(
  deps: AdminCalendarsDeps,
  id: string,
  input: unknown,
  expectedVersion: number | undefined,
  by: string,
): Promise<Calendar> {
  const problems: Problem[] = [];
  if (expectedVersion === undefined) {
    problems.push({
      field: 'expectedVersion',
      message: 'expectedVersion (in the body, or an If-Match header) must name the version you read',
    });
  }
  const spec = withProblems(problems, () => parseCalendarSpec(input, ['expectedVersion']));
  rejectProblems(problems);
  const expected = expectedVersion as number;
  const current = await getCalendar(deps, id);
  if (current.version !== expected) throw versionConflict(id, current.version, expected);
  const now = deps.clock.now();
  const next: Calendar = {
    ...current,
    ...(spec as CalendarSpec),
    version: expected + 1,
    updatedAt: now,
    updatedBy: by,
  };
  await deps.calendars.update(next, expected);
  const replanned = await replanJobsOf(deps, next, by);
  deps.logger.info('calendar updated', { calendarId: id, version: next.version, jobsReplanned: replanned });
  return next;
}

/**
 * After a change of `calendar`: every RUNNING job whose schedule names it is re-planned from now
 * (see `replanForCalendar`: its next fire the first allowed after now + 5 s, a new revision, so
 * the fires its old plan put on the ring are dropped), each recorded in the audit log. Returns how
 * many were re-planned.
 */
async function replanJobsOf(deps: AdminCalendarsDeps, calendar: Calendar, by: string): Promise<number> {
  const running = (await jobsUsingCalendar(deps.jobs, calendar.id)).filter(
    (job) => job.triggerStatus === 'RUNNING',
  );
  const replans = await mapLimit(running, REPLAN_CONCURRENCY, (job) =>
    replanForCalendar(deps.jobs, job.id, calendar.id),
  );
  const done = replans.filter((r): r is CalendarReplan => r !== undefined);
  await Promise.all(done.map((replan) => recordReplan(deps, replan, calendar, by)));
  return done.length;
}

/** A job re-planned by a calendar change, as the scheduler's own change (a failed write is logged, not thrown). */
async function recordReplan(
  deps: AdminCalendarsDeps,
  { before, after }: CalendarReplan,
  calendar: Calendar,
  by: string,
): Promise<void> {
  if (!deps.audit) return;
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  try {
    await deps.audit.append({
      at: after.updatedAt,
      actor: { kind: 'system', id: 'scheduler', name: 'scheduler' },
      source: { ip: '', userAgent: 'tickring calendar change' },
      action: 'job.calendarReplan',
      target: `job#${after.id}`,
      appName: after.appName,
      changes: {
        triggerNextTime: { before: iso(before.triggerNextTime), after: iso(after.triggerNextTime) },
        scheduleRevision: { before: before.scheduleRevision, after: after.scheduleRevision },
        ...(after.triggerStatus === before.triggerStatus
          ? {}
          : { triggerStatus: { before: before.triggerStatus, after: after.triggerStatus } }),
      },
      detail: { calendarId: calendar.id, calendarVersion: calendar.version, changedBy: by },
      requestId: `calendar-${calendar.id}-${calendar.version}-job-${after.id}`,
    });
  } catch (err) {
    deps.logger.error('audit write failed: calendar re-plan not recorded', { jobId: after.id, err });
  }
}

/** Deletes a calendar at `expectedVersion` (none given: the version read just now). */
export async function deleteCalendar(
  deps: AdminCalendarsDeps,
  id: string,
  expectedVersion: number | undefined,
): Promise<void> {
  const current = await getCalendar(deps, id);
  const expected = expectedVersion ?? current.version;
  if (current.version !== expected) throw versionConflict(id, current.version, expected);
  const using = await jobsUsingCalendar(deps.jobs, id);
  if (using.length > 0) {
    const named = using.slice(0, JOBS_NAMED).map((job) => `${job.id} (${job.name})`);
    const more = using.length > JOBS_NAMED ? ` and ${using.length - JOBS_NAMED} more` : '';
    throw new ConflictError(
      `calendar ${id} is named by the schedule of job${using.length > 1 ? 's' : ''} ${named.join(', ')}${more}; take it out of their calendars first`,
    );
  }
  await deps.calendars.delete(id, expected);
  deps.logger.info('calendar deleted', { calendarId: id, version: expected });
}

/** The days from `from` to `to` (both included, at most a leap year's), each allowed or not and why. */
export async function listCalendarDays(
  deps: AdminCalendarsDeps,
  id: string,
  from: unknown,
  to: unknown,
): Promise<{ calendar: Calendar; days: CalendarDay[] }> {
  const problems: Problem[] = [];
  for (const [field, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (!isIsoDate(value)) {
      problems.push({
        field,
        message: `${field} must be a date written YYYY-MM-DD; got ${JSON.stringify(value)}`,
      });
    }
  }
  if (problems.length === 0) {
    const span = dayNumber(to as string) - dayNumber(from as string) + 1;
    if (span < 1) problems.push({ field: 'to', message: `to ${to} is before from ${from}` });
    if (span > CALENDAR_LIMITS.daysPerRequest) {
      problems.push({
        field: 'to',
        message: `${from}..${to} is ${span} days; ask for at most ${CALENDAR_LIMITS.daysPerRequest} at a time`,
      });
    }
  }
  rejectProblems(problems);
  const calendar = await getCalendar(deps, id);
  return { calendar, days: calendarDays(calendar, from as string, to as string) };
}

/** What an import is asked: the text and the new calendar's id, and fields that win over the text's. */
export interface CalendarImport {
  readonly ics: unknown;
  readonly id: unknown;
  readonly name?: unknown;
  readonly description?: unknown;
  readonly timeZone?: unknown;
  readonly workingDays?: unknown;
}

const IMPORT_FIELDS = ['ics', 'id', 'name', 'description', 'timeZone', 'workingDays'];

/** The request body of an import: `{ics, id, ...}` (JSON), or the text itself with the rest from the query. */
export function calendarImportOf(
  body: unknown,
  query: Readonly<Record<string, string | undefined>>,
): CalendarImport {
  if (typeof body === 'string') {
    return {
      ics: body,
      id: query.id,
      ...(query.name === undefined ? {} : { name: query.name }),
      ...(query.timeZone === undefined ? {} : { timeZone: query.timeZone }),
    };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError(
      'body must be {ics, id, ...} (JSON) or an iCalendar text (text/calendar)',
      'body',
    );
  }
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).filter((field) => !IMPORT_FIELDS.includes(field));
  rejectProblems(
    unknown.map((field) => ({
      field,
      message: `${field} is not a field of an import (use ${IMPORT_FIELDS.join(', ')})`,
    })),
  );
  return record as unknown as CalendarImport;
}

/**
 * A new calendar from an iCalendar text (see ics.ts): the request's name, time zone and working days
 * win over the text's (X-WR-CALNAME, X-WR-TIMEZONE, X-TICKRING-WORKING-DAYS). Checked as a whole
 * before anything is written; `notes` says what was left out or merged.
 */
export async function importCalendar(
  deps: AdminCalendarsDeps,
  request: CalendarImport,
  by: string,
): Promise<{ calendar: Calendar; notes: readonly string[] }> {
  const problems: Problem[] = [];
  const idProblem = calendarIdProblem(request.id);
  if (idProblem) problems.push(idProblem);
  if (typeof request.ics !== 'string') {
    problems.push({ field: 'ics', message: 'ics must be the iCalendar (.ics) text' });
  }
  rejectProblems(problems);
  const content = parseIcs(request.ics as string, deps.clock.now());
  const spec = parseCalendarSpec({
    name: request.name ?? content.name ?? request.id,
    ...defined('description', request.description ?? content.description),
    ...defined('timeZone', request.timeZone ?? content.timeZone),
    ...defined('workingDays', request.workingDays ?? content.workingDays),
    excluded: content.excluded,
    included: content.included,
  });
  const calendar = await store(deps, request.id as string, spec, by);
  return { calendar, notes: content.notes };
}

/** The calendar as an iCalendar text. */
export async function exportCalendar(
  deps: AdminCalendarsDeps,
  id: string,
): Promise<{ calendar: Calendar; ics: string }> {
  const calendar = await getCalendar(deps, id);
  return { calendar, ics: calendarToIcs(calendar) };
}

function parseNewCalendar(input: unknown): { id: string; spec: CalendarSpec } {
  const problems: Problem[] = [];
  const id = typeof input === 'object' && input !== null ? (input as Record<string, unknown>).id : undefined;
  const idProblem = calendarIdProblem(id);
  if (idProblem) problems.push(idProblem);
  const spec = withProblems(problems, () => parseCalendarSpec(input, ['id']));
  rejectProblems(problems);
  return { id: id as string, spec: spec as CalendarSpec };
}

async function store(
  deps: AdminCalendarsDeps,
  id: string,
  spec: CalendarSpec,
  by: string,
): Promise<Calendar> {
  const now = deps.clock.now();
  const calendar: Calendar = { id, ...spec, version: 1, createdAt: now, updatedAt: now, updatedBy: by };
  await deps.calendars.create(calendar);
  deps.logger.info('calendar created', {
    calendarId: id,
    excluded: spec.excluded.length,
    included: spec.included.length,
  });
  return calendar;
}

/** Runs a parse, adding its problems to `problems` instead of throwing them (so all are reported together). */
function withProblems<T>(problems: Problem[], parse: () => T): T | undefined {
  try {
    return parse();
  } catch (err) {
    if (!(err instanceof RequestValidationError)) throw err;
    problems.push(...err.problems);
    return undefined;
  }
}

function versionConflict(id: string, current: number, expected: number): ConflictError {
  return new ConflictError(
    `calendar ${id} is at version ${current}, not ${expected}: it was changed meanwhile; read it again and retry`,
  );
}

const defined = (field: string, value: unknown) => (value === undefined ? {} : { [field]: value });
