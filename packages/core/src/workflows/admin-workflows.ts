/**
 * The admin API's workflows: definitions (versioned: an edit is a new version, runs keep theirs),
 * their schedules, triggers, and their runs (read, retry, cancel).
 *
 * A workflow's schedule is a job of its group that the workflow manages (its starter job,
 * `Job.workflowId`): the tick plans its fires and the dispatcher claims them like any job's (the
 * misfire rules included), then starts the workflow run instead of calling an executor. The job
 * routes refuse to change such a job; the workflow's save, start, stop and delete change it.
 */

import type { ScheduleCalendars } from '../calendars/calendar-schedule.js';
import type { CalendarStore } from '../calendars/calendar-store.js';
import type { Clock } from '../common/clock.js';
import { ConflictError, NotFoundError, RequestValidationError, ValidationError } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import { ALL_GROUPS, listScope, type VisibleGroups } from '../identity/access.js';
import { rejectProblems } from '../identity/deps.js';
import type { Problem } from '../identity/identity.js';
import { type AdminJobsDeps, requireCalendars, saveManagedJob } from '../jobs/admin-jobs.js';
import type { Job, TriggerStatus } from '../jobs/job.js';
import type { GroupStore, JobStore, Page } from '../jobs/job-store.js';
import {
  firstFireForStart,
  type JobSpec,
  readScheduleCalendars,
  withoutUndefined,
} from '../jobs/job-validation.js';
import { firstPlannedLogId, MAX_JOB_ID } from '../runs/run.js';
import {
  type JsonValue,
  utf8Bytes,
  validateWorkflow,
  WORKFLOW_LIMITS,
  type WorkflowDefinition,
} from './model/index.js';
import type { StartResult, WorkflowEngine } from './workflow-engine.js';
import type {
  WorkflowQuery,
  WorkflowRecord,
  WorkflowRunQuery,
  WorkflowRunRecord,
  WorkflowStore,
} from './workflow-store.js';

export interface AdminWorkflowsDeps {
  readonly workflows: WorkflowStore;
  readonly engine: Pick<WorkflowEngine, 'start' | 'cancel' | 'retry' | 'definition'>;
  readonly jobs: JobStore;
  readonly groups: Pick<GroupStore, 'get'>;
  /** Where the schedule's calendars are read (each must exist); absent: a workflow naming calendars is refused. */
  readonly calendars?: Pick<CalendarStore, 'get'>;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** Fields a workflow body may carry besides the definition. */
const HEAD_FIELDS = ['id', 'version', 'triggerStatus'] as const;
/** Fields of a workflow as the API shows it that a body may carry (a workflow as read): ignored. */
const READ_ONLY_FIELDS = [
  'starterJobId',
  'triggerNextTime',
  'activeRuns',
  'bufferedRunId',
  'runsRemaining',
  'scheduleEnded',
  'deadlineStatus',
  'createdAt',
  'updatedAt',
] as const;
/** The definition as stored must fit one item beside its head (DynamoDB: 400 KB an item). */
export const MAX_DEFINITION_BYTES = 300 * 1024;
/** What the starter job's handler is called (never sent: the dispatcher starts the run itself). */
export const STARTER_HANDLER = 'tickring.workflow';

export interface WorkflowRunDetail {
  readonly run: WorkflowRunRecord;
  /** The version the run follows. */
  readonly definition: WorkflowDefinition;
}

export async function createWorkflow(deps: AdminWorkflowsDeps, input: unknown): Promise<WorkflowRecord> {
  const { definition, triggerStatus } = await readBody(deps, input, { status: 'STOPPED' });
  const id = await deps.workflows.allocateId();
  const now = deps.clock.now();
  const workflow: WorkflowRecord = {
    id,
    version: 1,
    definition,
    triggerStatus: definition.scheduleType === 'NONE' ? 'STOPPED' : triggerStatus,
    activeRuns: 0,
    ...(definition.deadline === undefined ? {} : { deadlineSetAt: now }),
    createdAt: now,
    updatedAt: now,
  };
  await deps.workflows.create(workflow);
  deps.logger.info('workflow created', {
    workflowId: id,
    appName: definition.appName,
    nodes: definition.nodes.length,
  });
  return syncStarter(deps, workflow);
}

export async function getWorkflow(
  deps: Pick<AdminWorkflowsDeps, 'workflows'>,
  id: number,
): Promise<WorkflowRecord> {
  const workflow = await deps.workflows.get(id);
  if (!workflow) throw new NotFoundError(`workflow ${id} does not exist`);
  return workflow;
}

/** What the list routes ask for: one group (`appName`) or all, the page. */
export interface WorkflowListRequest {
  readonly appName?: string;
  readonly limit: number;
  readonly cursor?: string;
}

/**
 * A page of workflows of the groups the caller sees (`visible`), or of the one group asked for (none
 * for a group the caller does not see).
 */
export async function listWorkflows(
  deps: Pick<AdminWorkflowsDeps, 'workflows'>,
  query: WorkflowListRequest,
  visible: VisibleGroups,
): Promise<Page<WorkflowRecord>> {
  const appNames = scopedApps(query.appName, visible);
  if (appNames === null) return { items: [] };
  const scoped: WorkflowQuery = {
    limit: query.limit,
    ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
    ...(appNames === undefined ? {} : { appNames }),
  };
  return deps.workflows.list(scoped);
}

/**
 * Replaces the definition with the body's (a new version; runs in progress keep theirs). A
 * `version` in the body must be the stored one; `triggerStatus` may come along.
 */
export async function updateWorkflow(
  deps: AdminWorkflowsDeps,
  id: number,
  input: unknown,
): Promise<WorkflowRecord> {
  const current = await getWorkflow(deps, id);
  const head = headOf(input);
  if (head.id !== undefined && head.id !== id) {
    throw new ValidationError(
      `id ${JSON.stringify(head.id)} does not match the workflow in the path (${id})`,
      'id',
    );
  }
  if (head.version !== undefined && !(Number.isSafeInteger(head.version) && (head.version as number) >= 1)) {
    throw new ValidationError(
      `version must be the workflow's version as read (an integer >= 1); got ${JSON.stringify(head.version)}`,
      'version',
    );
  }
  if (head.version !== undefined && head.version !== current.version) {
    throw new ConflictError(
      `workflow ${id} is at version ${current.version}, not ${JSON.stringify(head.version)}; read it again and retry`,
    );
  }
  const { definition, triggerStatus } = await readBody(deps, input, { status: current.triggerStatus });
  const now = deps.clock.now();
  const { deadlineSetAt: _set, ...kept } = current;
  const deadlineSetAt = deadlineSince(definition, current, now);
  const next: WorkflowRecord = {
    ...kept,
    version: current.version + 1,
    definition,
    triggerStatus: definition.scheduleType === 'NONE' ? 'STOPPED' : triggerStatus,
    ...(deadlineSetAt === undefined ? {} : { deadlineSetAt }),
    updatedAt: now,
  };
  await deps.workflows.update(next, current.version);
  deps.logger.info('workflow updated', { workflowId: id, version: next.version });
  return syncStarter(deps, next);
}

/**
 * When the new definition's deadline counts from: the time it was set as long as an edit leaves it as
 * it was, `now` when it is new or changed; undefined without one.
 */
function deadlineSince(
  definition: WorkflowDefinition,
  current: WorkflowRecord,
  now: number,
): number | undefined {
  if (definition.deadline === undefined) return undefined;
  const same = JSON.stringify(definition.deadline) === JSON.stringify(current.definition.deadline);
  return same && current.deadlineSetAt !== undefined ? current.deadlineSetAt : now;
}

/** Turns the schedule on or off (a NONE schedule cannot be started: trigger it instead). */
export async function setWorkflowStatus(
  deps: AdminWorkflowsDeps,
  id: number,
  status: TriggerStatus,
): Promise<WorkflowRecord> {
  const current = await getWorkflow(deps, id);
  if (status === 'RUNNING' && current.definition.scheduleType === 'NONE') {
    throw new ValidationError(
      'scheduleType NONE cannot be started; the workflow only runs when triggered (POST /v1/workflows/{id}/trigger)',
      'scheduleType',
    );
  }
  // Even when the head says so already: a start or stop whose schedule job change failed is mended
  // by doing it again.
  const now = deps.clock.now();
  // A schedule that never fires again cannot be started: refused before anything is written.
  const never =
    status === 'RUNNING'
      ? neverFires(current.definition, now, `change its schedule first (PUT /v1/workflows/${id})`)
      : undefined;
  if (never) throw new ValidationError(never.message, never.field);
  await deps.workflows.setSchedule(id, status, current.starterJobId, now);
  deps.logger.info(status === 'RUNNING' ? 'workflow started' : 'workflow stopped', { workflowId: id });
  return syncStarter(deps, { ...current, triggerStatus: status, updatedAt: now });
}

/** Deletes the workflow and its schedule; ConflictError while a run of it is running or buffered. */
export async function deleteWorkflow(deps: AdminWorkflowsDeps, id: number): Promise<void> {
  const current = await getWorkflow(deps, id);
  if (current.activeRuns > 0 || current.bufferedRunId !== undefined) {
    throw new ConflictError(
      `workflow ${id} has ${current.activeRuns} run${current.activeRuns === 1 ? '' : 's'} running${current.bufferedRunId ? ' and one waiting' : ''}; cancel ${current.activeRuns + (current.bufferedRunId ? 1 : 0) === 1 ? 'it' : 'them'} first`,
    );
  }
  // The schedule first: a schedule job left behind would keep starting runs of nothing, and only
  // the workflow may delete it; a workflow left behind (its delete refused by a run started just
  // now) makes a new schedule job when it is saved or started again.
  if (current.starterJobId !== undefined) {
    await deps.jobs.delete(current.starterJobId).catch((err: unknown) => {
      if (!(err instanceof NotFoundError)) throw err; // gone already (a delete refused after it)
    });
  }
  await deps.workflows.delete(id);
  deps.logger.info('workflow deleted', { workflowId: id });
}

const TRIGGER_FIELDS = ['input'] as const;

/**
 * Starts a run now with the body's `input` (any JSON, `{}` when absent), as the overlap policy
 * allows: ConflictError when the policy skips it (SKIP while a run is running; BUFFER_ONE with one
 * waiting already), a QUEUED run when it is buffered.
 */
export async function triggerWorkflow(
  deps: AdminWorkflowsDeps,
  id: number,
  input: unknown,
  by: string,
): Promise<WorkflowRunDetail> {
  const body = input === undefined || input === null ? {} : input;
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ValidationError('the body must be a JSON object {"input": …} (or empty)', 'body');
  }
  const unknown = Object.keys(body).filter((k) => !(TRIGGER_FIELDS as readonly string[]).includes(k));
  if (unknown.length > 0) {
    throw new ValidationError(
      `unknown field "${unknown[0]}"; a trigger takes ${TRIGGER_FIELDS.join(', ')}`,
      unknown[0],
    );
  }
  const runInput = (body as { input?: JsonValue }).input ?? {};
  const started: StartResult = await deps.engine.start({
    workflowId: id,
    input: runInput,
    trigger: { type: 'MANUAL', by },
  });
  if (started.kind === 'skipped') throw new ConflictError(`the run was not started: ${started.reason}`);
  if (started.kind === 'exists') throw new ConflictError(`workflow run ${started.runId} exists already`);
  const { run } = started;
  return { run, definition: await deps.engine.definition(run.workflowId, run.version) };
}

export async function getWorkflowRun(deps: AdminWorkflowsDeps, runId: string): Promise<WorkflowRunDetail> {
  const run = await deps.workflows.getRun(runId);
  if (!run) throw new NotFoundError(`workflow run ${runId} does not exist (or it expired)`);
  return { run, definition: await deps.engine.definition(run.workflowId, run.version) };
}

/** What the run list route asks for. */
export interface WorkflowRunListRequest extends WorkflowListRequest {
  readonly workflowId?: number;
  readonly status?: WorkflowRunQuery['status'];
}

/**
 * A page of workflow runs, newest first, of the groups the caller sees (`visible`), or of the one
 * group asked for (none for a group the caller does not see).
 */
export async function listWorkflowRuns(
  deps: Pick<AdminWorkflowsDeps, 'workflows'>,
  query: WorkflowRunListRequest,
  visible: VisibleGroups,
): Promise<Page<WorkflowRunRecord>> {
  const appNames = scopedApps(query.appName, visible);
  if (appNames === null) return { items: [] };
  const scoped: WorkflowRunQuery = {
    limit: query.limit,
    ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
    ...(query.workflowId === undefined ? {} : { workflowId: query.workflowId }),
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(appNames === undefined ? {} : { appNames }),
  };
  return deps.workflows.listRuns(scoped);
}

/**
 * The groups a list reads: the one asked for, or those the caller sees (undefined: every group);
 * null: nothing to read.
 */
function scopedApps(
  appName: string | undefined,
  visible: VisibleGroups,
): readonly string[] | undefined | null {
  const scope = listScope(appName, visible, false);
  if (scope === null) return null;
  if (scope.appName !== undefined) return [scope.appName];
  return visible === ALL_GROUPS ? undefined : [...visible];
}

export async function retryWorkflowRun(deps: AdminWorkflowsDeps, runId: string): Promise<WorkflowRunDetail> {
  const run = await deps.engine.retry(runId);
  return { run, definition: await deps.engine.definition(run.workflowId, run.version) };
}

export async function cancelWorkflowRun(deps: AdminWorkflowsDeps, runId: string): Promise<WorkflowRunDetail> {
  const run = await deps.engine.cancel(runId);
  return { run, definition: await deps.engine.definition(run.workflowId, run.version) };
}

// ---------------------------------------------------------------------------------------------

interface Head {
  readonly id?: unknown;
  readonly version?: unknown;
  readonly triggerStatus?: unknown;
}

function headOf(input: unknown): Head {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return {};
  const body = input as Record<string, unknown>;
  return { id: body.id, version: body.version, triggerStatus: body.triggerStatus };
}

/**
 * The body's definition, checked in full (the domain's rules, then the group, the jobs, the size and
 * whether a RUNNING schedule fires), every problem reported at once: the group and the jobs the
 * body names are looked at even when the definition has other problems. Its `triggerStatus` (else
 * `defaults.status`). Head fields and a workflow view's read-only fields are not part of it.
 */
async function readBody(
  deps: Pick<AdminWorkflowsDeps, 'groups' | 'jobs' | 'calendars' | 'clock'>,
  input: unknown,
  defaults: { status: TriggerStatus },
): Promise<{ definition: WorkflowDefinition; triggerStatus: TriggerStatus }> {
  const problems: Problem[] = [];
  let body = input;
  let triggerStatus = defaults.status;
  let statusGiven = false;
  if (isRecord(input)) {
    const rest = { ...input };
    for (const field of [...HEAD_FIELDS, ...READ_ONLY_FIELDS]) delete rest[field];
    body = rest;
    const status = input.triggerStatus;
    if (status === 'RUNNING' || status === 'STOPPED') {
      triggerStatus = status;
      statusGiven = true;
    } else if (status !== undefined) {
      problems.push({
        field: 'triggerStatus',
        message: `triggerStatus must be RUNNING or STOPPED; got ${JSON.stringify(status)}`,
      });
    }
  }
  const checked = validateWorkflow(body, deps.clock.now());
  const definition = 'ok' in checked ? checked.ok : undefined;
  const found: Problem[] = 'problems' in checked ? [...checked.problems] : [];
  const reported = new Set(found.map((p) => p.field));
  const named = definition ? draftOfDefinition(definition) : draftOf(body);
  if (definition) {
    const bytes = utf8Bytes(JSON.stringify(definition));
    if (bytes > MAX_DEFINITION_BYTES) {
      found.push({
        field: 'nodes',
        message: `the workflow is ${bytes} bytes as JSON; at most ${MAX_DEFINITION_BYTES} (shorten its parameter templates)`,
      });
    }
  }
  const appName = reported.has('appName') ? undefined : named.appName;
  if (appName !== undefined && !(await deps.groups.get(appName))) {
    found.push({
      field: 'appName',
      message: `appName ${JSON.stringify(appName)} is not an executor group; create the group first`,
    });
  }
  // Named well but missing: reported beside the definition's other problems.
  const calendars =
    reported.has('calendars.only') || reported.has('calendars.exclude') ? undefined : calendarsNamed(body);
  if (calendars) {
    try {
      await requireCalendars(deps, calendars);
    } catch (err) {
      if (!(err instanceof RequestValidationError)) throw err;
      found.push(...err.problems.map((p) => ({ field: p.field ?? 'calendars', message: p.message })));
    }
  }
  const nodes = named.nodes.filter((n) => !reported.has(`nodes[${n.index}].jobId`));
  const jobIds = [...new Set(nodes.map((n) => n.jobId))];
  const jobs = new Map(
    (jobIds.length === 0 ? [] : await deps.jobs.getMany(jobIds)).map((job) => [job.id, job]),
  );
  for (const node of nodes) {
    const job = jobs.get(node.jobId);
    const field = `nodes[${node.index}].jobId`;
    if (!job) found.push({ field, message: `node ${node.key}: job ${node.jobId} does not exist` });
    else if (appName !== undefined && job.appName !== appName) {
      found.push({
        field,
        message: `node ${node.key}: job ${node.jobId} belongs to group ${job.appName}, not the workflow's ${appName}`,
      });
    } else if (job.workflowId !== undefined) {
      found.push({
        field,
        message: `node ${node.key}: job ${node.jobId} is the schedule of workflow ${job.workflowId}, not a job a node can run`,
      });
    }
  }
  if (definition && triggerStatus === 'RUNNING') {
    if (definition.scheduleType === 'NONE') {
      if (statusGiven) {
        found.push({
          field: 'triggerStatus',
          message: 'scheduleType NONE cannot be RUNNING; the workflow only runs when triggered',
        });
      }
    } else {
      const never = neverFires(
        definition,
        deps.clock.now(),
        'send triggerStatus STOPPED, or a schedule that fires again',
      );
      if (never) found.push(never);
    }
  }
  rejectProblems([...found, ...problems]);
  return { definition: definition as WorkflowDefinition, triggerStatus };
}

/** The calendars a body names, when they can be read. */
function calendarsNamed(body: unknown): ScheduleCalendars | undefined {
  if (!isRecord(body) || body.calendars === undefined) return undefined;
  try {
    return readScheduleCalendars(body.calendars);
  } catch {
    return undefined;
  }
}

/** The group and the node jobs a body names, as far as they can be read. */
interface NamedInBody {
  readonly appName?: string;
  readonly nodes: readonly { readonly index: number; readonly key: string; readonly jobId: number }[];
}

function draftOfDefinition(definition: WorkflowDefinition): NamedInBody {
  return {
    appName: definition.appName,
    nodes: definition.nodes.map((node, index) => ({ index, key: node.key, jobId: node.jobId })),
  };
}

/** What a body that is not a valid definition names: a string appName, and nodes with a job id. */
function draftOf(body: unknown): NamedInBody {
  if (!isRecord(body)) return { nodes: [] };
  const appName = typeof body.appName === 'string' ? body.appName.trim() : '';
  const list = Array.isArray(body.nodes) && body.nodes.length <= WORKFLOW_LIMITS.nodes ? body.nodes : [];
  const nodes = list.flatMap((node: unknown, index) => {
    if (!isRecord(node)) return [];
    const { jobId, key } = node;
    if (typeof jobId !== 'number' || !Number.isSafeInteger(jobId) || jobId < 1 || jobId > MAX_JOB_ID)
      return [];
    return [{ index, key: typeof key === 'string' ? key : `nodes[${index}]`, jobId }];
  });
  return { ...(appName === '' ? {} : { appName }), nodes };
}

/** The problem of a RUNNING schedule that never fires after `now`, if it is one (`remedy`: what to do). */
function neverFires(definition: WorkflowDefinition, now: number, remedy: string): Problem | undefined {
  try {
    firstFireForStart(definition, now);
    return undefined;
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return {
      field: 'scheduleConf',
      message: `the schedule never fires after now (scheduleType ${definition.scheduleType}, scheduleConf ${JSON.stringify(definition.scheduleConf)}), so the workflow cannot be RUNNING; ${remedy}`,
    };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The starter job's settings for the workflow (its schedule, its status); undefined: it needs none. */
function starterSpec(workflow: WorkflowRecord): JobSpec | undefined {
  const def = workflow.definition;
  if (def.scheduleType === 'NONE') return undefined;
  return {
    appName: def.appName,
    name: `workflow ${workflow.id}: ${def.name}`.slice(0, WORKFLOW_LIMITS.name),
    author: 'tickring',
    alarmEmail: '',
    alarmWebhook: '',
    scheduleType: def.scheduleType,
    scheduleConf: def.scheduleConf,
    timeZone: def.timeZone,
    misfireStrategy: def.misfireStrategy,
    ...withoutUndefined({
      startAt: def.startAt,
      endAt: def.endAt,
      maxRuns: def.maxRuns,
      jitterSeconds: def.jitterSeconds,
    }),
    ...(def.calendars === undefined ? {} : { calendars: def.calendars }),
    executorRouteStrategy: 'FIRST',
    executorHandler: STARTER_HANDLER,
    executorParam: '',
    executorBlockStrategy: 'SERIAL_EXECUTION' as const,
    executorTimeout: 0,
    executorFailRetryCount: 0,
    retryBackoffSeconds: 10,
    glueType: 'BEAN' as const,
    glueSource: '',
    childJobIds: [] as number[],
    triggerStatus: workflow.triggerStatus,
  };
}

/**
 * Makes the starter job match the workflow: created for a schedule, changed with it, deleted with
 * a NONE schedule. Not in one transaction with the workflow: a failure here leaves the workflow
 * saved and is reported; saving (or starting) it again mends the job.
 */
async function syncStarter(deps: AdminWorkflowsDeps, workflow: WorkflowRecord): Promise<WorkflowRecord> {
  const spec = starterSpec(workflow);
  const jobsDeps: AdminJobsDeps = {
    jobs: deps.jobs,
    groups: deps.groups,
    ...(deps.calendars === undefined ? {} : { calendars: deps.calendars }),
    clock: deps.clock,
    logger: deps.logger,
  };
  const existing =
    workflow.starterJobId === undefined ? undefined : await deps.jobs.get(workflow.starterJobId);
  if (!spec) {
    if (existing) await deps.jobs.delete(existing.id);
    if (workflow.starterJobId === undefined) return workflow;
    await deps.workflows.setSchedule(workflow.id, 'STOPPED', undefined, workflow.updatedAt);
    const { starterJobId: _gone, ...rest } = workflow;
    return { ...rest, triggerStatus: 'STOPPED' };
  }
  if (existing) {
    await saveManagedJob(jobsDeps, existing.id, spec);
    return workflow;
  }
  // The id is written to the workflow before the job is made: a job left behind by a failure is
  // always the one its workflow names (made again under that id when missing), and of two saves at
  // once only one names a job.
  let jobId = workflow.starterJobId;
  if (jobId === undefined) {
    jobId = await deps.jobs.allocateId();
    if (jobId > MAX_JOB_ID) throw new ConflictError(`no job id left for workflow ${workflow.id}'s schedule`);
    await deps.workflows.setSchedule(workflow.id, workflow.triggerStatus, jobId, workflow.updatedAt, null);
  }
  const gate = await requireCalendars(jobsDeps, spec.calendars);
  const now = deps.clock.now();
  const job: Job = {
    ...spec,
    id: jobId,
    glueUpdatetime: now,
    triggerLastTime: 0,
    triggerNextTime: spec.triggerStatus === 'RUNNING' ? firstFireForStart(spec, now, gate) : null,
    slowUntil: 0,
    scheduleRevision: 1,
    workflowId: workflow.id,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
  try {
    await deps.jobs.create(job, { logIdBlock: firstPlannedLogId(jobId) });
  } catch (err) {
    if (!(err instanceof ConflictError)) throw err;
    await saveManagedJob(jobsDeps, jobId, spec); // made meanwhile by a save at the same time
  }
  deps.logger.info('workflow schedule job created', { workflowId: workflow.id, jobId });
  return { ...workflow, starterJobId: jobId };
}
