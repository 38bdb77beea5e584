/** A workflow's deadline: its rules, where it stands, and the monitors' check of it, on memory stores. */
import {
  endedRun,
  FakeClock,
  MemoryGroupStore,
  MemoryJobStore,
  MemoryWorkflowStore,
  makeJob,
  memoryDispatchDeps,
  workflowRun,
} from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { problemsOf, ValidationError } from '../common/errors.js';
import { silentLogger } from '../common/logger.js';
import { METRIC, type Metrics } from '../common/metrics.js';
import type { Alarm } from '../runs/alarms.js';
import { DEADLINE_CHECK_SPAN_MS } from '../runs/job-policies.js';
import { runMonitorSweeps } from '../runs/monitors.js';
import { type AdminWorkflowsDeps, createWorkflow, updateWorkflow } from './admin-workflows.js';
import { validateWorkflow } from './model/definition.js';
import { sweepWorkflowDeadlines, workflowDeadlineStatus } from './workflow-deadlines.js';
import type { WorkflowRecord } from './workflow-store.js';

const BERLIN_SIX = { time: '06:00', timeZone: 'Europe/Berlin' } as const;
// Sunday 30 March 2025, the clock change in Berlin: 06:00 CEST is 04:00Z (06:00 CET the day before, 05:00Z).
const CHANGE_DAY_SIX = Date.parse('2025-03-30T04:00:00Z');
const DAY_BEFORE_SIX = Date.parse('2025-03-29T05:00:00Z');

async function setUp(now: number) {
  const clock = new FakeClock(now);
  const groups = new MemoryGroupStore();
  await groups.create({
    appName: 'etl-app',
    title: 'ETL',
    addressType: 'AUTO',
    addressList: [],
    createdAt: 0,
    updatedAt: 0,
  });
  const jobs = new MemoryJobStore({ shardCount: 1 });
  await jobs.create(
    makeJob({ id: 1, appName: 'etl-app', name: 'extract', alarmWebhook: 'http://hooks.example/x' }),
  );
  const never = async () => {
    throw new Error('not used here');
  };
  const workflows = new MemoryWorkflowStore();
  const admin: AdminWorkflowsDeps = {
    workflows,
    engine: { start: never, cancel: never, retry: never, definition: never },
    jobs,
    groups,
    clock,
    logger: silentLogger,
  };
  const alarms: Alarm[] = [];
  const metrics: string[] = [];
  const sweepDeps = {
    workflowStore: workflows,
    jobs,
    alarms: {
      publish: async (alarm: Alarm) => {
        alarms.push(alarm);
        return true;
      },
    },
    clock,
    logger: silentLogger,
    metrics: { add: (name: string) => void metrics.push(name) } as Metrics,
  };
  /** Ends a run of the workflow SUCCEEDED at `at` (the store records the workflow's last success). */
  const succeed = async (workflow: WorkflowRecord, id: string, at: number) => {
    const run = workflowRun(workflow, id, { createdAt: at - 60_000 });
    await workflows.admit(run, { as: 'start', expectNoBuffered: false });
    await workflows.saveRun(run, endedRun(run, 'SUCCEEDED', at));
  };
  return { clock, admin, workflows, jobs, sweepDeps, alarms, metrics, succeed };
}

const body = (extra: Record<string, unknown> = {}) => ({
  name: 'nightly etl',
  appName: 'etl-app',
  nodes: [{ key: 'extract', jobId: 1 }],
  deadline: BERLIN_SIX,
  ...extra,
});

describe('a workflow’s deadline in its definition', () => {
  it('is checked by a job’s rules, every problem at once beside the definition’s others', () => {
    const result = validateWorkflow(
      body({ name: '', deadline: { time: '6am', timeZone: 'Mars/Olympus', days: 'sundays', at: 1 } }),
    );
    expect('problems' in result && result.problems.map((p) => p.field).sort()).toEqual([
      'deadline.at',
      'deadline.days',
      'deadline.time',
      'deadline.timeZone',
      'name',
    ]);
    const none = validateWorkflow(body({ deadline: null }));
    expect('ok' in none ? none.ok.deadline : 'refused').toBeUndefined();
    expect(validateWorkflow(body({ deadline: { ...BERLIN_SIX, days: 'weekdays' } }))).toMatchObject({
      ok: { deadline: { ...BERLIN_SIX, days: 'weekdays' } },
    });
  });

  it('counts from when it was set: kept through edits that leave it, set anew by one that changes it', async () => {
    const { clock, admin } = await setUp(DAY_BEFORE_SIX - 3_600_000);
    const created = await createWorkflow(admin, body());
    expect(created.deadlineSetAt).toBe(clock.now());
    clock.advance(60_000);
    const renamed = await updateWorkflow(admin, created.id, body({ name: 'renamed' }));
    expect(renamed.deadlineSetAt).toBe(created.deadlineSetAt);
    clock.advance(60_000);
    const moved = await updateWorkflow(
      admin,
      created.id,
      body({ deadline: { ...BERLIN_SIX, time: '07:00' } }),
    );
    expect(moved.deadlineSetAt).toBe(clock.now());
    const dropped = await updateWorkflow(admin, created.id, body({ deadline: null }));
    expect(dropped).not.toHaveProperty('deadlineSetAt');
    expect(dropped.definition).not.toHaveProperty('deadline');
    const refused = await createWorkflow(admin, body({ deadline: { time: '25:00', timeZone: 'UTC' } })).catch(
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(ValidationError);
    expect(problemsOf(refused as ValidationError).map((p) => p.field)).toEqual(['deadline.time']);
  });
});

describe('workflowDeadlineStatus', () => {
  it('is pending in a window begun before the deadline was set, missed once a window closed without a success, met by one', async () => {
    const { clock, admin, workflows, succeed } = await setUp(DAY_BEFORE_SIX - 3_600_000);
    const created = await createWorkflow(admin, body());
    clock.advance(CHANGE_DAY_SIX + 60_000 - clock.now());
    // The window that closed at 06:00 on the 30th began on the 29th, after the deadline was set.
    expect(workflowDeadlineStatus((await workflows.get(created.id))!, clock.now())).toEqual({
      window: { from: DAY_BEFORE_SIX, to: CHANGE_DAY_SIX },
      state: 'missed',
      at: CHANGE_DAY_SIX,
    });
    await succeed(created, 'wr-ok-1', clock.now());
    const met = workflowDeadlineStatus((await workflows.get(created.id))!, clock.now());
    expect(met).toMatchObject({ state: 'met', at: clock.now(), window: { from: CHANGE_DAY_SIX } });

    const fresh = { ...created, deadlineSetAt: CHANGE_DAY_SIX - 1 };
    expect(workflowDeadlineStatus(fresh, CHANGE_DAY_SIX + 60_000)).toMatchObject({
      state: 'pending',
      at: null,
    });
    const { deadline: _none, ...definition } = created.definition;
    expect(workflowDeadlineStatus({ ...created, definition }, CHANGE_DAY_SIX)).toBeNull();
  });
});

describe('sweepWorkflowDeadlines', () => {
  it('alarms a missed deadline once per window, even with two sweeps at once, through the schedule job', async () => {
    const { clock, admin, sweepDeps, alarms, metrics } = await setUp(DAY_BEFORE_SIX - 3_600_000);
    const workflow = await createWorkflow(
      admin,
      body({
        scheduleType: 'CRON',
        scheduleConf: '0 0 2 * * ?',
        timeZone: 'Europe/Berlin',
        triggerStatus: 'RUNNING',
      }),
    );
    clock.advance(CHANGE_DAY_SIX + 60_000 - clock.now());
    const [a, b] = await Promise.all([sweepWorkflowDeadlines(sweepDeps), sweepWorkflowDeadlines(sweepDeps)]);
    expect([...a.deadlinesMissed, ...b.deadlinesMissed]).toEqual([workflow.id]);
    clock.advance(60_000);
    expect((await sweepWorkflowDeadlines(sweepDeps)).deadlinesMissed).toEqual([]);
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      kind: 'deadlineMissed',
      job: { id: workflow.starterJobId, name: `workflow ${workflow.id}: nightly etl` },
      workflow: { id: workflow.id, name: 'nightly etl' },
      deadline: { from: DAY_BEFORE_SIX, to: CHANGE_DAY_SIX, text: '06:00 Europe/Berlin' },
    });
    expect(alarms[0]?.workflow).not.toHaveProperty('runId');
    expect(alarms[0]?.summary).toMatch(/^Workflow \d+ \(nightly etl\) of etl-app missed its deadline 06:00/);
    expect(metrics.filter((m) => m === METRIC.deadlinesMissed)).toHaveLength(1);
  });

  it('takes a triggered workflow’s first node’s alarm paths, and watches it while its schedule is none', async () => {
    const { clock, admin, sweepDeps, alarms } = await setUp(DAY_BEFORE_SIX - 3_600_000);
    await createWorkflow(admin, body());
    clock.advance(CHANGE_DAY_SIX + 60_000 - clock.now());
    await sweepWorkflowDeadlines(sweepDeps);
    expect(alarms).toMatchObject([
      { kind: 'deadlineMissed', job: { id: 1, alarmWebhook: 'http://hooks.example/x' } },
    ]);
  });

  it('raises nothing after a success in the window, for a stopped schedule, nor long after the deadline', async () => {
    const { clock, admin, sweepDeps, alarms, succeed } = await setUp(DAY_BEFORE_SIX - 3_600_000);
    const met = await createWorkflow(admin, body({ name: 'met' }));
    await createWorkflow(
      admin,
      body({ name: 'stopped', scheduleType: 'CRON', scheduleConf: '0 0 2 * * ?', triggerStatus: 'STOPPED' }),
    );
    clock.advance(CHANGE_DAY_SIX - 3_600_000 - clock.now());
    await succeed(met, 'wr-met-1', clock.now());
    clock.advance(CHANGE_DAY_SIX + 60_000 - clock.now());
    expect(await sweepWorkflowDeadlines(sweepDeps)).toMatchObject({
      workflows: 2,
      deadlinesMissed: [],
      errors: [],
    });
    clock.advance(Date.parse('2025-03-31T04:00:00Z') + DEADLINE_CHECK_SPAN_MS + 60_000 - clock.now());
    expect((await sweepWorkflowDeadlines(sweepDeps)).deadlinesMissed).toEqual([]);
    expect(alarms).toEqual([]);
  });

  it('runs in the monitors’ jobPolicies sweep when wired, its result beside the jobs’', async () => {
    const { clock, admin, sweepDeps } = await setUp(DAY_BEFORE_SIX - 3_600_000);
    const workflow = await createWorkflow(admin, body());
    clock.advance(CHANGE_DAY_SIX + 60_000 - clock.now());
    const env = memoryDispatchDeps(clock.now());
    const result = await runMonitorSweeps(
      {
        ...env,
        executors: env.transport,
        workflowDeadlineSweep: { sweep: () => sweepWorkflowDeadlines(sweepDeps) },
      },
      { registryDeadSeconds: 90, batchSize: 10, settleMs: 60_000 },
    );
    expect(result.failedSweeps).toEqual([]);
    expect(result.jobPolicies?.workflows).toMatchObject({ workflows: 1, deadlinesMissed: [workflow.id] });
  });
});
