import type { Backfill, BackfillQuery, BackfillStore } from '@tickring/core/backfills';
import { ConflictError, NotFoundError, ValidationError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import type { EmbeddedDatabase, SqlValue } from './database.js';
import { decodeCursor, pageLimit, pageOfRows } from './page-cursor.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS backfills (
  id TEXT PRIMARY KEY,
  job_id INTEGER NOT NULL,
  -- 1 until the backfill ends (endedAt): at most one such row per job.
  active INTEGER NOT NULL,
  revision INTEGER NOT NULL,
  -- The whole backfill as JSON: read and written as one (a few KB).
  body TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS backfills_one_active ON backfills (job_id) WHERE active = 1;
CREATE INDEX IF NOT EXISTS backfills_by_job ON backfills (job_id, id);
`;

interface BackfillRow {
  [column: string]: SqlValue;
  id: string;
  body: string;
}

/** Backfills in SQLite, one row each: a partial unique index keeps one active backfill per job. */
export class SqliteBackfillStore implements BackfillStore {
  constructor(private readonly options: { database: EmbeddedDatabase }) {
    options.database.ensureSchema('backfills', SCHEMA);
  }

  async create(backfill: Backfill): Promise<void> {
    const { changes } = this.sql(
      'INSERT INTO backfills (id, job_id, active, revision, body) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    ).run(
      backfill.id,
      backfill.jobId,
      backfill.endedAt === undefined ? 1 : 0,
      backfill.revision,
      JSON.stringify(backfill),
    );
    if (changes > 0) return;
    const active = this.sql('SELECT id FROM backfills WHERE job_id = ? AND active = 1').get<{ id: string }>(
      backfill.jobId,
    );
    if (active) {
      throw new ConflictError(
        `job ${backfill.jobId} has an active backfill, ${active.id}: cancel it or wait for it to end before starting another`,
      );
    }
    throw new ConflictError(`backfill ${backfill.id} already exists`);
  }

  async get(id: string): Promise<Backfill | undefined> {
    const row = this.sql('SELECT id, body FROM backfills WHERE id = ?').get<BackfillRow>(id);
    return row ? backfillOf(row) : undefined;
  }

  async listByJob(jobId: number, query: BackfillQuery): Promise<Page<Backfill>> {
    const before = decodeCursor(query.cursor)?.id;
    if (before !== undefined && typeof before !== 'string') {
      throw new ValidationError('cursor is not a cursor of this query', 'cursor');
    }
    const limit = pageLimit(query.limit);
    const rows =
      before === undefined
        ? this.sql(
            'SELECT id, body FROM backfills WHERE job_id = ? ORDER BY id DESC LIMIT ?',
          ).all<BackfillRow>(jobId, limit + 1)
        : this.sql(
            'SELECT id, body FROM backfills WHERE job_id = ? AND id < ? ORDER BY id DESC LIMIT ?',
          ).all<BackfillRow>(jobId, before, limit + 1);
    return pageOfRows(rows, limit, backfillOf, (last) => ({ id: last.id }));
  }

  async listActive(): Promise<Backfill[]> {
    return this.sql('SELECT id, body FROM backfills WHERE active = 1').all<BackfillRow>().map(backfillOf);
  }

  async update(next: Backfill, expectedRevision: number): Promise<void> {
    const { changes } = this.sql(
      'UPDATE backfills SET active = ?, revision = ?, body = ? WHERE id = ? AND revision = ?',
    ).run(next.endedAt === undefined ? 1 : 0, next.revision, JSON.stringify(next), next.id, expectedRevision);
    if (changes > 0) return;
    const row = this.sql('SELECT revision FROM backfills WHERE id = ?').get<{ revision: number }>(next.id);
    if (!row) throw new NotFoundError(`backfill ${next.id} does not exist`);
    throw new ConflictError(`backfill ${next.id} is at revision ${row.revision}, not ${expectedRevision}`);
  }

  private sql(text: string) {
    return this.options.database.db.prepare(text);
  }
}

function backfillOf(row: BackfillRow): Backfill {
  return JSON.parse(row.body) as Backfill;
}
