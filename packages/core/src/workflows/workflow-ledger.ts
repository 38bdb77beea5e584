/**
 * A workflow's fire ledger (GET /v1/workflows/{id}/ledger): every fire its schedule owed in a window
 * and the workflow run each started, or why none. A workflow's schedule is its starter job's, so the
 * job ledger's machinery does the matching (job-ledger.ts, fire-ledger.ts); this adds what is the
 * workflow's own:
 *
 * - the history: the starter job's own audit records are only the system's (a schedule's end, a
 *   calendar's re-plan): the workflow's save, start and stop change the starter job without a record
 *   of it. So the workflow's records (`workflow.create|update|start|stop`, whose before and after are
 *   the workflow as the API showed it, with the same schedule fields as a job's) are read with the
 *   starter job's, and a starter job a change replaced (NONE and back) has its runs read too;
 * - the fate: a fire that ran (its starter run) is matched to the workflow run it started
 *   (`wr-s{logId}`, read by creation time around the window): ran with the run's id and status;
 *   skipped (overlap) when the overlap policy did not start one; a start that failed is a failed
 *   run; a claimed fire that started nothing past the settle time is unexplained.
 */
import type { AuditRecord } from '../audit/audit.js';
import { NotFoundError, RequestValidationError } from '../common/errors.js';
import type { Job } from '../jobs/job.js';
import type { JobStore } from '../jobs/job-store.js';
import { LEDGER_SETTLE_MS, type LedgerEntry, rejoined } from '../runs/fire-ledger.js';
import {
  auditRecords,
  checkSubjectFires,
  checkWindow,
  currentFields,
  type JobLedger,
  type JobLedgerDeps,
  jobSubject,
  LEDGER_RUN_MARGIN_MS,
  type LedgerOptions,
  type LedgerSubject,
  type LedgerWindowRequest,
  ledgerFrom,
  readRuns,
} from '../runs/job-ledger.js';
import { HANDLE_CODE, type Run, runStatus } from '../runs/run.js';
import { scheduledRunId } from './model/link.js';
import type { StoredRunStatus, WorkflowRecord, WorkflowRunRecord, WorkflowStore } from './workflow-store.js';

export interface WorkflowLedgerDeps extends Omit<JobLedgerDeps, 'jobs'> {
  readonly jobs: Pick<JobStore, 'get'>;
  readonly workflows: Pick<WorkflowStore, 'get' | 'listRuns'>;
}

/** A fire of the workflow's schedule, with the workflow run it started. */
export interface WorkflowLedgerEntry extends LedgerEntry {
  /** ran: the workflow run the fire started (`wr-s{logId}`). */
  readonly runId?: string;
  /** ran: that run's status; absent when it is no longer stored (past its retention). */
  readonly runStatus?: StoredRunStatus;
}

export interface WorkflowLedger extends Omit<JobLedger, 'jobId' | 'entries'> {
  readonly workflowId: number;
  /** The job whose fires start the workflow's runs; undefined for a workflow without a schedule. */
  readonly starterJobId: number | undefined;
  /** `logId`: the starter job's run of the fire. */
  readonly entries: readonly WorkflowLedgerEntry[];
  /** Workflow runs read (beside the starter job's runs in `runsRead`). */
  readonly workflowRunsRead: number;
}

/** The workflow's records that change its schedule (a trigger's or a backfill's do not). */
const SCHEDULE_ACTIONS: ReadonlySet<string> = new Set([
  'workflow.create',
  'workflow.update',
  'workflow.start',
  'workflow.stop',
]);
const RUN_PAGE = 100;
/** Most workflow runs one ledger reads; past them it fails rather than guess. */
const MAX_WORKFLOW_RUNS_READ = 30_000;
/** What the dispatcher writes on a starter run when the overlap policy did not start the workflow run. */
const NOT_STARTED = /^workflow run not started:/;

/** The workflow's ledger for [from, to). @throws NotFoundError, RequestValidationError (every problem). */
export async function workflowFireLedger(
  deps: WorkflowLedgerDeps,
  workflowId: number,
  request: LedgerWindowRequest,
  options: LedgerOptions = {},
): Promise<WorkflowLedger> {
  const { from, to } = checkWindow(request);
  const workflow = await deps.workflows.get(workflowId);
  if (!workflow) throw new NotFoundError(`workflow ${workflowId} does not exist`);
  const starter =
    workflow.starterJobId === undefined ? undefined : await deps.jobs.get(workflow.starterJobId);
  return workflowLedgerOf(deps, workflow, starter, from, to, options);
}

/** The ledger of a workflow and its starter job already read (the dead-man sweep's path). */
export async function workflowLedgerOf(
  deps: WorkflowLedgerDeps,
  workflow: WorkflowRecord,
  starter: Job | undefined,
  from: number,
  to: number,
  options: LedgerOptions = {},
): Promise<WorkflowLedger> {
  const subject = workflowSubject(workflow, starter);
  checkSubjectFires(subject, from, to);
  const now = deps.clock.now();
  const marginMs = options.runMarginMs ?? LEDGER_RUN_MARGIN_MS;
  const jitterSeconds = typeof subject.fields.jitterSeconds === 'number' ? subject.fields.jitterSeconds : 0;
  const own = deps.audit
    ? (await auditRecords(deps.audit, `workflow#${workflow.id}`, from, now)).filter((r) =>
        SCHEDULE_ACTIONS.has(r.action),
      )
    : undefined;
  const starterIds = starterJobIds(workflow, own ?? []);
  const [starterRecords, runs, workflowRuns] = await Promise.all([
    deps.audit
      ? Promise.all(starterIds.map((id) => auditRecords(deps.audit!, `job#${id}`, from, now)))
      : undefined,
    Promise.all(starterIds.map((id) => readRuns(deps, id, from, to, marginMs, jitterSeconds))),
    readWorkflowRuns(deps, workflow.id, from - marginMs, to + marginMs + jitterSeconds * 1000),
  ]);
  const records = own === undefined ? undefined : [...own, ...(starterRecords ?? []).flat()].sort(byTime);
  const starterRuns = runs.flat();
  const ledger = await ledgerFrom(deps, subject, records, starterRuns, from, to, options);
  const settledBefore = now - (options.settleMs ?? LEDGER_SETTLE_MS);
  const byLogId = new Map(starterRuns.map((run) => [run.logId, run]));
  const byId = new Map(workflowRuns.map((run) => [run.id, run]));
  const { jobId: _starter, entries, ...rest } = ledger;
  const refined = rejoined(entries.map((e) => startedRun(e, byLogId, byId, settledBefore)));
  return {
    ...rest,
    workflowId: workflow.id,
    starterJobId: workflow.starterJobId,
    entries: refined.entries,
    summary: refined.summary,
    workflowRunsRead: workflowRuns.length,
  };
}

/**
 * The workflow's schedule as it is now: its starter job's (which mirrors the definition, and knows
 * why it stopped: a schedule's end), else the definition's own (a workflow without a schedule owes
 * nothing; one whose starter job is missing fires nothing, which is unexplained while it is on).
 */
function workflowSubject(workflow: WorkflowRecord, starter: Job | undefined): LedgerSubject {
  const base = { stopAction: 'workflow.stop', createActions: new Set(['workflow.create']) };
  if (starter) {
    const job = jobSubject(starter);
    return { ...job, ...base, stoppedNow: job.stoppedNow === 'job.stop' ? 'workflow.stop' : job.stoppedNow };
  }
  const def = workflow.definition;
  return {
    ...base,
    jobId: 0,
    fields: currentFields(def),
    running: workflow.triggerStatus === 'RUNNING',
    stoppedNow: 'workflow.stop',
  };
}

/** The starter jobs of the window: the one now, and any a record names (a schedule set to NONE and back). */
function starterJobIds(workflow: WorkflowRecord, records: readonly AuditRecord[]): number[] {
  const ids = new Set<number>(workflow.starterJobId === undefined ? [] : [workflow.starterJobId]);
  for (const record of records) {
    const change = record.changes.starterJobId;
    for (const id of [change?.before, change?.after]) if (typeof id === 'number') ids.add(id);
  }
  return [...ids];
}

function byTime(a: AuditRecord, b: AuditRecord): number {
  return a.at - b.at || a.id.localeCompare(b.id);
}

/** The workflow's runs created in [from, to), newest first. */
async function readWorkflowRuns(
  deps: Pick<WorkflowLedgerDeps, 'workflows'>,
  workflowId: number,
  from: number,
  to: number,
): Promise<WorkflowRunRecord[]> {
  const runs: WorkflowRunRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.workflows.listRuns({
      workflowId,
      createdFrom: from,
      createdBefore: to,
      limit: RUN_PAGE,
      ...(cursor ? { cursor } : {}),
    });
    runs.push(...page.items);
    cursor = page.nextCursor;
    if (runs.length > MAX_WORKFLOW_RUNS_READ)
      throw new RequestValidationError([
        {
          field: 'to',
          message: `the window holds more than ${MAX_WORKFLOW_RUNS_READ} runs of the workflow; ask for a shorter one`,
        },
      ]);
  } while (cursor !== undefined);
  return runs;
}

/** A workflow run's status as the ledger's run status (running, success, fail). */
function statusOf(status: StoredRunStatus): NonNullable<LedgerEntry['status']> {
  if (status === 'SUCCEEDED') return 'success';
  return status === 'QUEUED' || status === 'RUNNING' ? 'running' : 'fail';
}

/** A fire's entry with what its starter run became: the workflow run it started, or why none. */
function startedRun(
  entry: LedgerEntry,
  starterRuns: ReadonlyMap<number, Run>,
  workflowRuns: ReadonlyMap<string, WorkflowRunRecord>,
  settledBefore: number,
): WorkflowLedgerEntry {
  if (entry.logId === undefined) return entry;
  const runId = scheduledRunId(entry.logId);
  const started = workflowRuns.get(runId);
  // A FIRE_ONCE_NOW catch-up that stood for missed fires started a run of its own: named with them.
  if (entry.outcome === 'skipped')
    return started && entry.rule === 'misfire' ? { ...entry, runId, runStatus: started.status } : entry;
  if (entry.outcome !== 'ran') return entry;
  if (started) return { ...entry, runId, runStatus: started.status, status: statusOf(started.status) };
  const starter = starterRuns.get(entry.logId);
  if (!starter) return entry;
  const { status: _starterStatus, ...fire } = entry;
  switch (runStatus(starter)) {
    case 'fail':
      // The start itself failed (its reason is the starter run's message): a failed run, no workflow run.
      return { ...fire, status: 'fail' };
    case 'running':
      // Claimed, and the workflow run it was to start is not there: unexplained once it is due.
      return (entry.fireAt ?? entry.scheduledTime) > settledBefore
        ? { ...fire, outcome: 'notYetDue' }
        : { ...fire, outcome: 'unexplained' };
    default:
      if (starter.handleCode === HANDLE_CODE.success && NOT_STARTED.test(starter.handleMsg))
        return { ...fire, outcome: 'skipped', rule: 'overlap' };
      // Started, and no longer stored (past its retention): its id, without a status.
      return { ...fire, runId };
  }
}
