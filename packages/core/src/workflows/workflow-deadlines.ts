/**
 * Workflows' deadlines, checked by the monitors' jobPolicies sweep beside the jobs': a deadline that
 * passed in the last DEADLINE_CHECK_SPAN_MS with no run of the workflow that ended SUCCEEDED in its
 * window raises one `deadlineMissed` alarm, claimed per workflow and window
 * (`WorkflowStore.claimDeadlineMiss`), so a second sweep or monitors instance sends none.
 *
 * Cost: the workflow list once a minute (on DynamoDB a Query of its list index and a BatchGet of the
 * heads, their definitions included); the last success is on each head (the store writes it when a
 * run ends SUCCEEDED), so the check reads nothing more, but the alarm's job when one is missed.
 */
import { mapLimit } from '../common/concurrency.js';
import { type DeadlineStatus, deadlineStatus } from '../jobs/deadline.js';
import type { JobStore } from '../jobs/job-store.js';
import type { Alarm } from '../runs/alarms.js';
import { alarmDeadlineMissed, DEADLINE_CHECK_SPAN_MS } from '../runs/job-policies.js';
import type { RunOutcomeDeps } from '../runs/run-outcome.js';
import type { WorkflowRecord, WorkflowStore } from './workflow-store.js';

export type WorkflowDeadlinesDeps = Pick<RunOutcomeDeps, 'alarms' | 'clock' | 'logger' | 'metrics'> & {
  readonly workflowStore: Pick<WorkflowStore, 'list' | 'claimDeadlineMiss'>;
  readonly jobs: Pick<JobStore, 'get'>;
};

export interface WorkflowDeadlinesResult {
  /** Workflows looked at. */
  readonly workflows: number;
  /** Workflows whose deadline was missed and alarmed by this sweep. */
  readonly deadlinesMissed: readonly number[];
  /** Workflows whose check failed (tried again next sweep). */
  readonly errors: readonly number[];
}

const PAGE = 100;
const CONCURRENCY = 8;

/**
 * Where the workflow stands against its deadline at `now` (null without one): met by a run that
 * ended SUCCEEDED in the window; windows that began before the deadline was set are never missed.
 * No read: the store keeps the last success on the workflow.
 */
export function workflowDeadlineStatus(workflow: WorkflowRecord, now: number): DeadlineStatus | null {
  const { deadline } = workflow.definition;
  if (deadline === undefined) return null;
  return deadlineStatus(deadline, workflow.lastSuccessAt, workflow.deadlineSetAt ?? workflow.createdAt, now);
}

export async function sweepWorkflowDeadlines(deps: WorkflowDeadlinesDeps): Promise<WorkflowDeadlinesResult> {
  const now = deps.clock.now();
  const deadlinesMissed: number[] = [];
  const errors: number[] = [];
  let looked = 0;
  let cursor: string | undefined;
  do {
    const page = await deps.workflowStore.list({ limit: PAGE, ...(cursor === undefined ? {} : { cursor }) });
    looked += page.items.length;
    await mapLimit(page.items, CONCURRENCY, async (workflow) => {
      try {
        if (await alarmIfMissed(deps, workflow, now)) deadlinesMissed.push(workflow.id);
      } catch (err) {
        errors.push(workflow.id);
        deps.logger.error('workflow deadline check failed', {
          workflowId: workflow.id,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    });
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { workflows: looked, deadlinesMissed, errors };
}

/**
 * A workflow whose schedule a user stopped is not watched, as a job a user stopped is not; one without
 * a schedule (started by triggers) always is.
 */
async function alarmIfMissed(
  deps: WorkflowDeadlinesDeps,
  workflow: WorkflowRecord,
  now: number,
): Promise<boolean> {
  const { deadline, scheduleType, name, appName } = workflow.definition;
  if (deadline === undefined || (scheduleType !== 'NONE' && workflow.triggerStatus === 'STOPPED'))
    return false;
  const status = workflowDeadlineStatus(workflow, now);
  if (status?.state !== 'missed' || now - status.window.to > DEADLINE_CHECK_SPAN_MS) return false;
  if (!(await deps.workflowStore.claimDeadlineMiss(workflow.id, status.window.to))) return false;
  await alarmDeadlineMissed(deps, {
    subject: `Workflow ${workflow.id} (${name}) of ${appName}`,
    keys: { workflowId: workflow.id },
    deadline,
    window: status.window,
    alarm: { job: await alarmJobOf(deps, workflow), workflow: { id: workflow.id, name } },
  });
  return true;
}

/**
 * Whose alarm paths a workflow's alarm takes: its starter job's (named after the workflow), else, as
 * a failed run's alarm takes its failed node's, its first node's job's; a stand-in when that is gone.
 */
async function alarmJobOf(deps: WorkflowDeadlinesDeps, workflow: WorkflowRecord): Promise<Alarm['job']> {
  const { name, appName, nodes } = workflow.definition;
  const jobId = workflow.starterJobId ?? nodes[0]?.jobId ?? 0;
  const job = await deps.jobs.get(jobId);
  return (
    job ?? { id: jobId, name: `workflow ${workflow.id}: ${name}`, appName, alarmEmail: '', alarmWebhook: '' }
  );
}
