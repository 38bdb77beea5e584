/**
 * The monitors' jobPolicies sweep: jobs their failure policy paused are started again once their
 * cooling-off period is over, and deadlines that passed without a success are alarmed, once per window.
 *
 * Why the monitors and not the tick: the tick reads only due jobs (the due index holds running jobs
 * only, so a stopped job costs it nothing), and the monitors already run every minute with the alarm
 * path; a minute's precision suits a cooling-off period and a deadline alike. The sweep reads the job
 * list once a minute (on DynamoDB a scan of the jobs table), and for a deadline only in the minutes
 * right after it passed, its job's outcome history.
 */
import { mapLimit } from '../common/concurrency.js';
import { METRIC } from '../common/metrics.js';
import { resumePausedJob } from '../jobs/admin-jobs.js';
import { type Deadline, deadlineStatus, describeDeadline } from '../jobs/deadline.js';
import type { Job } from '../jobs/job.js';
import type { Alarm } from './alarms.js';
import type { RunOutcomeDeps } from './run-outcome.js';

export type JobPolicyDeps = Pick<
  RunOutcomeDeps,
  'jobs' | 'alarms' | 'clock' | 'logger' | 'metrics' | 'audit'
>;

export interface JobPoliciesResult {
  /** Jobs looked at. */
  readonly jobs: number;
  /** Jobs started again after their cooling-off period. */
  readonly resumed: readonly number[];
  /** Jobs whose deadline was missed and alarmed by this sweep. */
  readonly deadlinesMissed: readonly number[];
  /** Jobs whose check failed (tried again next sweep). */
  readonly errors: readonly number[];
}

/** A deadline is checked this long after it passed (a sweep a minute; margin for a late or failed one). */
export const DEADLINE_CHECK_SPAN_MS = 15 * 60_000;
const PAGE = 100;
const CONCURRENCY = 8;

export async function sweepJobPolicies(deps: JobPolicyDeps): Promise<JobPoliciesResult> {
  const now = deps.clock.now();
  const resumed: number[] = [];
  const deadlinesMissed: number[] = [];
  const errors: number[] = [];
  let looked = 0;
  let cursor: string | undefined;
  do {
    const page = await deps.jobs.list({ limit: PAGE, ...(cursor === undefined ? {} : { cursor }) });
    looked += page.items.length;
    await mapLimit(page.items, CONCURRENCY, async (job) => {
      try {
        if (await resumeIfDue(deps, job, now)) resumed.push(job.id);
        if (await alarmIfMissed(deps, job, now)) deadlinesMissed.push(job.id);
      } catch (err) {
        errors.push(job.id);
        deps.logger.error('job policy check failed', {
          jobId: job.id,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    });
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { jobs: looked, resumed, deadlinesMissed, errors };
}

async function resumeIfDue(deps: JobPolicyDeps, job: Job, now: number): Promise<boolean> {
  const pause = job.pausedBy;
  if (job.triggerStatus !== 'STOPPED' || pause?.resumeAt === undefined || pause.resumeAt > now) return false;
  const started = await resumePausedJob(deps, job.id, pause.at);
  if (!started) return false;
  deps.metrics.add(METRIC.jobsResumedByPolicy, 'Count', 1);
  deps.logger.info('job started again after its cooling-off period', {
    jobId: job.id,
    pausedAt: new Date(pause.at).toISOString(),
    triggerNextTime:
      started.triggerNextTime === null ? null : new Date(started.triggerNextTime).toISOString(),
  });
  if (!deps.audit) return true;
  try {
    await deps.audit.append({
      at: now,
      actor: { kind: 'system', id: 'failurePolicy', name: 'failure policy' },
      source: { ip: '', userAgent: 'tickring monitors' },
      action: 'job.resumedByPolicy',
      target: `job#${job.id}`,
      appName: job.appName,
      changes: {
        triggerStatus: { before: 'STOPPED', after: 'RUNNING' },
        pausedBy: { before: { at: new Date(pause.at).toISOString() } },
      },
      detail: { resumeAt: new Date(pause.resumeAt ?? now).toISOString() },
      requestId: `resume-${job.id}-${pause.at}`,
    });
  } catch (err) {
    deps.metrics.add(METRIC.auditWriteFailures, 'Count', 1);
    deps.logger.error('audit write failed: resume not recorded', { jobId: job.id, error: String(err) });
  }
  return true;
}

/**
 * A deadline that passed in the last DEADLINE_CHECK_SPAN_MS with no success in its window: alarmed by
 * whoever claims the window first. A job a user stopped is not watched (one its policy paused is).
 */
async function alarmIfMissed(deps: JobPolicyDeps, job: Job, now: number): Promise<boolean> {
  const { deadline } = job;
  if (deadline === undefined || (job.triggerStatus === 'STOPPED' && job.pausedBy === undefined)) return false;
  const since = job.deadlineSetAt ?? job.createdAt;
  // Without reading the history: is a deadline within the span behind us?
  const probe = deadlineStatus(deadline, Number.NEGATIVE_INFINITY, since, now);
  if (probe.state !== 'missed' || now - probe.window.to > DEADLINE_CHECK_SPAN_MS) return false;
  const history = await deps.jobs.getOutcomeHistory(job.id);
  const status = deadlineStatus(deadline, history?.lastSuccessAt, since, now);
  if (status.state !== 'missed') return false;
  if (!(await deps.jobs.claimDeadlineMiss(job.id, status.window.to))) return false;
  await alarmDeadlineMissed(deps, {
    subject: `Job ${job.id} (${job.name}) of ${job.appName}`,
    keys: { jobId: job.id },
    deadline,
    window: status.window,
    alarm: { job },
  });
  return true;
}

/**
 * Raises a `deadlineMissed` alarm for a window already claimed (a job's or a workflow's): counted,
 * logged, published; a publish that fails is logged, the claim stands (one alarm per window).
 */
export async function alarmDeadlineMissed(
  deps: Pick<JobPolicyDeps, 'alarms' | 'logger' | 'metrics'>,
  missed: {
    /** "Job 7 (nightly) of billing". */
    readonly subject: string;
    /** What its log lines name it by: `{ jobId }`, `{ workflowId }`. */
    readonly keys: Readonly<Record<string, number>>;
    readonly deadline: Deadline;
    readonly window: { readonly from: number; readonly to: number };
    readonly alarm: Pick<Alarm, 'job' | 'workflow'>;
  },
): Promise<void> {
  const iso = (ms: number) => new Date(ms).toISOString();
  const text = describeDeadline(missed.deadline);
  const { keys, window } = missed;
  const summary =
    `${missed.subject} missed its deadline ${text}: ` +
    `no run succeeded between ${iso(window.from)} and ${iso(window.to)}`;
  deps.metrics.add(METRIC.deadlinesMissed, 'Count', 1);
  deps.logger.warn('deadline missed', {
    ...keys,
    deadline: text,
    windowFrom: iso(window.from),
    windowTo: iso(window.to),
  });
  const delivered = await deps.alarms
    .publish({ ...missed.alarm, kind: 'deadlineMissed', summary, deadline: { ...window, text } })
    .catch((err: unknown) => {
      deps.logger.error('alarm failed', { ...keys, kind: 'deadlineMissed', error: String(err) });
      return false;
    });
  if (!delivered)
    deps.logger.warn('notice not delivered to every channel', { ...keys, kind: 'deadlineMissed' });
}
