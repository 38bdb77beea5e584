import type { Page } from '../jobs/job-store.js';
import { needsOutcomeMark, type Run, type RunStatus, TRIGGER_CODE } from './run.js';

export type CreateFireResult =
  | { readonly created: true }
  /** The fire was recorded before (a duplicate delivery): these are its runs' logIds. */
  | { readonly created: false; readonly logIds: readonly number[] };

/** Why the executor did not take a run: what the dispatcher stores when a trigger fails. */
export interface TriggerRefusal {
  readonly executorAddress: string;
  readonly triggerCode: number;
  readonly triggerMsg: string;
  readonly dispatchedAt: number;
}

/**
 * One run a dispatcher sent (or had refused) under a claim token, as `recordDispatch` keeps it: the
 * proof it was sent, an entry of the app and all-runs lists, and what the lost-run monitor watches.
 */
export interface DispatchEntry {
  readonly logId: number;
  readonly appName: string;
  /** When an accepted run counts as lost if still unfinished; 0 for a refused run (nothing to watch). */
  readonly deadline: number;
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

/**
 * When the consequences of a run are due as it is claimed: a run recorded as refused (no executor
 * to send it to) is finished, its outcome pending from then; none for a run to be sent.
 */
export function outcomeDueOnClaim(run: Pick<Run, 'triggerCode' | 'dispatchedAt'>): number | undefined {
  return run.triggerCode === TRIGGER_CODE.fail ? run.dispatchedAt + OUTCOME_GRACE_MS : undefined;
}

/** The lost-run watch (`findUnfinished`) looks at an unfinished run again this much later (or at its deadline, if sooner). */
export const WATCH_AGAIN_MS = 60_000;
/** Without a cursor (the first sweep), the watch starts this far back. */
export const WATCH_START_MS = 3_600_000;
/** Most chunks (of about `limit` entries) one `findUnfinished` reads before leaving the rest to the next sweep. */
export const MAX_WATCH_CHUNKS = 200;
/** A dispatch record is keyed by its claim time, which may come this much before its runs' trigger time. */
export const CLAIM_LEAD_MS = 60_000;

/** A take-over of a claim (see `reclaim`): the stale claim's token, the new claim's, and when it is stale. */
export interface ClaimTakeOver {
  readonly previousToken: string;
  readonly claimToken: string;
  readonly nowMs: number;
  readonly staleBeforeMs: number;
  /** Replaces the run's trigger message in the same write (a take-over sent as a catch-up). */
  readonly triggerMsg?: string;
}

/** What `latestPlannedRun` reads of a run: enough to tell a skip range and where it ends. */
export type PlannedRunHead = Pick<
  Run,
  'logId' | 'scheduledTime' | 'triggerCode' | 'skippedCount' | 'skippedUntil'
>;

/** A skip range extended (see `extendSkipRange`). */
export interface SkipRangeExtension {
  /** The range's last fire as read: `skippedUntil`, or its `scheduledTime` when that is absent. */
  readonly expectedUntil: number;
  /** The scheduled time of the range's new last fire. */
  readonly until: number;
  /** How many fires the extension adds (to `skippedCount`, 1 when absent). */
  readonly addCount: number;
  readonly triggerMsg?: string;
}

/** A claimed run rewritten as skipped (see `skipClaimed`), under its claim or taking a stale one over. */
export interface ClaimedSkip {
  readonly claimToken: string;
  readonly triggerMsg: string;
  readonly nowMs: number;
  readonly takeOver?: { readonly previousToken: string; readonly staleBeforeMs: number };
}

export interface CompleteOptions {
  /**
   * Mark the run outcome-pending in the same write: `true` (the default) always; `false` never,
   * only when nothing that a crash could lose follows the run (such a run then needs no
   * `clearOutcomePending` either); `'if-needed'` as `needsOutcomeMark` says of the stored run with
   * this result (a failure, or a success of a run recorded with child jobs), decided by the store
   * in the same write, so a callback reads nothing before it.
   */
  readonly markOutcomePending?: boolean | 'if-needed';
}

/** Whether `complete` marks the stored `run` as it takes a result with `handleCode` (see CompleteOptions). */
export function completeMarks(
  options: CompleteOptions,
  run: Pick<Run, 'childJobIds' | 'tracksOutcome'>,
  handleCode: number,
): boolean {
  const mark = options.markOutcomePending ?? true;
  return mark === 'if-needed'
    ? needsOutcomeMark({ handleCode, childJobIds: run.childJobIds, tracksOutcome: run.tracksOutcome })
    : mark;
}

/**
 * Run records. A run is written once when its fire is claimed, with the executor it is routed to and
 * the trigger result it is sent for (accepted, triggerCode 200); only a refusal rewrites that. What
 * was actually sent is recorded per dispatcher batch (`recordDispatch`, one write for many runs),
 * under the claim token the runs were claimed with.
 */
export interface RunStore {
  /**
   * `count` new logIds for unplanned runs of the job (manual, API, retries, children, broadcast
   * shards): unique, ascending, in the job's own range (see `unplannedLogId`).
   */
  allocateLogIds(jobId: number, count: number): Promise<number[]>;
  /** A new claim token: the key under which a dispatcher records what it sent (`recordDispatch`). */
  newClaimToken(nowMs: number): string;
  /**
   * Records a fire (keyed by `dedupKey`) and its runs (claimed with `claimToken`) in one
   * transaction; when the fire exists nothing is written and its logIds come back, unless it was
   * recorded under the same `claimToken` (an attempt whose answer was lost): that counts as created.
   * The runs' logIds may have been given out before (a trigger answers them), so only the claim
   * token tells our own record from another dispatcher's.
   */
  createFire(dedupKey: string, runs: readonly Run[], claimToken: string): Promise<CreateFireResult>;
  /**
   * Claims a fire planned with its run's logId by putting the run unless one with that logId
   * exists (nothing is written then, and `logIds` is that logId). A run put earlier with the same
   * `claimToken` (an attempt whose answer was lost) counts as created.
   */
  claim(run: Run, claimToken: string): Promise<CreateFireResult>;
  /** Records the runs sent (or refused) under `claimToken`: one write for all of them. */
  recordDispatch(claimToken: string, entries: readonly DispatchEntry[]): Promise<void>;
  /** The logIds recorded as sent under `claimToken` (empty when nothing was recorded). */
  dispatchedUnder(claimToken: string): Promise<ReadonlySet<number>>;
  get(logId: number): Promise<Run | undefined>;
  getMany(logIds: readonly number[]): Promise<StoredRun[]>;
  /**
   * Takes over a run claimed under `previousToken` but never sent (its dispatcher died), when that
   * claim is older than `staleBeforeMs`: the run is claimed again under `claimToken`. False when it
   * has a result, was refused, or was claimed again meanwhile.
   */
  reclaim(logId: number, claim: ClaimTakeOver): Promise<boolean>;
  /**
   * The first run of the job's planned range (see `firstPlannedLogId`) above `logId`, or undefined:
   * planned logIds grow in schedule order, so such a run is a later fire of the same job, claimed
   * already. One strongly consistent Query of the job's partition, Limit 1.
   */
  laterPlannedRun(logId: number): Promise<{ logId: number; scheduledTime: number } | undefined>;
  /**
   * The job's planned run (see `firstPlannedLogId`) with the highest logId, at or below `atOrBelow`
   * when given; never an unplanned run, never another job's. One strongly consistent Query of the
   * job's partition, descending, Limit 1: what a skip range is extended from (see
   * `recordSkipRanges`).
   */
  latestPlannedRun(jobId: number, atOrBelow?: number): Promise<PlannedRunHead | undefined>;
  /**
   * Extends a skip range (a skipped run standing for its job's skipped fires, see `Run.skippedCount`)
   * to `until`, adding `addCount` fires to its count and, when given, replacing its trigger message:
   * one conditional write, on the run being skipped and its last fire (`skippedUntil`, or
   * `scheduledTime` when absent) being `expectedUntil`. False otherwise (unknown, not skipped, or
   * extended by someone else meanwhile).
   */
  extendSkipRange(logId: number, extension: SkipRangeExtension): Promise<boolean>;
  /**
   * Rewrites a claimed run that was never sent as skipped (TRIGGER_CODE.skipped, `triggerMsg` says
   * why, no executor, no outcome pending): conditional on the claim being `claimToken`'s and the run
   * as its claim recorded it (to be sent, or refused for want of an executor), or, with `takeOver`,
   * on a stale claim under `previousToken` of a run recorded to be sent, as `reclaim` (the run is
   * then claimed under `claimToken` in the same write); never a run with a result. False otherwise.
   */
  skipClaimed(logId: number, skip: ClaimedSkip): Promise<boolean>;
  /**
   * Takes the job's catch-up mark for the fire `fireKey` (its dedupKey), which stands for the fire
   * missed at `missedTime`: true when no catch-up of the job ran since `missedTime`, or when this
   * fire holds the mark already (a take-over of it); the mark then says a catch-up ran at `nowMs`.
   * One conditional write, paid by catch-ups only.
   */
  takeCatchUp(jobId: number, mark: { missedTime: number; nowMs: number; fireKey: string }): Promise<boolean>;
  /**
   * Stores a refused trigger of a run claimed under `claimToken` and still without a result; false
   * otherwise. The refusal finishes the run: it is marked outcome-pending in the same write, due
   * {@link OUTCOME_GRACE_MS} after `dispatchedAt`.
   */
  recordRefusal(logId: number, claimToken: string, refusal: TriggerRefusal): Promise<boolean>;
  /**
   * Finishes a run that has no result yet; a finished run is left as it is. As `markOutcomePending`
   * says (see CompleteOptions), the run is marked outcome-pending in the same write, due
   * {@link OUTCOME_GRACE_MS} after `handleTime`.
   */
  complete(logId: number, result: HandleResult, options?: CompleteOptions): Promise<CompleteOutcome>;
  /** Removes the outcome-pending mark: the run's consequences are done. */
  clearOutcomePending(logId: number): Promise<void>;
  /** Finished runs still marked outcome-pending whose mark is due before `nowMs`. */
  findOutcomePending(nowMs: number, limit: number): Promise<Run[]>;
  setAlarmStatus(logId: number, alarmStatus: number): Promise<void>;
  /**
   * Newest first, at most `limit` runs; `nextCursor` continues right after the last run examined,
   * and is absent once nothing is left. A page may hold fewer than `limit` runs (even none) and
   * still have a cursor, when filters had to skip many runs. A job's runs come from its own
   * partition; an app's and all runs from the dispatch records, newest record first (a run whose
   * dispatcher died before recording it is listed under its job only).
   */
  list(query: RunQuery): Promise<Page<Run>>;
  /**
   * Runs sent to an executor and still without a result, from the dispatch records written more
   * than `settleMs` before `nowMs` (by then their dispatcher has surely written them) and not looked
   * at yet, read in chunks of about `limit` runs until caught up or `limit` such runs are found (the
   * rest is left for the next call). Each returned run is looked at again about a minute later (or
   * at its deadline, if that comes first) unless it has its result by then, so a run left alone
   * (its executor is alive) comes back; `pastDeadline` says whether its deadline has passed.
   */
  findUnfinished(nowMs: number, options: { limit: number; settleMs: number }): Promise<WatchedRun[]>;
}

/** A run the lost-run watch looks at: sent, no result yet. */
export interface WatchedRun {
  readonly run: Run;
  /** Past its deadline (timeout + grace): lost unless its executor is alive. Before it: lost only if its executor is gone. */
  readonly pastDeadline: boolean;
}

/** A run with its claim, as the dispatcher needs it to tell a sent run from one to take over. */
export interface StoredRun extends Run {
  readonly claimToken: string;
  readonly claimAt: number;
  /**
   * When the record expires (epoch s, DynamoDB's TTL unit): its retention after its trigger
   * (`runExpiresAt`), or sooner for a sampled-out success (`sampledOutExpiresAt`). Absent from a
   * test double that keeps its runs for ever.
   */
  readonly expiresAt?: number;
}
