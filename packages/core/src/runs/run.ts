import { HANDLE_CODE } from '@tickring/protocol';
import type { TriggerType } from '../dispatch/trigger.js';
import type { RunRetention } from '../jobs/log-retention.js';
import type { WorkflowLink } from '../workflows/model/link.js';

/**
 * A run: one execution of one job on one executor (XXL-JOB's `xxl_job_log` row). Codes follow
 * XXL-JOB: 0 = not yet; triggerCode 200/500; handleCode 200 success, 500 fail, 502 timeout.
 */
export interface Run {
  readonly logId: number;
  readonly jobId: number;
  readonly appName: string;
  readonly jobName: string;
  /** The fire this run belongs to; with `shardIndex` it is unique. */
  readonly dedupKey: string;
  readonly triggerType: TriggerType;
  /** Epoch ms the run was due; also XXL-JOB's logDateTime, from which executors name the log file. */
  readonly scheduledTime: number;
  /**
   * A jittered scheduled fire or a moved occurrence: how long after scheduledTime it was due to be
   * sent (ms; negative for an occurrence moved earlier); absent: none.
   */
  readonly jitterMs?: number;
  /** Epoch ms the run record was created (trigger time in the log list). */
  readonly triggerTime: number;
  readonly executorHandler: string;
  readonly executorParam: string;
  readonly executorRouteStrategy: string;
  readonly executorTimeout: number;
  /** Sharding: index/total (0/1 unless broadcast). */
  readonly shardIndex: number;
  readonly shardTotal: number;
  /** 1 for the first try, 2 for the first retry, ... */
  readonly attempt: number;
  /** Retries still allowed after this run (XXL-JOB's executor_fail_retry_count). */
  readonly retriesLeft: number;
  readonly parentLogId?: number;
  /** A workflow node's run (and its retries): the workflow run, node and attempt it belongs to. */
  readonly workflow?: WorkflowLink;
  readonly executorAddress: string;
  readonly triggerCode: number;
  readonly triggerMsg: string;
  /** Epoch ms the executor accepted (or refused) the run; 0 until then. */
  readonly dispatchedAt: number;
  readonly handleCode: number;
  readonly handleMsg: string;
  readonly handleTime: number;
  /** 0 default, 1 no alarm needed, 2 alarm sent, 3 alarm failed (XXL-JOB's alarm_status). */
  readonly alarmStatus: number;
  /**
   * A skipped run may stand for a range of its job's skipped fires (one record, not one per fire):
   * how many fires it stands for. Absent: 1.
   */
  readonly skippedCount?: number;
  /** The scheduled time (epoch ms) of the last fire a skipped range stands for. Absent: `scheduledTime`. */
  readonly skippedUntil?: number;
  /**
   * The child jobs its job had when the run was recorded (claimed), itself left out: those a success
   * triggers, so a result needs no read of the job (see `needsOutcomeMark`). Absent on a run recorded
   * without them (by an earlier version, or outside the dispatcher): its job is read at its end.
   */
  readonly childJobIds?: readonly number[];
  /**
   * Recorded at the claim when the job has a failure policy or a deadline: the run's final outcome is
   * counted for them (see failure-policy.ts), so even a plain success is followed up (and marked).
   */
  readonly tracksOutcome?: boolean;
  /**
   * Its job's log retention, recorded at the claim when the job sets one (see log-retention.ts):
   * the stores set the record's expiry from it, and shorten it with a sampled-out success's result.
   */
  readonly retention?: RunRetention;
}

/** How many fires a skipped run stands for (see `Run.skippedCount`). */
export function skippedCountOf(run: Pick<Run, 'skippedCount'>): number {
  return run.skippedCount ?? 1;
}

/** The scheduled time of the last fire a skipped run stands for (see `Run.skippedUntil`). */
export function skippedUntilOf(run: Pick<Run, 'scheduledTime' | 'skippedUntil'>): number {
  return run.skippedUntil ?? run.scheduledTime;
}

/** XXL-JOB's handle codes (200 success, 500 fail, 502 timeout), from the protocol. */
export { HANDLE_CODE };

export type RunStatus = 'running' | 'success' | 'fail' | 'skipped';
/** Every status, as the runs list's `status=` filter takes them. */
export const RUN_STATUSES: readonly RunStatus[] = ['running', 'success', 'fail', 'skipped'];

/**
 * XXL-JOB's 200 (sent, accepted) and 500 (refused, or no executor), and tickring's own `skipped`:
 * a scheduled fire the dispatcher recorded as a misfire and never sent (it came too late, or after
 * a later fire of its job, see `dispatchFire`); finished, with handleCode 0 (never handled), never
 * retried, no alarm, no child jobs. Outside XXL-JOB's codes, so an XXL-JOB console shows it as a
 * failed trigger, never as running. The skip is the run's end: a result reported for it later is
 * dropped (see {@link takesResult}).
 */
export const TRIGGER_CODE = { success: 200, fail: 500, skipped: 600 } as const;

/**
 * Whether a run still takes a result (`RunStore.complete`): it has none yet (the first result
 * stands) and it was not recorded as skipped. A skipped run was finished by its skip, already
 * counted `skipped`, and its record (no executor, "never sent") cannot tell a result its executor
 * really sent (a run sent, its dispatch record lost, then taken over as skipped) from a stray or
 * replayed one: its result is dropped, not stored, not counted, and nothing follows it.
 */
export function takesResult(run: Pick<Run, 'triggerCode' | 'handleCode'>): boolean {
  return run.handleCode === 0 && run.triggerCode !== TRIGGER_CODE.skipped;
}

/**
 * Whether a finished run has consequences that a crash could lose, so it must be marked
 * outcome-pending in the same write that stores its result: a failure (a retry or an alarm follows)
 * or a success of a run recorded with child jobs (`childJobIds`). A plain success needs no mark (and
 * no clear). A run recorded without its children (see `Run.childJobIds`) is marked, to be safe: its
 * job is read at its end.
 */
export function needsOutcomeMark(run: Pick<Run, 'handleCode' | 'childJobIds' | 'tracksOutcome'>): boolean {
  if (run.handleCode !== HANDLE_CODE.success || run.tracksOutcome === true) return true;
  return run.childJobIds === undefined || run.childJobIds.length > 0;
}

/**
 * XXL-JOB's report rule: running = triggered (or triggering) and not handled; success = handled 200;
 * plus skipped = recorded as a misfire, never sent.
 */
export function runStatus(run: Pick<Run, 'triggerCode' | 'handleCode'>): RunStatus {
  if (run.triggerCode === TRIGGER_CODE.skipped) return 'skipped';
  if (run.handleCode === HANDLE_CODE.success) return 'success';
  if ((run.triggerCode === 0 || run.triggerCode === TRIGGER_CODE.success) && run.handleCode === 0)
    return 'running';
  return 'fail';
}

/** The admin keeps at most this much of a result message (XXL-JOB: 15,000). */
export const MAX_HANDLE_MSG = 15_000;

export function truncateMessage(message: string, max = MAX_HANDLE_MSG): string {
  return message.length > max ? `${message.slice(0, max)}...` : message;
}

/**
 * A logId carries its job: `jobId × 2^32 + n`, n the run's number within the job. A run is found
 * from its logId alone (an executor's callback carries nothing else) and a job's runs are one
 * partition, listed without an index. n below 2^31 is the tick's planned blocks, in schedule order;
 * from 2^31 on, the job's other runs (manual, API, retries, children, broadcast shards), in the
 * order they were made. The largest logId, `MAX_JOB_ID × 2^32 + 2^32 − 1`, is 2^53 − 1: a safe
 * integer in JavaScript and a long in Java, as XXL-JOB's executors read it.
 */
export const LOG_ID_JOB_FACTOR = 2 ** 32;
export const UNPLANNED_LOG_ID_OFFSET = 2 ** 31;
export const MAX_JOB_ID = 2 ** 21 - 1;

export function jobIdOfLogId(logId: number): number {
  return Math.floor(logId / LOG_ID_JOB_FACTOR);
}

/** The first logId of a job's planned blocks. */
export function firstPlannedLogId(jobId: number): number {
  return jobId * LOG_ID_JOB_FACTOR;
}

/** The logId of a job's `n`-th unplanned run (n from 0). */
export function unplannedLogId(jobId: number, n: number): number {
  return jobId * LOG_ID_JOB_FACTOR + UNPLANNED_LOG_ID_OFFSET + n;
}

/** UTC day of an epoch-ms time, the key of daily reports. */
export function dayOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}
