import {
  type DailyReport,
  dailyReport,
  daysBetween,
  REPORT_COUNTERS,
  type ReportCounter,
  type ReportDelta,
  type ReportStore,
} from '@tickring/core/runs';

type Counters = Record<ReportCounter, number>;

/** Daily run counters in memory, of every group (by day) and of each group (by day and appName). */
export class MemoryReportStore implements ReportStore {
  /** The counters of `{day}` and of `{day}#{appName}`. */
  readonly counters = new Map<string, Counters>();

  async add(day: string, delta: ReportDelta, appName?: string): Promise<void> {
    for (const key of appName === undefined ? [day] : [day, `${day}#${appName}`]) {
      const counters = this.counters.get(key) ?? { running: 0, success: 0, fail: 0, skipped: 0 };
      for (const counter of REPORT_COUNTERS) counters[counter] += delta[counter] ?? 0;
      this.counters.set(key, counters);
    }
  }

  async range(fromDay: string, toDay: string, appNames?: readonly string[]): Promise<DailyReport[]> {
    return daysBetween(fromDay, toDay).map((day) => {
      const found = (appNames === undefined ? [day] : appNames.map((app) => `${day}#${app}`)).flatMap(
        (key) => this.counters.get(key) ?? [],
      );
      return dailyReport(day, (counter) => found.reduce((n, c) => n + c[counter], 0));
    });
  }
}
