import type { Calendar, CalendarQuery, CalendarStore } from '@tickring/core/calendars';
import { ConflictError, NotFoundError, ValidationError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import type { EmbeddedDatabase, SqlValue } from './database.js';
import { decodeCursor, pageLimit, pageOfRows } from './page-cursor.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS calendars (
  id TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  -- The whole calendar as JSON: it is read and written as one (at most ~200 KB).
  body TEXT NOT NULL
);
`;

interface CalendarRow {
  [column: string]: SqlValue;
  id: string;
  version: number;
  body: string;
}

/** Calendars in SQLite, one row each; every change is conditional on the version read. */
export class SqliteCalendarStore implements CalendarStore {
  constructor(private readonly options: { database: EmbeddedDatabase }) {
    options.database.ensureSchema('calendars', SCHEMA);
  }

  async create(calendar: Calendar): Promise<void> {
    const { changes } = this.sql(
      'INSERT INTO calendars (id, version, body) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING',
    ).run(calendar.id, calendar.version, JSON.stringify(calendar));
    if (changes === 0) throw new ConflictError(`calendar ${calendar.id} already exists`);
  }

  async get(id: string): Promise<Calendar | undefined> {
    const row = this.sql('SELECT id, version, body FROM calendars WHERE id = ?').get<CalendarRow>(id);
    return row ? calendarOf(row) : undefined;
  }

  async list(query: CalendarQuery): Promise<Page<Calendar>> {
    const after = decodeCursor(query.cursor)?.id;
    if (after !== undefined && typeof after !== 'string') {
      throw new ValidationError('cursor is not a cursor of this query', 'cursor');
    }
    const limit = pageLimit(query.limit);
    const rows = this.sql(
      'SELECT id, version, body FROM calendars WHERE id > ? ORDER BY id LIMIT ?',
    ).all<CalendarRow>(after ?? '', limit + 1);
    return pageOfRows(rows, limit, calendarOf, (last) => ({ id: last.id }));
  }

  async update(next: Calendar, expectedVersion: number): Promise<void> {
    const { changes } = this.sql(
      'UPDATE calendars SET version = ?, body = ? WHERE id = ? AND version = ?',
    ).run(next.version, JSON.stringify(next), next.id, expectedVersion);
    if (changes === 0) this.refuse(next.id, expectedVersion);
  }

  async delete(id: string, expectedVersion: number): Promise<void> {
    const { changes } = this.sql('DELETE FROM calendars WHERE id = ? AND version = ?').run(
      id,
      expectedVersion,
    );
    if (changes === 0) this.refuse(id, expectedVersion);
  }

  /** Why a conditional write changed nothing: the calendar is gone, or at another version. */
  private refuse(id: string, expectedVersion: number): never {
    const row = this.sql('SELECT version FROM calendars WHERE id = ?').get<{ version: number }>(id);
    if (!row) throw new NotFoundError(`calendar ${id} does not exist`);
    throw new ConflictError(`calendar ${id} is at version ${row.version}, not ${expectedVersion}`);
  }

  private sql(text: string) {
    return this.options.database.db.prepare(text);
  }
}

function calendarOf(row: CalendarRow): Calendar {
  return JSON.parse(row.body) as Calendar;
}
