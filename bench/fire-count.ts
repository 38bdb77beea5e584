import { nextFireAfter, type Schedule } from '@tickring/core/schedule';
import { summarize } from './stats.js';

/** One run of a handler at an executor, as the bench's handler saw it. */
export interface Receipt {
  readonly jobId: number;
  /** The fire's scheduled time (the trigger's `logDateTime`), epoch ms. */
  readonly scheduledTime: number;
  /** When the handler ran, epoch ms. */
  readonly receivedAt: number;
}

/** A fire the schedules demand. */
export interface Fire {
  readonly jobId: number;
  readonly scheduledTime: number;
}

/** The measured window: scheduled times `start <= t < end`, epoch ms. */
export interface TimeWindow {
  readonly start: number;
  readonly end: number;
}

export interface JobSchedule {
  readonly jobId: number;
  readonly schedule: Schedule;
  /** The job's first fire (its `triggerNextTime` when it was created). */
  readonly firstFire: number;
}

export interface FireCount {
  /** Fires the schedules demand inside the window. */
  readonly expected: number;
  /** Distinct window fires that ran (first run of each (jobId, scheduledTime)). */
  readonly executed: number;
  /** Expected fires that never ran. */
  readonly missed: number;
  /** Second and later runs of the same window fire. */
  readonly duplicates: number;
  /** Window runs whose scheduled time is earlier than one already received for the same job. */
  readonly outOfOrder: number;
  /** Window fires that ran but no schedule demands (e.g. a misfire's FIRE_ONCE_NOW fire). */
  readonly unexpected: number;
  /** Receipt time minus scheduled time of each executed window fire's first run, ms. */
  readonly latenessMs: {
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
    readonly max: number;
  };
  /** Executed window fires per second of window. */
  readonly triggersPerSecond: number;
}

export const fireKey = (jobId: number, scheduledTime: number): string => `${jobId}@${scheduledTime}`;

/**
 * The fires of each job inside the window, chained from its first fire with the domain's own
 * `nextFireAfter` (the tick plans them the same way), so any schedule is counted exactly.
 */
export function expectedFires(jobs: readonly JobSchedule[], window: TimeWindow): Fire[] {
  const fires: Fire[] = [];
  for (const job of jobs) {
    for (let t: number | null = job.firstFire; t !== null && t < window.end; ) {
      if (t >= window.start) fires.push({ jobId: job.jobId, scheduledTime: t });
      t = nextFireAfter(job.schedule, t);
    }
  }
  return fires;
}

/**
 * Counts what the executors ran against what the schedules demand. `receipts` are in the order the
 * handlers received them (all of them: fires outside the window only set the order of later ones).
 * A duplicate of the newest fire received for a job is not out of order; a run of an older fire is,
 * whether or not it also ran before.
 */
export function countFires(
  expected: readonly Fire[],
  receipts: readonly Receipt[],
  window: TimeWindow,
): FireCount {
  const inWindow = (t: number) => t >= window.start && t < window.end;
  const firstRuns = new Map<string, Receipt>();
  const newestPerJob = new Map<number, number>();
  let duplicates = 0;
  let outOfOrder = 0;
  for (const r of receipts) {
    const newest = newestPerJob.get(r.jobId);
    if (newest === undefined || r.scheduledTime > newest) newestPerJob.set(r.jobId, r.scheduledTime);
    if (!inWindow(r.scheduledTime)) continue;
    if (newest !== undefined && r.scheduledTime < newest) outOfOrder++;
    const key = fireKey(r.jobId, r.scheduledTime);
    if (firstRuns.has(key)) duplicates++;
    else firstRuns.set(key, r);
  }
  const demanded = new Set(expected.map((f) => fireKey(f.jobId, f.scheduledTime)));
  let missed = 0;
  for (const key of demanded) if (!firstRuns.has(key)) missed++;
  let unexpected = 0;
  for (const key of firstRuns.keys()) if (!demanded.has(key)) unexpected++;
  const lateness = summarize([...firstRuns.values()].map((r) => r.receivedAt - r.scheduledTime));
  return {
    expected: demanded.size,
    executed: firstRuns.size,
    missed,
    duplicates,
    outOfOrder,
    unexpected,
    latenessMs: { p50: lateness.p50, p90: lateness.p90, p99: lateness.p99, max: lateness.max },
    triggersPerSecond: firstRuns.size / ((window.end - window.start) / 1000),
  };
}
