import { memoryDispatchDeps, testGroup, testJob } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { dispatchFire } from './dispatch-fire.js';
import { DISPATCH_DEFAULTS } from './settings.js';
import type { FireMessage } from './trigger.js';

const A = 'http://10.0.0.1:9999/';
const B = 'http://10.0.0.2:9999/';

/** Job 1 broadcasting to the group's executors (MANUAL addresses, set per test). */
function setup(addresses: readonly string[]) {
  const env = memoryDispatchDeps();
  env.jobs.jobs.set(1, testJob({ id: 1, appName: 'app-a', executorRouteStrategy: 'SHARDING_BROADCAST' }));
  const executors = (list: readonly string[]) =>
    env.groups.groups.set(
      'app-a',
      testGroup({ appName: 'app-a', addressType: 'MANUAL', addressList: [...list] }),
    );
  executors(addresses);
  return { env, executors };
}

/** A workflow node's fire as its engine sends it: with the logId it gave out for the node's run. */
async function nodeFire(env: ReturnType<typeof memoryDispatchDeps>): Promise<FireMessage> {
  const [logId] = await env.runs.allocateLogIds(1, 1);
  return {
    jobId: 1,
    logId: logId as number,
    scheduledTime: env.clock.now(),
    triggerType: 'WORKFLOW',
    dedupKey: 'wf#wr-1#b#1',
    workflow: { runId: 'wr-1', node: 'b', attempt: 1 },
  };
}

describe('a workflow node’s fire with its logId', () => {
  it('is claimed by its run alone: one write, no fire record', async () => {
    const { env } = setup([A]);
    const fire = await nodeFire(env);

    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, fire);

    expect(outcome.kind).toBe('dispatched');
    expect(env.runs.all().map((r) => r.logId)).toEqual([fire.logId]);
    expect(await env.runs.createFire(fire.dedupKey, [], 'probe')).toEqual({ created: true });
  });

  it('broadcast to two executors takes its logId for the first shard; a copy that finds one executor is a duplicate', async () => {
    const { env, executors } = setup([A, B]);
    const fire = await nodeFire(env);

    const first = await dispatchFire(env.deps, DISPATCH_DEFAULTS, fire);
    executors([A]);
    const copy = await dispatchFire(env.deps, DISPATCH_DEFAULTS, fire);

    expect(first.kind).toBe('dispatched');
    expect(copy.kind).toBe('duplicate');
    const runs = env.runs.all();
    expect(runs.map((r) => [r.shardIndex, r.shardTotal])).toEqual([
      [0, 2],
      [1, 2],
    ]);
    expect(runs[0]?.logId).toBe(fire.logId);
    expect(env.transport.sent).toHaveLength(2);
  });

  it('claimed alone on one executor; a copy that would broadcast to two finds that run: a duplicate', async () => {
    const { env, executors } = setup([A]);
    const fire = await nodeFire(env);

    const first = await dispatchFire(env.deps, DISPATCH_DEFAULTS, fire);
    executors([A, B]);
    const copy = await dispatchFire(env.deps, DISPATCH_DEFAULTS, fire);

    expect(first.kind).toBe('dispatched');
    expect(copy).toEqual({ kind: 'duplicate', logIds: [fire.logId] });
    expect(env.runs.all().map((r) => r.logId)).toEqual([fire.logId]);
    expect(env.transport.sent).toHaveLength(1);
  });
});
