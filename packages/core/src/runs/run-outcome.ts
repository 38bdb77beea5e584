import type { Clock } from '../common/clock.js';
import type { Logger } from '../common/logger.js';
import { METRIC, type Metrics } from '../common/metrics.js';
import type { RingQueue } from '../dispatch/ring-queue.js';
import { MAX_DELAY_SECONDS } from '../dispatch/ring-queue.js';
import { delaySecondsFor, type FireMessage } from '../dispatch/trigger.js';
import type { Job } from '../jobs/job.js';
import type { JobStore } from '../jobs/job-store.js';
import type { WorkflowEngine } from '../workflows/workflow-engine.js';
import type { AlarmPublisher, ReportStore } from './alarms.js';
import { dayOf, HANDLE_CODE, type Run, runStatus, TRIGGER_CODE } from './run.js';
import type { RunStore } from './run-store.js';

/**
 * What happens after a run ends, wherever the end was noticed (the dispatcher for a refused
 * trigger, the callback for a result, the monitor for a lost run): counters, then retry with
 * backoff or alarm on failure, child jobs on success.
 */
export interface RunOutcomeDeps {
  readonly runs: RunStore;
  readonly jobs: JobStore;
  readonly ring: RingQueue;
  readonly alarms: AlarmPublisher;
  readonly reports: ReportStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /**
   * Advances the workflow run of a node's run when the run ends for good (see WorkflowEngine).
   * Every function that finishes runs wires it; absent only in tests of runs outside workflows.
   */
  readonly workflows?: Pick<WorkflowEngine, 'onNodeRunFinished'>;
}

export const ALARM_STATUS = { none: 0, notNeeded: 1, sent: 2, failed: 3 } as const;

/** The backoff of a job stored without one (or with a broken one). */
export const DEFAULT_RETRY_BACKOFF_SECONDS = 10;

/**
 * Backoff before retry number `nextAttempt` (2 = first retry): base, then doubling, at most the
 * longest SQS delay (15 min), so the retry's scheduledTime is when the ring really delivers it.
 */
export function retryDelayMs(job: Pick<Job, 'retryBackoffSeconds'>, nextAttempt: number): number {
  const base =
    Number.isFinite(job.retryBackoffSeconds) && job.retryBackoffSeconds >= 0
      ? job.retryBackoffSeconds
      : DEFAULT_RETRY_BACKOFF_SECONDS;
  return Math.min(base * 2 ** Math.max(0, nextAttempt - 2), MAX_DELAY_SECONDS) * 1000;
}

export interface OutcomeOptions {
  /**
   * The daily counters were (presumably) added already: set when the monitors re-drive a run whose
   * outcome was left pending. Counting is the first step and best-effort, so a re-drive skips it
   * rather than count the run twice (a crash before the count then under-counts by one).
   */
  readonly countersDone?: boolean;
  /**
   * Whether the run carries the outcome-pending mark, to be cleared at the end (default true).
   * False for a run completed without one, because `needsOutcomeMark` (run.ts) said nothing follows it.
   */
  readonly marked?: boolean;
  /**
   * The run's job as the caller read it (null: read, and it does not exist); read here when absent
   * and needed. A success whose run recorded its children (`Run.childJobIds`) needs none.
   */
  readonly job?: Job | null;
}

/** The jobs a success of `job` triggers: its child jobs, never the job itself. */
export function childJobsOf(job: Pick<Job, 'id' | 'childJobIds'> | null | undefined): number[] {
  return (job?.childJobIds ?? []).filter((childId) => childId !== job?.id);
}

/**
 * A run just finished (`completed` is the run as stored after its result). `wasRunning` tells
 * whether it had been counted as running (accepted by an executor) in the daily report.
 *
 * Finishing a run with consequences marked it outcome-pending (`RunStore.complete` / a refused
 * `recordTrigger`, see `needsOutcomeMark` (run.ts)); the mark is cleared here, last, so a crash or
 * failure before the end leaves it for the monitors to re-drive (`redrivePendingOutcomes`).
 *
 * A run recorded as skipped has no outcome (its skip was counted; it is never retried, alarmed or
 * followed by children): a result a store took for it all the same changes nothing but its mark.
 */
export async function onRunFinished(
  deps: RunOutcomeDeps,
  run: Run,
  wasRunning: boolean,
  options: OutcomeOptions = {},
): Promise<void> {
  if (run.triggerCode === TRIGGER_CODE.skipped) {
    deps.logger.warn('no outcome for a run recorded as skipped', {
      jobId: run.jobId,
      logId: run.logId,
      handleCode: run.handleCode,
    });
    if (options.marked ?? true) await deps.runs.clearOutcomePending(run.logId);
    return;
  }
  if (!options.countersDone) await countFinished(deps, run, wasRunning);
  // The children a success triggers are those its run recorded when claimed: no read of the job.
  const recorded = run.handleCode === HANDLE_CODE.success ? run.childJobIds : undefined;
  const job =
    recorded !== undefined
      ? undefined
      : options.job === undefined
        ? await deps.jobs.get(run.jobId)
        : (options.job ?? undefined);
  let retried = false;
  if (run.handleCode === HANDLE_CODE.success) await triggerChildren(deps, run, recorded ?? childJobsOf(job));
  else retried = await retryOrAlarm(deps, run, job);
  // Before the mark is cleared: a crash here leaves it for the monitors, who re-drive all of this.
  await deps.workflows?.onNodeRunFinished(run, { retried });
  if (options.marked ?? true) await deps.runs.clearOutcomePending(run.logId);
}

/**
 * A run a user killed (finished as failed by the admin API): counted as a failure, but neither
 * retried nor alarmed, since someone chose to stop it, and its children are not triggered.
 * (XXL-JOB's fail monitor would retry and alarm a killed log like any other failure.)
 */
export async function onRunKilled(
  deps: Pick<RunOutcomeDeps, 'runs' | 'reports' | 'logger' | 'workflows'>,
  run: Run,
  wasRunning: boolean,
  options: OutcomeOptions = {},
): Promise<void> {
  if (!options.countersDone) await countFinished(deps, run, wasRunning);
  await deps.runs.setAlarmStatus(run.logId, ALARM_STATUS.notNeeded);
  await deps.workflows?.onNodeRunFinished(run, { retried: false });
  await deps.runs.clearOutcomePending(run.logId);
  deps.logger.info('run killed by user: counted as failed, not retried, no alarm', {
    jobId: run.jobId,
    logId: run.logId,
  });
}

/** The daily counters; best-effort: a failed count must not cost the retry, the alarm or the children. */
async function countFinished(
  deps: Pick<RunOutcomeDeps, 'reports' | 'logger'>,
  run: Run,
  wasRunning: boolean,
): Promise<void> {
  const status = runStatus(run);
  await deps.reports
    .add(
      dayOf(run.triggerTime),
      {
        ...(wasRunning ? { running: -1 } : {}),
        ...(status === 'success' ? { success: 1 } : { fail: 1 }),
      },
      run.appName,
    )
    .catch((err: unknown) => {
      deps.logger.error('report counters not updated', {
        jobId: run.jobId,
        logId: run.logId,
        error: String(err),
      });
    });
}

async function triggerChildren(
  deps: RunOutcomeDeps,
  run: Run,
  childJobIds: readonly number[],
): Promise<void> {
  if (childJobIds.length === 0) return;
  const now = deps.clock.now();
  const messages: FireMessage[] = childJobIds.map((childId) => ({
    jobId: childId,
    scheduledTime: now,
    triggerType: 'PARENT',
    dedupKey: `parent#${run.logId}#${childId}`,
    parentLogId: run.logId,
  }));
  await deps.ring.enqueue(messages.map((message) => ({ message, delaySeconds: 0, lane: 'fast' })));
  deps.logger.info('child jobs triggered', { jobId: run.jobId, logId: run.logId, childJobIds });
}

/** Retries the run or raises its alarm; true when a retry was sent. */
async function retryOrAlarm(deps: RunOutcomeDeps, run: Run, job: Job | undefined): Promise<boolean> {
  if (run.retriesLeft > 0 && job) {
    const attempt = run.attempt + 1;
    const now = deps.clock.now();
    const scheduledTime = now + retryDelayMs(job, attempt);
    const message: FireMessage = {
      jobId: run.jobId,
      scheduledTime,
      triggerType: 'RETRY',
      dedupKey: `retry#${run.logId}`,
      retry: {
        attempt,
        ofLogId: run.logId,
        retriesLeft: run.retriesLeft - 1,
        ...(run.shardTotal > 1
          ? { shard: { index: run.shardIndex, total: run.shardTotal, address: run.executorAddress } }
          : {}),
      },
      executorParam: run.executorParam,
      ...(run.workflow === undefined ? {} : { workflow: run.workflow }),
    };
    await deps.ring.enqueue([
      { message, delaySeconds: delaySecondsFor(scheduledTime, now, MAX_DELAY_SECONDS), lane: 'fast' },
    ]);
    await deps.runs.setAlarmStatus(run.logId, ALARM_STATUS.notNeeded);
    deps.metrics.add(METRIC.retries, 'Count', 1);
    deps.logger.info('run failed, retry scheduled', {
      jobId: run.jobId,
      logId: run.logId,
      attempt,
      retryAt: new Date(scheduledTime).toISOString(),
    });
    return true;
  }
  // A workflow node's failure is the workflow's to alarm (once per failed run), and only when no
  // ON_FAILURE branch handles it.
  if (!job || run.workflow !== undefined) {
    await deps.runs.setAlarmStatus(run.logId, ALARM_STATUS.notNeeded);
    return false;
  }
  const summary =
    `Job ${job.id} (${job.name}) of ${job.appName} failed` +
    `${run.attempt > 1 ? ` after ${run.attempt} attempts` : ''}: log ${run.logId}, ` +
    `trigger ${run.triggerCode}, handle ${run.handleCode}`;
  const delivered = await deps.alarms.publish({ job, run, summary }).catch((err: unknown) => {
    deps.logger.error('alarm failed', { jobId: job.id, logId: run.logId, error: String(err) });
    return false;
  });
  await deps.runs.setAlarmStatus(run.logId, delivered ? ALARM_STATUS.sent : ALARM_STATUS.failed);
  deps.metrics.add(METRIC.alarms, 'Count', 1);
  deps.logger.warn('run failed, alarm raised', { jobId: job.id, logId: run.logId, delivered, summary });
  return false;
}
