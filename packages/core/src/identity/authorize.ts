import { jobIdOfBackfill } from '../backfills/backfill.js';
import { NotFoundError } from '../common/errors.js';
import type { Job } from '../jobs/job.js';
import type { JobStore } from '../jobs/job-store.js';
import { groupsNamedIn } from '../jobs/job-validation.js';
import type { Run } from '../runs/run.js';
import type { RunStore } from '../runs/run-store.js';
import type { WorkflowRecord, WorkflowRunRecord, WorkflowStore } from '../workflows/workflow-store.js';
import {
  type AccessSubject,
  type AccessTarget,
  checkAccess,
  type Principal,
  type RouteAccess,
} from './access.js';

export interface AuthorizeDeps {
  readonly jobs: Pick<JobStore, 'get'>;
  readonly runs: Pick<RunStore, 'get'>;
  readonly workflows: Pick<WorkflowStore, 'get' | 'getRun'>;
}

/** A request as authorisation sees it: its (validated) path parameters and body. */
export interface AuthorizeRequest {
  readonly params: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

/**
 * What the request turned out to be about: the job, run, workflow or workflow run it names (read
 * once, for the audit's "before" too).
 */
export type Subject =
  | { readonly kind: 'none' }
  | { readonly kind: 'group'; readonly appName: string }
  | { readonly kind: 'job'; readonly job: Job }
  | { readonly kind: 'run'; readonly run: Run }
  | { readonly kind: 'workflow'; readonly workflow: WorkflowRecord }
  | { readonly kind: 'workflowRun'; readonly workflowRun: WorkflowRunRecord };

const jobNotFound = (id: unknown) => `job ${String(id)} does not exist`;
const runNotFound = (logId: unknown) => `run ${String(logId)} does not exist (or its record expired)`;
const workflowNotFound = (id: unknown) => `workflow ${String(id)} does not exist`;
const workflowRunNotFound = (runId: unknown) =>
  `workflow run ${String(runId)} does not exist (or it expired)`;
const groupNotFound = (appName: string) => `group ${appName} does not exist`;
const backfillNotFound = (id: unknown) => `no backfill has the id ${String(id)}`;

/**
 * The authorisation step of an admin API request: finds the group the request is about as the
 * route's access says (the `appName` path parameter, the job, run, workflow or workflow run it
 * names, the new job's or workflow's `appName`) and lets `checkAccess` decide. A job, run, workflow
 * or workflow run that does not exist is a 404 here already, worded as the use-case would; one in a
 * group the caller does not reach gets the same 404.
 */
export async function authorize(
  deps: AuthorizeDeps,
  access: RouteAccess,
  principal: Principal | undefined,
  request: AuthorizeRequest,
): Promise<Subject> {
  if (access.kind !== 'read' && access.kind !== 'operate') {
    checkAccess(access, principal, { groups: [], notFound: groupNotFound });
    return { kind: 'none' };
  }
  const found = await subjectOf(deps, access.target, request);
  checkAccess(access, principal, found.access);
  return found.subject;
}

async function subjectOf(
  deps: AuthorizeDeps,
  target: AccessTarget,
  { params, body }: AuthorizeRequest,
): Promise<{ subject: Subject; access: AccessSubject }> {
  const none = { subject: { kind: 'none' } as const, access: { groups: [], notFound: groupNotFound } };
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  switch (target) {
    case 'list':
    case 'none':
      return none;
    case 'groupPath': {
      const appName = String(params.appName);
      return { subject: { kind: 'group', appName }, access: { groups: [appName], notFound: groupNotFound } };
    }
    case 'bodyGroup': {
      const named = groupsNamedIn(fields);
      const [appName] = named;
      if (appName === undefined) return none; // the use-case refuses the body for it
      return {
        subject: { kind: 'group', appName },
        access: { groups: named, notFound: groupNotFound, editsGlue: makesGlue(fields) },
      };
    }
    case 'jobPath': {
      const job = await deps.jobs.get(Number(params.id));
      if (!job) throw new NotFoundError(jobNotFound(params.id));
      const movesTo = groupsNamedIn(fields).filter((appName) => appName !== job.appName);
      return {
        subject: { kind: 'job', job },
        access: {
          groups: [job.appName, ...movesTo],
          notFound: (appName) => (appName === job.appName ? jobNotFound(job.id) : groupNotFound(appName)),
          editsGlue: changesGlue(job, fields),
        },
      };
    }
    case 'runPath': {
      const run = await deps.runs.get(Number(params.logId));
      if (!run) throw new NotFoundError(runNotFound(params.logId));
      return {
        subject: { kind: 'run', run },
        access: { groups: [run.appName], notFound: () => runNotFound(run.logId) },
      };
    }
    case 'workflowPath': {
      const workflow = await deps.workflows.get(Number(params.id));
      if (!workflow) throw new NotFoundError(workflowNotFound(params.id));
      const appName = workflow.definition.appName;
      // A new definition may name another group: the caller must be allowed there too.
      const movesTo = typeof fields.appName === 'string' ? fields.appName.trim() : appName;
      return {
        subject: { kind: 'workflow', workflow },
        access: {
          groups: movesTo === appName || movesTo === '' ? [appName] : [appName, movesTo],
          notFound: (group) => (group === appName ? workflowNotFound(workflow.id) : groupNotFound(group)),
        },
      };
    }
    case 'backfillPath': {
      // The id names the job; the backfill itself is read by the use-case (404 when it does not exist).
      const jobId = jobIdOfBackfill(String(params.id));
      const job = jobId === undefined ? undefined : await deps.jobs.get(jobId);
      if (!job) throw new NotFoundError(backfillNotFound(params.id));
      return {
        subject: { kind: 'group', appName: job.appName },
        access: { groups: [job.appName], notFound: () => backfillNotFound(params.id) },
      };
    }
    case 'workflowRunPath': {
      const run = await deps.workflows.getRun(String(params.runId));
      if (!run) throw new NotFoundError(workflowRunNotFound(params.runId));
      return {
        subject: { kind: 'workflowRun', workflowRun: run },
        access: { groups: [run.appName], notFound: () => workflowRunNotFound(run.id) },
      };
    }
  }
}

/** A new job that is GLUE or carries a GLUE source. */
function makesGlue(fields: Record<string, unknown>): boolean {
  const glueType = fields.glueType;
  const source = fields.glueSource;
  return (glueType !== undefined && glueType !== 'BEAN') || (typeof source === 'string' && source !== '');
}

/** An edit that makes the job GLUE, changes its GLUE type, or writes a different GLUE source. */
function changesGlue(job: Job, fields: Record<string, unknown>): boolean {
  const typeChanges =
    fields.glueType !== undefined && fields.glueType !== job.glueType && fields.glueType !== 'BEAN';
  const sourceChanges = typeof fields.glueSource === 'string' && fields.glueSource !== job.glueSource;
  return typeChanges || sourceChanges;
}
