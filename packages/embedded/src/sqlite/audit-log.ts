import { randomBytes } from 'node:crypto';
import {
  AUDIT_ID_RANDOM_CHARS,
  type AuditEntry,
  type AuditLog,
  type AuditQuery,
  type AuditRecord,
  auditId,
  auditIdRange,
  auditTimeRange,
  checkAuditAppNames,
  checkAuditRange,
  lastIdOfAuditCursor,
} from '@tickring/core/audit';
import { type Clock, systemClock } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import type { EmbeddedDatabase, SqlValue } from './database.js';
import { ExpirySweep } from './expiry-sweep.js';
import { pageLimit, pageOfRows } from './page-cursor.js';

/** Attempts at a fresh id when one is taken (two random 80-bit parts alike: never, in practice). */
const MAX_INSERT_ATTEMPTS = 3;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS audit_records (
  -- A ULID: time then randomness, so the key order is the time order.
  id TEXT PRIMARY KEY,
  target TEXT NOT NULL,
  action TEXT NOT NULL,
  actor_id TEXT NOT NULL,
  actor_name TEXT NOT NULL,
  app_name TEXT,
  -- The whole record, as JSON.
  record TEXT NOT NULL,
  -- Epoch seconds, the DynamoDB adapter's TTL value.
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS audit_records_by_target ON audit_records (target, id);
CREATE INDEX IF NOT EXISTS audit_records_by_expiry ON audit_records (expires_at);
`;

export interface SqliteAuditLogOptions {
  readonly database: EmbeddedDatabase;
  /** Records are deleted this many days after the change; lists look no further back. */
  readonly retentionDays: number;
  /** "Now" of the default time range, the retention bound and the expiry sweep. */
  readonly clock?: Clock;
  /** Random bytes for the ids (tests may fix them). */
  readonly random?: (size: number) => Uint8Array;
}

/**
 * The audit log in SQLite, with the DynamoDB log's rules: ids are ULIDs (time, then randomness), a
 * list reads newest first within its time range (by default the last 30 days, never past the
 * retention), and a cursor belongs to its list (of every record, or of one target). Records past the
 * retention are deleted by a sweep, as DynamoDB's TTL does.
 */
export class SqliteAuditLog implements AuditLog {
  private readonly clock: Clock;
  private readonly random: (size: number) => Uint8Array;
  private readonly sweep: ExpirySweep;

  constructor(private readonly options: SqliteAuditLogOptions) {
    options.database.ensureSchema('audit_records', SCHEMA);
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? randomBytes;
    this.sweep = new ExpirySweep(options.database, ['audit_records'], this.clock);
  }

  async append(entry: AuditEntry): Promise<AuditRecord> {
    this.sweep.sweepIfDue();
    const insert = this.sql(
      'INSERT INTO audit_records (id, target, action, actor_id, actor_name, app_name, record, expires_at) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
    );
    for (let attempt = 1; ; attempt++) {
      const record: AuditRecord = { id: auditId(entry.at, this.random(AUDIT_ID_RANDOM_CHARS)), ...entry };
      const { changes } = insert.run(
        record.id,
        entry.target,
        entry.action,
        entry.actor.id,
        entry.actor.name,
        entry.appName ?? null,
        JSON.stringify(record),
        Math.floor(entry.at / 1000) + this.options.retentionDays * 86_400,
      );
      if (changes > 0) return structuredClone(record);
      if (attempt >= MAX_INSERT_ATTEMPTS) throw new Error(`audit id ${record.id} drawn ${attempt} times`);
    }
  }

  async list(query: AuditQuery): Promise<Page<AuditRecord>> {
    checkAuditRange(query);
    const before = lastIdOfAuditCursor(query.cursor, query.target);
    checkAuditAppNames(query);
    if (query.appNames !== undefined && query.appNames.length === 0) return { items: [] };
    const { from, to } = auditTimeRange(query, this.clock.now(), this.options.retentionDays);
    if (from > to) return { items: [] };
    // The ids of the range's first and last millisecond bound it (an id's time part is its record's).
    const { low, high } = auditIdRange(from, to);
    const where = ['id BETWEEN ? AND ?'];
    const params: SqlValue[] = [low, high];
    const filter = (clause: string, ...values: SqlValue[]) => {
      where.push(clause);
      params.push(...values);
    };
    if (before !== undefined) filter('id < ?', before);
    if (query.target !== undefined) filter('target = ?', query.target);
    if (query.actor !== undefined) filter('(actor_name = ? OR actor_id = ?)', query.actor, query.actor);
    if (query.action?.endsWith('*')) {
      const prefix = query.action.slice(0, -1);
      filter('substr(action, 1, ?) = ?', prefix.length, prefix);
    } else if (query.action !== undefined) {
      filter('action = ?', query.action);
    }
    if (query.appName !== undefined) filter('app_name = ?', query.appName);
    if (query.appNames !== undefined) {
      filter('app_name IN (SELECT value FROM json_each(?))', JSON.stringify(query.appNames));
    }
    if (query.onlyGrouped === true) filter('app_name IS NOT NULL');
    const size = pageLimit(query.limit);
    const rows = this.sql(
      `SELECT id, record FROM audit_records WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`,
    ).all<{ id: string; record: string }>(...params, size + 1);
    return pageOfRows(
      rows,
      size,
      (row) => JSON.parse(row.record) as AuditRecord,
      (last) => ({ target: query.target, id: last.id }),
    );
  }

  private sql(text: string) {
    return this.options.database.db.prepare(text);
  }
}
