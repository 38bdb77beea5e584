import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type DailyReport,
  dailyReport,
  daysBetween,
  MAX_REPORT_RANGE_DAYS,
  REPORT_COUNTERS,
  type ReportDelta,
  type ReportStore,
} from '@tickring/core/runs';
import { batchGetAll } from './util.js';

export type { DailyReport } from '@tickring/core/runs';

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
    for (const counter of REPORT_COUNTERS) {
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
    const days = daysBetween(fromDay, toDay, MAX_REPORT_RANGE_DAYS);
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
      return dailyReport(day, (counter) =>
        found.reduce((n: number, item) => n + Number(item[counter] ?? 0), 0),
      );
    });
  }
}

/** `report#{day}` for every group; `report#{day}#{appName}` for one. */
function reportKey(day: string, appName?: string): string {
  return appName === undefined ? `report#${day}` : `report#${day}#${appName}`;
}
