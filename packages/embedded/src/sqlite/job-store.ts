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
import type { EmbeddedDatabase, SqlValue } from './database.js';
import { cursorInteger, decodeCursor, pageLimit, pageOfRows } from './page-cursor.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  id INTEGER PRIMARY KEY,
  app_name TEXT NOT NULL,
  trigger_status TEXT NOT NULL,
  -- Set only while the job is due (RUNNING with a next fire), with its shard: the tick's due list.
  next_trigger_time INTEGER,
  due_shard INTEGER,
  trigger_last_time INTEGER NOT NULL,
  slow_until INTEGER NOT NULL,
  version INTEGER NOT NULL,
  log_id_block INTEGER,
  last_plan_due INTEGER,
  prev_plan_due INTEGER,
  -- The rest of the job, as JSON.
  definition TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_by_app ON jobs (app_name, id);
CREATE INDEX IF NOT EXISTS jobs_by_due ON jobs (due_shard, next_trigger_time, id)
  WHERE next_trigger_time IS NOT NULL;
CREATE INDEX IF NOT EXISTS jobs_with_last_plan ON jobs (id) WHERE last_plan_due IS NOT NULL;
-- A job's final outcomes (failure policy, deadline) beside it: the admin's job writes never race it.
CREATE TABLE IF NOT EXISTS job_outcomes (
  job_id INTEGER PRIMARY KEY,
  revision INTEGER NOT NULL,
  history TEXT NOT NULL
);
-- Missed-deadline alarms claimed, one per job and window (kept 7 days).
CREATE TABLE IF NOT EXISTS job_deadline_misses (
  job_id INTEGER NOT NULL,
  deadline_at INTEGER NOT NULL,
  PRIMARY KEY (job_id, deadline_at)
);
-- Dead-man alarms claimed, one per job and window of unexplained fires (kept 7 days).
CREATE TABLE IF NOT EXISTS job_unexplained_fires (
  job_id INTEGER NOT NULL,
  window_start INTEGER NOT NULL,
  PRIMARY KEY (job_id, window_start)
);
CREATE TABLE IF NOT EXISTS job_id_sequence (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  last_id INTEGER NOT NULL
);
`;

const COLUMNS =
  'id, app_name, trigger_status, next_trigger_time, trigger_last_time, slow_until, version, ' +
  'log_id_block, last_plan_due, prev_plan_due, definition';

/** How long a missed-deadline claim is kept (the sweep looks only at the last closed window). */
const DEADLINE_MISS_KEPT_MS = 7 * 24 * 3600 * 1000;

interface JobRow {
  [column: string]: SqlValue;
  id: number;
  app_name: string;
  trigger_status: string;
  next_trigger_time: number | null;
  trigger_last_time: number;
  slow_until: number;
  version: number;
  log_id_block: number | null;
  last_plan_due: number | null;
  prev_plan_due: number | null;
  definition: string;
}

export interface SqliteJobStoreOptions {
  readonly database: EmbeddedDatabase;
  /** Shards of the due list: a due job is in shard `id % shardCount`. */
  readonly shardCount: number;
}

/**
 * Jobs in SQLite, with the DynamoDB store's rules: a running job with a next fire carries
 * `next_trigger_time` and `due_shard` (the partial index the tick reads), a job that is not due keeps
 * neither; saves are conditional on the version and schedule state read, the tick's advance on the
 * next fire read. What is queried or conditioned on is a column, the rest of the job JSON.
 */
export class SqliteJobStore implements JobStore {
  private readonly database: EmbeddedDatabase;
  private readonly shardCount: number;

  constructor(options: SqliteJobStoreOptions) {
    this.database = options.database;
    this.shardCount = options.shardCount;
    this.database.ensureSchema('jobs', SCHEMA);
  }

  async allocateId(): Promise<number> {
    const row = this.sql(
      'INSERT INTO job_id_sequence (singleton, last_id) VALUES (1, 1) ' +
        'ON CONFLICT (singleton) DO UPDATE SET last_id = last_id + 1 RETURNING last_id',
    ).get<{ last_id: number }>();
    return Number(row?.last_id);
  }

  async create(job: Job, plan?: PlanState): Promise<void> {
    const { changes } = this.sql(
      `INSERT INTO jobs (${COLUMNS}, due_shard) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ` +
        'ON CONFLICT (id) DO NOTHING',
    ).run(...this.rowValues(job, plan));
    if (changes === 0) throw new ConflictError(`job ${job.id} already exists`);
  }

  async get(id: number): Promise<Job | undefined> {
    const row = this.sql(`SELECT ${COLUMNS} FROM jobs WHERE id = ?`).get<JobRow>(id);
    return row ? jobOf(row) : undefined;
  }

  async getMany(ids: readonly number[]): Promise<Job[]> {
    return (await this.getPlannable(ids)).map((p) => p.job);
  }

  async getPlannable(ids: readonly number[]): Promise<PlannableJob[]> {
    if (ids.length === 0) return [];
    const rows = this.sql(
      `SELECT ${COLUMNS} FROM jobs WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
    ).all<JobRow>(JSON.stringify([...new Set(ids)]));
    return rows.map(plannableOf);
  }

  async listLastPlans(limit: number, cursor?: string): Promise<Page<PlannableJob>> {
    const after = afterId(decodeCursor(cursor));
    const size = pageLimit(limit);
    const rows = this.sql(
      `SELECT ${COLUMNS} FROM jobs WHERE last_plan_due IS NOT NULL AND id > ? ORDER BY id LIMIT ?`,
    ).all<JobRow>(after, size + 1);
    return pageOfRows(rows, size, plannableOf, (last) => ({ id: last.id }));
  }

  async replace(
    job: Job,
    expected: Pick<Job, 'version' | 'triggerNextTime' | 'triggerStatus'>,
    plan?: PlanState,
  ): Promise<void> {
    // Also conditional on the schedule state that was read, so a write cannot undo a tick's advance.
    const wasDue = expected.triggerStatus === 'RUNNING' && expected.triggerNextTime !== null;
    const [id, ...rest] = this.rowValues(job, plan);
    const { changes } = this.sql(
      'UPDATE jobs SET app_name = ?, trigger_status = ?, next_trigger_time = ?, trigger_last_time = ?, ' +
        'slow_until = ?, version = ?, log_id_block = ?, last_plan_due = ?, prev_plan_due = ?, ' +
        'definition = ?, due_shard = ? ' +
        `WHERE id = ? AND version = ? AND ${wasDue ? 'next_trigger_time = ?' : 'next_trigger_time IS NULL'}`,
    ).run(...rest, id as number, expected.version, ...(wasDue ? [expected.triggerNextTime] : []));
    if (changes > 0) return;
    if ((await this.get(job.id)) === undefined) throw new NotFoundError(`job ${job.id} does not exist`);
    throw new ConflictError(`job ${job.id} was changed meanwhile; read it again and retry`);
  }

  async delete(id: number): Promise<void> {
    const { changes } = this.sql('DELETE FROM jobs WHERE id = ?').run(id);
    if (changes === 0) throw new NotFoundError(`job ${id} does not exist`);
  }

  async list(query: JobQuery): Promise<Page<Job>> {
    const position = decodeCursor(query.cursor);
    // A cursor must come from the same query (all jobs, or this app's), as the DynamoDB store's.
    if (position !== undefined && position.appName !== query.appName) {
      throw new ValidationError('cursor is not a cursor of this query', 'cursor');
    }
    const after = afterId(position);
    const size = pageLimit(query.limit);
    const where = ['id > ?'];
    const params: SqlValue[] = [after];
    if (query.appName !== undefined) {
      where.push('app_name = ?');
      params.push(query.appName);
    }
    if (query.triggerStatus !== undefined) {
      where.push('trigger_status = ?');
      params.push(query.triggerStatus);
    }
    const rows = this.sql(
      `SELECT ${COLUMNS} FROM jobs WHERE ${where.join(' AND ')} ORDER BY id LIMIT ?`,
    ).all<JobRow>(...params, size + 1);
    return pageOfRows(rows, size, jobOf, (last) => ({ appName: query.appName, id: last.id }));
  }

  async existsForApp(appName: string): Promise<boolean> {
    return this.sql('SELECT 1 AS found FROM jobs WHERE app_name = ? LIMIT 1').get(appName) !== undefined;
  }

  async queryDue(shard: number, untilMs: number, limit: number, cursor?: string): Promise<Page<DueJobRef>> {
    const position = decodeCursor(cursor);
    const size = pageLimit(limit);
    const rows = (
      position === undefined
        ? this.sql(
            'SELECT id, next_trigger_time FROM jobs WHERE due_shard = ? AND next_trigger_time < ? ' +
              'ORDER BY next_trigger_time, id LIMIT ?',
          ).all(shard, untilMs, size + 1)
        : this.sql(
            'SELECT id, next_trigger_time FROM jobs WHERE due_shard = ? AND next_trigger_time < ? ' +
              'AND (next_trigger_time > ? OR (next_trigger_time = ? AND id > ?)) ' +
              'ORDER BY next_trigger_time, id LIMIT ?',
          ).all(
            shard,
            untilMs,
            cursorInteger(position.nextTriggerTime),
            cursorInteger(position.nextTriggerTime),
            cursorInteger(position.id),
            size + 1,
          )
    ) as { id: number; next_trigger_time: number }[];
    return pageOfRows(
      rows,
      size,
      (row) => ({ id: row.id, nextTriggerTime: row.next_trigger_time }),
      (last) => ({ nextTriggerTime: last.next_trigger_time, id: last.id }),
    );
  }

  async advanceSchedule(advance: ScheduleAdvance): Promise<boolean> {
    const ended = advance.nextTriggerTime === null;
    const planned = advance.planDue !== undefined;
    // The right-hand sides read the row as it was: the plan before moves down. A plan after a
    // misfire forgets both (nothing of it to re-send). The reserved logIds move on by one block.
    // The count and the end reason live in the job's JSON: set there, in the same statement.
    const definitionSets = [
      ...(advance.scheduledFires === undefined ? [] : ["'$.scheduledFires', ?"]),
      ...(advance.ended === undefined ? [] : ["'$.scheduleEnded', json(?)"]),
    ];
    const { changes } = this.sql(
      'UPDATE jobs SET trigger_last_time = ?, log_id_block = ?, ' +
        (ended
          ? "trigger_status = 'STOPPED', next_trigger_time = NULL, due_shard = NULL, "
          : 'next_trigger_time = ?, ') +
        (definitionSets.length > 0
          ? `definition = json_set(definition, ${definitionSets.join(', ')}), `
          : '') +
        (planned
          ? 'prev_plan_due = last_plan_due, last_plan_due = ? '
          : 'prev_plan_due = NULL, last_plan_due = NULL ') +
        "WHERE id = ? AND trigger_status = 'RUNNING' AND next_trigger_time = ?",
    ).run(
      advance.triggerLastTime,
      advance.nextLogIdBlock,
      ...(ended ? [] : [advance.nextTriggerTime]),
      ...(advance.scheduledFires === undefined ? [] : [advance.scheduledFires]),
      ...(advance.ended === undefined ? [] : [JSON.stringify(advance.ended)]),
      ...(planned ? [advance.planDue] : []),
      advance.id,
      advance.expectedNext,
    );
    return changes > 0;
  }

  async markSlow(id: number, untilMs: number): Promise<void> {
    this.sql('UPDATE jobs SET slow_until = ? WHERE id = ?').run(untilMs, id);
  }

  async getOutcomeHistory(id: number): Promise<OutcomeHistory | undefined> {
    const row = this.sql('SELECT history FROM job_outcomes WHERE job_id = ?').get<{ history: string }>(id);
    return row ? (JSON.parse(row.history) as OutcomeHistory) : undefined;
  }

  async putOutcomeHistory(id: number, history: OutcomeHistory, expectedRevision: number): Promise<boolean> {
    const { changes } =
      expectedRevision === 0
        ? this.sql(
            'INSERT INTO job_outcomes (job_id, revision, history) VALUES (?, ?, ?) ON CONFLICT (job_id) DO NOTHING',
          ).run(id, history.revision, JSON.stringify(history))
        : this.sql('UPDATE job_outcomes SET revision = ?, history = ? WHERE job_id = ? AND revision = ?').run(
            history.revision,
            JSON.stringify(history),
            id,
            expectedRevision,
          );
    return changes > 0;
  }

  async claimFiresUnexplained(id: number, windowStart: number): Promise<boolean> {
    this.sql('DELETE FROM job_unexplained_fires WHERE job_id = ? AND window_start < ?').run(
      id,
      windowStart - DEADLINE_MISS_KEPT_MS,
    );
    const { changes } = this.sql(
      'INSERT INTO job_unexplained_fires (job_id, window_start) VALUES (?, ?) ON CONFLICT DO NOTHING',
    ).run(id, windowStart);
    return changes > 0;
  }

  async claimDeadlineMiss(id: number, deadlineAt: number): Promise<boolean> {
    // Old claims go with a new one: a window is never checked again after a week.
    this.sql('DELETE FROM job_deadline_misses WHERE job_id = ? AND deadline_at < ?').run(
      id,
      deadlineAt - DEADLINE_MISS_KEPT_MS,
    );
    const { changes } = this.sql(
      'INSERT INTO job_deadline_misses (job_id, deadline_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
    ).run(id, deadlineAt);
    return changes > 0;
  }

  /** The row's values in COLUMNS order, then `due_shard` (a job that is not due keeps no next fire). */
  private rowValues(job: Job, plan: PlanState = {}): SqlValue[] {
    const {
      id,
      appName,
      triggerStatus,
      triggerNextTime,
      triggerLastTime,
      slowUntil,
      version,
      ...definition
    } = job;
    const due = triggerStatus === 'RUNNING' && triggerNextTime !== null;
    return [
      id,
      appName,
      triggerStatus,
      due ? triggerNextTime : null,
      triggerLastTime,
      slowUntil,
      version,
      plan.logIdBlock ?? null,
      plan.lastPlanDue ?? null,
      plan.prevPlanDue ?? null,
      JSON.stringify(definition),
      due ? id % this.shardCount : null,
    ];
  }

  private sql(text: string) {
    return this.database.db.prepare(text);
  }
}

function jobOf(row: JobRow): Job {
  return {
    ...(JSON.parse(row.definition) as Omit<
      Job,
      'id' | 'appName' | 'triggerStatus' | 'triggerNextTime' | 'triggerLastTime' | 'slowUntil' | 'version'
    >),
    id: row.id,
    appName: row.app_name,
    triggerStatus: row.trigger_status as Job['triggerStatus'],
    triggerNextTime: row.next_trigger_time,
    triggerLastTime: row.trigger_last_time,
    slowUntil: row.slow_until,
    version: row.version,
  };
}

function plannableOf(row: JobRow): PlannableJob {
  return {
    job: jobOf(row),
    ...(row.log_id_block === null ? {} : { logIdBlock: row.log_id_block }),
    ...(row.last_plan_due === null ? {} : { lastPlanDue: row.last_plan_due }),
    ...(row.prev_plan_due === null ? {} : { prevPlanDue: row.prev_plan_due }),
  };
}

/** The id a cursor stopped after (none: from the start). */
function afterId(position: Record<string, unknown> | undefined): number {
  return position === undefined ? Number.MIN_SAFE_INTEGER : cursorInteger(position.id);
}
