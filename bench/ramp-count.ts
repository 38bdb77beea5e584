import { TRIGGER_CODE } from '@tickring/core/runs';
import { nextFireAfter, type Schedule } from '@tickring/core/schedule';
import { countFires, type Fire, fireKey, type Receipt, type TimeWindow } from './fire-count.js';
import { GRACEFUL_SHARE, type OverloadVerdict, type RampStep } from './ramp-result.js';

/** What the counting reads of a run recorded as skipped (tickring's Run, by its fields). */
export interface SkippedRunHead {
  readonly jobId: number;
  readonly triggerCode: number;
  readonly scheduledTime: number;
  /** How many fires of its job the skipped run stands for; absent: 1. */
  readonly skippedCount?: number;
  /** The scheduled time of the last of them; absent: `scheduledTime`. */
  readonly skippedUntil?: number;
}

export interface SkippedFires {
  /** fireKey of every fire a skipped run stands for. */
  readonly keys: ReadonlySet<string>;
  /** Fires counted: the sum of `skippedCount ?? 1` over the skipped runs. */
  readonly count: number;
  /** Ranges whose `skippedCount` fires from `scheduledTime` do not end at `skippedUntil` (each still counted by its count). */
  readonly mismatchedRanges: number;
}

/**
 * The fires the skipped runs stand for: a run recorded as skipped (triggerCode 600) stands for
 * `skippedCount ?? 1` fires of its job, its schedule's consecutive fires from its `scheduledTime`
 * (a contiguous range, recorded in aggregate). Runs of another trigger code are not skipped fires.
 */
export function skippedFires(runs: readonly SkippedRunHead[], schedule: Schedule): SkippedFires {
  const keys = new Set<string>();
  let count = 0;
  let mismatchedRanges = 0;
  for (const run of runs) {
    if (run.triggerCode !== TRIGGER_CODE.skipped) continue;
    const fires = run.skippedCount ?? 1;
    count += fires;
    let at: number | null = run.scheduledTime;
    let last = at;
    for (let i = 0; i < fires && at !== null; i++) {
      keys.add(fireKey(run.jobId, at));
      last = at;
      at = nextFireAfter(schedule, at);
    }
    if (last !== (run.skippedUntil ?? run.scheduledTime)) mismatchedRanges++;
  }
  return { keys, count, mismatchedRanges };
}

/** What one step's window became, before its CPU, load and setup are added. */
export type StepCount = Pick<
  RampStep,
  | 'offered'
  | 'seconds'
  | 'expected'
  | 'executed'
  | 'skipped'
  | 'failed'
  | 'missed'
  | 'duplicates'
  | 'outOfOrder'
  | 'executedPerSecond'
  | 'latenessMs'
>;

/**
 * One step's count: of the fires the schedules demand in `window`, those whose handler ran
 * (`receipts`: every run received, in order), those recorded as skipped (`skipped` keys, not run),
 * those recorded as failed without reaching a handler (`failed` keys: the executor refused the
 * request or did not answer in time), and the rest, missed: neither run nor recorded. Lateness is
 * over the executed fires' first runs.
 */
export function countRampStep(
  offered: number,
  window: TimeWindow,
  expected: readonly Fire[],
  receipts: readonly Receipt[],
  skipped: ReadonlySet<string>,
  failed: ReadonlySet<string> = new Set(),
): StepCount {
  const count = countFires(expected, receipts, window);
  const ran = new Set<string>();
  for (const r of receipts) ran.add(fireKey(r.jobId, r.scheduledTime));
  let skippedInWindow = 0;
  let failedInWindow = 0;
  for (const fire of expected) {
    const key = fireKey(fire.jobId, fire.scheduledTime);
    if (ran.has(key)) continue;
    if (skipped.has(key)) skippedInWindow++;
    else if (failed.has(key)) failedInWindow++;
  }
  const seconds = (window.end - window.start) / 1000;
  return {
    offered,
    seconds,
    expected: count.expected,
    executed: count.executed - count.unexpected,
    skipped: skippedInWindow,
    failed: failedInWindow,
    missed: count.missed - skippedInWindow - failedInWindow,
    duplicates: count.duplicates,
    outOfOrder: count.outOfOrder,
    executedPerSecond: (count.executed - count.unexpected) / seconds,
    latenessMs: count.latenessMs,
  };
}

/** A step that ran every fire it offered once, in order. */
export function isClean(
  step: Pick<RampStep, 'skipped' | 'failed' | 'missed' | 'duplicates' | 'outOfOrder'>,
): boolean {
  return (
    step.skipped === 0 &&
    step.failed === 0 &&
    step.missed === 0 &&
    step.duplicates === 0 &&
    step.outOfOrder === 0
  );
}

/**
 * Graceful overload, the target: the sustained rate is the highest executed/s of a clean
 * step; every step offered more than that must still execute at least GRACEFUL_SHARE of it.
 */
export function overloadVerdict(
  steps: readonly Pick<
    RampStep,
    'offered' | 'executedPerSecond' | 'skipped' | 'failed' | 'missed' | 'duplicates' | 'outOfOrder'
  >[],
): OverloadVerdict {
  const clean = steps.filter(isClean).map((s) => s.executedPerSecond);
  const sustained = clean.length > 0 ? Math.max(...clean) : Number.NaN;
  const beyond = steps.filter((s) => s.offered > sustained).map((s) => s.executedPerSecond);
  const lowest = beyond.length > 0 ? Math.min(...beyond) : Number.NaN;
  const top = Math.max(...steps.map((s) => s.offered));
  const ratio = lowest / sustained;
  return {
    sustainedPerSecond: sustained,
    lowestBeyondPerSecond: lowest,
    ratio,
    offeredUpTo: top / sustained,
    holds: Number.isFinite(ratio) ? ratio >= GRACEFUL_SHARE : null,
  };
}
