import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../common/clock.js';
import type { Logger } from '../common/logger.js';
import { METRIC, type Metrics } from '../common/metrics.js';
import type { RingQueue } from '../dispatch/ring-queue.js';
import { dueNow, MAX_DELAY_SECONDS } from '../dispatch/ring-queue.js';
import { delaySecondsFor, type FireMessage } from '../dispatch/trigger.js';
import { pauseJobByPolicy } from '../jobs/admin-jobs.js';
import {
  afterPause,
  describePauseRule,
  EMPTY_HISTORY,
  type OutcomeDecision,
  recordFinalOutcome,
} from '../jobs/failure-policy.js';
import type { Job } from '../jobs/job.js';
import type { JobStore } from '../jobs/job-store.js';
import type { WorkflowEngine } from '../workflows/workflow-engine.js';
import type { Alarm, AlarmPublisher, ReportStore } from './alarms.js';
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
  /** Where a pause by a job's failure policy is recorded (a system entry); absent: only logged. */
  readonly audit?: Pick<AuditLog, 'append'>;
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
  // A failure a retry answers is not final: the retry's outcome is counted instead.
  if (!retried && run.workflow === undefined) await countFinalOutcome(deps, run, job);
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
  await deps.ring.enqueue(dueNow(messages));
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

/** Tries of the history's read-and-conditional-write before giving up (another outcome of the job won each). */
const HISTORY_WRITE_ATTEMPTS = 5;

/**
 * A final outcome counted for the job's failure policy and deadline (jobs with neither cost nothing:
 * their runs are not `tracksOutcome`). One read and one conditional write of the job's outcome
 * history; an outcome already in it (a re-driven outcome) is not counted again. When the rule is met
 * the job is paused first (a stop, which finds it stopped when done again), then the history written:
 * a crash in between pauses nothing twice. The recovery notice follows the write (a crash just
 * before it loses it rather than sending it twice).
 */
async function countFinalOutcome(deps: RunOutcomeDeps, run: Run, knownJob: Job | undefined): Promise<void> {
  if (run.tracksOutcome !== true && knownJob?.failurePolicy === undefined && knownJob?.deadline === undefined)
    return;
  const job = knownJob ?? (await deps.jobs.get(run.jobId));
  if (!job || (job.failurePolicy === undefined && job.deadline === undefined)) return;
  const failed = run.handleCode !== HANDLE_CODE.success;
  const at = run.handleTime > 0 ? run.handleTime : deps.clock.now();
  let decision: OutcomeDecision | undefined;
  let paused: Job | undefined;
  for (let attempt = 1; attempt <= HISTORY_WRITE_ATTEMPTS; attempt++) {
    const stored = (await deps.jobs.getOutcomeHistory(job.id)) ?? EMPTY_HISTORY;
    decision = recordFinalOutcome(stored, { logId: run.logId, failed, at }, job.failurePolicy);
    if (decision.duplicate) {
      deps.logger.info('final outcome counted before, not again', { jobId: job.id, logId: run.logId });
      return;
    }
    if (decision.pause && !paused) paused = await pauseJobByPolicy(deps, job.id, decision.pause);
    const next = decision.pause ? afterPause(decision.history) : decision.history;
    if (await deps.jobs.putOutcomeHistory(job.id, next, stored.revision)) break;
    decision = undefined;
  }
  if (!decision) {
    deps.logger.error('final outcome not counted: its history kept changing', {
      jobId: job.id,
      logId: run.logId,
    });
    return;
  }
  if (paused) await announcePause(deps, paused, run);
  if (decision.recovered) await announceRecovery(deps, job, run);
}

async function announcePause(deps: RunOutcomeDeps, job: Job, run: Run): Promise<void> {
  const pause = job.pausedBy;
  if (!pause) return;
  const rule = job.failurePolicy ? describePauseRule(job.failurePolicy.pauseAfter) : 'its failure policy';
  const summary =
    `Job ${job.id} (${job.name}) of ${job.appName} paused: ${pause.failures} of its last ${pause.ofLast} runs failed (rule: ${rule}); ` +
    (pause.resumeAt === undefined
      ? 'start it again when it is fixed'
      : `it starts again at ${new Date(pause.resumeAt).toISOString()}`);
  deps.metrics.add(METRIC.jobsPausedByPolicy, 'Count', 1);
  deps.logger.warn('job paused by its failure policy', {
    jobId: job.id,
    logId: run.logId,
    failures: pause.failures,
    ofLast: pause.ofLast,
    resumeAt: pause.resumeAt === undefined ? null : new Date(pause.resumeAt).toISOString(),
  });
  await publishNotice(deps, {
    kind: 'jobPaused',
    job,
    run,
    summary,
    pause: {
      failures: pause.failures,
      ofLast: pause.ofLast,
      ...(pause.resumeAt === undefined ? {} : { resumeAt: pause.resumeAt }),
    },
  });
  if (!deps.audit) return;
  const iso = (ms: number) => new Date(ms).toISOString();
  try {
    await deps.audit.append({
      at: pause.at,
      actor: { kind: 'system', id: 'failurePolicy', name: 'failure policy' },
      source: { ip: '', userAgent: 'tickring run outcome' },
      action: 'job.pausedByPolicy',
      target: `job#${job.id}`,
      appName: job.appName,
      changes: {
        triggerStatus: { before: 'RUNNING', after: 'STOPPED' },
        pausedBy: {
          after: {
            reason: pause.reason,
            at: iso(pause.at),
            failures: pause.failures,
            ofLast: pause.ofLast,
            resumeAt: pause.resumeAt === undefined ? null : iso(pause.resumeAt),
          },
        },
      },
      detail: { logId: run.logId, rule },
      requestId: `pause-${job.id}-${run.logId}`,
    });
  } catch (err) {
    deps.metrics.add(METRIC.auditWriteFailures, 'Count', 1);
    deps.logger.error('audit write failed: pause not recorded', { jobId: job.id, error: String(err) });
  }
}

async function announceRecovery(deps: RunOutcomeDeps, job: Job, run: Run): Promise<void> {
  deps.logger.info('job succeeded again after a failure: recovery notice', {
    jobId: job.id,
    logId: run.logId,
  });
  await publishNotice(deps, {
    kind: 'jobRecovered',
    job,
    run,
    summary: `Job ${job.id} (${job.name}) of ${job.appName} succeeded again: log ${run.logId}`,
  });
}

/** A notice through the alarm channels; a failed delivery is logged (the alarm path's rule). */
async function publishNotice(deps: Pick<RunOutcomeDeps, 'alarms' | 'logger'>, alarm: Alarm): Promise<void> {
  const delivered = await deps.alarms.publish(alarm).catch((err: unknown) => {
    deps.logger.error('alarm failed', { jobId: alarm.job.id, kind: alarm.kind, error: String(err) });
    return false;
  });
  if (!delivered)
    deps.logger.warn('notice not delivered to every channel', { jobId: alarm.job.id, kind: alarm.kind });
}
