/**
 * Reading and checking what an admin sends for a job or an executor group: XXL-JOB's rules (name,
 * author, schedule, BEAN handler, enum names, child ids, AppName 4-64) plus ours (no unknown fields,
 * integers only, e-mail and webhook formats, no child cycles). Every error names its field.
 */
import { CALENDAR_ID } from '../calendars/calendar.js';
import {
  allowedFireFrom,
  type CalendarGate,
  MAX_CALENDARS_PER_LIST,
  SCHEDULE_CALENDAR_LISTS,
  type ScheduleCalendars,
} from '../calendars/calendar-schedule.js';
import {
  ConflictError,
  type Problem,
  problemsOf,
  RequestValidationError,
  ValidationError,
} from '../common/errors.js';
import { parseRouteStrategy } from '../dispatch/routing/index.js';
import {
  firstBoundedFire,
  MAX_JITTER_SECONDS,
  MISFIRE_STRATEGIES,
  SCHEDULE_TYPES,
  type Schedule,
  type ScheduleBounds,
  smallestInterval,
  validateSchedule,
} from '../schedule/index.js';
import { deadlineProblems } from './deadline.js';
import { failurePolicyProblems } from './failure-policy.js';
import {
  ADDRESS_TYPES,
  BLOCK_STRATEGIES,
  GLUE_TYPES,
  type Group,
  type Job,
  TRIGGER_STATUSES,
} from './job.js';
import { logRetentionProblems } from './log-retention.js';

/** The fields an admin sets; everything else on a job is kept by the system. */
export const JOB_EDITABLE_FIELDS = [
  'appName',
  'name',
  'author',
  'alarmEmail',
  'alarmWebhook',
  'alertChannels',
  'scheduleType',
  'scheduleConf',
  'timeZone',
  'misfireStrategy',
  'startAt',
  'endAt',
  'maxRuns',
  'jitterSeconds',
  'failurePolicy',
  'deadline',
  'calendars',
  'logRetentionDays',
  'keepSuccessfulRuns',
  'executorRouteStrategy',
  'executorHandler',
  'executorParam',
  'executorBlockStrategy',
  'executorTimeout',
  'executorFailRetryCount',
  'retryBackoffSeconds',
  'glueType',
  'glueSource',
  'childJobIds',
  'triggerStatus',
] as const satisfies readonly (keyof Job)[];

export type JobSpec = Pick<Job, (typeof JOB_EDITABLE_FIELDS)[number]>;

/**
 * Fields the API shows but the system owns. A body may carry them (so a job read with GET can be
 * sent back with PUT) and they are ignored, except that the use-case checks `id` and `version`.
 */
export const JOB_READ_ONLY_FIELDS = [
  'id',
  'triggerNextTime',
  'triggerLastTime',
  'glueUpdatetime',
  'scheduleRevision',
  'createdAt',
  'updatedAt',
  'version',
  'workflowId',
  'scheduleEnded',
  'pausedBy',
  'deadlineSetAt',
  'occurrenceExceptions',
] as const satisfies readonly (keyof Job)[];

/** What the API shows of a job beside its fields (`runsRemaining`): a body may carry it back too. */
export const JOB_VIEW_ONLY_FIELDS = ['runsRemaining', 'deadlineStatus', 'retention'] as const;

/** XXL-JOB's defaults, plus ours (time zone, retry backoff, webhook). */
export const JOB_DEFAULTS: Omit<JobSpec, 'appName' | 'name' | 'author'> = {
  alarmEmail: '',
  alarmWebhook: '',
  scheduleType: 'NONE',
  scheduleConf: '',
  timeZone: 'UTC',
  misfireStrategy: 'DO_NOTHING',
  jitterSeconds: 0,
  executorRouteStrategy: 'FIRST',
  executorHandler: '',
  executorParam: '',
  executorBlockStrategy: 'SERIAL_EXECUTION',
  executorTimeout: 0,
  executorFailRetryCount: 0,
  retryBackoffSeconds: 10,
  glueType: 'BEAN',
  glueSource: '',
  childJobIds: [],
  triggerStatus: 'STOPPED',
};

/** Length limits: XXL-JOB's columns and UI checks, and what fits a DynamoDB item. */
export const JOB_LIMITS = {
  appName: 64,
  name: 255,
  author: 64,
  alarmEmail: 512,
  alarmWebhook: 2048,
  scheduleConf: 128,
  timeZone: 64,
  executorHandler: 255,
  executorParam: 2048,
  glueSource: 100_000,
  childJobIds: 100,
} as const;

/** MySQL INT, XXL-JOB's column type for timeout and retry count. */
const MAX_INT = 2_147_483_647;

/** The spec without the fields that had a problem (their cross-checks would only repeat it). */
function withoutFields(spec: JobSpec, problems: readonly Problem[]): JobSpec {
  const out: Record<string, unknown> = { ...spec };
  for (const p of problems) if (p.field !== undefined) delete out[p.field];
  return out as unknown as JobSpec;
}

export interface ParseJobOptions {
  /** Now, where the schedule's intervals are looked at from (jitter); the wall clock when absent. */
  readonly nowMs?: number;
  /** The job being updated; absent when creating (the defaults fill what is not given). */
  readonly base?: JobSpec;
  /** The job's id when it has one, so it cannot be its own child. */
  readonly id?: number;
}

/**
 * Reads a create or update body: the fields given are laid over `base` (or the defaults) and the
 * result is checked as a whole. Unknown fields are refused, so a typo does not go unnoticed. Every
 * problem found is answered at once (one RequestValidationError), not the first alone: a field that
 * could not be read is left out of the checks that would only repeat it.
 */
export function parseJobSpec(input: unknown, options: ParseJobOptions = {}): JobSpec {
  const problems: Problem[] = [];
  const body = resolveJobAliases(requireObject(input), problems);
  const unknown = Object.keys(body).filter(
    (key) =>
      !isOneOf(key, JOB_EDITABLE_FIELDS) &&
      !isOneOf(key, JOB_READ_ONLY_FIELDS) &&
      !isOneOf(key, JOB_VIEW_ONLY_FIELDS),
  );
  problems.push(...unknownFieldProblems(unknown, 'job', JOB_EDITABLE_FIELDS));
  const given: Partial<Record<keyof JobSpec, unknown>> = {};
  for (const field of JOB_EDITABLE_FIELDS) {
    if (body[field] === undefined) continue;
    try {
      given[field] = readJobField(field, body[field]);
    } catch (err) {
      if (err instanceof RequestValidationError) problems.push(...err.problems);
      else if (err instanceof ValidationError)
        problems.push({ field: err.field ?? field, message: err.message });
      else throw err;
    }
  }
  const base = options.base;
  if (!base) {
    for (const field of ['appName', 'name', 'author'] as const) {
      if (body[field] === undefined && !refused(problems, field)) {
        problems.push({ field, message: `${field} is required` });
      }
    }
  }
  const spec = { ...JOB_DEFAULTS, ...base, ...given } as JobSpec;
  if (
    given.scheduleType === undefined &&
    body.scheduleType === undefined &&
    given.scheduleConf !== undefined &&
    spec.scheduleType === 'NONE' &&
    spec.scheduleConf.trim() !== ''
  ) {
    // Never a NONE job that silently keeps a schedule text.
    problems.push({
      field: 'scheduleType',
      message:
        'scheduleType is required when scheduleConf is given: CRON for a Quartz cron expression, FIX_RATE ' +
        'for a number of seconds, ONCE for an instant (or NONE with an empty scheduleConf)',
    });
  }
  validateJobSpec(spec, options.id, options.nowMs, problems);
  return withoutUndefined(spec);
}

/** The fields that bound a schedule or delay its fires. */
export const BOUND_FIELDS = [
  'startAt',
  'endAt',
  'maxRuns',
  'jitterSeconds',
] as const satisfies readonly (keyof JobSpec)[];

/** `T` with its fields that may be undefined made optional instead (and never undefined). */
export type DefinedOnly<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/** A job's fields without the ones set to undefined (a bound cleared with null). */
export function withoutUndefined<T extends object>(value: T): DefinedOnly<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as DefinedOnly<T>;
}

/** The bounds of a job's schedule, as the schedule module reads them. */
export function boundsOf(job: Pick<Job, 'startAt' | 'endAt' | 'maxRuns'>): ScheduleBounds {
  return withoutUndefined({ startAt: job.startAt, endAt: job.endAt, maxRuns: job.maxRuns });
}

/**
 * What is wrong with a job's bounds and jitter taken together: endAt not after startAt, a jitter as
 * large as the schedule's smallest interval (a fire would then pass the next one). Each problem
 * names its field. `nowMs`: where a cron's intervals are looked at from.
 */
export function boundsProblems(
  job: Pick<JobSpec, 'scheduleType' | 'scheduleConf' | 'timeZone' | 'startAt' | 'endAt' | 'jitterSeconds'>,
  nowMs: number,
): Problem[] {
  const problems: Problem[] = [];
  const { startAt, endAt, jitterSeconds = 0 } = job;
  if (startAt !== undefined && endAt !== undefined && endAt <= startAt) {
    problems.push({
      field: 'endAt',
      message: `endAt (${isoOf(endAt)}) must be after startAt (${isoOf(startAt)})`,
    });
  }
  if (jitterSeconds > 0) {
    let intervalMs: number | undefined;
    try {
      intervalMs = smallestInterval(scheduleOf(job), Math.max(nowMs, startAt ?? nowMs));
    } catch (err) {
      // A schedule that cannot be read has its own problem; its jitter is not judged.
      if (!(err instanceof ValidationError)) throw err;
    }
    if (intervalMs !== undefined && jitterSeconds * 1000 >= intervalMs) {
      problems.push({
        field: 'jitterSeconds',
        message: `jitterSeconds must be less than the schedule's smallest interval between fires (${intervalMs / 1000} s${job.scheduleType === 'CRON' ? ' over the next year' : ''}), so fires keep their order; got ${jitterSeconds}`,
      });
    }
  }
  return problems;
}

const isoOf = (ms: number) => new Date(ms).toISOString();

/**
 * {@link boundsProblems} of a request body as given (the fields it carries, well-formed ones only),
 * for the API's schema check: a 400 then lists them beside the body's other problems.
 */
export function bodyBoundsProblems(
  body: Readonly<Record<string, unknown>>,
  nowMs: number = Date.now(),
): Problem[] {
  const read = <T>(field: string, reader: () => T): T | undefined => {
    try {
      return body[field] === undefined || body[field] === null ? undefined : reader();
    } catch (err) {
      if (err instanceof ValidationError) return undefined;
      throw err;
    }
  };
  const startAt = read('startAt', () => readInstant('startAt', body.startAt));
  const endAt = read('endAt', () => readInstant('endAt', body.endAt));
  const jitterSeconds = read('jitterSeconds', () =>
    readInt('jitterSeconds', body.jitterSeconds, 0, MAX_JITTER_SECONDS),
  );
  const scheduleType = read('scheduleType', () =>
    readEnum('scheduleType', body.scheduleType, SCHEDULE_TYPES),
  );
  const scheduleConf = typeof body.scheduleConf === 'string' ? body.scheduleConf : undefined;
  const timeZone = typeof body.timeZone === 'string' ? body.timeZone.trim() : 'UTC';
  // The jitter is judged against the schedule only when the body gives both.
  const schedule =
    jitterSeconds !== undefined && scheduleType !== undefined && scheduleConf !== undefined
      ? { scheduleType, scheduleConf, timeZone, jitterSeconds }
      : { scheduleType: 'NONE' as const, scheduleConf: '', timeZone: 'UTC' };
  return boundsProblems(withoutUndefined({ ...schedule, startAt, endAt }), nowMs);
}

/** XXL-JOB's names for job fields, as users paste them from its console or API, and tickring's. */
export const JOB_FIELD_ALIASES = { jobDesc: 'name', jobGroup: 'appName', childJobId: 'childJobIds' } as const;

/**
 * The groups a job body names: `appName`, and XXL-JOB's `jobGroup`, which means the same (both
 * when they differ: the body is then refused, but whoever checks access must check each).
 */
export function groupsNamedIn(body: Readonly<Record<string, unknown>>): string[] {
  const names = [body.appName, body.jobGroup].filter((v): v is string => typeof v === 'string');
  return [...new Set(names)];
}

/** The body with XXL-JOB's field names replaced by tickring's; an alias contradicting its field is refused. */
function resolveJobAliases(body: Record<string, unknown>, problems: Problem[]): Record<string, unknown> {
  const out = { ...body };
  for (const [alias, field] of Object.entries(JOB_FIELD_ALIASES)) {
    if (!(alias in out)) continue;
    let value = out[alias];
    delete out[alias];
    if (alias === 'jobGroup' && typeof value !== 'string') {
      problems.push({
        field: alias,
        message: `jobGroup must be the group's appName: tickring names groups by appName (XXL-JOB's numeric group id has no meaning here); got ${describe(value)}`,
      });
      continue;
    }
    if (alias === 'childJobId') {
      try {
        value = readChildIdList(alias, value);
      } catch (err) {
        if (!(err instanceof ValidationError)) throw err;
        problems.push(...problemsOf(err));
        continue;
      }
    }
    if (out[field] !== undefined && JSON.stringify(out[field]) !== JSON.stringify(value)) {
      problems.push({
        field: alias,
        message: `${alias} is XXL-JOB's name for ${field}, and the two differ; give one of them`,
      });
      continue;
    }
    out[field] = value;
  }
  return out;
}

/** A problem per unknown field, the first listing the fields there are (once, not per typo). */
function unknownFieldProblems(
  unknown: readonly string[],
  what: string,
  fields: readonly string[],
): Problem[] {
  return unknown.map((key, i) => ({
    field: key,
    message:
      i === 0
        ? `unknown field "${key}"; the ${what} fields are ${fields.join(', ')}`
        : `unknown field "${key}"`,
  }));
}

/** Whether `field` has a problem already, under its own name or XXL-JOB's (a later check would only repeat it). */
function refused(problems: readonly Problem[], field: string): boolean {
  return problems.some(
    (p) =>
      p.field === field ||
      (p.field !== undefined && (JOB_FIELD_ALIASES as Record<string, string>)[p.field] === field),
  );
}

/** XXL-JOB's `childJobId`: job ids separated by commas (an array is taken too). */
function readChildIdList(field: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const ids = parts.map(Number);
  if (ids.some((id) => !Number.isSafeInteger(id) || id < 1)) {
    throw new ValidationError(
      `${field} must be job ids separated by commas (e.g. "3,4"); got ${describe(value)}`,
      field,
    );
  }
  return ids;
}

/**
 * The checks that need the whole job; `parseJobSpec` runs them. Throws one RequestValidationError
 * with the `earlier` problems (found reading the fields) and every one these checks find, leaving out
 * a check of a field that has a problem already (the schedule's, when its type, text or zone has one).
 */
export function validateJobSpec(
  spec: JobSpec,
  id?: number,
  nowMs: number = Date.now(),
  earlier: readonly Problem[] = [],
): void {
  const problems: Problem[] = [...earlier];
  const flagged = (field: string) => refused(problems, field);
  for (const field of ['appName', 'name', 'author'] as const) {
    if (!flagged(field) && spec[field].trim() === '')
      problems.push({ field, message: `${field} is required` });
  }
  const scheduleFields = ['scheduleType', 'scheduleConf', 'timeZone'];
  let scheduleOk = !scheduleFields.some(flagged);
  if (scheduleOk) {
    try {
      checkSchedule(scheduleOf(spec));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      problems.push(...problemsOf(err));
      scheduleOk = false;
    }
  }
  // The bounds without the fields already refused; the jitter only against a schedule that can be read.
  const bounds = withoutFields(spec, problems);
  problems.push(...boundsProblems(scheduleOk ? bounds : { ...bounds, jitterSeconds: 0 }, nowMs));
  // A glueType that could not be read is no BEAN job (the default BEAN stands in for it only here).
  if (
    !flagged('executorHandler') &&
    !flagged('glueType') &&
    spec.glueType === 'BEAN' &&
    spec.executorHandler.trim() === ''
  ) {
    problems.push({ field: 'executorHandler', message: 'executorHandler is required when glueType is BEAN' });
  }
  if (id !== undefined && !flagged('childJobIds') && spec.childJobIds.includes(id)) {
    problems.push({ field: 'childJobIds', message: `childJobIds must not contain the job's own id ${id}` });
  }
  const [first, ...rest] = problems;
  if (first) throw new RequestValidationError([first, ...rest]);
}

function readJobField(field: keyof JobSpec, value: unknown): unknown {
  switch (field) {
    case 'appName':
    case 'executorHandler':
      return readString(field, value, JOB_LIMITS[field]).trim();
    case 'name':
    case 'author':
    case 'scheduleConf':
    case 'executorParam':
    case 'glueSource':
      return readString(field, value, JOB_LIMITS[field]);
    case 'timeZone':
      return readString(field, value, JOB_LIMITS.timeZone).trim();
    case 'alarmEmail':
      return readEmails(field, value);
    case 'alarmWebhook':
      return readOptionalUrl(field, value, JOB_LIMITS.alarmWebhook);
    case 'scheduleType':
      return readEnum(field, value, SCHEDULE_TYPES);
    case 'misfireStrategy':
      return readEnum(field, value, MISFIRE_STRATEGIES);
    case 'executorRouteStrategy':
      return parseRouteStrategy(value, field);
    case 'executorBlockStrategy':
      return readEnum(field, value, BLOCK_STRATEGIES);
    case 'glueType':
      return readEnum(field, value, GLUE_TYPES);
    case 'triggerStatus':
      return readEnum(field, value, TRIGGER_STATUSES);
    case 'executorTimeout':
    case 'executorFailRetryCount':
    case 'retryBackoffSeconds':
      return readInt(field, value, 0, MAX_INT);
    case 'childJobIds':
      return readChildIds(value);
    case 'failurePolicy':
      return readChecked(value, failurePolicyProblems(value, field));
    case 'deadline':
      return readChecked(value, deadlineProblems(value, field));
    case 'startAt':
    case 'endAt':
    case 'maxRuns':
    case 'jitterSeconds':
      return readBoundField(field, value);
    case 'calendars':
      return readScheduleCalendars(value);
    case 'logRetentionDays':
    case 'keepSuccessfulRuns':
      return readChecked(value, logRetentionProblems({ [field]: value }));
    case 'alertChannels':
      return readAlertChannels(value);
  }
}

/** Most alert channels one job names. */
export const MAX_JOB_ALERT_CHANNELS = 10;

/** A job's (or group's) alert channels: ids, each once; null: undefined (a job's: its group's); []: none at all. */
function readAlertChannels(value: unknown, nullMeans = "the group's"): readonly string[] | undefined {
  const field = 'alertChannels';
  if (value === null) return undefined;
  if (!Array.isArray(value) || value.length > MAX_JOB_ALERT_CHANNELS) {
    throw new ValidationError(
      `${field} must be an array of at most ${MAX_JOB_ALERT_CHANNELS} alert channel ids (null: ${nullMeans}); got ${describe(value)}`,
      field,
    );
  }
  const problems: Problem[] = [];
  const ids: string[] = [];
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string' || item.trim() === '' || item.length > 200) {
      problems.push({ field, message: `${field}[${i}] must be an alert channel id; got ${describe(item)}` });
    } else if (ids.includes(item)) problems.push({ field, message: `${field} lists channel ${item} twice` });
    else ids.push(item);
  }
  const [first, ...rest] = problems;
  if (first) throw new RequestValidationError([first, ...rest]);
  return ids;
}

/** null clears the field (undefined); anything else must have no problem (all of them in one error). */
function readChecked(value: unknown, problems: readonly Problem[]): unknown {
  if (value === null) return undefined;
  const [first, ...rest] = problems;
  if (first) throw new RequestValidationError([first, ...rest]);
  return value;
}

/** A bound or the jitter as given: null clears a bound (undefined); instants are ISO-8601 with a zone. */
export function readBoundField(field: (typeof BOUND_FIELDS)[number], value: unknown): unknown {
  switch (field) {
    case 'startAt':
    case 'endAt':
      return value === null ? undefined : readInstant(field, value);
    case 'maxRuns':
      if (value === null) return undefined;
      return readInt(field, value, 1, MAX_INT);
    case 'jitterSeconds':
      return readInt(field, value, 0, MAX_JITTER_SECONDS);
  }
}

/**
 * A schedule's calendars: `{only?, exclude?}`, each a list of calendar ids (at most
 * MAX_CALENDARS_PER_LIST, each once); null, `{}` or empty lists: none (the field is dropped). Every
 * problem at once, each named `calendars.<list>`.
 */
export function readScheduleCalendars(value: unknown): ScheduleCalendars | undefined {
  if (value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ValidationError(
      `calendars must be an object {only?: [calendar ids], exclude?: [calendar ids]} (null for none); got ${describe(value)}`,
      'calendars',
    );
  }
  const record = value as Record<string, unknown>;
  const problems: Problem[] = Object.keys(record)
    .filter((key) => !isOneOf(key, SCHEDULE_CALENDAR_LISTS))
    .map((key) => ({
      field: `calendars.${key}`,
      message: `calendars.${key} is not a list of calendars (use only, exclude)`,
    }));
  const out: { only?: string[]; exclude?: string[] } = {};
  for (const list of SCHEDULE_CALENDAR_LISTS) {
    const ids = record[list];
    if (ids === undefined || ids === null) continue;
    const field = `calendars.${list}`;
    if (!Array.isArray(ids)) {
      problems.push({ field, message: `${field} must be an array of calendar ids; got ${describe(ids)}` });
      continue;
    }
    if (ids.length > MAX_CALENDARS_PER_LIST) {
      problems.push({
        field,
        message: `${field} may name at most ${MAX_CALENDARS_PER_LIST} calendars; got ${ids.length}`,
      });
    }
    const bad = ids.filter((id) => typeof id !== 'string' || !CALENDAR_ID.test(id));
    if (bad.length > 0) {
      problems.push({
        field,
        message: `${field} must hold calendar ids (lower-case letters, digits and '-'); not ${bad.map(describe).join(', ')}`,
      });
    }
    const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
    if (twice.length > 0) {
      problems.push({
        field,
        message: `${field} names ${[...new Set(twice)].map(describe).join(', ')} twice`,
      });
    }
    if (ids.length > 0) out[list] = ids as string[];
  }
  const [first, ...rest] = problems;
  if (first) throw new RequestValidationError([first, ...rest]);
  return out.only === undefined && out.exclude === undefined ? undefined : out;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

function readInstant(field: string, value: unknown): number {
  const ms = typeof value === 'string' && ISO_INSTANT.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new ValidationError(
      `${field} must be an ISO-8601 instant with Z or an offset, such as 2030-01-01T00:00:00Z (null for none); got ${describe(value)}`,
      field,
    );
  }
  return ms;
}

/** `validateSchedule`, with the field named in the message too (e.g. "scheduleConf: Invalid cron ..."). */
export function checkSchedule(schedule: Schedule): void {
  try {
    validateSchedule(schedule);
  } catch (err) {
    if (err instanceof ValidationError && err.field && !err.message.includes(err.field)) {
      throw new ValidationError(`${err.field}: ${err.message}`, err.field, { cause: err });
    }
    throw err;
  }
}

/** The schedule part of a job, as the schedule module reads it. */
export function scheduleOf(job: Pick<Job, 'scheduleType' | 'scheduleConf' | 'timeZone'>): Schedule {
  return { type: job.scheduleType, conf: job.scheduleConf, timeZone: job.timeZone };
}

type ScheduleFields = Pick<
  Job,
  'scheduleType' | 'scheduleConf' | 'timeZone' | 'startAt' | 'endAt' | 'maxRuns' | 'calendars'
>;

/**
 * Whether the schedule, its bounds or its calendars differ: each re-plans a running job from now,
 * and fires already planned under the old ones are dropped (none passes a new endAt or a lowered
 * maxRuns, none falls on a day a new calendar removes).
 */
export function scheduleChanged(a: ScheduleFields, b: ScheduleFields): boolean {
  return (
    a.scheduleType !== b.scheduleType ||
    a.scheduleConf !== b.scheduleConf ||
    a.timeZone !== b.timeZone ||
    a.startAt !== b.startAt ||
    a.endAt !== b.endAt ||
    a.maxRuns !== b.maxRuns ||
    !sameCalendars(a.calendars, b.calendars)
  );
}

function sameCalendars(a: ScheduleCalendars | undefined, b: ScheduleCalendars | undefined): boolean {
  const key = (c: ScheduleCalendars | undefined) => JSON.stringify([c?.only ?? [], c?.exclude ?? []]);
  return key(a) === key(b);
}

/**
 * The first fire of a job being started (XXL-JOB: the first fire after now + 5 s), within its
 * bounds (`scheduledFires`: what its maxRuns has counted). A schedule that never fires cannot be
 * started, as in XXL-JOB (400); nor one whose bounds are used up (409: endAt passed, maxRuns
 * reached), unless the same update changes them.
 */
export function firstFireForStart(
  job: ScheduleFields & Pick<Job, 'scheduledFires'>,
  nowMs: number,
  gate?: CalendarGate,
): number {
  if (job.scheduleType === 'NONE') {
    throw new ValidationError(
      'scheduleType NONE cannot be started; it only runs when triggered manually, by the API or as a child job',
      'scheduleType',
    );
  }
  const counted = job.scheduledFires ?? 0;
  const first = firstBoundedFire(scheduleOf(job), boundsOf(job), counted, nowMs);
  if ('time' in first) return gate ? firstAllowedForStart(job, first.time, gate) : first.time;
  switch (first.none) {
    case 'maxRuns':
      throw new ConflictError(
        `maxRuns ${job.maxRuns} is used up (${counted} scheduled fires made), so the job cannot be started; raise maxRuns, or set it to null, in the same update`,
      );
    case 'endAt':
      throw new ConflictError(
        `the schedule has no fire between now and endAt (${isoOf(job.endAt ?? 0)}), so the job cannot be started; move endAt, or set it to null, in the same update`,
      );
    case 'noNextFire':
    case 'calendar':
      throw new ValidationError(
        `the schedule never fires after ${job.startAt !== undefined && job.startAt > nowMs ? `startAt (${isoOf(job.startAt)})` : 'now'} (scheduleType ${job.scheduleType}, scheduleConf ${JSON.stringify(job.scheduleConf)}), so the job cannot be started`,
        'scheduleConf',
      );
  }
}

/** The first fire from `first` the job's calendars allow, within its endAt; refused as a start without one. */
function firstAllowedForStart(job: ScheduleFields, first: number, gate: CalendarGate): number {
  const allowed = allowedFireFrom(scheduleOf(job), gate, first);
  if (!('time' in allowed)) {
    throw new ValidationError(
      `the schedule has no fire on a day its calendars allow (${describeCalendars(job.calendars)}) within ${CALENDAR_SEARCH_YEARS} years, so the job cannot be started; change the calendars or the schedule`,
      'calendars',
    );
  }
  if (job.endAt !== undefined && allowed.time > job.endAt) {
    throw new ConflictError(
      `the schedule has no fire on a day its calendars allow between now and endAt (${isoOf(job.endAt)}), so the job cannot be started; move endAt, or change the calendars, in the same update`,
    );
  }
  return allowed.time;
}

const CALENDAR_SEARCH_YEARS = 5;

/** A schedule's calendars in words: `only: cn-workdays; exclude: cn-holidays`. */
export function describeCalendars(calendars: ScheduleCalendars | undefined): string {
  return SCHEDULE_CALENDAR_LISTS.filter((list) => (calendars?.[list]?.length ?? 0) > 0)
    .map((list) => `${list}: ${calendars?.[list]?.join(', ')}`)
    .join('; ');
}

/**
 * Looks for a cycle through `jobId` when its children become `children`, walking childJobIds
 * breadth-first with `loadChildren` (ids → their childJobIds; missing ids are left out).
 * Returns the cycle as ids, e.g. [1, 2, 1], or undefined.
 */
export async function findChildCycle(
  jobId: number,
  children: readonly number[],
  loadChildren: (ids: number[]) => Promise<ReadonlyMap<number, readonly number[]>>,
): Promise<number[] | undefined> {
  const parent = new Map<number, number>();
  let frontier: number[] = [];
  for (const child of new Set(children)) {
    if (child === jobId) return [jobId, jobId];
    parent.set(child, jobId);
    frontier.push(child);
  }
  while (frontier.length > 0) {
    const loaded = await loadChildren(frontier);
    const next: number[] = [];
    for (const id of frontier) {
      for (const child of loaded.get(id) ?? []) {
        if (child === jobId) return pathTo(id, parent, jobId);
        if (parent.has(child)) continue;
        parent.set(child, id);
        next.push(child);
      }
    }
    frontier = next;
  }
  return undefined;
}

function pathTo(last: number, parent: ReadonlyMap<number, number>, root: number): number[] {
  const path = [last];
  for (let at = last; at !== root; ) {
    at = parent.get(at) ?? root;
    path.unshift(at);
  }
  return [...path, root];
}

// ---------------------------------------------------------------------------------------------
// Executor groups

export const GROUP_EDITABLE_FIELDS = [
  'appName',
  'title',
  'addressType',
  'addressList',
  'alertChannels',
] as const satisfies readonly (keyof Group)[];
export const GROUP_READ_ONLY_FIELDS = [
  'accessTokenSetAt',
  'createdAt',
  'updatedAt',
] as const satisfies readonly (keyof Group)[];
export type GroupSpec = Pick<Group, (typeof GROUP_EDITABLE_FIELDS)[number]>;

export const GROUP_LIMITS = {
  appNameMin: 4,
  appName: 64,
  title: 64,
  addressList: 100,
  address: 2048,
} as const;
/** The characters of a group's appName (its length: GROUP_LIMITS.appName). */
export const APP_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * Reads a group body. `base` is the group being updated: its appName cannot change, and switching
 * it to AUTO without a list clears the list. AUTO groups take their addresses from executor
 * registration, so they refuse a list; MANUAL groups need one. Addresses are http(s) URLs and get a
 * trailing `/` (executor paths are appended, as in XXL-JOB's `{address}run`).
 */
export function parseGroupSpec(input: unknown, base?: GroupSpec): GroupSpec {
  const body = requireObject(input);
  const problems: Problem[] = [];
  const unknown = Object.keys(body).filter(
    (key) => !isOneOf(key, GROUP_EDITABLE_FIELDS) && !isOneOf(key, GROUP_READ_ONLY_FIELDS),
  );
  problems.push(...unknownFieldProblems(unknown, 'group', GROUP_EDITABLE_FIELDS));
  /** A field read, or its problems noted (every one of the body is answered at once). */
  const read = <T>(field: string, reader: () => T): T | undefined => {
    if (body[field] === undefined) return undefined;
    try {
      return reader();
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      problems.push(...problemsOf(err));
      return undefined;
    }
  };
  const given: { -readonly [K in keyof GroupSpec]?: GroupSpec[K] } = {};
  const appName = read('appName', () => readAppName(body.appName));
  const title = read('title', () => readString('title', body.title, GROUP_LIMITS.title));
  const addressType = read('addressType', () => readEnum('addressType', body.addressType, ADDRESS_TYPES));
  const givenList = read('addressList', () => readAddressList(body.addressList));
  if (appName !== undefined) given.appName = appName;
  if (title !== undefined) given.title = title;
  if (addressType !== undefined) given.addressType = addressType;
  if (givenList !== undefined) given.addressList = givenList;
  // The group's jobs' default channels: null or [] clears them (its jobs then alert nowhere).
  const alertChannels = read('alertChannels', () => readAlertChannels(body.alertChannels, 'none'));

  if (base && given.appName !== undefined && given.appName !== base.appName) {
    problems.push({
      field: 'appName',
      message: `appName cannot be changed (${base.appName} → ${given.appName}); create a new group instead`,
    });
  }
  if (!base) {
    for (const field of ['appName', 'title', 'addressType'] as const) {
      if (body[field] === undefined) problems.push({ field, message: `${field} is required` });
    }
  }
  const flagged = (field: string) => problems.some((p) => p.field === field);
  const switchedToAuto = base?.addressType === 'MANUAL' && given.addressType === 'AUTO';
  // An AUTO group's addressList is shown as its online executors: sent back in an edit, it is ignored.
  const stayedAuto = base?.addressType === 'AUTO' && (given.addressType ?? 'AUTO') === 'AUTO';
  const addressList = stayedAuto
    ? []
    : (given.addressList ?? (switchedToAuto ? [] : (base?.addressList ?? [])));
  const { alertChannels: _kept, ...rest } = { ...base, ...given, addressList } as GroupSpec;
  const channels = body.alertChannels === undefined ? base?.alertChannels : alertChannels;
  const spec: GroupSpec = channels && channels.length > 0 ? { ...rest, alertChannels: channels } : rest;
  if (!flagged('title') && (spec.title ?? '').trim() === '')
    problems.push({ field: 'title', message: 'title is required' });
  // Whether the list fits the type is judged only when both could be read.
  if (!flagged('addressList') && !flagged('addressType')) {
    if (spec.addressType === 'AUTO' && spec.addressList.length > 0) {
      problems.push({
        field: 'addressList',
        message:
          'addressList must be empty for an AUTO group (its addresses come from executor registration); use addressType MANUAL to list addresses',
      });
    }
    if (spec.addressType === 'MANUAL' && spec.addressList.length === 0) {
      problems.push({
        field: 'addressList',
        message: 'addressList must list at least one http(s) URL for a MANUAL group',
      });
    }
  }
  const [first, ...more] = problems;
  if (first) throw new RequestValidationError([first, ...more]);
  return spec;
}

function readAppName(value: unknown): string {
  const appName = readString('appName', value, Number.MAX_SAFE_INTEGER);
  if (
    appName.length < GROUP_LIMITS.appNameMin ||
    appName.length > GROUP_LIMITS.appName ||
    !APP_NAME.test(appName)
  ) {
    throw new ValidationError(
      `appName must be ${GROUP_LIMITS.appNameMin}-${GROUP_LIMITS.appName} characters of letters, digits, '_', '.' and '-'; got ${JSON.stringify(appName)}`,
      'appName',
    );
  }
  return appName;
}

function readAddressList(given: unknown): string[] {
  // XXL-JOB's form: addresses separated by commas.
  const value = typeof given === 'string' ? given.split(',').filter((part) => part.trim() !== '') : given;
  if (!Array.isArray(value)) {
    throw new ValidationError(
      'addressList must be an array of executor addresses (http(s) URLs or lambda:<function>)',
      'addressList',
    );
  }
  if (value.length > GROUP_LIMITS.addressList) {
    throw new ValidationError(
      `addressList may hold at most ${GROUP_LIMITS.addressList} addresses`,
      'addressList',
    );
  }
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string') {
      throw new ValidationError(
        `addressList entries must be http(s) URLs or lambda:<function>; got ${describe(item)}`,
        'addressList',
      );
    }
    const text = readString('addressList', item, GROUP_LIMITS.address).trim();
    const normalized = normalizeExecutorAddress(text);
    if (normalized === undefined) {
      throw new ValidationError(
        `addressList entries must be http(s) URLs or lambda:<function>; ${describe(text)} is neither`,
        'addressList',
      );
    }
    if (out.includes(normalized)) {
      throw new ValidationError(`addressList lists ${normalized} twice`, 'addressList');
    }
    out.push(normalized);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Field readers

function requireObject(input: unknown): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ValidationError('the body must be a JSON object', 'body');
  }
  return input as Record<string, unknown>;
}

function isOneOf<T extends string>(value: string, list: readonly T[]): value is T {
  return (list as readonly string[]).includes(value);
}

function describe(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function readString(field: string, value: unknown, maxLength: number): string {
  if (typeof value !== 'string')
    throw new ValidationError(`${field} must be a string; got ${describe(value)}`, field);
  if (value.length > maxLength) {
    throw new ValidationError(`${field} must be at most ${maxLength} characters; got ${value.length}`, field);
  }
  return value;
}

function readInt(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new ValidationError(`${field} must be an integer; got ${describe(value)}`, field);
  }
  if (value < min || value > max) {
    throw new ValidationError(`${field} must be between ${min} and ${max}; got ${value}`, field);
  }
  return value;
}

function readEnum<T extends string>(field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && isOneOf(value, allowed)) return value;
  throw new ValidationError(`${field} must be one of ${allowed.join(', ')}; got ${describe(value)}`, field);
}

const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;

/** XXL-JOB's alarm_email: comma-separated addresses; stored trimmed, joined by commas. */
function readEmails(field: string, value: unknown): string {
  const text = readString(field, value, JOB_LIMITS.alarmEmail);
  if (text.trim() === '') return '';
  const emails = text.split(',').map((e) => e.trim());
  for (const email of emails) {
    if (!EMAIL.test(email)) {
      throw new ValidationError(
        `${field} must be e-mail addresses separated by commas; ${describe(email)} is not an e-mail address`,
        field,
      );
    }
  }
  return emails.join(',');
}

function readOptionalUrl(field: string, value: unknown, maxLength: number): string {
  if (typeof value === 'string' && value.trim() === '') return '';
  return readUrl(field, value, maxLength);
}

const LAMBDA_ADDRESS = /^lambda:[A-Za-z0-9_.:-]+$/;

/**
 * An executor address as tickring keeps it: an http(s) URL with a host, given the trailing `/`
 * executor paths are appended to, or `lambda:<function name or ARN>` as it is; else undefined.
 */
export function normalizeExecutorAddress(text: string): string | undefined {
  if (text.length > GROUP_LIMITS.address) return undefined;
  if (text.startsWith('lambda:')) return LAMBDA_ADDRESS.test(text) ? text : undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return undefined;
  return text.endsWith('/') ? text : `${text}/`;
}

function readUrl(field: string, value: unknown, maxLength: number, expected = 'an http(s) URL'): string {
  if (typeof value !== 'string')
    throw new ValidationError(`${field} must be ${expected}; got ${describe(value)}`, field);
  const text = readString(field, value, maxLength).trim();
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new ValidationError(`${field} must be ${expected}; ${describe(text)} is not one`, field);
  }
  return text;
}

function readChildIds(value: unknown): number[] {
  const field = 'childJobIds';
  if (!Array.isArray(value)) {
    throw new ValidationError(
      `${field} must be an array of job ids (integers); got ${describe(value)}`,
      field,
    );
  }
  if (value.length > JOB_LIMITS.childJobIds) {
    throw new ValidationError(`${field} may hold at most ${JOB_LIMITS.childJobIds} ids`, field);
  }
  const ids: number[] = [];
  for (const item of value) {
    if (typeof item !== 'number' || !Number.isSafeInteger(item) || item < 1) {
      throw new ValidationError(`${field} must hold positive integer job ids; got ${describe(item)}`, field);
    }
    if (ids.includes(item)) throw new ValidationError(`${field} lists job ${item} twice`, field);
    ids.push(item);
  }
  return ids;
}
