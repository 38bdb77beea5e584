/** A workflow's fire ledger and the dead-man check of its schedule, on memory stores. */
import {
  endedRun,
  MemoryAuditLog,
  MemoryCalendarStore,
  MemoryWorkflowStore,
  makeAuditEntry,
  memoryDispatchDeps,
  testJob,
  testRun,
  workflowRun,
} from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../common/errors.js';
import { METRIC } from '../common/metrics.js';
import type { Job } from '../jobs/job.js';
import { DEAD_MAN, sweepDeadMan } from '../runs/dead-man.js';
import { firstPlannedLogId, HANDLE_CODE, type Run, TRIGGER_CODE } from '../runs/run.js';
import { parseWorkflow } from './model/definition.js';
import { scheduledRunId } from './model/link.js';
import { workflowFireLedger } from './workflow-ledger.js';
import type { StoredRunStatus, WorkflowRecord } from './workflow-store.js';

const NOW = Date.UTC(2030, 0, 2, 12, 30, 0); // a Wednesday
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const WORKFLOW = 3;
const STARTER = 12;

/** Workflow 3 every minute, its schedule job 12 running since long before; its runs in memory. */
async function fixture() {
  const env = memoryDispatchDeps(NOW);
  const starter: Job = testJob({
    id: STARTER,
    appName: 'app-a',
    name: 'workflow 3: nightly',
    scheduleConf: '0 * * * * ?',
    triggerStatus: 'RUNNING',
    triggerNextTime: NOW,
    workflowId: WORKFLOW,
    executorHandler: 'tickring.workflow',
  });
  env.jobs.jobs.set(STARTER, starter);
  const workflows = new MemoryWorkflowStore();
  const workflow: WorkflowRecord = {
    id: WORKFLOW,
    version: 1,
    definition: parseWorkflow({
      name: 'nightly',
      appName: 'app-a',
      scheduleType: 'CRON',
      scheduleConf: '0 * * * * ?',
      nodes: [{ key: 'only', jobId: 1 }],
    }),
    triggerStatus: 'RUNNING',
    starterJobId: STARTER,
    activeRuns: 0,
    createdAt: 1,
    updatedAt: 1,
  };
  await workflows.create(workflow);
  const audit = new MemoryAuditLog({ retentionDays: 30, clock: env.clock });
  const deps = { ...env, audit, calendars: new MemoryCalendarStore(), workflows };
  let next = 1;
  /** The starter job's run of the fire at `scheduledTime`, as the dispatcher leaves it. */
  const fired = async (scheduledTime: number, fields: Partial<Run> = {}): Promise<number> => {
    const logId = firstPlannedLogId(STARTER) + next++;
    await env.runs.claim(
      testRun({
        logId,
        jobId: STARTER,
        appName: 'app-a',
        dedupKey: `${STARTER}#${scheduledTime}`,
        scheduledTime,
        triggerType: 'CRON',
        triggerCode: TRIGGER_CODE.success,
        handleCode: HANDLE_CODE.success,
        handleMsg: `workflow run ${scheduledRunId(logId)} started`,
        ...fields,
      }),
      'claim-token',
    );
    return logId;
  };
  /** The workflow run a fire started, ended with `status` (or left RUNNING). */
  const started = async (logId: number, scheduledTime: number, status: StoredRunStatus = 'RUNNING') => {
    const run = workflowRun(workflow, scheduledRunId(logId), {
      createdAt: scheduledTime + 200,
      trigger: { type: 'SCHEDULE', starterLogId: logId },
    });
    await workflows.admit(run, { as: 'start', expectNoBuffered: false });
    if (status !== 'RUNNING')
      await workflows.saveRun(run, endedRun(run, status as 'SUCCEEDED' | 'FAILED' | 'CANCELLED'));
  };
  return { env, deps, workflows, workflow, audit, starter, fired, started };
}

describe('workflowFireLedger', () => {
  it('matches each fire to the workflow run it started, or says why none', async () => {
    const { deps, fired, started } = await fixture();
    const t = (m: number) => NOW - m * MIN;
    await started(await fired(t(8)), t(8), 'SUCCEEDED');
    await started(await fired(t(7)), t(7), 'FAILED');
    // The overlap policy did not start one: the starter run says so.
    await fired(t(6), { handleMsg: 'workflow run not started: SKIP: 1 run of the workflow is running' });
    // The start itself failed.
    await fired(t(5), { handleCode: HANDLE_CODE.fail, handleMsg: 'workflow 3 not started: store down' });
    // Claimed, and no workflow run came of it.
    const stuck = await fired(t(4), { handleCode: 0, handleMsg: '' });
    // Not fired at all (t(3)).
    await started(await fired(t(2)), t(2));
    await started(await fired(t(1)), t(1), 'SUCCEEDED');

    const ledger = await workflowFireLedger(deps, WORKFLOW, { from: iso(t(8)), to: iso(NOW) });
    expect(ledger).toMatchObject({ workflowId: WORKFLOW, starterJobId: STARTER, history: 'audit' });
    expect(ledger.summary).toMatchObject({ ran: 5, skipped: 1, unexplained: 2, notYetDue: 0 });
    expect(ledger.summary.skippedBy.overlap).toBe(1);
    const at = (m: number) => ledger.entries.find((e) => e.scheduledTime === t(m));
    expect(at(8)).toMatchObject({ outcome: 'ran', status: 'success', runStatus: 'SUCCEEDED' });
    expect(at(8)?.runId).toBe(scheduledRunId(at(8)?.logId ?? 0));
    expect(at(7)).toMatchObject({ outcome: 'ran', status: 'fail', runStatus: 'FAILED' });
    expect(at(6)).toMatchObject({ outcome: 'skipped', rule: 'overlap' });
    expect(at(6)).not.toHaveProperty('runId');
    expect(at(5)).toMatchObject({ outcome: 'ran', status: 'fail' });
    expect(at(5)).not.toHaveProperty('runId');
    expect(at(4)).toMatchObject({ outcome: 'unexplained', logId: stuck });
    expect(at(3)).toMatchObject({ outcome: 'unexplained', count: 1 });
    expect(at(3)).not.toHaveProperty('logId');
    expect(at(2)).toMatchObject({ outcome: 'ran', status: 'running', runStatus: 'RUNNING' });
    expect(ledger.workflowRunsRead).toBe(4);
  });

  it('calls a claimed fire not yet due rather than unexplained within the settle time', async () => {
    const { deps, env, fired } = await fixture();
    const stuck = await fired(NOW - MIN, { handleCode: 0, handleMsg: '' });
    env.clock.current = NOW - MIN + 10_000;
    const window = { from: iso(NOW - 2 * MIN), to: iso(NOW) };
    expect((await workflowFireLedger(deps, WORKFLOW, window)).entries).toMatchObject([
      { scheduledTime: NOW - 2 * MIN, outcome: 'unexplained' },
      { scheduledTime: NOW - MIN, outcome: 'notYetDue', logId: stuck },
    ]);
    env.clock.current = NOW;
    expect((await workflowFireLedger(deps, WORKFLOW, window)).entries).toMatchObject([
      { scheduledTime: NOW - 2 * MIN, outcome: 'unexplained' },
      { scheduledTime: NOW - MIN, outcome: 'unexplained', logId: stuck },
    ]);
  });

  it('follows the workflow’s own stop and start from its audit records (the schedule job has none)', async () => {
    const { deps, audit, fired, started } = await fixture();
    await audit.append(
      makeAuditEntry(NOW - 6 * MIN - 30_000, {
        action: 'workflow.stop',
        target: `workflow#${WORKFLOW}`,
        changes: { triggerStatus: { before: 'RUNNING', after: 'STOPPED' } },
      }),
    );
    // A trigger's record changes no schedule, whatever its before and after.
    await audit.append(
      makeAuditEntry(NOW - 5 * MIN - 10_000, {
        action: 'workflow.trigger',
        target: `workflow#${WORKFLOW}`,
        changes: { scheduleType: { before: 'CRON' } },
      }),
    );
    await audit.append(
      makeAuditEntry(NOW - 3 * MIN - 2_000, {
        action: 'workflow.start',
        target: `workflow#${WORKFLOW}`,
        changes: { triggerStatus: { before: 'STOPPED', after: 'RUNNING' } },
      }),
    );
    for (const m of [8, 7, 2, 1]) await started(await fired(NOW - m * MIN), NOW - m * MIN, 'SUCCEEDED');
    const ledger = await workflowFireLedger(deps, WORKFLOW, { from: iso(NOW - 8 * MIN), to: iso(NOW) });
    // Stopped from 12:23:29 to 12:26:58; the fire 2 s after the start is not owed (a start's first fire is 5 s on).
    expect(ledger.summary).toMatchObject({ ran: 4, paused: 3, unexplained: 0 });
    expect(ledger.entries.find((e) => e.outcome === 'paused')).toMatchObject({
      scheduledTime: NOW - 6 * MIN,
      count: 3,
      stoppedBy: 'workflow.stop',
    });
    expect(ledger.definitionChangedInWindow).toBe(false);
  });

  it('owes nothing for a workflow without a schedule, and refuses an unknown one', async () => {
    const { deps, workflows } = await fixture();
    await workflows.create({
      id: 4,
      version: 1,
      definition: parseWorkflow({ name: 'by hand', appName: 'app-a', nodes: [{ key: 'only', jobId: 1 }] }),
      triggerStatus: 'STOPPED',
      activeRuns: 0,
      createdAt: 1,
      updatedAt: 1,
    });
    const ledger = await workflowFireLedger(deps, 4, { from: iso(NOW - 60 * MIN), to: iso(NOW) });
    expect(ledger).toMatchObject({ starterJobId: undefined, entries: [] });
    expect(ledger.summary.ran + ledger.summary.unexplained).toBe(0);
    await expect(workflowFireLedger(deps, 99, { from: iso(NOW - MIN), to: iso(NOW) })).rejects.toThrow(
      NotFoundError,
    );
  });
});

describe('sweepDeadMan over a workflow’s schedule', () => {
  const window = () => {
    const to = NOW - DEAD_MAN.graceMs;
    return { from: to - DEAD_MAN.windowMs, to };
  };

  it('alarms once about the workflow for fires its schedule job claimed that started no run', async () => {
    const { deps, env, fired, started } = await fixture();
    const { from, to } = window();
    for (let t = Math.ceil(from / MIN) * MIN; t < to; t += MIN) {
      const logId = await fired(t, t === to - MIN ? { handleCode: 0, handleMsg: '' } : {});
      if (t !== to - MIN) await started(logId, t, 'SUCCEEDED');
    }
    const result = await sweepDeadMan(deps);
    expect(result).toMatchObject({ alarmed: [STARTER], unexplained: 1, errors: [] });
    expect(await sweepDeadMan(deps)).toMatchObject({ alarmed: [], unexplained: 1 });
    expect(env.alarms.alarms).toHaveLength(1);
    const [alarm] = env.alarms.alarms;
    expect(alarm).toMatchObject({
      kind: 'fireUnexplained',
      job: { id: STARTER },
      workflow: { id: WORKFLOW, name: 'nightly' },
      unexplained: { count: 1, first: to - MIN },
    });
    expect(alarm?.workflow).not.toHaveProperty('runId');
    expect(alarm?.summary).toMatch(/^Workflow 3 \(nightly\) of app-a: 1 fire .* started no run/);
    expect(alarm?.summary).toContain(`GET /v1/workflows/${WORKFLOW}/ledger`);
    expect(env.metrics.sum(METRIC.firesUnexplained)).toBe(2);
  });

  it('raises nothing when every fire started a run or the overlap policy said why not', async () => {
    const { deps, env, fired, started } = await fixture();
    const { from, to } = window();
    for (let t = Math.ceil(from / MIN) * MIN; t < to; t += MIN) {
      if (t === to - MIN) await fired(t, { handleMsg: 'workflow run not started: SKIP: a run is running' });
      else await started(await fired(t), t);
    }
    expect(await sweepDeadMan(deps)).toMatchObject({ alarmed: [], unexplained: 0, errors: [] });
    expect(env.alarms.alarms).toEqual([]);
  });

  it('checks a schedule job as a job when no workflow store is wired (a claimed fire counts as ran)', async () => {
    const { deps, env, fired } = await fixture();
    const { from, to } = window();
    for (let t = Math.ceil(from / MIN) * MIN; t < to; t += MIN)
      await fired(t, { handleCode: 0, handleMsg: '' });
    const { workflows: _none, ...jobsOnly } = deps;
    expect(await sweepDeadMan(jobsOnly)).toMatchObject({ alarmed: [], unexplained: 0 });
    expect(env.alarms.alarms).toEqual([]);
  });
});
