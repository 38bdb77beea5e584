import { ValidationError } from '@tickring/core/common';
import type { ReportDelta, ReportStore } from '@tickring/core/runs';
import type { EmbeddedDatabase } from './database.js';

const DAY_MS = 86_400_000;
/** Most days one `range` reads (a bit over a year), as on DynamoDB. */
const MAX_RANGE_DAYS = 400;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS report_days (
  day TEXT PRIMARY KEY,
  running INTEGER NOT NULL,
  success INTEGER NOT NULL,
  fail INTEGER NOT NULL,
  skipped INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS report_group_days (
  day TEXT NOT NULL,
  app_name TEXT NOT NULL,
  running INTEGER NOT NULL,
  success INTEGER NOT NULL,
  fail INTEGER NOT NULL,
  skipped INTEGER NOT NULL,
  PRIMARY KEY (day, app_name)
);
`;

/** Adds a delta to the counters of a day (of every group), creating them at zero. */
const ADD_TO_DAY =
  'INSERT INTO report_days (day, running, success, fail, skipped) VALUES (?, ?, ?, ?, ?) ' +
  'ON CONFLICT (day) DO UPDATE SET running = running + excluded.running, ' +
  'success = success + excluded.success, fail = fail + excluded.fail, skipped = skipped + excluded.skipped';
/** Adds a delta to the counters of a group's day, creating them at zero. */
const ADD_TO_GROUP_DAY =
  'INSERT INTO report_group_days (day, app_name, running, success, fail, skipped) VALUES (?, ?, ?, ?, ?, ?) ' +
  'ON CONFLICT (day, app_name) DO UPDATE SET running = running + excluded.running, ' +
  'success = success + excluded.success, fail = fail + excluded.fail, skipped = skipped + excluded.skipped';

export interface DailyReport {
  readonly day: string;
  readonly running: number;
  readonly success: number;
  readonly fail: number;
  readonly skipped: number;
}

/**
 * Daily run counters (XXL-JOB's xxl_job_log_report, and the fires skipped as misfires) in SQLite: of
 * every group by day, and of each group by day and appName, both moved in one transaction by
 * additive upserts, so concurrent callbacks never lose a count.
 */
export class SqliteReportStore implements ReportStore {
  constructor(private readonly options: { database: EmbeddedDatabase }) {
    options.database.ensureSchema('reports', SCHEMA);
  }

  async add(day: string, delta: ReportDelta, appName?: string): Promise<void> {
    const counts = [delta.running ?? 0, delta.success ?? 0, delta.fail ?? 0, delta.skipped ?? 0];
    if (counts.every((n) => n === 0)) return;
    const { database } = this.options;
    database.transaction(() => {
      database.db.prepare(ADD_TO_DAY).run(day, ...counts);
      if (appName !== undefined) {
        database.db.prepare(ADD_TO_GROUP_DAY).run(day, appName, ...counts);
      }
    });
  }

  async range(fromDay: string, toDay: string, appNames?: readonly string[]): Promise<DailyReport[]> {
    const days = daysBetween(fromDay, toDay);
    const { db } = this.options.database;
    const rows =
      appNames === undefined
        ? db
            .prepare('SELECT day, running, success, fail, skipped FROM report_days WHERE day BETWEEN ? AND ?')
            .all<DailyReport & { [column: string]: string | number }>(fromDay, toDay)
        : db
            .prepare(
              'SELECT day, SUM(running) AS running, SUM(success) AS success, SUM(fail) AS fail, ' +
                'SUM(skipped) AS skipped FROM report_group_days WHERE day BETWEEN ? AND ? ' +
                'AND app_name IN (SELECT value FROM json_each(?)) GROUP BY day',
            )
            .all<DailyReport & { [column: string]: string | number }>(
              fromDay,
              toDay,
              JSON.stringify([...new Set(appNames)]),
            );
    const byDay = new Map(rows.map((row) => [row.day, row]));
    return days.map((day) => {
      const row = byDay.get(day);
      return {
        day,
        running: Number(row?.running ?? 0),
        success: Number(row?.success ?? 0),
        fail: Number(row?.fail ?? 0),
        skipped: Number(row?.skipped ?? 0),
      };
    });
  }
}

/** Every UTC day from `fromDay` to `toDay` inclusive (YYYY-MM-DD); ValidationError for a bad range. */
function daysBetween(fromDay: string, toDay: string): string[] {
  const from = parseDay(fromDay, 'fromDay');
  const to = parseDay(toDay, 'toDay');
  if (from > to) throw new ValidationError(`fromDay ${fromDay} is after toDay ${toDay}`, 'fromDay');
  const count = (to - from) / DAY_MS + 1;
  if (count > MAX_RANGE_DAYS) {
    throw new ValidationError(
      `at most ${MAX_RANGE_DAYS} days can be read at once; asked for ${count}`,
      'fromDay',
    );
  }
  return Array.from({ length: count }, (_, i) => new Date(from + i * DAY_MS).toISOString().slice(0, 10));
}

function parseDay(day: string, field: string): number {
  const ms = DAY_PATTERN.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) {
    throw new ValidationError(`${field} must be a day like 2030-01-31; got ${JSON.stringify(day)}`, field);
  }
  return ms;
}
