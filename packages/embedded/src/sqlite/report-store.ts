import {
  type DailyReport,
  dailyReport,
  daysBetween,
  MAX_REPORT_RANGE_DAYS,
  type ReportDelta,
  type ReportStore,
} from '@tickring/core/runs';
import type { EmbeddedDatabase } from './database.js';

export type { DailyReport } from '@tickring/core/runs';

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
    const days = daysBetween(fromDay, toDay, MAX_REPORT_RANGE_DAYS);
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
      return dailyReport(day, (counter) => Number(row?.[counter] ?? 0));
    });
  }
}
