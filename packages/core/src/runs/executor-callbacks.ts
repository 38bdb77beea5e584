import type { CallbackResult } from '@tickring/protocol';
import { mapLimit } from '../common/concurrency.js';
import { METRIC } from '../common/metrics.js';
import {
  HANDLE_CODE,
  MAX_HANDLE_MSG,
  needsOutcomeMark,
  type Run,
  TRIGGER_CODE,
  truncateMessage,
} from './run.js';
import { onRunFinished, type RunOutcomeDeps } from './run-outcome.js';

/** One result reported by an executor, normalised. */
export interface CallbackItem {
  readonly logId: number;
  /** The run's logDateTime as the executor sent it (`logDateTim` ≤ 3.4, `logDateTime` 3.5); 0 when absent. */
  readonly logDateTime: number;
  /** 200, 500 or 502; any other code the executor sent is recorded as 500 (XXL-JOB: non-200 is a failure). */
  readonly handleCode: number;
  /** Cut to {@link MAX_HANDLE_MSG} characters. */
  readonly handleMsg: string;
}

/** Items of one batch completed at once; enough to keep DynamoDB busy, few enough to stay polite. */
export const CALLBACK_CONCURRENCY = 16;
/** How much of a result message the "run finished" log line shows. */
const LOG_MSG_CHARS = 200;
/** How many unknown logIds the reply names. */
const MAX_IDS_IN_REPLY = 20;
const KNOWN_CODES: ReadonlySet<number> = new Set(Object.values(HANDLE_CODE));

/** The results of a callback body (read by `parseCallbackRequest`), as tickring stores them. */
export function toCallbackItems(results: readonly CallbackResult[]): CallbackItem[] {
  return results.map(({ logId, logDateTime, handleCode, handleMsg }) => ({
    logId,
    logDateTime,
    ...normalizeResult(handleCode, handleMsg),
  }));
}

/**
 * The result as stored: 200/500/502 kept, any other code recorded as a failure (500) with the
 * executor's code noted in the message; the message cut at 15,000 characters as XXL-JOB does.
 */
export function normalizeResult(
  handleCode: number,
  handleMsg: string,
): { handleCode: number; handleMsg: string } {
  if (KNOWN_CODES.has(handleCode))
    return { handleCode, handleMsg: truncateMessage(handleMsg, MAX_HANDLE_MSG) };
  const note = `[executor handleCode ${handleCode}, recorded as a failure]`;
  return {
    handleCode: HANDLE_CODE.fail,
    handleMsg: truncateMessage(handleMsg === '' ? note : `${handleMsg} ${note}`, MAX_HANDLE_MSG),
  };
}

export interface CallbackReport {
  /** Runs this batch finished. */
  readonly completed: readonly number[];
  /** Runs that already had a result: the repeat was ignored (XXL-JOB: "log repeate callback."). */
  readonly repeated: readonly number[];
  /** logIds with no run (expired, or never ours). */
  readonly unknown: readonly number[];
  /** Items that could not be stored (e.g. DynamoDB failed): the batch should be sent again. */
  readonly failed: readonly number[];
  /**
   * Results for runs recorded as skipped, dropped (see `takesResult`): the skip is the run's end,
   * counted already; nothing is counted for the result and nothing follows it.
   */
  readonly dropped: readonly number[];
}

/**
 * Stores each result (first result wins; a run already finished is left alone), then runs what
 * follows a finished run: counters, retry with backoff or alarm on failure, child jobs on success.
 * Items are processed concurrently, at most {@link CALLBACK_CONCURRENCY} at a time.
 *
 * A result for a run recorded as skipped is dropped, logged and reported (`dropped`), every time it
 * comes: the store refuses it (`takesResult`), and should a store take it all the same, it is not
 * counted and nothing follows it (its outcome-pending mark is cleared). The skip was the run's end
 * and was counted `skipped`; its record cannot tell a result the executor really sent (a run sent,
 * its dispatch record lost, then taken over as skipped) from a stray or replayed one.
 *
 * No job is read: the store marks the run outcome-pending in the result's write only when
 * `needsOutcomeMark` says so of the stored run (a failure, or a success of a run recorded with child
 * jobs), so a plain success is one write, with no mark's index write and no write to clear it.
 */
export async function processCallbacks(
  deps: RunOutcomeDeps,
  items: readonly CallbackItem[],
): Promise<CallbackReport> {
  const report = {
    completed: [] as number[],
    repeated: [] as number[],
    unknown: [] as number[],
    failed: [] as number[],
    dropped: [] as number[],
  };
  const handleTime = deps.clock.now();
  await mapLimit(items, CALLBACK_CONCURRENCY, async (item) => {
    let outcome: Awaited<ReturnType<RunOutcomeDeps['runs']['complete']>>;
    try {
      outcome = await deps.runs.complete(
        item.logId,
        { handleCode: item.handleCode, handleMsg: item.handleMsg, handleTime },
        { markOutcomePending: 'if-needed' },
      );
    } catch (err) {
      deps.logger.error('callback not stored', { logId: item.logId, error: errorText(err) });
      report.failed.push(item.logId);
      return;
    }
    if (outcome.kind === 'unknown') {
      deps.logger.warn('callback for an unknown run', { logId: item.logId, handleCode: item.handleCode });
      report.unknown.push(item.logId);
      return;
    }
    // What the store decided by the same rule, for the run as it now stands.
    const marked = needsOutcomeMark(outcome.run);
    if (outcome.run.triggerCode === TRIGGER_CODE.skipped) {
      await dropSkippedResult(deps, item, outcome.run, outcome.kind === 'completed' && marked);
      report.dropped.push(item.logId);
      return;
    }
    if (outcome.kind === 'already-finished') {
      deps.logger.info('repeat callback ignored', {
        jobId: outcome.run.jobId,
        logId: item.logId,
        storedHandleCode: outcome.run.handleCode,
        handleCode: item.handleCode,
      });
      report.repeated.push(item.logId);
      return;
    }
    const { run } = outcome;
    report.completed.push(run.logId);
    deps.metrics.add(METRIC.callbacks, 'Count', 1);
    deps.logger.info('run finished', {
      jobId: run.jobId,
      logId: run.logId,
      handleCode: run.handleCode,
      handleMsg: run.handleMsg.slice(0, LOG_MSG_CHARS),
    });
    try {
      // A run refused at trigger time was never counted as running; anything else was (or will be).
      await onRunFinished(deps, run, run.triggerCode !== TRIGGER_CODE.fail, { marked });
    } catch (err) {
      deps.logger.error('run outcome failed', { jobId: run.jobId, logId: run.logId, error: errorText(err) });
    }
  });
  return report;
}

/** A result for a run recorded as skipped: logged, and its outcome-pending mark cleared if the store set one. */
async function dropSkippedResult(
  deps: Pick<RunOutcomeDeps, 'runs' | 'logger'>,
  item: CallbackItem,
  run: Run,
  markedByStore: boolean,
): Promise<void> {
  deps.logger.warn('result for a run recorded as skipped dropped', {
    jobId: run.jobId,
    logId: item.logId,
    handleCode: item.handleCode,
    stored: markedByStore || run.handleCode !== 0,
  });
  if (!markedByStore) return;
  // Left for the monitors on failure: a re-drive of a skipped run only clears the mark (onRunFinished).
  await deps.runs.clearOutcomePending(item.logId).catch((err: unknown) => {
    deps.logger.error('outcome mark of a skipped run not cleared', {
      logId: item.logId,
      error: errorText(err),
    });
  });
}

/**
 * XXL-JOB's reply to a callback: code 200 when the batch was taken (unknown logIds are named in
 * `msg`, not an error: resending them cannot help), code 500 when some result could not be stored,
 * so the executor sends the batch again (results already stored are then ignored as repeats).
 */
export function callbackReply(report: CallbackReport): { code: number; msg?: string } {
  if (report.failed.length > 0) {
    return { code: 500, msg: `results not stored, send them again: logId ${listIds(report.failed)}` };
  }
  const notes = [
    ...(report.unknown.length > 0 ? [`unknown logId ignored: ${listIds(report.unknown)}`] : []),
    ...(report.dropped.length > 0
      ? [`result ignored, the run was recorded as skipped (never sent): logId ${listIds(report.dropped)}`]
      : []),
  ];
  return notes.length > 0 ? { code: 200, msg: notes.join('; ') } : { code: 200 };
}

function listIds(ids: readonly number[]): string {
  const sorted = [...ids].sort((a, b) => a - b);
  const shown = sorted.slice(0, MAX_IDS_IN_REPLY).join(', ');
  return sorted.length > MAX_IDS_IN_REPLY ? `${shown} and ${sorted.length - MAX_IDS_IN_REPLY} more` : shown;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
