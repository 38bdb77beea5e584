import { MemoryWorkflowStore, memoryDispatchDeps, testJob } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { dispatchFire } from '../dispatch/dispatch-fire.js';
import type { FireHandOff } from '../dispatch/fire-hand-off.js';
import { DISPATCH_DEFAULTS } from '../dispatch/settings.js';
import type { FireMessage } from '../dispatch/trigger.js';
import { HANDLE_CODE } from '../runs/run.js';
import { WorkflowFireHook } from './dispatch-hook.js';
import { validateWorkflow, type WorkflowDefinition } from './model/index.js';
import { WorkflowEngine } from './workflow-engine.js';

/** A chain a → b → c over jobs 1, 2, 3 with the real engine over a memory store and the dispatcher's hook. */
async function fixture(handOff: FireHandOff) {
  const env = memoryDispatchDeps();
  for (const id of [2, 3]) env.jobs.jobs.set(id, testJob({ id, appName: 'app-a' }));
  const store = new MemoryWorkflowStore();
  const engine = new WorkflowEngine({
    workflows: store,
    jobs: env.jobs,
    runs: env.runs,
    ring: env.ring,
    handOff,
    alarms: env.alarms,
    clock: env.clock,
    logger: env.logger,
    metrics: env.metrics,
  });
  const checked = validateWorkflow({
    name: 'chain',
    appName: 'app-a',
    overlapPolicy: 'ALLOW',
    nodes: [
      { key: 'a', jobId: 1 },
      { key: 'b', jobId: 2, upstream: [{ key: 'a' }] },
      { key: 'c', jobId: 3, upstream: [{ key: 'b' }] },
    ],
  });
  if (!('ok' in checked)) throw new Error(JSON.stringify(checked.problems));
  const id = await store.allocateId();
  const now = env.clock.now();
  await store.create({
    id,
    version: 1,
    definition: checked.ok as WorkflowDefinition,
    triggerStatus: 'STOPPED',
    activeRuns: 0,
    createdAt: now,
    updatedAt: now,
  });
  const outcome = { ...env.deps, workflows: engine };
  const dispatch = { ...outcome, fireHook: new WorkflowFireHook(outcome) };
  return { env, engine, store, dispatch, workflowId: id };
}

/** Records what is handed over; throws instead while `failing` is set. */
function recordingHandOff() {
  const handed: FireMessage[][] = [];
  const handOff = {
    failing: false,
    async handOff(fires: readonly FireMessage[]) {
      if (handOff.failing) throw new Error('the dispatcher function cannot be invoked');
      handed.push([...fires]);
    },
  };
  return { handOff, handed };
}

describe('WorkflowEngine with a dispatcher to hand nodes to', () => {
  it('hands every node it fires to the dispatcher, each stamped with its decision, and puts none on the ring', async () => {
    const { handOff, handed } = recordingHandOff();
    const { env, engine, store, dispatch, workflowId } = await fixture(handOff);

    const started = await engine.start({ workflowId, trigger: { type: 'MANUAL' } });
    if (started.kind !== 'started') throw new Error(`not started: ${started.kind}`);
    // What the dispatcher does with each hand-off: dispatch it; the node's run then succeeds.
    for (let i = 0; i < handed.length; i++) {
      for (const fire of handed[i] ?? []) {
        expect(fire.decidedAt).toBe(env.clock.now());
        await dispatchFire(dispatch, DISPATCH_DEFAULTS, fire);
        const run = env.runs.all().find((r) => r.dedupKey === fire.dedupKey);
        if (!run) throw new Error(`no run of ${fire.dedupKey}`);
        const done = await env.runs.complete(run.logId, {
          handleCode: HANDLE_CODE.success,
          handleMsg: '',
          handleTime: env.clock.now(),
        });
        if (done.kind === 'completed') await engine.onNodeRunFinished(done.run, { retried: false });
      }
    }

    expect(handed.map((fires) => fires.map((f) => f.workflow?.node))).toEqual([['a'], ['b'], ['c']]);
    expect(env.ring.entries).toEqual([]);
    const ended = await store.getRun(started.run.id);
    expect(ended?.status).toBe('SUCCEEDED');
    // Each fire carried the logId stored with it, and its run took it: the run was the fire's claim.
    for (const fire of handed.flat()) {
      const key = fire.workflow?.node ?? '';
      expect(fire.logId).toBeDefined();
      expect(ended?.nodeTimes[key]?.logId).toBe(fire.logId);
      expect(ended?.nodeRuns[key]?.logIds).toEqual([fire.logId]);
    }
  });

  it('fires a node again (the monitors’ resend of an unclaimed node) under the logId it was first given', async () => {
    const { handOff, handed } = recordingHandOff();
    const { env, engine, workflowId } = await fixture(handOff);
    const started = await engine.start({ workflowId, trigger: { type: 'MANUAL' } });
    if (started.kind !== 'started') throw new Error(`not started: ${started.kind}`);

    // No dispatcher claimed the root: a minute later the sweep fires it again.
    env.clock.current += 120_000;
    await engine.sweepStalledRuns(60_000);

    expect(handed).toHaveLength(2);
    const [first, again] = handed.map((fires) => fires[0]);
    expect(again?.workflow).toEqual(first?.workflow);
    expect(again?.logId).toBe(first?.logId);
    expect(again?.decidedAt).toBe(env.clock.now());
  });

  it('takes its nodes’ logIds a block at a time, and never gives one out twice, even to starts at once', async () => {
    const { handOff, handed } = recordingHandOff();
    const { env, engine, workflowId } = await fixture(handOff);
    const allocate = env.runs.allocateLogIds.bind(env.runs);
    let counterWrites = 0;
    env.runs.allocateLogIds = async (jobId, count) => {
      counterWrites++;
      return allocate(jobId, count);
    };

    for (let i = 0; i < 3; i++) await engine.start({ workflowId, trigger: { type: 'MANUAL' } });
    const writesForThree = counterWrites;
    await Promise.all(
      Array.from({ length: 40 }, () => engine.start({ workflowId, trigger: { type: 'MANUAL' } })),
    );

    expect(writesForThree).toBe(1);
    const logIds = handed.flat().map((fire) => fire.logId);
    expect(logIds).toHaveLength(43);
    expect(new Set(logIds).size).toBe(43);
  });

  it('puts the nodes on the ring’s fast lane when the hand-off fails, and says why', async () => {
    const { handOff, handed } = recordingHandOff();
    handOff.failing = true;
    const { env, engine, workflowId } = await fixture(handOff);

    const started = await engine.start({ workflowId, trigger: { type: 'MANUAL' } });

    expect(started.kind).toBe('started');
    expect(handed).toEqual([]);
    expect(env.ring.entries.map((e) => [e.message.workflow?.node, e.lane, e.delaySeconds])).toEqual([
      ['a', 'fast', 0],
    ]);
    expect(env.logger.lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'workflow nodes not handed to a dispatcher; put on the ring',
        attributes: expect.objectContaining({ error: 'the dispatcher function cannot be invoked' }),
      }),
    );
  });
});
