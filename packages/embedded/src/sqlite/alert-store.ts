import type { Alert, AlertChannel, AlertQuery, AlertSilence, AlertStore } from '@tickring/core/alerts';
import { ConflictError, NotFoundError, ValidationError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import type { EmbeddedDatabase, SqlValue } from './database.js';
import { cursorInteger, decodeCursor, pageLimit, pageOfRows } from './page-cursor.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS alert_channels (
  id TEXT PRIMARY KEY,
  revision INTEGER NOT NULL,
  -- The channel as JSON (its secret only sealed).
  body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS alert_silences (
  id TEXT PRIMARY KEY,
  body TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS alerts (
  id TEXT PRIMARY KEY,
  job_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  first_at INTEGER NOT NULL,
  -- NULL once the delivery sweep has nothing left to do on it.
  due_at INTEGER,
  revision INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS alerts_due ON alerts (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS alerts_newest ON alerts (first_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS alerts_by_job ON alerts (job_id, first_at DESC, id DESC);
`;

interface BodyRow {
  [column: string]: SqlValue;
  id: string;
  first_at: number;
  body: string;
}

/** Alert channels, silences and alerts in SQLite: a JSON body per row, with the columns the reads select on. */
export class SqliteAlertStore implements AlertStore {
  constructor(private readonly options: { database: EmbeddedDatabase }) {
    options.database.ensureSchema('alerts', SCHEMA);
  }

  async createChannel(channel: AlertChannel): Promise<void> {
    const { changes } = this.sql(
      'INSERT INTO alert_channels (id, revision, body) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    ).run(channel.id, channel.revision, JSON.stringify(channel));
    if (changes === 0) throw new ConflictError(`alert channel ${channel.id} already exists`);
  }

  async getChannel(id: string): Promise<AlertChannel | undefined> {
    const row = this.sql('SELECT body FROM alert_channels WHERE id = ?').get<{ body: string }>(id);
    return row ? (JSON.parse(row.body) as AlertChannel) : undefined;
  }

  async listChannels(): Promise<AlertChannel[]> {
    return this.sql('SELECT body FROM alert_channels ORDER BY id')
      .all<{ body: string }>()
      .map((row) => JSON.parse(row.body) as AlertChannel);
  }

  async updateChannel(next: AlertChannel, expectedRevision: number): Promise<void> {
    const { changes } = this.sql(
      'UPDATE alert_channels SET revision = ?, body = ? WHERE id = ? AND revision = ?',
    ).run(next.revision, JSON.stringify(next), next.id, expectedRevision);
    if (changes === 0) this.refuse('alert_channels', 'alert channel', next.id, expectedRevision);
  }

  async deleteChannel(id: string): Promise<void> {
    const { changes } = this.sql('DELETE FROM alert_channels WHERE id = ?').run(id);
    if (changes === 0) throw new NotFoundError(`alert channel ${id} does not exist`);
  }

  async createSilence(silence: AlertSilence): Promise<void> {
    const { changes } = this.sql(
      'INSERT INTO alert_silences (id, body) VALUES (?, ?) ON CONFLICT DO NOTHING',
    ).run(silence.id, JSON.stringify(silence));
    if (changes === 0) throw new ConflictError(`alert silence ${silence.id} already exists`);
  }

  async listSilences(): Promise<AlertSilence[]> {
    return this.sql('SELECT body FROM alert_silences ORDER BY id')
      .all<{ body: string }>()
      .map((row) => JSON.parse(row.body) as AlertSilence);
  }

  async deleteSilence(id: string): Promise<void> {
    const { changes } = this.sql('DELETE FROM alert_silences WHERE id = ?').run(id);
    if (changes === 0) throw new NotFoundError(`alert silence ${id} does not exist`);
  }

  async createAlert(alert: Alert): Promise<void> {
    const { changes } = this.sql(
      'INSERT INTO alerts (id, job_id, kind, first_at, due_at, revision, body) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    ).run(
      alert.id,
      alert.jobId,
      alert.kind,
      alert.firstAt,
      alert.dueAt ?? null,
      alert.revision,
      JSON.stringify(alert),
    );
    if (changes === 0) throw new ConflictError(`alert ${alert.id} already exists`);
  }

  async getAlert(id: string): Promise<Alert | undefined> {
    const row = this.sql('SELECT body FROM alerts WHERE id = ?').get<{ body: string }>(id);
    return row ? (JSON.parse(row.body) as Alert) : undefined;
  }

  async updateAlert(next: Alert, expectedRevision: number): Promise<void> {
    const { changes } = this.sql(
      'UPDATE alerts SET due_at = ?, revision = ?, body = ? WHERE id = ? AND revision = ?',
    ).run(next.dueAt ?? null, next.revision, JSON.stringify(next), next.id, expectedRevision);
    if (changes === 0) this.refuse('alerts', 'alert', next.id, expectedRevision);
  }

  async listDueAlerts(beforeMs: number, limit: number): Promise<Alert[]> {
    return this.sql(
      'SELECT body FROM alerts WHERE due_at IS NOT NULL AND due_at < ? ORDER BY due_at, id LIMIT ?',
    )
      .all<{ body: string }>(beforeMs, limit)
      .map((row) => JSON.parse(row.body) as Alert);
  }

  async listAlerts(query: AlertQuery): Promise<Page<Alert>> {
    const limit = pageLimit(query.limit);
    const where: string[] = [];
    const args: SqlValue[] = [];
    const filter = (clause: string, value: SqlValue | undefined) => {
      if (value === undefined) return;
      where.push(clause);
      args.push(value);
    };
    filter('job_id = ?', query.jobId);
    filter('kind = ?', query.kind);
    // The state is fixed when the alert is created: read from its body, in the same scan.
    filter("json_extract(body, '$.state') = ?", query.state);
    filter('first_at >= ?', query.from);
    filter('first_at < ?', query.to);
    const after = decodeCursor(query.cursor);
    if (after !== undefined) {
      if (typeof after.id !== 'string')
        throw new ValidationError('cursor is not a cursor of this query', 'cursor');
      where.push('(first_at < ? OR (first_at = ? AND id < ?))');
      const firstAt = cursorInteger(after.firstAt);
      args.push(firstAt, firstAt, after.id);
    }
    const rows = this.sql(
      `SELECT id, first_at, body FROM alerts ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY first_at DESC, id DESC LIMIT ?`,
    ).all<BodyRow>(...args, limit + 1);
    return pageOfRows(
      rows,
      limit,
      (row) => JSON.parse(row.body) as Alert,
      (last) => ({ firstAt: last.first_at, id: last.id }),
    );
  }

  private refuse(table: string, what: string, id: string, expected: number): never {
    const row = this.sql(`SELECT revision FROM ${table} WHERE id = ?`).get<{ revision: number }>(id);
    if (!row) throw new NotFoundError(`${what} ${id} does not exist`);
    throw new ConflictError(`${what} ${id} is at revision ${row.revision}, not ${expected}`);
  }

  private sql(text: string) {
    return this.options.database.db.prepare(text);
  }
}
