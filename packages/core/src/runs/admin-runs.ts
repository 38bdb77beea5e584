import { type LogResult, ProtocolError, parseLogResult } from '@tickring/protocol';
import type { Clock } from '../common/clock.js';
import { AppError, ConflictError, NotFoundError, ValidationError } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import { readOnPastEmptyPages } from '../common/paging.js';
import type { ExecutorTransport } from '../executors/executor-transport.js';
import { ALL_GROUPS, isVisible, listScope, type VisibleGroups } from '../identity/access.js';
import type { Page } from '../jobs/job-store.js';
import type { WorkflowEngine } from '../workflows/workflow-engine.js';
import type { ReportStore } from './alarms.js';
import { HANDLE_CODE, type Run, runStatus, TRIGGER_CODE } from './run.js';
import { onRunKilled } from './run-outcome.js';
import type { RunQuery, RunStore } from './run-store.js';

/**
 * The admin side of runs (XXL-JOB's `joblog` pages): the trigger log, a run's rolling output read
 * from its executor, and kill.
 */
export interface AdminRunsDeps {
  readonly runs: RunStore;
  /** The admin → executor `/log` and `/kill`, over HTTP or Lambda. */
  readonly executors: Pick<ExecutorTransport, 'kill' | 'log'>;
  readonly reports: ReportStore;
  readonly clock: Clock;
  readonly logger: Logger;
  /** A killed workflow node's run advances its workflow run (recorded as the node's failure). */
  readonly workflows?: Pick<WorkflowEngine, 'onNodeRunFinished'>;
}

/** The result message of a run stopped through the admin API. */
export const KILLED_BY_USER = 'killed by user';

/**
 * An executor did not answer, or answered something unusable: HTTP 502, and unlike other 5xx the
 * message is shown, since it names the executor and what went wrong there.
 */
export class ExecutorCallError extends AppError {
  readonly status = 502;
}

/**
 * A page of runs, newest first, within `from`/`to`; with both `jobId` and `appName`, only the job's
 * runs in that app. Never empty while a cursor follows, within the read-on budget (see
 * {@link readOnPastEmptyPages}).
 */
export async function listRuns(
  deps: Pick<AdminRunsDeps, 'runs' | 'clock'>,
  query: RunQuery,
  visible: VisibleGroups = ALL_GROUPS,
): Promise<Page<Run>> {
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
    throw new ValidationError('from must not be after to', 'from');
  }
  // A job named is read by the job, its group a filter: not narrowed to the one group seen.
  const scope = listScope(query.appName, visible, query.jobId === undefined);
  if (scope === null) return { items: [] };
  const scoped = scope.appName === undefined ? query : { ...query, appName: scope.appName };
  return readOnPastEmptyPages(deps.clock, query.cursor, async (cursor) => {
    const page = await deps.runs.list({ ...scoped, cursor });
    // The store lists an app's runs by the app, a job's by the job (then the app is a filter).
    const shown = (run: Run) =>
      isVisible(visible, run.appName) &&
      (query.jobId === undefined || query.appName === undefined || run.appName === query.appName);
    return { ...page, items: page.items.filter(shown) };
  });
}

export async function getRun(deps: Pick<AdminRunsDeps, 'runs'>, logId: number): Promise<Run> {
  const run = await deps.runs.get(logId);
  if (!run) throw new NotFoundError(`run ${logId} does not exist (or its record expired)`);
  return run;
}

/** A slice of a run's rolling log, as XXL-JOB's `logDetailCat` answers it. */
export interface RunOutput {
  readonly fromLineNum: number;
  readonly toLineNum: number;
  readonly logContent: string;
  /** True once the run is finished and every line was read: the caller can stop polling. */
  readonly isEnd: boolean;
}

/**
 * Lines `fromLineNum..` (1-based) of a run's log, read from the executor that ran it (`/log` with
 * the run's logId and `logDateTim` = its scheduledTime, which names the executor's log folder).
 *
 * `isEnd` follows XXL-JOB's admin: true when the run has its result (handleCode > 0) and nothing is
 * left to read (fromLineNum > toLineNum). The executor's own `isEnd` is not trusted: it is also true
 * for a log file not written yet. The run is read before the log, so a result seen here means the
 * executor had finished writing the log.
 */
export async function readRunOutput(
  deps: Pick<AdminRunsDeps, 'runs' | 'executors'>,
  logId: number,
  fromLineNum: number,
): Promise<RunOutput> {
  if (!Number.isSafeInteger(fromLineNum) || fromLineNum < 1) {
    throw new ValidationError(`fromLineNum must be an integer >= 1; got ${fromLineNum}`, 'fromLineNum');
  }
  const run = await getRun(deps, logId);
  requireExecutor(run, 'has no output to read');
  if (isLambdaAddress(run.executorAddress)) {
    throw new ConflictError(
      `log output is not available for Lambda executors; see the function's CloudWatch logs ` +
        `(${run.executorAddress}: log group /aws/lambda/<function>, filter on logId ${run.logId})`,
    );
  }
  const reply = await deps.executors.log(
    { address: run.executorAddress, appName: run.appName },
    run.scheduledTime,
    run.logId,
    fromLineNum,
  );
  if (reply.code !== 200) {
    throw new ExecutorCallError(
      `the executor at ${run.executorAddress} did not return the log of run ${logId}: ${reply.msg ?? `code ${reply.code}`}`,
    );
  }
  let content: LogResult;
  try {
    content = parseLogResult(reply.content);
  } catch (err) {
    throw new ExecutorCallError(
      `the executor at ${run.executorAddress} answered /log for run ${logId} without a LogResult (${err instanceof ProtocolError ? err.message : String(err)})`,
    );
  }
  return {
    fromLineNum: content.fromLineNum,
    toLineNum: content.toLineNum,
    logContent: content.logContent,
    isEnd: run.handleCode > 0 && content.fromLineNum > content.toLineNum,
  };
}

/** What `killRun` did. */
export interface KillResult {
  /** The run as stored: failed, handleCode 500, "killed by user". */
  readonly run: Run;
  /** The executor's answer to `/kill`. */
  readonly executorMsg: string;
}

/**
 * Stops a running run: only one an executor accepted (triggerCode 200) and that has no result yet
 * (ConflictError otherwise; XXL-JOB's `logKill` rule).
 *
 * The run is finished first (handleCode 500 "killed by user", conditional on it having no result),
 * then the executor is told (`/kill {jobId}`). In that order the executor's own callback for the
 * killed handler ("... [job running, killed]"), which races the kill's reply, always finds the run
 * finished and is ignored as a repeat, so it can never be taken for an ordinary failure and retried.
 * A killed run counts as failed in the daily report, but is neither retried nor alarmed
 * ({@link onRunKilled}).
 *
 * When the executor cannot be reached the run stays recorded as killed (its late result, if any, is
 * ignored) and ExecutorCallError (502) says so. As in XXL-JOB, `/kill` stops the job's worker on that
 * executor: runs of the same job queued behind this one there fail too ("killed" by the executor).
 */
export async function killRun(deps: AdminRunsDeps, logId: number): Promise<KillResult> {
  const run = await getRun(deps, logId);
  if (run.handleCode !== 0) {
    throw new ConflictError(
      `run ${logId} cannot be killed: it has finished already (${runStatus(run)}, handleCode ${run.handleCode})`,
    );
  }
  requireExecutor(run, 'cannot be killed');
  if (isLambdaAddress(run.executorAddress)) {
    throw new ConflictError(
      `run ${logId} cannot be killed: kill is not supported for Lambda executors (${run.executorAddress}); a Lambda run ends by itself or at its timeout`,
    );
  }
  const outcome = await deps.runs.complete(logId, {
    handleCode: HANDLE_CODE.fail,
    handleMsg: KILLED_BY_USER,
    handleTime: deps.clock.now(),
  });
  if (outcome.kind === 'unknown')
    throw new NotFoundError(`run ${logId} does not exist (or its record expired)`);
  if (outcome.kind === 'already-finished') {
    throw new ConflictError(
      `run ${logId} cannot be killed: it finished meanwhile (${runStatus(outcome.run)}, handleCode ${outcome.run.handleCode})`,
    );
  }
  const killed = outcome.run;
  const reply = await deps.executors.kill(
    { address: killed.executorAddress, appName: killed.appName },
    killed.jobId,
  );
  try {
    await onRunKilled(deps, killed, true);
  } catch (err) {
    deps.logger.error('kill bookkeeping failed', {
      jobId: killed.jobId,
      logId,
      error: err instanceof Error ? err.message : String(err),
    });
  }
  const keys = { jobId: killed.jobId, logId, executorAddress: killed.executorAddress };
  if (reply.code !== 200) {
    deps.logger.warn('kill not confirmed by the executor', { ...keys, msg: reply.msg });
    throw new ExecutorCallError(
      `run ${logId} is recorded as failed ("${KILLED_BY_USER}") and will not be retried, but the executor at ` +
        `${killed.executorAddress} did not confirm the kill: ${reply.msg ?? `code ${reply.code}`}. ` +
        'Its handler may still be running there; its result will be ignored.',
    );
  }
  deps.logger.info('run killed by user', { ...keys, msg: reply.msg });
  return { run: killed, executorMsg: reply.msg ?? '' };
}

/** ConflictError for a run no executor accepted (not sent yet, or refused at trigger time). */
function requireExecutor(run: Run, what: string): void {
  if (run.triggerCode === TRIGGER_CODE.success && run.executorAddress !== '') return;
  const why =
    run.triggerCode === 0
      ? 'it has not been sent to an executor yet'
      : run.triggerCode === TRIGGER_CODE.skipped
        ? 'it was skipped as a misfire and never sent (see triggerMsg)'
        : `no executor accepted it (trigger code ${run.triggerCode}; see triggerMsg)`;
  throw new ConflictError(`run ${run.logId} ${what}: ${why}`);
}

function isLambdaAddress(address: string): boolean {
  return address.trim().startsWith('lambda:');
}
