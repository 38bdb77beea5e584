import type { Run, RunStatus } from '../domain/run.js';
import type { Page } from './job-store.js';

export type CreateFireResult =
  | { readonly created: true }
  /** The fire was recorded before (a duplicate delivery): these are its runs' logIds. */
  | { readonly created: false; readonly logIds: readonly number[] };

export interface TriggerResult {
  readonly executorAddress: string;
  readonly triggerCode: number;
  readonly triggerMsg: string;
  readonly dispatchedAt: number;
  /** When an accepted run counts as lost if still unfinished (monitors); required when triggerCode is 200. */
  readonly deadline?: number;
}

export interface HandleResult {
  readonly handleCode: number;
  readonly handleMsg: string;
  readonly handleTime: number;
}

export type CompleteOutcome =
  | { readonly kind: 'completed'; readonly run: Run }
  | { readonly kind: 'already-finished'; readonly run: Run }
  | { readonly kind: 'unknown' };

export interface RunQuery {
  readonly jobId?: number;
  readonly appName?: string;
  readonly status?: RunStatus;
  /** Trigger time range, epoch ms, inclusive. */
  readonly from?: number;
  readonly to?: number;
  readonly limit: number;
  readonly cursor?: string;
}

/**
 * How long after a run finished its consequences (retry / alarm / children, see `onRunFinished`)
 * may still be under way before the monitors re-drive them: long enough never to race a live
 * callback, dispatcher or monitor that is doing them right now.
 */
export const OUTCOME_GRACE_MS = 120_000;

export interface CompleteOptions {
  /**
   * Mark the run outcome-pending in the same write (the default). Leave it off only when nothing
   * that a crash could lose follows the run: a success of a job without child jobs (see
   * `needsOutcomeMark`); such a run then needs no `clearOutcomePending` either.
   */
  readonly markOutcomePending?: boolean;
}

export interface RunStore {
  /**
   * `count` new logIds: positive, unique across the system, safe integers, ascending within one call.
   * Roughly ordered by allocation time only: a process may hand out ids from a block it reserved
   * earlier, after another process handed out higher ones.
   */
  allocateLogIds(count: number): Promise<number[]>;
  /**
   * Records a fire (keyed by `dedupKey`) and its runs in one transaction; when the fire exists
   * nothing is written and its logIds come back.
   */
  createFire(dedupKey: string, runs: readonly Run[]): Promise<CreateFireResult>;
  /**
   * Claims a fire planned with its run's logId by putting the run unless one with that logId
   * exists (nothing is written then, and `logIds` is that logId). A run put earlier with the same
   * `claimToken` (an attempt whose answer was lost) counts as created.
   */
  claim(run: Run, claimToken: string): Promise<CreateFireResult>;
  get(logId: number): Promise<Run | undefined>;
  getMany(logIds: readonly number[]): Promise<Run[]>;
  /**
   * Takes over a run that was recorded but never dispatched (its dispatcher died), when its last
   * claim is older than `staleBeforeMs`; false when it was dispatched or is claimed by a live one.
   */
  reclaim(logId: number, nowMs: number, staleBeforeMs: number): Promise<boolean>;
  /**
   * Stores the trigger result of a run not yet triggered; false when it already had one. A refused
   * trigger (any code but 200) finishes the run: it is marked outcome-pending in the same write,
   * due {@link OUTCOME_GRACE_MS} after `dispatchedAt`.
   */
  recordTrigger(logId: number, result: TriggerResult): Promise<boolean>;
  /**
   * Finishes a run that has no result yet; a finished run is left as it is. Unless
   * `markOutcomePending` is false, the run is marked outcome-pending in the same write, due
   * {@link OUTCOME_GRACE_MS} after `handleTime`.
   */
  complete(logId: number, result: HandleResult, options?: CompleteOptions): Promise<CompleteOutcome>;
  /** Removes the outcome-pending mark: the run's consequences are done. */
  clearOutcomePending(logId: number): Promise<void>;
  /** Finished runs still marked outcome-pending whose mark is due before `nowMs`. */
  findOutcomePending(nowMs: number, limit: number): Promise<Run[]>;
  setAlarmStatus(logId: number, alarmStatus: number): Promise<void>;
  /**
   * Newest first (by trigger time), at most `limit` runs; `nextCursor` continues right after the
   * last run examined, and is absent once nothing is left. A page may hold fewer than `limit` runs
   * (even none) and still have a cursor, when a `status` filter had to skip many runs.
   */
  list(query: RunQuery): Promise<Page<Run>>;
  /** Runs accepted by an executor, still without a result, whose deadline is before `nowMs`. */
  findOverdue(nowMs: number, limit: number): Promise<Run[]>;
}
