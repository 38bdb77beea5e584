import { ValidationError } from '@tickring/core/common';
import type { ReportDelta, ReportStore } from '@tickring/core/runs';

const DAY_MS = 86_400_000;
const COUNTERS = ['running', 'success', 'fail', 'skipped'] as const;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

type Counters = Record<(typeof COUNTERS)[number], number>;

/** Daily run counters in memory, of every group (by day) and of each group (by day and appName). */
export class MemoryReportStore implements ReportStore {
  /** The counters of `{day}` and of `{day}#{appName}`. */
  readonly counters = new Map<string, Counters>();

  async add(day: string, delta: ReportDelta, appName?: string): Promise<void> {
    for (const key of appName === undefined ? [day] : [day, `${day}#${appName}`]) {
      const counters = this.counters.get(key) ?? { running: 0, success: 0, fail: 0, skipped: 0 };
      for (const counter of COUNTERS) counters[counter] += delta[counter] ?? 0;
      this.counters.set(key, counters);
    }
  }

  async range(
    fromDay: string,
    toDay: string,
    appNames?: readonly string[],
  ): Promise<({ day: string } & Counters)[]> {
    return daysBetween(fromDay, toDay).map((day) => {
      const found = (appNames === undefined ? [day] : appNames.map((app) => `${day}#${app}`)).flatMap(
        (key) => this.counters.get(key) ?? [],
      );
      const sum = (counter: (typeof COUNTERS)[number]) => found.reduce((n, c) => n + c[counter], 0);
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

/** Every UTC day from `fromDay` to `toDay` inclusive (YYYY-MM-DD); ValidationError for a bad range. */
function daysBetween(fromDay: string, toDay: string): string[] {
  const from = parseDay(fromDay, 'fromDay');
  const to = parseDay(toDay, 'toDay');
  if (from > to) throw new ValidationError(`fromDay ${fromDay} is after toDay ${toDay}`, 'fromDay');
  return Array.from({ length: (to - from) / DAY_MS + 1 }, (_, i) =>
    new Date(from + i * DAY_MS).toISOString().slice(0, 10),
  );
}

function parseDay(day: string, field: string): number {
  const ms = DAY_PATTERN.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) {
    throw new ValidationError(`${field} must be a day like 2030-01-31; got ${JSON.stringify(day)}`, field);
  }
  return ms;
}
