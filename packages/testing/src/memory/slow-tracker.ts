import type { SlowTracker } from '@tickring/core/dispatch';

const MINUTE_MS = 60_000;

/** Slow dispatches counted in memory per job and wall-clock minute. */
export class MemorySlowTracker implements SlowTracker {
  /** The count of each `{jobId}#{minute}`. */
  readonly counts = new Map<string, number>();

  async countSlowDispatch(jobId: number, nowMs: number): Promise<number> {
    const key = `${jobId}#${Math.floor(nowMs / MINUTE_MS)}`;
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return count;
  }
}
