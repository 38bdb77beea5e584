import { memoryDispatchDeps } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { METRIC } from '../common/metrics.js';
import { dispatchFire } from '../dispatch/dispatch-fire.js';
import { DECISION_TRUST_MS } from '../dispatch/fire-hand-off.js';
import { DISPATCH_DEFAULTS } from '../dispatch/settings.js';
import { type FireMessage, scheduledDedupKey } from '../dispatch/trigger.js';
import { firstPlannedLogId, HANDLE_CODE, TRIGGER_CODE } from '../runs/run.js';
import { WorkflowFireHook } from './dispatch-hook.js';
import { nodeFireKey, scheduledRunId, type WorkflowLink } from './model/link.js';
import type { StartRequest, StartResult } from './workflow-engine.js';
import type { NodeFireState } from './workflow-store.js';

const A = 'http://10.0.0.1:9999/';
const LINK: WorkflowLink = { runId: 'wr-one', node: 'b', attempt: 1 };

/** The engine's side of the hook, recording what the dispatcher told it. */
function fakeEngine(options: { state?: NodeFireState; start?: () => Promise<StartResult> } = {}) {
  const calls = {
    starts: [] as StartRequest[],
    dropped: [] as { link: WorkflowLink; state: NodeFireState; fire: { retryOf?: number; reason: string } }[],
    noted: [] as { link: WorkflowLink; logIds: readonly number[]; shard?: number }[],
    stateReads: 0,
  };
  const engine = {
    start: async (request: StartRequest): Promise<StartResult> => {
      calls.starts.push(request);
      return options.start ? options.start() : { kind: 'exists', runId: request.runId ?? '' };
    },
    nodeFireState: async () => {
      calls.stateReads++;
      return options.state ?? { awaited: true, claimed: false };
    },
    noteNodeRuns: async (link: WorkflowLink, logIds: readonly number[], shard?: number) => {
      calls.noted.push({ link, logIds, ...(shard === undefined ? {} : { shard }) });
    },
    onFireDropped: async (
      link: WorkflowLink,
      state: NodeFireState,
      fire: { readonly retryOf?: number; readonly reason: string },
    ) => {
      calls.dropped.push({ link, state, fire });
    },
    onNodeRunFinished: async () => {},
  };
  return { engine, calls };
}

/** The dispatcher's doubles with the workflows' hook wired in, as functions/dispatcher/deps.ts does. */
function withHook(engine: ReturnType<typeof fakeEngine>['engine']) {
  const env = memoryDispatchDeps();
  const outcome = { ...env.deps, workflows: engine };
  return { env, deps: { ...outcome, fireHook: new WorkflowFireHook(outcome) } };
}

function nodeFire(now: number, overrides: Partial<FireMessage> = {}): FireMessage {
  return {
    jobId: 1,
    scheduledTime: now,
    triggerType: 'WORKFLOW',
    dedupKey: nodeFireKey(LINK),
    workflow: LINK,
    ...overrides,
  };
}

describe('WorkflowFireHook: a node’s fire', () => {
  it('runs, notes the runs it became with the engine and counts the node’s lateness', async () => {
    const { engine, calls } = fakeEngine();
    const { env, deps } = withHook(engine);

    const outcome = await dispatchFire(deps, DISPATCH_DEFAULTS, nodeFire(env.clock.now() - 300));

    expect(outcome.kind).toBe('dispatched');
    const [run] = env.runs.all();
    expect(run?.workflow).toEqual(LINK);
    expect(calls.noted).toEqual([{ link: LINK, logIds: [run?.logId] }]);
    expect(env.metrics.values).toContainEqual({ name: METRIC.workflowNodeLateness, value: 300 });
    expect(calls.dropped).toEqual([]);
  });

  it('is dropped when its run no longer waits for it, and the engine hears why', async () => {
    const state = { awaited: false, claimed: false };
    const { engine, calls } = fakeEngine({ state });
    const { env, deps } = withHook(engine);

    const outcome = await dispatchFire(deps, DISPATCH_DEFAULTS, nodeFire(env.clock.now()));

    const reason = 'workflow run wr-one no longer waits for node b (attempt 1)';
    expect(outcome).toEqual({ kind: 'dropped', reason });
    expect(calls.dropped).toEqual([{ link: LINK, state, fire: { reason } }]);
    expect(env.runs.all()).toEqual([]);
    expect(env.transport.sent).toEqual([]);
  });

  it('whose job is gone is dropped, and the engine hears of it with the retried run', async () => {
    const { engine, calls } = fakeEngine();
    const { env, deps } = withHook(engine);
    const retry = { attempt: 2, ofLogId: 77, retriesLeft: 0 };

    const outcome = await dispatchFire(
      deps,
      DISPATCH_DEFAULTS,
      nodeFire(env.clock.now(), { jobId: 99, triggerType: 'RETRY', dedupKey: 'retry#77', retry }),
    );

    expect(outcome).toEqual({ kind: 'dropped', reason: 'the job does not exist' });
    expect(calls.dropped).toEqual([
      {
        link: LINK,
        state: { awaited: true, claimed: false },
        fire: { reason: 'job 99: the job does not exist', retryOf: 77 },
      },
    ]);
  });
});

describe('WorkflowFireHook: a node’s fire its engine just decided (handed off)', () => {
  // The run would say "not awaited": a fire that runs anyway shows the decision was not read again.
  const cancelled = { awaited: false, claimed: false };

  it('runs without reading the run again', async () => {
    const { engine, calls } = fakeEngine({ state: cancelled });
    const { env, deps } = withHook(engine);
    const now = env.clock.now();

    const outcome = await dispatchFire(deps, DISPATCH_DEFAULTS, nodeFire(now, { decidedAt: now - 20 }));

    expect(outcome.kind).toBe('dispatched');
    expect(calls.stateReads).toBe(0);
    expect(env.transport.sent).toHaveLength(1);
    expect(calls.noted).toEqual([{ link: LINK, logIds: [env.runs.all()[0]?.logId] }]);
  });

  it('reads the run like a ring fire once its decision is older than the trust', async () => {
    const { engine, calls } = fakeEngine({ state: cancelled });
    const { env, deps } = withHook(engine);
    const now = env.clock.now();

    const outcome = await dispatchFire(
      deps,
      DISPATCH_DEFAULTS,
      nodeFire(now, { decidedAt: now - DECISION_TRUST_MS - 1 }),
    );

    expect(outcome.kind).toBe('dropped');
    expect(calls.stateReads).toBe(1);
    expect(env.transport.sent).toEqual([]);
  });

  it('and a copy of it that comes later through the ring is a duplicate of its claim: sent once', async () => {
    const { engine, calls } = fakeEngine();
    const { env, deps } = withHook(engine);
    const now = env.clock.now();
    const handedOff = nodeFire(now, { decidedAt: now });

    const first = await dispatchFire(deps, DISPATCH_DEFAULTS, handedOff);
    const { decidedAt: _, ...ringCopy } = handedOff;
    env.clock.current += 2_000;
    const copy = await dispatchFire(deps, DISPATCH_DEFAULTS, ringCopy);

    expect(first.kind).toBe('dispatched');
    expect(copy.kind).toBe('duplicate');
    expect(env.runs.all()).toHaveLength(1);
    expect(env.transport.sent).toHaveLength(1);
    expect(calls.stateReads).toBe(1);
  });

  it('whose job is gone reads the run, so the engine hears whether anything was claimed for it', async () => {
    const state = { awaited: true, claimed: true };
    const { engine, calls } = fakeEngine({ state });
    const { env, deps } = withHook(engine);
    const now = env.clock.now();

    const outcome = await dispatchFire(deps, DISPATCH_DEFAULTS, nodeFire(now, { jobId: 99, decidedAt: now }));

    expect(outcome).toEqual({ kind: 'dropped', reason: 'the job does not exist' });
    expect(calls.dropped).toEqual([
      { link: LINK, state, fire: { reason: 'job 99: the job does not exist' } },
    ]);
  });
});

describe('WorkflowFireHook: a workflow’s starter job', () => {
  function starterFire(now: number): FireMessage {
    return {
      jobId: 1,
      logId: firstPlannedLogId(1),
      scheduledTime: now,
      triggerType: 'CRON',
      dedupKey: scheduledDedupKey(1, now),
      scheduleRevision: 1,
    };
  }

  it('starts the workflow run where an executor would be called; the run’s result says so', async () => {
    const { engine, calls } = fakeEngine();
    const { env, deps } = withHook(engine);
    const job = env.jobs.jobs.get(1);
    if (!job) throw new Error('no job 1');
    env.jobs.jobs.set(1, { ...job, workflowId: 7 });
    const logId = firstPlannedLogId(1);

    const outcome = await dispatchFire(deps, DISPATCH_DEFAULTS, starterFire(env.clock.now()));

    expect(outcome).toMatchObject({ kind: 'dispatched', runs: [{ logId, address: 'workflow:7' }] });
    expect(calls.starts).toEqual([
      { workflowId: 7, runId: scheduledRunId(logId), trigger: { type: 'SCHEDULE', starterLogId: logId } },
    ]);
    expect(env.transport.sent).toEqual([]);
    const [run] = env.runs.all();
    expect(run).toMatchObject({
      executorAddress: 'workflow:7',
      triggerCode: TRIGGER_CODE.success,
      handleCode: HANDLE_CODE.success,
      handleMsg: `workflow run ${scheduledRunId(logId)} started`,
    });
    expect(run?.triggerMsg).toContain('Executor group: app-a (workflow)');
    expect(env.alarms.alarms).toEqual([]);
  });

  it('finishes the starter run as failed, with an alarm, when the workflow cannot start', async () => {
    const { engine } = fakeEngine({ start: () => Promise.reject(new Error('workflow 7 does not exist')) });
    const { env, deps } = withHook(engine);
    const job = env.jobs.jobs.get(1);
    if (!job) throw new Error('no job 1');
    env.jobs.jobs.set(1, { ...job, workflowId: 7 });

    await dispatchFire(deps, DISPATCH_DEFAULTS, starterFire(env.clock.now()));

    const [run] = env.runs.all();
    expect(run).toMatchObject({
      triggerCode: TRIGGER_CODE.success,
      handleCode: HANDLE_CODE.fail,
      handleMsg: 'workflow 7 not started: workflow 7 does not exist',
    });
    expect(env.alarms.alarms.map((a) => a.run?.logId)).toEqual([run?.logId]);
  });
});

describe('dispatchFire without the hook', () => {
  it('runs a node’s fire as a plain one and refuses a starter job’s fire', async () => {
    const env = memoryDispatchDeps();
    expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, nodeFire(env.clock.now()))).kind).toBe(
      'dispatched',
    );
    expect(env.transport.sent.map((s) => s.address)).toEqual([A]);

    const job = env.jobs.jobs.get(1);
    if (!job) throw new Error('no job 1');
    env.jobs.jobs.set(1, { ...job, workflowId: 7 });
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, {
      jobId: 1,
      scheduledTime: env.clock.now(),
      triggerType: 'API',
      dedupKey: 'api#1',
    });
    const refused = env.runs.all().find((r) => r.dedupKey === 'api#1');
    expect(refused?.triggerCode).toBe(TRIGGER_CODE.fail);
    expect(refused?.triggerMsg).toContain('job 1 starts workflow 7: this dispatcher cannot start workflows');
    expect(env.transport.sent).toHaveLength(1);
  });
});
