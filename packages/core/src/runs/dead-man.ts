/**
 * The monitors' deadMan sweep: each running job with a schedule has its fire ledger checked over
 * the recent window ([now − grace − 15 min, now − grace)); a fire owed there that nothing explains
 * (no run, skip, pause, calendar or exception) raises one `fireUnexplained` alarm per job and
 * 15-minute bucket of its first unexplained fire, claimed idempotently (`claimFiresUnexplained`), so
 * two sweeps, or two monitors instances, alarm once.
 *
 * Cost per job checked: one audit read of the job's records in the window (usually an empty page),
 * the calendars it names (one read each), and its runs by trigger time over the window plus
 * {@link DEAD_MAN.runMarginMs} each side (one page of up to 1000 runs: a job firing every second
 * reads about 1,500). At most {@link DEAD_MAN.jobsPerSweep} jobs are checked per sweep, taken in
 * turn by id across sweeps: every job is looked at within the window while there are at most
 * 15 × that many scheduled running jobs (3,000); past that some windows go unchecked (logged).
 *
 * A workflow's schedule is its starter job: its fires are checked as the workflow's ledger (with
 * `workflows` wired), so a fire counts as explained when it started a workflow run (or the overlap
 * policy said why not), not merely when the starter job claimed it; the alarm names the workflow.
 * That costs one more audit Query (the workflow's records) and one Query of its runs per sweep.
 */
import type { AuditLog } from '../audit/audit-log.js';
import type { CalendarStore } from '../calendars/calendar-store.js';
import { mapLimit } from '../common/concurrency.js';
import { METRIC } from '../common/metrics.js';
import type { Job } from '../jobs/job.js';
import { workflowLedgerOf } from '../workflows/workflow-ledger.js';
import type { WorkflowRecord, WorkflowStore } from '../workflows/workflow-store.js';
import type { FireLedger } from './fire-ledger.js';
import { ledgerOf } from './job-ledger.js';
import type { RunOutcomeDeps } from './run-outcome.js';

export const DEAD_MAN = {
  /** The window checked ends this long before now: a fire's run is surely recorded by then. */
  graceMs: 2 * 60_000,
  /** How far back the window reaches; also the alarm's bucket (one alarm per job and bucket). */
  windowMs: 15 * 60_000,
  /** Runs are read by trigger time this far around the window (skip ranges recorded before it). */
  runMarginMs: 5 * 60_000,
  jobsPerSweep: 200,
} as const;

const PAGE = 100;
const CONCURRENCY = 8;

export type DeadManDeps = Pick<
  RunOutcomeDeps,
  'jobs' | 'runs' | 'alarms' | 'clock' | 'logger' | 'metrics'
> & {
  readonly audit?: Pick<AuditLog, 'list'>;
  readonly calendars?: Pick<CalendarStore, 'get'>;
  /** Where a starter job's workflow and its runs are read; absent: a starter job is checked as a job. */
  readonly workflows?: Pick<WorkflowStore, 'get' | 'listRuns'>;
};

export interface DeadManResult {
  /** Scheduled running jobs, and how many of them this sweep checked. */
  readonly jobs: number;
  readonly checked: number;
  /** Jobs alarmed by this sweep (claimed first). */
  readonly alarmed: readonly number[];
  /** Unexplained fires found (each counted once per sweep that sees it). */
  readonly unexplained: number;
  /** Jobs whose check failed (tried again next sweep). */
  readonly errors: readonly number[];
}

export async function sweepDeadMan(deps: DeadManDeps): Promise<DeadManResult> {
  const now = deps.clock.now();
  const scheduled = await scheduledJobs(deps);
  const turn = jobsInTurn(scheduled, now);
  if (turn.length < scheduled.length && turn.length * (DEAD_MAN.windowMs / 60_000) < scheduled.length)
    deps.logger.warn('dead-man check cannot look at every job within its window', {
      jobs: scheduled.length,
      perSweep: DEAD_MAN.jobsPerSweep,
    });
  const to = now - DEAD_MAN.graceMs;
  const from = to - DEAD_MAN.windowMs;
  const alarmed: number[] = [];
  const errors: number[] = [];
  let unexplained = 0;
  await mapLimit(turn, CONCURRENCY, async (job) => {
    try {
      const options = { settleMs: 0, runMarginMs: DEAD_MAN.runMarginMs };
      const workflow = job.workflowId === undefined ? undefined : await deps.workflows?.get(job.workflowId);
      const ledger = workflow
        ? await workflowLedgerOf({ ...deps, workflows: deps.workflows! }, workflow, job, from, to, options)
        : await ledgerOf(deps, job, from, to, options);
      if (ledger.summary.unexplained === 0) return;
      unexplained += ledger.summary.unexplained;
      deps.metrics.add(METRIC.firesUnexplained, 'Count', ledger.summary.unexplained);
      if (await alarmOnce(deps, job, ledger, workflow)) alarmed.push(job.id);
    } catch (err) {
      errors.push(job.id);
      deps.logger.error('dead-man check failed', {
        jobId: job.id,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  });
  return { jobs: scheduled.length, checked: turn.length, alarmed, unexplained, errors };
}

async function scheduledJobs(deps: DeadManDeps): Promise<Job[]> {
  const jobs: Job[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.jobs.list({
      triggerStatus: 'RUNNING',
      limit: PAGE,
      ...(cursor === undefined ? {} : { cursor }),
    });
    jobs.push(...page.items.filter((j) => j.triggerStatus === 'RUNNING' && j.scheduleType !== 'NONE'));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return jobs.sort((a, b) => a.id - b.id);
}

/** This minute's share of the jobs: all of them when they fit, else the next slice in id order. */
function jobsInTurn(jobs: readonly Job[], now: number): Job[] {
  const per = DEAD_MAN.jobsPerSweep;
  if (jobs.length <= per) return [...jobs];
  const start = (Math.floor(now / 60_000) * per) % jobs.length;
  return [...jobs.slice(start), ...jobs.slice(0, start)].slice(0, per);
}

/**
 * One alarm per job and bucket, claimed first. A starter job's is about its workflow: it names the
 * workflow (`Alarm.workflow`) and its ledger, and goes through the starter job's alarm paths.
 */
async function alarmOnce(
  deps: DeadManDeps,
  job: Job,
  ledger: Pick<FireLedger, 'from' | 'to' | 'entries' | 'summary'>,
  workflow: WorkflowRecord | undefined,
): Promise<boolean> {
  const first = ledger.entries.find((e) => e.outcome === 'unexplained');
  if (!first) return false;
  const bucket = Math.floor(first.scheduledTime / DEAD_MAN.windowMs) * DEAD_MAN.windowMs;
  if (!(await deps.jobs.claimFiresUnexplained(job.id, bucket))) return false;
  const iso = (ms: number) => new Date(ms).toISOString();
  const count = ledger.summary.unexplained;
  const fires = `${count} fire${count === 1 ? '' : 's'} its schedule owed between ${iso(ledger.from)} and ${iso(ledger.to)}`;
  const summary = workflow
    ? `Workflow ${workflow.id} (${workflow.definition.name}) of ${workflow.definition.appName}: ${fires} ` +
      `started no run, the first due at ${iso(first.scheduledTime)}; see GET /v1/workflows/${workflow.id}/ledger`
    : `Job ${job.id} (${job.name}) of ${job.appName}: ${fires} did not happen, the first due at ` +
      `${iso(first.scheduledTime)}; see GET /v1/jobs/${job.id}/ledger`;
  deps.logger.warn('fires unexplained', {
    jobId: job.id,
    ...(workflow ? { workflowId: workflow.id } : {}),
    unexplained: count,
    first: iso(first.scheduledTime),
    windowFrom: iso(ledger.from),
    windowTo: iso(ledger.to),
  });
  const delivered = await deps.alarms
    .publish({
      kind: 'fireUnexplained',
      job,
      summary,
      unexplained: { from: ledger.from, to: ledger.to, count, first: first.scheduledTime },
      ...(workflow ? { workflow: { id: workflow.id, name: workflow.definition.name } } : {}),
    })
    .catch((err: unknown) => {
      deps.logger.error('alarm failed', { jobId: job.id, kind: 'fireUnexplained', error: String(err) });
      return false;
    });
  if (!delivered)
    deps.logger.warn('notice not delivered to every channel', { jobId: job.id, kind: 'fireUnexplained' });
  return true;
}
