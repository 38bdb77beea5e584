/**
 * Log retention per job: how long a job's run records are kept (`logRetentionDays`, else the
 * deployment's TICKRING_LOG_RETENTION_DAYS) and which share of its successful runs is kept that
 * long (`keepSuccessfulRuns`); the others, "sampled-out successes", are kept one day after their
 * trigger so the recent lists and the dashboard still see them. The decision is a hash of the
 * logId, so every store and every retry of a write decides the same.
 */

import type { Problem } from '../common/errors.js';
import { hashFraction } from '../common/hash-fraction.js';
import { previewFireTimes, type Schedule } from '../schedule/index.js';

export const MIN_LOG_RETENTION_DAYS = 1;
export const MAX_LOG_RETENTION_DAYS = 3650;
/** How long a sampled-out success is kept after its trigger. */
export const SAMPLED_OUT_KEEP_DAYS = 1;
const DAY_S = 86_400;
const DAY_MS = DAY_S * 1000;
/** Fires counted one by one over the day ahead; a busier schedule is extrapolated from them. */
const MAX_COUNTED_FIRES = 1440;

/**
 * What a run carries from its job's retention (set at the claim, so a result needs no job read).
 * `days` absent: the deployment default; `successSample` absent: every success is kept.
 */
export interface RunRetention {
  readonly days?: number;
  readonly successSample?: number;
}

/** The run's retention from its job; undefined when the job keeps the deployment default for all runs. */
export function runRetentionOf(job: {
  readonly logRetentionDays?: number;
  readonly keepSuccessfulRuns?: number;
}): RunRetention | undefined {
  const { logRetentionDays: days, keepSuccessfulRuns: sample } = job;
  const successSample = sample !== undefined && sample < 1 ? sample : undefined;
  if (days === undefined && successSample === undefined) return undefined;
  return {
    ...(days === undefined ? {} : { days }),
    ...(successSample === undefined ? {} : { successSample }),
  };
}

/** Whether a success of the run `logId` is kept for the whole retention under `successSample`. */
export function keepsSuccess(logId: number, successSample: number | undefined): boolean {
  return successSample === undefined || hashFraction(`retention#${logId}`) < successSample;
}

/** When the run expires as claimed (epoch s, the TTL attribute's unit): its retention after its trigger. */
export function runExpiresAt(
  run: { readonly triggerTime: number; readonly retention?: RunRetention },
  defaultDays: number,
): number {
  return Math.floor(run.triggerTime / 1000) + (run.retention?.days ?? defaultDays) * DAY_S;
}

/**
 * When the run expires if it succeeds (epoch s): one day after its trigger when its success is
 * sampled out and that is sooner than its claim's expiry; undefined when a success keeps it.
 */
export function sampledOutExpiresAt(
  run: { readonly logId: number; readonly triggerTime: number; readonly retention?: RunRetention },
  defaultDays: number,
): number | undefined {
  if (keepsSuccess(run.logId, run.retention?.successSample)) return undefined;
  const short = Math.floor(run.triggerTime / 1000) + SAMPLED_OUT_KEEP_DAYS * DAY_S;
  return short < runExpiresAt(run, defaultDays) ? short : undefined;
}

/** The problems of the retention fields as given (null clears a field): every one at once. */
export function logRetentionProblems(body: Readonly<Record<string, unknown>>): Problem[] {
  const problems: Problem[] = [];
  const days = body.logRetentionDays;
  if (
    days !== undefined &&
    days !== null &&
    (typeof days !== 'number' ||
      !Number.isInteger(days) ||
      days < MIN_LOG_RETENTION_DAYS ||
      days > MAX_LOG_RETENTION_DAYS)
  ) {
    problems.push({
      field: 'logRetentionDays',
      message: `logRetentionDays must be a whole number of days from ${MIN_LOG_RETENTION_DAYS} to ${MAX_LOG_RETENTION_DAYS} (null: the deployment's default); got ${JSON.stringify(days)}`,
    });
  }
  const sample = body.keepSuccessfulRuns;
  if (
    sample !== undefined &&
    sample !== null &&
    (typeof sample !== 'number' || !Number.isFinite(sample) || sample <= 0 || sample > 1)
  ) {
    problems.push({
      field: 'keepSuccessfulRuns',
      message: `keepSuccessfulRuns must be a share of successful runs to keep, greater than 0 and at most 1 (e.g. 0.1; null or 1: all); got ${JSON.stringify(sample)}`,
    });
  }
  return problems;
}

/**
 * Bytes one run costs in DynamoDB, measured on a typical run (a cron job's scheduled run, its
 * trigger message and a short result): the runs item as `toItem` writes it (about 930 bytes with
 * DynamoDB's 100 bytes of item overhead; the outcome index is sparse, empty once a run is done),
 * its fire record (about 200) and its dispatch-record entry (about 30). See
 * packages/aws/src/dynamodb/runs/run-item-size.test.ts.
 */
export const BYTES_PER_RUN_RECORD = 1150;
/**
 * DynamoDB Standard table class storage, USD per GB-month (us-east-1, on-demand and provisioned
 * alike; the first 25 GB of an account are free and left out here).
 */
export const DYNAMODB_STORAGE_USD_PER_GB_MONTH = 0.25;
const GB = 1024 ** 3;

/** What a job's run history costs to keep, an estimate (see `estimateRetention`). */
export interface RetentionEstimate {
  readonly days: number;
  /** The share of successes kept for the whole retention (1: all). */
  readonly successSample: number;
  readonly estimatedRecords: number;
  readonly estimatedBytes: number;
  readonly estimatedMonthlyCostUsd: number;
}

/**
 * The steady-state history of a job firing `firesPerDay` times a day: runs kept `days` days, of
 * which a sampled-out share (every fire counted as a success: the usual case, and the upper bound
 * of what sampling saves) is kept one day only; each record `BYTES_PER_RUN_RECORD`, priced at the
 * DynamoDB storage price. Retries, manual and child runs are not counted.
 */
export function estimateRetention(
  job: { readonly logRetentionDays?: number; readonly keepSuccessfulRuns?: number },
  firesPerDay: number,
  defaultDays: number,
): RetentionEstimate {
  const days = job.logRetentionDays ?? defaultDays;
  const successSample = job.keepSuccessfulRuns ?? 1;
  const keptDays = successSample * days + (1 - successSample) * Math.min(SAMPLED_OUT_KEEP_DAYS, days);
  const estimatedRecords = Math.round(firesPerDay * keptDays);
  const estimatedBytes = estimatedRecords * BYTES_PER_RUN_RECORD;
  const cost = (estimatedBytes / GB) * DYNAMODB_STORAGE_USD_PER_GB_MONTH;
  return {
    days,
    successSample,
    estimatedRecords,
    estimatedBytes,
    // Cents would hide a small job's cost: four significant digits.
    estimatedMonthlyCostUsd: Number(cost.toPrecision(4)),
  };
}

/**
 * How often the schedule fires in the day after `nowMs` (previewFireTimes): a NONE schedule never,
 * a ONCE at most once; a schedule busier than once a minute is counted over its first
 * {@link MAX_COUNTED_FIRES} fires and scaled to the day. Calendars and bounds are not applied.
 */
export function firesPerDay(schedule: Schedule, nowMs: number): number {
  if (schedule.type === 'NONE') return 0;
  const times = previewFireTimes(schedule, nowMs, MAX_COUNTED_FIRES + 1);
  const inDay = times.filter((t) => t <= nowMs + DAY_MS);
  if (inDay.length <= MAX_COUNTED_FIRES) return inDay.length;
  const span = (times[MAX_COUNTED_FIRES] ?? nowMs + DAY_MS) - nowMs;
  return Math.round((MAX_COUNTED_FIRES + 1) * (DAY_MS / span));
}
