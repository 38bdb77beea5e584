import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '@tickring/core/common';
import type { ReportDelta, ReportStore } from '@tickring/core/runs';
import { batchGetAll } from './util.js';

const DAY_MS = 86_400_000;
/** Most days one `range` reads (a bit over a year). */
const MAX_RANGE_DAYS = 400;
const COUNTERS = ['running', 'success', 'fail', 'skipped'] as const;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export interface DailyReport {
  readonly day: string;
  readonly running: number;
  readonly success: number;
  readonly fail: number;
  readonly skipped: number;
}

/**
 * Daily run counters (XXL-JOB's xxl_job_log_report, and the fires skipped as misfires) as
 * `report#{day}` items in the control table, and per group as `report#{day}#{appName}`, moved with
 * atomic ADDs (every counter of a delta in one), so concurrent callbacks never lose a count.
 */
export class DynamoReportStore implements ReportStore {
  constructor(private readonly options: { doc: DynamoDBDocumentClient; controlTable: string }) {}

  async add(day: string, delta: ReportDelta, appName?: string): Promise<void> {
    const names: Record<string, string> = {};
    const values: Record<string, number> = {};
    const parts: string[] = [];
    for (const counter of COUNTERS) {
      const value = delta[counter];
      if (value === undefined || value === 0) continue;
      names[`#${counter}`] = counter;
      values[`:${counter}`] = value;
      parts.push(`#${counter} :${counter}`);
    }
    if (parts.length === 0) return;
    const keys = appName === undefined ? [reportKey(day)] : [reportKey(day), reportKey(day, appName)];
    await Promise.all(
      keys.map((pk) =>
        this.options.doc.send(
          new UpdateCommand({
            TableName: this.options.controlTable,
            Key: { pk },
            UpdateExpression: `ADD ${parts.join(', ')}`,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          }),
        ),
      ),
    );
  }

  async range(fromDay: string, toDay: string, appNames?: readonly string[]): Promise<DailyReport[]> {
    const days = daysBetween(fromDay, toDay);
    const keysOf = (day: string) =>
      appNames === undefined ? [reportKey(day)] : appNames.map((appName) => reportKey(day, appName));
    const items = await batchGetAll(
      this.options.doc,
      this.options.controlTable,
      days.flatMap((day) => keysOf(day).map((pk) => ({ pk }))),
    );
    const byKey = new Map<string, Record<string, unknown>>(items.map((item) => [String(item.pk), item]));
    return days.map((day) => {
      const found = keysOf(day).flatMap((pk): Record<string, unknown>[] => {
        const item = byKey.get(pk);
        return item ? [item] : [];
      });
      const sum = (counter: (typeof COUNTERS)[number]): number =>
        found.reduce((n: number, item) => n + Number(item[counter] ?? 0), 0);
      return {
        day,
        running: sum('running'),
        success: sum('success'),
        fail: sum('fail'),
        skipped: sum('skipped'),
      };
    });
  }
}

/** `report#{day}` for every group; `report#{day}#{appName}` for one. */
function reportKey(day: string, appName?: string): string {
  return appName === undefined ? `report#${day}` : `report#${day}#${appName}`;
}

/** Every UTC day from `fromDay` to `toDay` inclusive (YYYY-MM-DD). */
export function daysBetween(fromDay: string, toDay: string): string[] {
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
