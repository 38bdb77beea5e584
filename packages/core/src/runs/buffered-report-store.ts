import type { Logger } from '../common/logger.js';
import type { ReportDelta, ReportStore } from './alarms.js';

type Counter = keyof ReportDelta;
const COUNTERS: readonly Counter[] = ['running', 'success', 'fail', 'skipped'];

/**
 * A {@link ReportStore} that sums the deltas in memory and writes them on {@link flush}, one `add`
 * per day with the day's total, instead of one write per run. Build one per process (cold start)
 * around the real store (one `add` per day and group) and flush it once per request or batch, before answering: whatever was
 * added and not flushed when the process dies is not counted, which is already what the counters
 * promise (best-effort, a crash under-counts). `range` reads the real store (unflushed deltas are
 * not in it).
 */
export class BufferedReportStore implements ReportStore {
  private pending = new Map<string, Record<Counter, number>>();
  /** The flush in progress; the next one starts when it is done. */
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly inner: ReportStore) {}

  async add(day: string, delta: ReportDelta, appName?: string): Promise<void> {
    const key = keyOf(day, appName);
    let sums = this.pending.get(key);
    if (!sums) {
      sums = { running: 0, success: 0, fail: 0, skipped: 0 };
      this.pending.set(key, sums);
    }
    for (const counter of COUNTERS) sums[counter] += delta[counter] ?? 0;
  }

  range(fromDay: string, toDay: string, appNames?: readonly string[]): ReturnType<ReportStore['range']> {
    return this.inner.range(fromDay, toDay, appNames);
  }

  /** Days (of a group) with deltas not written yet. */
  get pendingDays(): number {
    return this.pending.size;
  }

  /**
   * Writes what was added before this call, one `add` per day (days whose deltas cancel out are
   * skipped), after any flush still in progress. Rejects naming the days not written; their deltas
   * are dropped, as a failed direct `add` would have dropped them (a write that failed may still
   * have been applied, so writing it again could count twice).
   */
  flush(): Promise<void> {
    const done = this.flushing.then(() => this.writePending());
    this.flushing = done.catch(() => undefined);
    return done;
  }

  /** {@link flush}, logging a failure instead of rejecting: for handlers, whose answer must not depend on it. */
  flushOrLog(logger: Pick<Logger, 'error'>): Promise<void> {
    return this.flush().catch((err: unknown) => {
      logger.error('report counters not updated', {
        error: err instanceof Error ? err.message : String(err),
      });
    });
  }

  private async writePending(): Promise<void> {
    const batch = [...this.pending].filter(([, sums]) => COUNTERS.some((c) => sums[c] !== 0));
    this.pending = new Map();
    const results = await Promise.allSettled(
      batch.map(([key, sums]) => {
        const { day, appName } = parseKey(key);
        return this.inner.add(day, withoutZeros(sums), appName);
      }),
    );
    const failed = batch.flatMap(([key], i) =>
      results[i]?.status === 'rejected' ? [parseKey(key).day] : [],
    );
    if (failed.length > 0) {
      const first = results.find((r) => r.status === 'rejected');
      throw new Error(
        `report counters of ${[...new Set(failed)].join(', ')} not written: ${String(first?.reason instanceof Error ? first.reason.message : first?.reason)}`,
        { cause: first?.reason },
      );
    }
  }
}

/** One pending sum per day and group (a day's sum without a group: `day` alone). */
function keyOf(day: string, appName: string | undefined): string {
  return appName === undefined ? day : `${day}\n${appName}`;
}

function parseKey(key: string): { day: string; appName?: string } {
  const cut = key.indexOf('\n');
  return cut < 0 ? { day: key } : { day: key.slice(0, cut), appName: key.slice(cut + 1) };
}

function withoutZeros(sums: Record<Counter, number>): ReportDelta {
  return Object.fromEntries(COUNTERS.filter((c) => sums[c] !== 0).map((c) => [c, sums[c]]));
}
