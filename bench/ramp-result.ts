import type { BenchStore } from './bench-stack.js';

/** What a ramp series ran on: tickring on one of its stores, or the BullMQ + Redis peer. */
export type RampSystem = BenchStore | 'bullmq';

/** CPU seconds per wall second in a step's window. */
export interface RampStepCpu {
  /** The whole node process (the stack or the BullMQ worker, the executors' threads, the runtime's threads). */
  readonly node: number;
  /** Its main thread (NaN when /proc does not tell). */
  readonly main: number;
  /** The executors' worker threads (tickring only; NaN otherwise). */
  readonly executors: number;
  /** The store's own process: DynamoDB Local's JVM or redis-server (NaN for SQLite, in process). */
  readonly store: number;
}

/** One step of a ramp: a window at one offered rate, counted once the whole ramp has settled. */
export interface RampStep {
  /** Fires offered per second: the jobs (schedulers) firing every second during the window. */
  readonly offered: number;
  readonly seconds: number;
  readonly window: { readonly start: string; readonly end: string };
  /** Fires the schedules demand with a scheduled time in the window. */
  readonly expected: number;
  /** Distinct window fires whose handler ran. */
  readonly executed: number;
  /** Window fires recorded as skipped (tickring's skipped runs, `skippedCount` fires each), not run. */
  readonly skipped: number;
  /** Window fires not run that tickring recorded as failed triggers (refused, or no answer in time); 0 for BullMQ. */
  readonly failed: number;
  /** Window fires neither run nor recorded as skipped or failed (BullMQ's silently skipped iterations among them). */
  readonly missed: number;
  readonly duplicates: number;
  readonly outOfOrder: number;
  /** `executed` / `seconds`. */
  readonly executedPerSecond: number;
  /** Handler receipt − scheduled time over the executed window fires, ms. */
  readonly latenessMs: {
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
    readonly max: number;
  };
  /** tickring only (null otherwise): the tick's MisfiresSkipped in the window, one per job plan that gave missed fires up unrecorded. */
  readonly tickMisfireSkips: number | null;
  /** tickring only (null otherwise): the dispatcher's FiresSkippedOverload in the window (by when it was counted). */
  readonly skippedOverloadMetric: number | null;
  readonly cpuCores: RampStepCpu;
  /** The 1-minute load average at the window's end: the machine is shared. */
  readonly loadAverage: number;
  /** Adding this step's jobs (schedulers) before its warm-up, s. */
  readonly setupSeconds: number;
}

/** Whether executed fires/s held up with the offered load beyond what the system sustained. */
export interface OverloadVerdict {
  /** The highest executed/s of a clean step (nothing skipped, missed, twice or out of order); NaN if none. */
  readonly sustainedPerSecond: number;
  /** The lowest executed/s of the steps offered more than `sustainedPerSecond`; NaN if none. */
  readonly lowestBeyondPerSecond: number;
  /** `lowestBeyondPerSecond` / `sustainedPerSecond`. */
  readonly ratio: number;
  /** The highest step's offered rate / `sustainedPerSecond`. */
  readonly offeredUpTo: number;
  /** `ratio` >= the target (0.9); null when there is no clean step or none beyond it. */
  readonly holds: boolean | null;
}

/** Where the ramp's top came from: `--ramp-max`, or a knee search on the store in the same run. */
export interface RampKnee {
  readonly rate: number;
  readonly source: 'given' | 'search';
  /** The search's steps, when searched. */
  readonly search?: readonly {
    readonly jobs: number;
    readonly clean: boolean;
    readonly missed: number;
    readonly latenessP99Ms: number;
    readonly loadAverage: number;
  }[];
}

export interface RampSeries {
  /** The chart's and tables' name of the series, e.g. "tickring on SQLite". */
  readonly name: string;
  readonly system: RampSystem;
  /** tickring: the knee its ramp climbed to 3× of; BullMQ: the knee of the plan it followed. */
  readonly knee: RampKnee;
  readonly overload: OverloadVerdict;
  readonly steps: readonly RampStep[];
  /** Details: versions, settings, and what the counting noticed (skip ranges whose count and end disagree). */
  readonly details: Readonly<Record<string, unknown>>;
}

/** `.bench/ramp.json`: what `--ramp-chart` draws. */
export interface RampFile {
  readonly mode: 'ramp';
  /** `npm run bench -- …` as typed. */
  readonly command: string;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly machine: string;
  /** 1-minute load average at the start, the end, and its range over the steps. */
  readonly loadAverage: {
    readonly start: number;
    readonly end: number;
    readonly min: number;
    readonly max: number;
  };
  readonly series: readonly RampSeries[];
}

/** The target: beyond the knee, executed fires/s stay at least this share of the sustained rate. */
export const GRACEFUL_SHARE = 0.9;
