import {
  MemoryBackfillStore,
  MemoryCalendarStore,
  MemoryWorkflowStore,
  memoryDispatchDeps,
} from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { problemsOf, RequestValidationError } from '../common/errors.js';
import { dispatchFire } from '../dispatch/dispatch-fire.js';
import { DISPATCH_DEFAULTS } from '../dispatch/settings.js';
import { HANDLE_CODE } from '../runs/run.js';
import { createWorkflow } from '../workflows/admin-workflows.js';
import { WorkflowFireHook } from '../workflows/dispatch-hook.js';
import { WorkflowEngine } from '../workflows/workflow-engine.js';
import {
  listWorkflowBackfills,
  previewWorkflowBackfill,
  startBackfill,
  startWorkflowBackfill,
} from './admin-backfills.js';
import { sweepBackfills } from './backfill-sweep.js';

const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const lastQuarter = { from: iso(NOW - 15 * MINUTE), to: iso(NOW) };

/**
 * A workflow of one node (job 1) on a five-minute schedule under SKIP, with the real engine over a
 * memory store, the dispatcher's workflow hook, and the backfills' use-cases.
 */
async function fixture(
  schedule: Record<string, unknown> = { scheduleType: 'CRON', scheduleConf: '0 */5 * * * ?' },
) {
  const env = memoryDispatchDeps(NOW);
  const workflowStore = new MemoryWorkflowStore();
  const engine = new WorkflowEngine({
    workflows: workflowStore,
    jobs: env.jobs,
    runs: env.runs,
    ring: env.ring,
    alarms: env.alarms,
    clock: env.clock,
    logger: env.logger,
    metrics: env.metrics,
  });
  await env.jobs.allocateId(); // job 1 (the node's) was put in the store without taking its id
  const workflow = await createWorkflow(
    {
      workflows: workflowStore,
      engine,
      jobs: env.jobs,
      groups: env.groups,
      clock: env.clock,
      logger: env.logger,
    },
    {
      name: 'nightly',
      appName: 'app-a',
      overlapPolicy: 'SKIP',
      nodes: [{ key: 'only', jobId: 1 }],
      ...schedule,
    },
  );
  const outcome = { ...env.deps, workflows: engine };
  const dispatch = { ...outcome, fireHook: new WorkflowFireHook(outcome) };
  const deps = {
    jobs: env.jobs,
    backfills: new MemoryBackfillStore(),
    calendars: new MemoryCalendarStore(),
    workflows: workflowStore,
    workflowRuns: workflowStore,
    runs: env.runs,
    ring: env.ring,
    clock: env.clock,
    logger: env.logger,
    random: () => 0.5,
  };
  /** Hands every fire put on the ring since the last call to a dispatcher (starter and node fires). */
  let delivered = 0;
  const deliver = async () => {
    while (delivered < env.ring.entries.length) {
      const entry = env.ring.entries[delivered++];
      if (entry) await dispatchFire(dispatch, DISPATCH_DEFAULTS, entry.message);
    }
  };
  /** The node's job run of a workflow run finishes, and the engine hears of it (as run-outcome does). */
  const finishNode = async (workflowRunId: string, handleCode: number) => {
    const nodeRun = env.runs.all().find((r) => r.workflow?.runId === workflowRunId);
    if (!nodeRun) throw new Error(`no node run of ${workflowRunId}`);
    const done = await env.runs.complete(nodeRun.logId, { handleCode, handleMsg: '', handleTime: NOW });
    if (done.kind === 'completed') await engine.onNodeRunFinished(done.run, { retried: false });
  };
  const workflowRuns = async () =>
    (await workflowStore.listRuns({ workflowId: workflow.id, limit: 50 })).items.sort(
      (a, b) => (a.trigger.scheduledTime ?? 0) - (b.trigger.scheduledTime ?? 0),
    );
  return { env, deps, workflow, deliver, finishNode, workflowRuns };
}

describe('a backfill of a workflow’s schedule', () => {
  it('starts a BACKFILL workflow run per past fire, its scheduled time in its trigger and input, the overlap policy not holding them back', async () => {
    const { deps, workflow, deliver, workflowRuns } = await fixture();
    expect(await previewWorkflowBackfill(deps, workflow.id, lastQuarter)).toMatchObject({
      workflowId: workflow.id,
      jobId: workflow.starterJobId,
      total: 3,
    });
    const started = await startWorkflowBackfill(deps, workflow.id, { ...lastQuarter, parallelism: 2 }, 'ana');
    expect(started).toMatchObject({
      workflowId: workflow.id,
      jobId: workflow.starterJobId,
      total: 3,
      dispatched: 2,
    });
    await deliver();
    const runs = await workflowRuns();
    // Two at once under SKIP: a backfill's parallelism limits its runs, not the overlap policy.
    expect(runs.map((r) => [r.status, r.trigger.type, r.trigger.scheduledTime, r.state.input])).toEqual([
      ['RUNNING', 'BACKFILL', NOW - 15 * MINUTE, { scheduledTime: iso(NOW - 15 * MINUTE) }],
      ['RUNNING', 'BACKFILL', NOW - 10 * MINUTE, { scheduledTime: iso(NOW - 10 * MINUTE) }],
    ]);
    expect(await listWorkflowBackfills(deps, workflow.id, {})).toMatchObject({ items: [{ id: started.id }] });
  });

  it('counts a fire as running until its workflow run ends, and its result as the workflow run’s', async () => {
    const { deps, workflow, deliver, finishNode, workflowRuns } = await fixture();
    const started = await startWorkflowBackfill(deps, workflow.id, { ...lastQuarter, parallelism: 2 }, 'ana');
    await deliver();
    // The starter runs have finished (the workflow runs started); the workflow runs still run.
    expect((await sweepBackfills(deps)).started).toBe(0);
    expect((await deps.backfills.get(started.id))?.running).toHaveLength(2);

    const [first, second] = await workflowRuns();
    await finishNode(first?.id as string, HANDLE_CODE.success);
    await sweepBackfills(deps);
    await deliver();
    expect(await deps.backfills.get(started.id)).toMatchObject({ succeeded: 1, failed: 0, dispatched: 3 });

    await finishNode(second?.id as string, HANDLE_CODE.fail);
    const third = (await workflowRuns())[2];
    expect(third?.trigger.scheduledTime).toBe(NOW - 5 * MINUTE);
    await finishNode(third?.id as string, HANDLE_CODE.success);
    await sweepBackfills(deps);
    expect(await deps.backfills.get(started.id)).toMatchObject({
      state: 'COMPLETED',
      succeeded: 2,
      failed: 1,
      failures: [NOW - 10 * MINUTE],
      running: [],
    });
  });

  it('is refused through the starter job’s routes (naming the workflow’s), and for a workflow without a schedule', async () => {
    const scheduled = await fixture();
    const viaJob = await startBackfill(
      scheduled.deps,
      scheduled.workflow.starterJobId as number,
      lastQuarter,
      'ana',
    ).catch((e: unknown) => e);
    expect(viaJob).toBeInstanceOf(RequestValidationError);
    expect(problemsOf(viaJob as RequestValidationError)[0]?.message).toContain(
      `backfill the workflow instead (POST /v1/workflows/${scheduled.workflow.id}/backfill`,
    );

    const unscheduled = await fixture({});
    const none = await startWorkflowBackfill(
      unscheduled.deps,
      unscheduled.workflow.id,
      lastQuarter,
      'ana',
    ).catch((e: unknown) => e);
    expect(problemsOf(none as RequestValidationError)).toEqual([
      {
        field: 'workflowId',
        message: `workflow ${unscheduled.workflow.id} has no schedule (scheduleType NONE); only a CRON or FIX_RATE schedule can be backfilled`,
      },
    ]);
    expect(await listWorkflowBackfills(unscheduled.deps, unscheduled.workflow.id, {})).toEqual({ items: [] });
  });
});
