/**
 * The run store's tables (one SQLite file with every other store's):
 * - `runs`: a run, keyed by logId, with its claim; the fields that are conditioned on, updated or
 *   ordered by as columns, the rest of the Run as JSON (`body`). `outcome_due_at` is set while a
 *   finished run's consequences are pending (a partial index holds only those);
 * - `run_fires`: a fire (by dedupKey) with its runs' logIds and the claim token that recorded it;
 * - `run_log_id_counters`: each job's count of unplanned logIds given out;
 * - `run_catch_ups`: each job's catch-up mark;
 * - `run_dispatches`: the dispatch records, one row per entry; a record is the rows of one claim
 *   token, ordered by its claim time and salt (both in the token), its entries by `id`;
 * - `run_watch`: runs the lost-run watch looks at again from minute `due_at` on (rows are removed
 *   once the watch has read past them), and `run_watch_cursor`: how far it has read.
 * `expires_at` (epoch s) is the DynamoDB adapter's TTL field, `TICKRING_LOG_RETENTION_DAYS` after
 * the trigger (claim) time, or the run's own retention (`runExpiresAt`), shortened with a
 * sampled-out success's result: see `RunWatch.deleteExpired`.
 */
import { ValidationError } from '@tickring/core/common';
import { jobIdOfLogId, outcomeDueOnClaim, type Run, type StoredRun } from '@tickring/core/runs';
import type { EmbeddedDatabase, SqlValue } from '../database.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  log_id INTEGER PRIMARY KEY,
  job_id INTEGER NOT NULL,
  app_name TEXT NOT NULL,
  trigger_time INTEGER NOT NULL,
  scheduled_time INTEGER NOT NULL,
  executor_address TEXT NOT NULL,
  trigger_code INTEGER NOT NULL,
  trigger_msg TEXT NOT NULL,
  dispatched_at INTEGER NOT NULL,
  handle_code INTEGER NOT NULL,
  handle_msg TEXT NOT NULL,
  handle_time INTEGER NOT NULL,
  alarm_status INTEGER NOT NULL,
  claim_token TEXT NOT NULL,
  claim_at INTEGER NOT NULL,
  outcome_due_at INTEGER,
  expires_at INTEGER NOT NULL,
  body TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS runs_by_job_time ON runs (job_id, trigger_time, log_id);
CREATE INDEX IF NOT EXISTS runs_outcome_pending ON runs (outcome_due_at, log_id)
  WHERE outcome_due_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS runs_by_expiry ON runs (expires_at);

CREATE TABLE IF NOT EXISTS run_fires (
  dedup_key TEXT PRIMARY KEY,
  log_ids TEXT NOT NULL,
  claim_token TEXT NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS run_fires_by_expiry ON run_fires (expires_at);

CREATE TABLE IF NOT EXISTS run_log_id_counters (
  job_id INTEGER PRIMARY KEY,
  used INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS run_catch_ups (
  job_id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  fire_key TEXT NOT NULL,
  expires_at INTEGER NOT NULL
) STRICT;

CREATE TABLE IF NOT EXISTS run_dispatches (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  claim_token TEXT NOT NULL,
  claim_at INTEGER NOT NULL,
  salt INTEGER NOT NULL,
  log_id INTEGER NOT NULL,
  app_name TEXT NOT NULL,
  deadline INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  UNIQUE (claim_token, log_id)
) STRICT;
CREATE INDEX IF NOT EXISTS run_dispatches_by_claim ON run_dispatches (claim_at, salt, id);
CREATE INDEX IF NOT EXISTS run_dispatches_by_app ON run_dispatches (app_name, claim_at, salt, id);
CREATE INDEX IF NOT EXISTS run_dispatches_by_expiry ON run_dispatches (expires_at);

CREATE TABLE IF NOT EXISTS run_watch (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  due_at INTEGER NOT NULL,
  log_id INTEGER NOT NULL,
  app_name TEXT NOT NULL,
  deadline INTEGER NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS run_watch_by_due ON run_watch (due_at, id);

CREATE TABLE IF NOT EXISTS run_watch_cursor (
  id INTEGER PRIMARY KEY CHECK (id = 0),
  dispatched_at INTEGER NOT NULL,
  dispatched_salt INTEGER NOT NULL,
  dispatched_id INTEGER NOT NULL,
  watched_at INTEGER NOT NULL,
  watched_id INTEGER NOT NULL
) STRICT;
`;

/** Above every salt and row id: a position past everything at its time. */
export const AFTER_ALL = Number.MAX_SAFE_INTEGER;
/** A claim token's salt is below this (31 bits: two instances claiming in one millisecond differ). */
const SALT_RANGE = 2 ** 31;
const DAY_S = 86_400;

/** A `runs` row, as `SELECT *` reads it. */
export type RunRow = {
  log_id: number;
  job_id: number;
  app_name: string;
  trigger_time: number;
  scheduled_time: number;
  executor_address: string;
  trigger_code: number;
  trigger_msg: string;
  dispatched_at: number;
  handle_code: number;
  handle_msg: string;
  handle_time: number;
  alarm_status: number;
  claim_token: string;
  claim_at: number;
  outcome_due_at: number | null;
  expires_at: number;
  body: string;
};

/** The fields of a Run kept as columns; the others are its `body`. */
type ColumnField =
  | 'logId'
  | 'appName'
  | 'triggerTime'
  | 'scheduledTime'
  | 'executorAddress'
  | 'triggerCode'
  | 'triggerMsg'
  | 'dispatchedAt'
  | 'handleCode'
  | 'handleMsg'
  | 'handleTime'
  | 'alarmStatus';

export interface SqliteRunStoreOptions {
  readonly database: EmbeddedDatabase;
  /** Runs, fires and dispatch records expire this many days after their trigger (TICKRING_LOG_RETENTION_DAYS). */
  readonly retentionDays: number;
  /** The wall clock, for the default time range of `list` and its expiry filter. */
  readonly now?: () => number;
}

/** The database and settings every role of the run store shares, and the reads they all make. */
export class RunsTable {
  readonly database: EmbeddedDatabase;
  readonly retentionDays: number;
  readonly now: () => number;

  constructor(options: SqliteRunStoreOptions) {
    this.database = options.database;
    this.retentionDays = options.retentionDays;
    this.now = options.now ?? Date.now;
    this.database.ensureSchema('runs', SCHEMA);
  }

  prepare(sql: string) {
    return this.database.db.prepare(sql);
  }

  get(logId: number): RunRow | undefined {
    if (!isLogId(logId)) return undefined;
    return this.prepare('SELECT * FROM runs WHERE log_id = ?').get<RunRow>(logId);
  }

  /** The rows of the stored runs among `logIds` (each once; unknown and malformed ones left out). */
  readRuns(logIds: readonly number[]): RunRow[] {
    const wanted = [...new Set(logIds)].filter(isLogId);
    if (wanted.length === 0) return [];
    return this.prepare('SELECT * FROM runs WHERE log_id IN (SELECT value FROM json_each(?))').all<RunRow>(
      JSON.stringify(wanted),
    );
  }

  /** The DynamoDB adapter's `expiresAt`: epoch s, the retention after `atMs`. */
  expiresAt(atMs: number): number {
    return Math.floor(atMs / 1000) + this.retentionDays * DAY_S;
  }
}

export function isLogId(logId: number): boolean {
  return Number.isSafeInteger(logId) && logId > 0;
}

/** The values of an `INSERT INTO runs` (in the table's column order) of a run claimed under `claimToken`. */
export function runValues(run: Run, claimToken: string, expiresAt: number): SqlValue[] {
  const {
    logId,
    appName,
    triggerTime,
    scheduledTime,
    executorAddress,
    triggerCode,
    triggerMsg,
    dispatchedAt,
    handleCode,
    handleMsg,
    handleTime,
    alarmStatus,
    ...body
  } = run;
  const outcomeDueAt = outcomeDueOnClaim(run) ?? null;
  return [
    logId,
    jobIdOfLogId(logId),
    appName,
    triggerTime,
    scheduledTime,
    executorAddress,
    triggerCode,
    triggerMsg,
    dispatchedAt,
    handleCode,
    handleMsg,
    handleTime,
    alarmStatus,
    claimToken,
    triggerTime,
    outcomeDueAt,
    expiresAt,
    JSON.stringify(body),
  ];
}

export function toRun(row: RunRow): Run {
  return {
    ...(JSON.parse(row.body) as Omit<Run, ColumnField>),
    logId: row.log_id,
    appName: row.app_name,
    triggerTime: row.trigger_time,
    scheduledTime: row.scheduled_time,
    executorAddress: row.executor_address,
    triggerCode: row.trigger_code,
    triggerMsg: row.trigger_msg,
    dispatchedAt: row.dispatched_at,
    handleCode: row.handle_code,
    handleMsg: row.handle_msg,
    handleTime: row.handle_time,
    alarmStatus: row.alarm_status,
  };
}

export function toStoredRun(row: RunRow): StoredRun {
  return { ...toRun(row), claimToken: row.claim_token, claimAt: row.claim_at, expiresAt: row.expires_at };
}

/** Where a dispatch record sorts: its claim time, then its salt (both in its token). */
export interface ClaimKey {
  readonly at: number;
  readonly salt: number;
}

export function newClaimToken(nowMs: number): string {
  return `claim-${Math.floor(nowMs)}-${Math.floor(Math.random() * SALT_RANGE)}`;
}

export function claimKeyOf(claimToken: string): ClaimKey {
  const match = /^claim-(\d{1,16})-(\d{1,10})$/.exec(claimToken);
  const key = match && { at: Number(match[1]), salt: Number(match[2]) };
  if (!key || !Number.isSafeInteger(key.at) || key.salt >= SALT_RANGE) {
    throw new ValidationError(`not a claim token: ${JSON.stringify(claimToken)}`, 'claimToken');
  }
  return key;
}
