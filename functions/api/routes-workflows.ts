import { API } from '@tickring/api/contract';
import { created, noContent, ok } from '@tickring/api/http';
import type { WorkflowRecord, WorkflowRunRecord } from '@tickring/core/workflows';
import {
  type AdminWorkflowsDeps,
  cancelWorkflowRun,
  createWorkflow,
  deleteWorkflow,
  getWorkflow,
  getWorkflowRun,
  listWorkflowRuns,
  listWorkflows,
  retryWorkflowRun,
  setWorkflowStatus,
  triggerWorkflow,
  updateWorkflow,
} from '@tickring/core/workflows/use-cases';
import type { GuardedRouter } from './authorize.js';
import { accepted, workflowRunSummaryView, workflowRunView, workflowView } from './views.js';

/**
 * Workflows and their runs: each handler calls one use-case and answers its view. A workflow's
 * view shows its schedule's next fire, read from its schedule job (one read; a list reads them in
 * one batch); a run's view shows its nodes in the order of the definition version it follows.
 */
export function addWorkflowRoutes(r: GuardedRouter, deps: AdminWorkflowsDeps): void {
  r.route(API.listWorkflows, async ({ query }, caller) => {
    const page = await listWorkflows(deps, query, caller.visible);
    return ok({ items: await workflowViews(deps, page.items), nextCursor: page.nextCursor ?? null });
  })
    .route(API.createWorkflow, async (req) =>
      created(await describeWorkflow(deps, await createWorkflow(deps, req.body))),
    )
    .route(API.getWorkflow, async (req) =>
      ok(await describeWorkflow(deps, await getWorkflow(deps, req.params.id))),
    )
    .route(API.updateWorkflow, async (req) =>
      ok(await describeWorkflow(deps, await updateWorkflow(deps, req.params.id, req.body))),
    )
    .route(API.deleteWorkflow, async (req) => noContent(await deleteWorkflow(deps, req.params.id)))
    .route(API.startWorkflow, async (req) =>
      ok(await describeWorkflow(deps, await setWorkflowStatus(deps, req.params.id, 'RUNNING'))),
    )
    .route(API.stopWorkflow, async (req) =>
      ok(await describeWorkflow(deps, await setWorkflowStatus(deps, req.params.id, 'STOPPED'))),
    )
    .route(API.triggerWorkflow, async (req, caller) => {
      const by = caller.principal?.name ?? 'anonymous';
      const { run, definition } = await triggerWorkflow(deps, req.params.id, req.body, by);
      return accepted(workflowRunView(run, definition));
    })

    .route(API.listWorkflowRuns, async ({ query }, caller) => {
      const page = await listWorkflowRuns(deps, query, caller.visible);
      return ok({ items: page.items.map(workflowRunSummaryView), nextCursor: page.nextCursor ?? null });
    })
    .route(API.getWorkflowRun, async (req) => {
      const { run, definition } = await getWorkflowRun(deps, req.params.runId);
      return ok(workflowRunView(run, definition));
    })
    .route(API.retryWorkflowRun, async (req) => {
      const { run, definition } = await retryWorkflowRun(deps, req.params.runId);
      return ok(workflowRunView(run, definition));
    })
    .route(API.cancelWorkflowRun, async (req) => {
      const { run, definition } = await cancelWorkflowRun(deps, req.params.runId);
      return ok(workflowRunView(run, definition));
    });
}

/**
 * A workflow's view, with its schedule's state (its schedule job's: next fire, runs left; one read)
 * and where it stands against its deadline now.
 */
export async function describeWorkflow(
  deps: Pick<AdminWorkflowsDeps, 'jobs' | 'clock'>,
  workflow: WorkflowRecord,
): Promise<ReturnType<typeof workflowView>> {
  const starter =
    workflow.starterJobId === undefined ? undefined : await deps.jobs.get(workflow.starterJobId);
  return workflowView(workflow, starter, deps.clock.now());
}

/** A run's view, with its nodes in the order of its definition version. */
export async function describeWorkflowRun(
  deps: Pick<AdminWorkflowsDeps, 'engine'>,
  run: WorkflowRunRecord,
): Promise<ReturnType<typeof workflowRunView>> {
  return workflowRunView(run, await deps.engine.definition(run.workflowId, run.version));
}

/** Workflows' views, their schedule jobs read in one batch. */
async function workflowViews(
  deps: Pick<AdminWorkflowsDeps, 'jobs' | 'clock'>,
  workflows: readonly WorkflowRecord[],
): Promise<ReturnType<typeof workflowView>[]> {
  const ids = workflows.flatMap((w) => (w.starterJobId === undefined ? [] : [w.starterJobId]));
  const jobs = new Map((ids.length === 0 ? [] : await deps.jobs.getMany(ids)).map((job) => [job.id, job]));
  const now = deps.clock.now();
  return workflows.map((w) =>
    workflowView(w, w.starterJobId === undefined ? undefined : jobs.get(w.starterJobId), now),
  );
}
