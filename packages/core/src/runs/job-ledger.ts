/**
 * A job's fire ledger (GET /v1/jobs/{id}/ledger): its history in the window rebuilt from the audit
 * log, its runs around the window, its calendars; the matching itself is fire-ledger.ts.
 *
 * The history: the job as stored now, taken back through each audit record of the job after the
 * window's start (newest first, each record's `before` values), so every stretch of the window has
 * the definition (schedule, zone, bounds, calendars' ids, jitter, exceptions) and the status it had.
 * A start, a stop, a pause by the failure policy, a schedule's end and a schedule edit are all audit
 * records with their before and after. The calendars the schedule named are taken back the same way
 * through their own records (calendar-history.ts), so each stretch reads them as they were. Limits:
 * an audit record that failed to be written, or is older than the audit retention, leaves its change
 * out.
 */
import type { AuditRecord } from '../audit/audit.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { CalendarGate } from '../calendars/calendar-schedule.js';
import type { CalendarStore } from '../calendars/calendar-store.js';
import type { Clock } from '../common/clock.js';
import { NotFoundError, type Problem, RequestValidationError } from '../common/errors.js';
import type { Job } from '../jobs/job.js';
import type { JobStore } from '../jobs/job-store.js';
import { nominalOf, type OccurrenceException } from '../schedule/occurrences.js';
import { calendarIdsNamed, readCalendarHistory } from './calendar-history.js';
import {
  buildFireLedger,
  checkWindowFires,
  type FireLedger,
  type LedgerDefinition,
  type LedgerPeriod,
  MAX_LEDGER_FIRES,
  TooManyFiresError,
} from './fire-ledger.js';
import type { Run } from './run.js';
import type { RunStore } from './run-store.js';

export interface JobLedgerDeps {
  readonly jobs: Pick<JobStore, 'get'>;
  readonly runs: Pick<RunStore, 'list'>;
  readonly calendars?: Pick<CalendarStore, 'get'>;
  /** Absent: the job's current definition and status stand for the whole window. */
  readonly audit?: Pick<AuditLog, 'list'>;
  readonly clock: Clock;
}

export interface JobLedger extends FireLedger {
  /** An audit record inside the window changed the schedule (the ledger follows each change). */
  readonly definitionChangedInWindow: boolean;
  /** The schedule's history came from the audit log (`audit`), or is the job as it is now (`current`). */
  readonly history: 'audit' | 'current';
  /**
   * The calendars the schedule named in the window: each one's version now, and the versions the
   * ledger applied (each as it was at the time, see calendar-history.ts).
   */
  readonly calendars: readonly {
    readonly id: string;
    readonly version: number | null;
    readonly versionsUsed: readonly number[];
  }[];
  /** Calendars the audit log shows changed inside the window (the ledger follows each version). */
  readonly calendarsChangedInWindow: readonly string[];
  /** Runs read (the cost of the ledger). */
  readonly runsRead: number;
}

/** Runs are read by trigger time this far around the window: a skip range recorded before it, a jittered fire after it. */
export const LEDGER_RUN_MARGIN_MS = 15 * 60_000;
/** Most runs one ledger reads; past them it fails rather than guess. */
const MAX_RUNS_READ = 3 * MAX_LEDGER_FIRES;
const RUN_PAGE = 1000;
const AUDIT_PAGE = 200;
/** Most audit records of the job one ledger reads. */
const MAX_AUDIT_RECORDS = 2000;

/**
 * A stop's audit record is written just after the change: the dispatcher may have dropped a fire
 * due in between. A stop is taken to hold from this long before its record.
 */
export const STOP_RECORD_LAG_MS = 1000;

/** The fields of a job's audit record that change its schedule. */
const SCHEDULE_FIELDS = [
  'scheduleType',
  'scheduleConf',
  'timeZone',
  'startAt',
  'endAt',
  'calendars',
  'jitterSeconds',
] as const;

export interface LedgerWindowRequest {
  /** ISO-8601 instants or epoch ms. */
  readonly from: string | number;
  readonly to: string | number;
}

export interface LedgerOptions {
  /** A fire due less than this long ago is not yet unexplained (the dead-man sweep's grace). */
  readonly settleMs?: number;
  /** How far around the window runs are read by trigger time; default {@link LEDGER_RUN_MARGIN_MS}. */
  readonly runMarginMs?: number;
}

/** The job's ledger for [from, to). @throws NotFoundError, RequestValidationError (every problem). */
export async function jobFireLedger(
  deps: JobLedgerDeps,
  jobId: number,
  request: LedgerWindowRequest,
  options: LedgerOptions = {},
): Promise<JobLedger> {
  const { from, to } = checkWindow(request);
  const job = await deps.jobs.get(jobId);
  if (!job) throw new NotFoundError(`no job has the id ${jobId}`);
  return ledgerOf(deps, job, from, to, options);
}

/** The ledger of a job already read (the dead-man sweep's path). */
export async function ledgerOf(
  deps: JobLedgerDeps,
  job: Job,
  from: number,
  to: number,
  options: LedgerOptions = {},
): Promise<JobLedger> {
  const subject = jobSubject(job);
  checkSubjectFires(subject, from, to);
  const marginMs = options.runMarginMs ?? LEDGER_RUN_MARGIN_MS;
  const [records, runs] = await Promise.all([
    deps.audit ? auditRecords(deps.audit, `job#${job.id}`, from, deps.clock.now()) : undefined,
    readRuns(deps, job.id, from, to, marginMs, job.jitterSeconds ?? 0),
  ]);
  return ledgerFrom(deps, subject, records, runs, from, to, options);
}

/**
 * What a ledger is about: the job whose fires it accounts for (its runs, its jitter), and its
 * schedule as it is now, which the history walks back from.
 */
export interface LedgerSubject {
  readonly jobId: number;
  /** The schedule's fields as the audit records show them (the API's view: times as ISO strings). */
  readonly fields: Record<string, unknown>;
  readonly running: boolean;
  /** What stopped it, when it is stopped now and no record read says (`job.stop`, `workflow.stop`, …). */
  readonly stoppedNow: string;
  /** What a stop is called when the record that made it was not read. */
  readonly stopAction: string;
  /** The actions that created it: nothing was owed before one of them. */
  readonly createActions: ReadonlySet<string>;
  /** Its next fire as stored (a FIX_RATE sequence's anchor). */
  readonly anchor?: number;
}

/** A job as a ledger's subject. */
export function jobSubject(job: Job): LedgerSubject {
  return {
    jobId: job.id,
    fields: currentFields(job),
    running: job.triggerStatus === 'RUNNING',
    stoppedNow: job.pausedBy ? 'job.pausedByPolicy' : job.scheduleEnded ? 'job.scheduleEnded' : 'job.stop',
    stopAction: 'job.stop',
    createActions: new Set(['job.create']),
    ...(job.triggerNextTime === null ? {} : { anchor: job.triggerNextTime }),
  };
}

/** Refuses a window in which the subject's schedule as it is now makes too many fires (400 naming the limit). */
export function checkSubjectFires(subject: LedgerSubject, from: number, to: number): void {
  const { schedule } = definitionOf(subject.fields, undefined);
  try {
    checkWindowFires(schedule, from, to);
  } catch (err) {
    throw err instanceof TooManyFiresError ? tooMany(err.limit) : err;
  }
}

/**
 * The ledger of a subject from what was read: its audit records from `from` to now (oldest first;
 * undefined: no audit log, the subject as it is now stands for the window) and its runs around the
 * window. Its calendars are read here.
 */
export async function ledgerFrom(
  deps: Pick<JobLedgerDeps, 'calendars' | 'audit' | 'clock'>,
  subject: LedgerSubject,
  records: readonly AuditRecord[] | undefined,
  runs: readonly Run[],
  from: number,
  to: number,
  options: LedgerOptions = {},
): Promise<JobLedger> {
  const now = deps.clock.now();
  const calendars = await readCalendarHistory(
    deps,
    calendarIdsNamed(subject.fields.calendars as Job['calendars'], records ?? []),
    from,
    now,
    auditRecords,
  );
  const history = historyFrom(subject, records ?? [], from, to, calendars.gateAt);
  try {
    const ledger = buildFireLedger({
      jobId: subject.jobId,
      from,
      to,
      nowMs: now,
      periods: history.periods,
      runs,
      ...(options.settleMs === undefined ? {} : { settleMs: options.settleMs }),
    });
    const periodStarts = history.periods.map((p) => Math.max(p.from, from)).filter((t) => t < to);
    return {
      ...ledger,
      definitionChangedInWindow: history.changedInWindow,
      history: records === undefined ? 'current' : 'audit',
      calendars: calendars.ids.map((id) => ({
        id,
        version: calendars.current.get(id)?.version ?? null,
        versionsUsed: calendars.versionsAt(id, periodStarts),
      })),
      calendarsChangedInWindow: calendars.changedIn(from, to),
      runsRead: runs.length,
    };
  } catch (err) {
    throw err instanceof TooManyFiresError ? tooMany(err.limit) : err;
  }
}

function tooMany(limit: number): RequestValidationError {
  return new RequestValidationError([
    { field: 'to', message: `the window holds more than ${limit} fires of the job; ask for a shorter one` },
  ]);
}

/** The window asked for, as epoch ms. @throws RequestValidationError naming every problem. */
export function checkWindow(request: LedgerWindowRequest): { from: number; to: number } {
  const problems: Problem[] = [];
  const from = instantOf(request.from);
  const to = instantOf(request.to);
  if (from === undefined)
    problems.push({
      field: 'from',
      message: `from must be an ISO-8601 instant; got '${String(request.from)}'`,
    });
  if (to === undefined)
    problems.push({ field: 'to', message: `to must be an ISO-8601 instant; got '${String(request.to)}'` });
  if (from !== undefined && to !== undefined && from >= to)
    problems.push({ field: 'to', message: 'to must be after from' });
  const [first, ...rest] = problems;
  if (first) throw new RequestValidationError([first, ...rest]);
  return { from: from as number, to: to as number };
}

function instantOf(value: string | number): number | undefined {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

/** The records of `target` from `from` to `to`, oldest first (at most MAX_AUDIT_RECORDS). */
export async function auditRecords(
  audit: Pick<AuditLog, 'list'>,
  target: string,
  from: number,
  to: number,
): Promise<AuditRecord[]> {
  const records: AuditRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await audit.list({ target, from, to, limit: AUDIT_PAGE, ...(cursor ? { cursor } : {}) });
    records.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined && records.length < MAX_AUDIT_RECORDS);
  return records.sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
}

/** The job's runs by trigger time over the window, `marginMs` around it (and its jitter after it). */
export async function readRuns(
  deps: Pick<JobLedgerDeps, 'runs'>,
  jobId: number,
  from: number,
  to: number,
  marginMs: number,
  jitterSeconds: number,
): Promise<Run[]> {
  const runs: Run[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.runs.list({
      jobId,
      from: from - marginMs,
      to: to + marginMs + jitterSeconds * 1000,
      limit: RUN_PAGE,
      ...(cursor ? { cursor } : {}),
    });
    runs.push(...page.items);
    cursor = page.nextCursor;
    if (runs.length > MAX_RUNS_READ)
      throw new RequestValidationError([
        {
          field: 'to',
          message: `the window holds more than ${MAX_RUNS_READ} runs of the job; ask for a shorter one`,
        },
      ]);
  } while (cursor !== undefined);
  return runs;
}

/** The job's state as the history walks it back. */
interface State {
  readonly fields: Record<string, unknown>;
  readonly running: boolean;
  /** False before the job's creation: nothing was owed then. */
  readonly existed: boolean;
}

/** A schedule's calendars as a gate, the calendars read as they were at `at` (a period's start). */
type GateOf = (calendars: Job['calendars'], at: number) => CalendarGate | undefined;

/**
 * The periods of the window, oldest first: the job as it is now, taken back through each record
 * after `from` (the state before a record is the state after it with its `before` values). A
 * stopped period names the record that stopped the job (`job.stop`, `job.pausedByPolicy`,
 * `job.scheduleEnded`, …), or, stopped before the records read, what the job says now.
 */
export function historyOf(
  job: Job,
  records: readonly AuditRecord[],
  from: number,
  to: number,
  gateOf: GateOf | undefined,
): { periods: LedgerPeriod[]; changedInWindow: boolean } {
  return historyFrom(jobSubject(job), records, from, to, gateOf);
}

/** {@link historyOf} of any subject: a job, or a workflow's schedule (its records and its starter job's). */
export function historyFrom(
  subject: LedgerSubject,
  records: readonly AuditRecord[],
  from: number,
  to: number,
  gateOf: GateOf | undefined,
): { periods: LedgerPeriod[]; changedInWindow: boolean } {
  let state: State = { fields: subject.fields, running: subject.running, existed: true };
  const raw: { state: State; from: number; to: number; record?: AuditRecord }[] = [];
  let end = Math.max(to, ...records.map((r) => r.at + 1));
  let changedInWindow = false;
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i] as AuditRecord;
    if (record.at < to && SCHEDULE_FIELDS.some((f) => f in record.changes)) changedInWindow = true;
    const stops = record.changes.triggerStatus?.after === 'STOPPED';
    // A period begins when its change took effect: a stop a moment before its record, a restart at the job's updatedAt.
    const at = stops
      ? record.at - STOP_RECORD_LAG_MS
      : restartsSchedule(record)
        ? restartOf(record, state).restartedAt
        : record.at;
    raw.unshift({ state, from: at, to: end, record });
    state = before(state, record, subject.createActions);
    end = at;
  }
  raw.unshift({ state, from: Math.min(from, end), to: end });
  const anchor = subject.anchor;
  const periods: LedgerPeriod[] = [];
  let stoppedBy = records.length === 0 ? subject.stoppedNow : subject.stopAction;
  for (const { state: s, from: start, to: stop, record } of raw) {
    if (record?.changes.triggerStatus?.after === 'STOPPED') stoppedBy = record.action;
    if (!s.existed) continue;
    periods.push({
      from: start,
      to: stop,
      running: s.running,
      ...(s.running ? {} : { stoppedBy }),
      ...(record && restartsSchedule(record) ? restartOf(record, s) : {}),
      ...(anchor === undefined ? {} : { anchor }),
      definition: definitionOf(s.fields, gateOf, start),
    });
  }
  return { periods, changedInWindow };
}

/**
 * When a start or an edit began the schedule again, and its first fire: the job's `updatedAt` and
 * `triggerNextTime` as the change stored them (the record itself is written a moment later).
 */
function restartOf(record: AuditRecord, after: State): { restartedAt: number; firstFire?: number } {
  const time = (v: unknown) => (typeof v === 'string' ? Date.parse(v) : Number.NaN);
  const updatedAt = time(record.changes.updatedAt?.after);
  const next = time(record.changes.triggerNextTime?.after);
  const restartedAt = Number.isFinite(updatedAt) && updatedAt <= record.at ? updatedAt : record.at;
  if (!Number.isFinite(next)) return { restartedAt };
  const exceptions = exceptionsOf(after.fields.occurrenceExceptions);
  return { restartedAt, firstFire: nominalOf(next, exceptions) };
}

function restartsSchedule(record: AuditRecord): boolean {
  const status = record.changes.triggerStatus;
  if (status && status.after === 'RUNNING') return true;
  return SCHEDULE_FIELDS.some((f) => f in record.changes) || record.action === 'job.calendarReplan';
}

function before(state: State, record: AuditRecord, createActions: ReadonlySet<string>): State {
  if (createActions.has(record.action)) return { fields: state.fields, running: false, existed: false };
  const fields = { ...state.fields };
  for (const [name, change] of Object.entries(record.changes)) fields[name] = change.before;
  const status = record.changes.triggerStatus;
  return { fields, running: status ? status.before === 'RUNNING' : state.running, existed: true };
}

/** The job's fields as the audit records show them (the API's view: times as ISO strings). */
export function currentFields(
  job: Pick<
    Job,
    | 'scheduleType'
    | 'scheduleConf'
    | 'timeZone'
    | 'startAt'
    | 'endAt'
    | 'jitterSeconds'
    | 'calendars'
    | 'occurrenceExceptions'
  >,
): Record<string, unknown> {
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  return {
    scheduleType: job.scheduleType,
    scheduleConf: job.scheduleConf,
    timeZone: job.timeZone,
    startAt: iso(job.startAt),
    endAt: iso(job.endAt),
    jitterSeconds: job.jitterSeconds ?? 0,
    calendars: { only: [...(job.calendars?.only ?? [])], exclude: [...(job.calendars?.exclude ?? [])] },
    occurrenceExceptions: (job.occurrenceExceptions ?? []).map((e) => ({
      at: iso(e.at),
      action: e.action,
      to: iso(e.to),
      reason: e.reason ?? null,
      by: e.by,
      createdAt: iso(e.createdAt),
    })),
  };
}

function definitionOf(
  fields: Record<string, unknown>,
  gateOf: GateOf | undefined,
  at = Number.POSITIVE_INFINITY,
): LedgerDefinition {
  const text = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
  const time = (v: unknown) =>
    typeof v === 'string' ? Date.parse(v) : typeof v === 'number' ? v : undefined;
  const startAt = time(fields.startAt);
  const endAt = time(fields.endAt);
  const calendars = fields.calendars as Job['calendars'] | undefined;
  const gate = gateOf?.(calendars, at);
  const jitter = typeof fields.jitterSeconds === 'number' ? fields.jitterSeconds : 0;
  return {
    schedule: {
      type: text(fields.scheduleType, 'NONE') as Job['scheduleType'],
      conf: text(fields.scheduleConf, ''),
      timeZone: text(fields.timeZone, 'UTC'),
    },
    bounds: { ...(startAt === undefined ? {} : { startAt }), ...(endAt === undefined ? {} : { endAt }) },
    ...(jitter > 0 ? { jitterSeconds: jitter } : {}),
    exceptions: exceptionsOf(fields.occurrenceExceptions),
    ...(gate ? { gate } : {}),
  };
}

function exceptionsOf(value: unknown): OccurrenceException[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((e: Record<string, unknown>) => {
    const at = typeof e.at === 'string' ? Date.parse(e.at) : Number.NaN;
    if (!Number.isFinite(at) || (e.action !== 'skip' && e.action !== 'move')) return [];
    const to = typeof e.to === 'string' ? Date.parse(e.to) : undefined;
    return [
      {
        at,
        action: e.action,
        ...(to === undefined || !Number.isFinite(to) ? {} : { to }),
        ...(typeof e.reason === 'string' ? { reason: e.reason } : {}),
        by: typeof e.by === 'string' ? e.by : '',
        createdAt: typeof e.createdAt === 'string' ? Date.parse(e.createdAt) : 0,
      },
    ];
  });
}
