import { memoryDispatchDeps, testGroup, testJob } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../common/errors.js';
import { METRIC } from '../common/metrics.js';
import type { Job } from '../jobs/job.js';
import { processCallbacks } from '../runs/executor-callbacks.js';
import {
  firstPlannedLogId,
  HANDLE_CODE,
  type Run,
  runStatus,
  TRIGGER_CODE,
  unplannedLogId,
} from '../runs/run.js';
import type { CompleteOptions, CompleteOutcome, HandleResult } from '../runs/run-store.js';
import { BatchReads } from './batch-reads.js';
import { dispatchFire } from './dispatch-fire.js';
import { DispatchRecord, RECORD_LINGER_MS } from './dispatch-record.js';
import type { FireHook } from './fire-hook.js';
import { DISPATCH_DEFAULTS } from './settings.js';
import { type FireMessage, misfireDedupKey, scheduledDedupKey } from './trigger.js';

const A = 'http://10.0.0.1:9999/';
const B = 'http://10.0.0.2:9999/';
const C = 'http://10.0.0.3:9999/';

function cronFire(scheduledTime: number, overrides: Partial<FireMessage> = {}): FireMessage {
  return {
    jobId: 1,
    scheduledTime,
    triggerType: 'CRON',
    dedupKey: scheduledDedupKey(1, scheduledTime),
    scheduleRevision: 1,
    ...overrides,
  };
}

function setJob(env: ReturnType<typeof memoryDispatchDeps>, overrides: Partial<Job>) {
  const job = env.jobs.jobs.get(1);
  if (!job) throw new Error('no job 1');
  env.jobs.jobs.set(1, { ...job, ...overrides });
}

/** Memory dispatch deps whose group app-a routes to its registered executors, `address` online. */
async function autoGroupWith(address: string) {
  const env = memoryDispatchDeps();
  const group = env.groups.groups.get('app-a');
  if (!group) throw new Error('no group');
  env.groups.groups.set('app-a', { ...group, addressType: 'AUTO', addressList: [] });
  await env.registry.heartbeat('app-a', address, env.clock.now());
  return env;
}

/** Something that happens once, and a promise of it. */
function signal(): { happen: () => void; happened: Promise<void> } {
  let happen: () => void = () => undefined;
  const happened = new Promise<void>((resolve) => {
    happen = resolve;
  });
  return { happen, happened };
}

/** env's deps whose reads of a job, a group and the online executors first run a hook (await it, for the job and group). */
function withReadHooks(
  env: ReturnType<typeof memoryDispatchDeps>,
  hooks: { job?: () => Promise<unknown>; group?: () => unknown; registry?: () => void },
): ReturnType<typeof memoryDispatchDeps>['deps'] {
  const { jobs, groups, registry } = env.deps;
  return {
    ...env.deps,
    jobs: {
      ...jobs,
      get: async (...args: Parameters<typeof jobs.get>) => {
        await hooks.job?.();
        return jobs.get(...args);
      },
    },
    groups: {
      ...groups,
      get: async (...args: Parameters<typeof groups.get>) => {
        await hooks.group?.();
        return groups.get(...args);
      },
    },
    registry: {
      ...registry,
      list: (...args: Parameters<typeof registry.list>) => {
        hooks.registry?.();
        return registry.list(...args);
      },
    },
  } as typeof env.deps;
}

/** The outcome, or a stand-in saying it never came (a read that waits for another that never starts). */
function withinTwoSeconds<T>(outcome: Promise<T>): Promise<T | { kind: string }> {
  return Promise.race([
    outcome,
    new Promise<{ kind: string }>((resolve) =>
      setTimeout(() => resolve({ kind: 'a read waited for one that never began' }), 2_000),
    ),
  ]);
}

describe('dispatchFire: reads shared by a batch', () => {
  it('reads the jobs of a batch in one batched read and each group and its executors once', async () => {
    const env = memoryDispatchDeps();
    const group = env.groups.groups.get('app-a');
    if (!group) throw new Error('no group');
    env.groups.groups.set('app-a', { ...group, addressType: 'AUTO', addressList: [] });
    await env.registry.heartbeat('app-a', A, env.clock.now());
    for (const id of [2, 3]) env.jobs.jobs.set(id, { ...(env.jobs.jobs.get(1) as Job), id });
    const now = env.clock.now();
    const fires = [1, 2, 3].map((jobId) => cronFire(now, { jobId, dedupKey: scheduledDedupKey(jobId, now) }));
    env.registry.reads = 0;

    const reads = new BatchReads(env.deps);
    reads.preloadJobs(fires.map((f) => f.jobId));
    const outcomes = await Promise.all(
      fires.map((fire) => dispatchFire(env.deps, DISPATCH_DEFAULTS, fire, 'fast', reads)),
    );

    expect(outcomes.map((o) => o.kind)).toEqual(['dispatched', 'dispatched', 'dispatched']);
    expect(env.transport.sent.map((s) => s.param.jobId).sort()).toEqual([1, 2, 3]);
    expect(env.jobs.reads).toEqual([{ method: 'getMany', ids: [1, 2, 3] }]);
    expect(env.groups.reads).toBe(1);
    expect(env.registry.reads).toBe(1);
  });

  it('reads the group and its executors side by side, not one after the other', async () => {
    const env = await autoGroupWith(A);
    // The group's read answers only once the executors' read has begun.
    const registryRead = signal();
    const deps = withReadHooks(env, { group: () => registryRead.happened, registry: registryRead.happen });

    const outcome = await withinTwoSeconds(
      dispatchFire(deps, DISPATCH_DEFAULTS, cronFire(env.clock.now()), 'fast', new BatchReads(deps)),
    );
    expect(outcome).toMatchObject({ kind: 'dispatched' });
  });

  it('reads the group a fire names, and its executors, beside the job; a job of another group goes by its own', async () => {
    const env = await autoGroupWith(A);
    // The job's read answers only once the group's and the executors' reads have begun.
    const groupRead = signal();
    const registryRead = signal();
    const deps = withReadHooks(env, {
      job: () => Promise.all([groupRead.happened, registryRead.happened]),
      group: groupRead.happen,
      registry: registryRead.happen,
    });

    const fire = cronFire(env.clock.now(), { appName: 'app-a' });
    const outcome = await withinTwoSeconds(
      dispatchFire(deps, DISPATCH_DEFAULTS, fire, 'fast', new BatchReads(deps)),
    );
    expect(outcome).toMatchObject({ kind: 'dispatched' });
    expect(env.transport.sent.map((s) => s.address)).toEqual([A]);

    // A hint naming another group than the job's: the job's own group and executors route it.
    const other = await autoGroupWith(B);
    await other.registry.heartbeat('app-elsewhere', C, other.clock.now());
    const moved = await dispatchFire(
      other.deps,
      DISPATCH_DEFAULTS,
      cronFire(other.clock.now(), { appName: 'app-elsewhere' }),
      'fast',
      new BatchReads(other.deps),
    );
    expect(moved).toMatchObject({ kind: 'dispatched' });
    expect(other.transport.sent.map((s) => s.address)).toEqual([B]);
  });

  it('without a shared BatchReads each fire reads its own job', async () => {
    const env = memoryDispatchDeps();
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now()));
    expect(env.jobs.reads).toEqual([{ method: 'get', ids: [1] }]);
  });
});

describe('dispatchFire: what runs and what is dropped', () => {
  it('drops a scheduled fire planned under an older scheduleRevision (an edit takes effect from the next fire)', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { scheduleRevision: 2 });
    const outcome = await dispatchFire(
      env.deps,
      DISPATCH_DEFAULTS,
      cronFire(env.clock.now(), { scheduleRevision: 1 }),
    );
    expect(outcome).toEqual({ kind: 'dropped', reason: expect.stringContaining('revision 1 → 2') });
    expect(env.runs.all()).toEqual([]);
    expect(env.transport.sent).toEqual([]);
  });

  it('drops a scheduled fire of a job stopped after it was planned, but runs a manual trigger of it (as XXL-JOB does)', async () => {
    const env = memoryDispatchDeps();
    // Stopping through the API bumps the revision.
    setJob(env, { triggerStatus: 'STOPPED', scheduleRevision: 2 });
    const now = env.clock.now();
    expect(await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(now, { scheduleRevision: 1 }))).toEqual({
      kind: 'dropped',
      reason: 'the job was stopped after the fire was planned',
    });
    for (const triggerType of ['MANUAL', 'API', 'PARENT'] as const) {
      const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, {
        jobId: 1,
        scheduledTime: now,
        triggerType,
        dedupKey: `${triggerType}#1`,
      });
      expect(outcome.kind).toBe('dispatched');
    }
    expect(env.transport.sent).toHaveLength(3);
  });

  it('runs the last fire of a schedule that ended (the tick stopped the job without a new revision)', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { triggerStatus: 'STOPPED', scheduleRevision: 1 });
    const outcome = await dispatchFire(
      env.deps,
      DISPATCH_DEFAULTS,
      cronFire(env.clock.now(), { scheduleRevision: 1 }),
    );
    expect(outcome.kind).toBe('dispatched');
    expect(env.transport.sent).toHaveLength(1);
  });

  it('drops a fire of a job that no longer exists', async () => {
    const env = memoryDispatchDeps();
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now(), { jobId: 99 }));
    expect(outcome).toEqual({ kind: 'dropped', reason: 'the job does not exist' });
  });

  it('puts a fire more than 900 s ahead back on the ring with the longest delay SQS allows, and does nothing else', async () => {
    const env = memoryDispatchDeps();
    const message: FireMessage = {
      jobId: 1,
      scheduledTime: env.clock.now() + 3_600_000,
      triggerType: 'RETRY',
      dedupKey: 'retry#5',
      retry: { attempt: 2, ofLogId: 5, retriesLeft: 0 },
    };
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, message);
    expect(outcome).toEqual({ kind: 'deferred', delaySeconds: 900 });
    expect(env.ring.entries).toEqual([{ message, delaySeconds: 900, lane: 'fast' }]);
    expect(env.runs.all()).toEqual([]);
    expect(env.transport.sent).toEqual([]);
  });

  it('puts a fire further out than it may wait in-process back on the ring with the remaining delay', async () => {
    const env = memoryDispatchDeps();
    const message = cronFire(env.clock.now() + 60_400);
    expect(await dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).toEqual({
      kind: 'deferred',
      delaySeconds: 60,
    });
  });
});

describe('dispatchFire: the trigger', () => {
  it('records the run claimLeadMs before its time and sends it at the scheduled millisecond', async () => {
    const env = memoryDispatchDeps();
    const arrived = env.clock.now();
    const scheduledTime = arrived + 730; // SQS delivered it 730 ms early
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(scheduledTime));
    expect(outcome.kind).toBe('dispatched');
    expect(env.clock.sleeps).toEqual([730 - DISPATCH_DEFAULTS.claimLeadMs, DISPATCH_DEFAULTS.claimLeadMs]);
    expect(env.runs.all()[0]?.triggerTime).toBe(scheduledTime - DISPATCH_DEFAULTS.claimLeadMs);
    expect(env.transport.sent[0]?.at).toBe(scheduledTime);
    expect(env.metrics.values.filter((v) => v.name === METRIC.lateness)).toEqual([
      { name: METRIC.lateness, value: 0 },
    ]);
  });

  it('waits for a jittered fire’s jittered time, keeps its scheduled time as its identity, and records the offset', async () => {
    const env = memoryDispatchDeps();
    const scheduledTime = env.clock.now() - 2_000;
    const fireAt = scheduledTime + 2_730;
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(scheduledTime, { fireAt }));
    expect(outcome.kind).toBe('dispatched');
    expect(env.transport.sent[0]?.at).toBe(fireAt);
    expect(env.runs.all()[0]).toMatchObject({
      scheduledTime,
      jitterMs: 2_730,
      dedupKey: scheduledDedupKey(1, scheduledTime),
      dispatchedAt: fireAt,
    });
    expect(env.metrics.values.filter((v) => v.name === METRIC.lateness)).toEqual([
      { name: METRIC.lateness, value: 0 },
    ]);
  });

  it('counts a jittered fire’s lateness from its jittered time: 6 s past its scheduled time but 1 s past its own is not a misfire', async () => {
    const env = memoryDispatchDeps();
    const scheduledTime = env.clock.now() - 6_000;
    const outcome = await dispatchFire(
      env.deps,
      DISPATCH_DEFAULTS,
      cronFire(scheduledTime, { fireAt: scheduledTime + 5_000 }),
    );
    expect(outcome.kind).toBe('dispatched');
    const late = await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(scheduledTime - 1_000));
    expect(late.kind).toBe('skipped');
  });

  it('sends a TriggerParam with every field present and records the run as accepted', async () => {
    const env = memoryDispatchDeps();
    setJob(env, {
      executorRouteStrategy: 'LAST',
      executorParam: 'p=1',
      executorTimeout: 30,
      executorFailRetryCount: 2,
      glueType: 'GLUE_SHELL',
      glueSource: 'echo hi',
      glueUpdatetime: 1234,
      executorBlockStrategy: 'DISCARD_LATER',
    });
    const now = env.clock.now();
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(now));
    const [sent] = env.transport.sent;
    const [run] = env.runs.all();
    expect(sent?.address).toBe(B);
    expect(sent?.param).toStrictEqual({
      jobId: 1,
      executorHandler: 'demoJobHandler',
      executorParams: 'p=1',
      executorBlockStrategy: 'DISCARD_LATER',
      executorTimeout: 30,
      logId: run?.logId,
      logDateTime: now,
      glueType: 'GLUE_SHELL',
      glueSource: 'echo hi',
      glueUpdatetime: 1234,
      broadcastIndex: 0,
      broadcastTotal: 1,
    });
    expect(run).toMatchObject({
      jobId: 1,
      appName: 'app-a',
      triggerType: 'CRON',
      scheduledTime: now,
      executorAddress: B,
      triggerCode: 200,
      dispatchedAt: now,
      attempt: 1,
      retriesLeft: 2,
      shardIndex: 0,
      shardTotal: 1,
    });
    expect(run?.triggerMsg).toContain('Route strategy: LAST');
    expect(run?.triggerMsg).toContain(`address: ${B}`);
    // Sent: listed under its claim with its deadline (timeout + grace), and nothing else written.
    expect([...env.runs.dispatched.values()]).toEqual([
      [{ logId: run?.logId, appName: 'app-a', deadline: now + 30_000 + 60_000 }],
    ]);
    expect(env.reports.deltas).toEqual([{ day: '2030-01-01', delta: { running: 1 }, appName: 'app-a' }]);
    expect(env.metrics.sum(METRIC.runsDispatched)).toBe(1);
    expect(env.logger.lines.find((l) => l.message === 'run triggered')?.attributes).toEqual({
      jobId: 1,
      logId: run?.logId,
      scheduledTime: new Date(now).toISOString(),
      address: B,
      triggerType: 'CRON',
      code: 200,
    });
  });

  it('gives a run without an executor timeout a 10 minute deadline', async () => {
    const env = memoryDispatchDeps();
    const now = env.clock.now();
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(now));
    expect([...env.runs.dispatched.values()].flat().map((e) => e.deadline)).toEqual([now + 600_000]);
  });

  it('lets a manual trigger override the parameter and the address list', async () => {
    const env = memoryDispatchDeps();
    const now = env.clock.now();
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, {
      jobId: 1,
      scheduledTime: now,
      triggerType: 'MANUAL',
      dedupKey: 'manual#1',
      executorParam: 'override',
      addressList: [' http://10.9.9.9:9999/ '],
    });
    expect(env.transport.sent.map((s) => [s.address, s.param.executorParams])).toEqual([
      ['http://10.9.9.9:9999/', 'override'],
    ]);
  });

  it('takes an AUTO group’s addresses from heartbeats within registryDeadSeconds, sorted', async () => {
    const env = memoryDispatchDeps();
    env.groups.groups.set('app-a', testGroup({ appName: 'app-a', addressType: 'AUTO' }));
    const now = env.clock.now();
    await env.registry.heartbeat('app-a', C, now - 5_000);
    await env.registry.heartbeat('app-a', A, now - 95_000); // dead: older than 90 s
    await env.registry.heartbeat('app-a', B, now - 1_000);
    await env.registry.heartbeat('app-b', A, now);
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(now));
    expect(env.transport.sent.map((s) => s.address)).toEqual([B]); // FIRST of [B, C]
    expect(env.runs.all()[0]?.triggerMsg).toContain(`Address list: [${B}, ${C}]`);
  });
});

describe('dispatchFire: duplicates and take-over', () => {
  it('runs a fire delivered twice once', async () => {
    const env = memoryDispatchDeps();
    const message = cronFire(env.clock.now());
    expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).kind).toBe('dispatched');
    const second = await dispatchFire(env.deps, DISPATCH_DEFAULTS, message);
    expect(second).toEqual({ kind: 'duplicate', logIds: [unplannedLogId(1, 0)] });
    expect(env.transport.sent).toHaveLength(1);
    expect(env.runs.all()).toHaveLength(1);
  });

  it('leaves a run recorded moments ago by a live dispatcher alone, and takes over one whose claim is stale', async () => {
    const env = memoryDispatchDeps();
    // An API trigger: it always runs (a scheduled fire this late is a misfire, see below).
    const message = cronFire(env.clock.now(), { triggerType: 'API', dedupKey: 'api#1' });
    // A dispatcher recorded the fire and died before sending it.
    const run = { ...(await recordOnly(env, message)) };
    env.clock.current += 10_000;
    expect(await dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).toEqual({
      kind: 'duplicate',
      logIds: [run.logId],
    });
    expect(env.transport.sent).toHaveLength(0);

    env.clock.current += DISPATCH_DEFAULTS.claimStaleMs; // past the dispatcher's timeout and a margin
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, message);
    expect(outcome).toMatchObject({
      kind: 'dispatched',
      reclaimed: true,
      runs: [{ logId: run.logId, triggerCode: 200 }],
    });
    expect(env.transport.sent.map((s) => s.param.logId)).toEqual([run.logId]);
    expect(env.transport.sent[0]?.param.logDateTime).toBe(message.scheduledTime);
  });

  it('dispatches its own runs when the fire was committed but the answer was lost', async () => {
    const env = memoryDispatchDeps();
    const realCreate = env.runs.createFire.bind(env.runs);
    let calls = 0;
    env.runs.createFire = async (dedupKey, runs, claimToken) => {
      const result = await realCreate(dedupKey, runs, claimToken);
      if (++calls === 1) throw new Error('socket hang up'); // committed, but we never heard
      return result;
    };
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now()));
    expect(outcome).toMatchObject({
      kind: 'dispatched',
      reclaimed: false,
      runs: [{ logId: unplannedLogId(1, 0), triggerCode: 200 }],
    });
    expect(env.transport.sent).toHaveLength(1);
  });

  it('never sends a run again once its claim recorded it as sent, however old the claim', async () => {
    const env = memoryDispatchDeps();
    const message = cronFire(env.clock.now(), { logId: 31 });
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, message);
    env.clock.current += 10 * DISPATCH_DEFAULTS.claimStaleMs; // a long job, still running
    expect(await dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).toEqual({
      kind: 'duplicate',
      logIds: [31],
    });
    expect(env.transport.sent).toHaveLength(1);
  });

  it('records an executor’s refusal in place of the answer the run was recorded with', async () => {
    const env = memoryDispatchDeps();
    env.transport.replies.set(A, { code: 500, msg: 'job handler not found' });
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now()));
    const [run] = env.runs.all();
    expect(run).toMatchObject({ triggerCode: 500, executorAddress: A });
    expect(run?.triggerMsg).toContain('code: 500\nmsg: job handler not found');
    expect(run?.triggerMsg).not.toContain('code: 200');
    expect([...env.runs.dispatched.values()].flat()).toEqual([
      { logId: run?.logId, appName: 'app-a', deadline: 0 },
    ]);
  });

  it('writes a sent run to its record within moments, before the rest of the record is done', async () => {
    const env = memoryDispatchDeps();
    const record = new DispatchRecord(env.deps, env.clock.now());
    await dispatchFire(
      env.deps,
      DISPATCH_DEFAULTS,
      cronFire(env.clock.now(), { logId: 41 }),
      'fast',
      undefined,
      record,
    );
    expect(env.runs.dispatched.size).toBe(0); // not yet: it waits a moment for others sent about then
    await new Promise((r) => setTimeout(r, RECORD_LINGER_MS + 50));
    expect(await env.runs.dispatchedUnder(record.claimToken)).toEqual(new Set([41]));
    await record.save();
    expect([...env.runs.dispatched.values()].flat()).toHaveLength(1);
  });

  it('sends nothing once its invocation is about to run out of time, leaving the claimed run to the redelivery', async () => {
    const env = memoryDispatchDeps();
    const record = new DispatchRecord(env.deps, env.clock.now(), env.clock.now() - 1);
    // A manual trigger: it always runs (a scheduled fire taken over this late is a misfire, see below).
    const message = cronFire(env.clock.now(), { logId: 42, triggerType: 'MANUAL', dedupKey: 'manual#42' });
    await expect(
      dispatchFire(env.deps, DISPATCH_DEFAULTS, message, 'fast', undefined, record),
    ).rejects.toThrow('about to run out of time');
    await record.save();
    expect(env.transport.sent).toEqual([]);
    expect(env.runs.dispatched.size).toBe(0);
    // The redelivery, once the claim is stale, takes it over and sends it.
    env.clock.current += DISPATCH_DEFAULTS.claimStaleMs + 1;
    expect(await dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).toMatchObject({
      kind: 'dispatched',
      reclaimed: true,
    });
    expect(env.transport.sent.map((s) => s.param.logId)).toEqual([42]);
  });

  it('schedules the retry a dispatcher that died after recording the refusal never scheduled', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { executorFailRetryCount: 1 });
    env.transport.replies.set(A, { code: 500, msg: 'refused' });
    const message = cronFire(env.clock.now());
    env.ring.enqueue = () => Promise.reject(new Error('SQS unavailable'));
    await expect(dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).rejects.toThrow('SQS unavailable');
    const [refused] = env.runs.all();
    expect(refused).toMatchObject({ triggerCode: 500, alarmStatus: 0 });

    const recording = memoryDispatchDeps().ring;
    env.ring.enqueue = (entries) => recording.enqueue(entries);
    env.clock.current += 10_000; // a duplicate while the first dispatcher might still be at it: no retry yet
    expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).kind).toBe('duplicate');
    expect(recording.entries).toEqual([]);
    env.clock.current += 170_000; // SQS redelivers the failed message after its visibility timeout
    expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).kind).toBe('duplicate');
    expect(recording.entries.map((e) => e.message.dedupKey)).toEqual([`retry#${refused?.logId}`]);
    expect(env.runs.all()[0]?.alarmStatus).toBe(1);
    expect(env.transport.sent).toHaveLength(1);
  });

  it('records the fire again when the transaction was lost to a concurrent one', async () => {
    const env = memoryDispatchDeps();
    env.runs.failCreateFire = {
      times: 1,
      error: Object.assign(new Error('conflict'), { name: 'TransactionCanceledException' }),
    };
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now()));
    expect(outcome.kind).toBe('dispatched');
  });
});

describe('dispatchFire: fires planned with their logId', () => {
  it('claims the fire by putting its run under that logId: no fire record, no logId allocated', async () => {
    const env = memoryDispatchDeps();
    const outcome = await dispatchFire(
      env.deps,
      DISPATCH_DEFAULTS,
      cronFire(env.clock.now(), { logId: 4242 }),
    );
    expect(outcome).toMatchObject({ kind: 'dispatched', runs: [{ logId: 4242, triggerCode: 200 }] });
    expect(env.runs.fires.size).toBe(0);
    expect(env.transport.sent.map((s) => s.param.logId)).toEqual([4242]);
  });

  it('ignores a second delivery of the same fire, and a re-plan of it sent again by the tick', async () => {
    const env = memoryDispatchDeps();
    const message = cronFire(env.clock.now(), { logId: 77 });
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, message);
    expect(await dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).toEqual({
      kind: 'duplicate',
      logIds: [77],
    });
    // A re-plan after a tick crash: the same logId, even keyed differently (a misfire fire for that time).
    const replanned = {
      ...message,
      triggerType: 'MISFIRE' as const,
      dedupKey: `1#misfire#${message.scheduledTime}`,
    };
    expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, replanned)).kind).toBe('duplicate');
    expect(env.transport.sent).toHaveLength(1);
  });

  it('counts its own claim whose answer was lost as its own and sends the fire once', async () => {
    const env = memoryDispatchDeps();
    env.runs.loseClaimAnswer = new Error('socket hang up');
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now(), { logId: 9 }));
    expect(outcome).toMatchObject({ kind: 'dispatched', reclaimed: false });
    expect(env.transport.sent.map((s) => s.param.logId)).toEqual([9]);
  });

  it('takes over a claimed run never sent once the claim is stale, as for other fires (FIRE_ONCE_NOW: as the catch-up)', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { misfireStrategy: 'FIRE_ONCE_NOW' });
    const message = cronFire(env.clock.now(), { logId: 5 });
    await recordOnly(env, message);
    env.clock.current += DISPATCH_DEFAULTS.claimStaleMs + 1;
    expect(await dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).toMatchObject({
      kind: 'dispatched',
      reclaimed: true,
    });
    expect(env.transport.sent.map((s) => [s.param.logId, s.param.logDateTime])).toEqual([
      [5, message.scheduledTime],
    ]);
    expect(env.runs.runs.get(5)?.triggerMsg).toContain(
      `the catch-up of the fire due at ${new Date(message.scheduledTime).toISOString()}`,
    );
    expect(env.runs.catchUpAttempts).toMatchObject([
      { jobId: 1, missedTime: message.scheduledTime, won: true },
    ]);
  });
});

describe('dispatchFire: late and out-of-order fires follow the misfire policy', () => {
  const base = firstPlannedLogId(1);
  /** The fire of slot `slot` of job 1's planned range (slots are places in the schedule). */
  const planned = (slot: number, scheduledTime: number, overrides: Partial<FireMessage> = {}) =>
    cronFire(scheduledTime, { logId: base + slot, ...overrides });
  const skippedMetric = (env: ReturnType<typeof memoryDispatchDeps>) =>
    env.metrics.sum(METRIC.misfiresSkipped);
  /** Runs counted as skipped in the daily report counters. */
  const skippedCounted = (env: ReturnType<typeof memoryDispatchDeps>) =>
    env.reports.deltas.reduce((n, d) => n + (d.delta.skipped ?? 0), 0);
  const iso = (ms: number) => new Date(ms).toISOString();

  it('sends an on-time fire as before: no read of the job’s partition, no catch-up mark', async () => {
    const env = memoryDispatchDeps();
    const t = env.clock.now();
    const early = await dispatchFire(env.deps, DISPATCH_DEFAULTS, planned(0, t + 730));
    // A fire claimed a little late (within the margin no later fire can have been claimed in) too.
    env.clock.current = t + 1000 + 400;
    const late = await dispatchFire(env.deps, DISPATCH_DEFAULTS, planned(1, t + 1000));
    expect([early.kind, late.kind]).toEqual(['dispatched', 'dispatched']);
    expect(env.transport.sent.map((s) => s.param.logId)).toEqual([base, base + 1]);
    expect(env.runs.laterReads).toBe(0);
    expect(env.runs.catchUpAttempts).toEqual([]);
    expect(skippedMetric(env)).toBe(0);
    expect(skippedCounted(env)).toBe(0);
    expect(env.runs.all().map((r) => runStatus(r))).toEqual(['running', 'running']);
  });

  it('DO_NOTHING: records a fire reaching the dispatcher past the threshold as skipped, and sends nothing', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { executorFailRetryCount: 2, childJobIds: [7], alarmWebhook: 'http://hook/' });
    const t = env.clock.now();
    const message = planned(0, t - 179_600);
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, message);

    const reason = 'reached the dispatcher 179.6 s after its time (threshold 5 s); DO_NOTHING skips it';
    expect(outcome).toEqual({ kind: 'skipped', logIds: [base], reason });
    const [run] = env.runs.all();
    expect(run).toMatchObject({
      logId: base,
      scheduledTime: message.scheduledTime,
      triggerCode: TRIGGER_CODE.skipped,
      executorAddress: '',
      dispatchedAt: 0,
      handleCode: 0,
    });
    expect(run && runStatus(run)).toBe('skipped');
    expect(run?.triggerMsg).toContain(`Skipped, never sent: ${reason}`);
    expect(env.transport.sent).toEqual([]);
    expect(skippedMetric(env)).toBe(1);
    expect(env.logger.lines.find((l) => l.message === 'fire skipped (misfire)')).toEqual({
      level: 'warn',
      message: 'fire skipped (misfire)',
      attributes: {
        jobId: 1,
        logId: base,
        scheduledTime: iso(message.scheduledTime),
        latenessMs: 179_600,
        reason,
        misfireStrategy: 'DO_NOTHING',
      },
    });
    // Finished as it is: nothing sent or listed, no retry, alarm or child; counted as skipped on its
    // day, of its group (not as running, success or fail).
    expect(env.runs.dispatched.size).toBe(0);
    expect(env.runs.outcomePending.size).toBe(0);
    expect(env.ring.entries).toEqual([]);
    expect(env.alarms.alarms).toEqual([]);
    expect(env.reports.deltas).toEqual([{ day: '2030-01-01', delta: { skipped: 1 }, appName: 'app-a' }]);
    // Routed nowhere, and one write: the skipped run, put as a claim would be.
    expect(env.transport.probes).toEqual([]);
    expect(env.runs.laterReads).toBe(0);

    // A redelivery is a duplicate of it.
    expect(await dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).toEqual({
      kind: 'duplicate',
      logIds: [base],
    });
    expect(env.transport.sent).toEqual([]);
    expect(skippedCounted(env)).toBe(1);
  });

  it('DO_NOTHING: a late fire planned without a logId is recorded as skipped under its dedupKey', async () => {
    const env = memoryDispatchDeps();
    const message = cronFire(env.clock.now() - 6_000);
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, message);
    expect(outcome).toMatchObject({ kind: 'skipped', logIds: [unplannedLogId(1, 0)] });
    expect(env.runs.fires.get(message.dedupKey)?.logIds).toEqual([unplannedLogId(1, 0)]);
    expect(env.runs.all().map((r) => r.triggerCode)).toEqual([TRIGGER_CODE.skipped]);
    expect(env.transport.sent).toEqual([]);
    expect(skippedCounted(env)).toBe(1);
  });

  it('runs manual, API, parent and retry triggers however late', async () => {
    const env = memoryDispatchDeps();
    const late = env.clock.now() - 60_000;
    for (const triggerType of ['MANUAL', 'API', 'PARENT', 'RETRY'] as const) {
      const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, {
        jobId: 1,
        scheduledTime: late,
        triggerType,
        dedupKey: `${triggerType}#late`,
        ...(triggerType === 'RETRY' ? { retry: { attempt: 2, ofLogId: 5, retriesLeft: 0 } } : {}),
      });
      expect(outcome.kind).toBe('dispatched');
    }
    expect(env.transport.sent).toHaveLength(4);
    expect(skippedMetric(env)).toBe(0);
    expect(skippedCounted(env)).toBe(0);
  });

  it('skips a fire claimed after a later fire of its job was claimed (overtaken), though not late', async () => {
    const env = memoryDispatchDeps();
    const t = env.clock.now();
    // The later fire's record was delivered first and sent at its time.
    expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, planned(1, t + 1000))).kind).toBe('dispatched');
    expect(env.clock.now()).toBe(t + 1000);
    const earlier = planned(0, t);
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, earlier);

    const reason = `overtaken by the fire due at ${iso(t + 1000)}, claimed before it`;
    expect(outcome).toEqual({ kind: 'skipped', logIds: [base], reason });
    expect(env.transport.sent.map((s) => s.param.logId)).toEqual([base + 1]);
    expect(env.runs.runs.get(base)).toMatchObject({ triggerCode: TRIGGER_CODE.skipped, executorAddress: '' });
    expect(env.runs.runs.get(base)?.triggerMsg).toContain(reason);
    expect(env.runs.laterReads).toBe(1);
    expect(skippedMetric(env)).toBe(1);
    expect(env.reports.deltas).toEqual([
      { day: '2030-01-01', delta: { running: 1 }, appName: 'app-a' },
      { day: '2030-01-01', delta: { skipped: 1 }, appName: 'app-a' },
    ]);
    expect(env.logger.lines.find((l) => l.message === 'fire skipped (misfire)')?.attributes).toMatchObject({
      logId: base,
      latenessMs: 1000,
      reason,
    });
    // Not listed as sent: the lost-run watch never looks for it.
    expect([...env.runs.dispatched.values()].flat().map((e) => e.logId)).toEqual([base + 1]);
  });

  it('DO_NOTHING: a fire whose dispatcher was held up between its claim and its send is skipped, not sent late', async () => {
    const env = memoryDispatchDeps();
    const t = env.clock.now();
    const claim = env.runs.claim.bind(env.runs);
    // Claimed on time, then the process is paused (SIGSTOP, a starved CPU) for 6 s.
    env.runs.claim = async (run, token) => {
      const claimed = await claim(run, token);
      env.clock.current += 6_000;
      return claimed;
    };
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, planned(0, t + 500));
    const reason = 'held up 5.8 s past its time before it could be sent (threshold 5 s); DO_NOTHING skips it';
    expect(outcome).toEqual({ kind: 'skipped', logIds: [base], reason });
    expect(env.transport.sent).toEqual([]);
    expect(env.runs.runs.get(base)).toMatchObject({ triggerCode: TRIGGER_CODE.skipped });
    expect(env.runs.dispatched.size).toBe(0);
    expect(skippedMetric(env)).toBe(1);
    expect(env.reports.deltas).toEqual([{ day: '2030-01-01', delta: { skipped: 1 }, appName: 'app-a' }]);
  });

  it('does not count a held-up run as skipped when its rewrite found it changed (taken over meanwhile)', async () => {
    const env = memoryDispatchDeps();
    const t = env.clock.now();
    const claim = env.runs.claim.bind(env.runs);
    env.runs.claim = async (run, token) => {
      const claimed = await claim(run, token);
      env.clock.current += 6_000;
      return claimed;
    };
    env.runs.skipClaimed = async () => false;
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, planned(0, t + 500));
    expect(outcome).toMatchObject({ kind: 'skipped', logIds: [base] });
    expect(env.transport.sent).toEqual([]);
    expect(skippedCounted(env)).toBe(0);
  });

  it('skips a fire held up between its claim and its send while a later fire of its job was claimed', async () => {
    const env = memoryDispatchDeps();
    const t = env.clock.now();
    const sleep = env.clock.sleep.bind(env.clock);
    // Claimed on time; while it waits for its millisecond the process stalls for a second and
    // another dispatcher claims the next fire of the job.
    env.clock.sleep = async (ms) => {
      await sleep(ms);
      if (env.clock.now() !== t + 200 || !env.runs.runs.has(base)) return;
      const mine = env.runs.runs.get(base) as Run;
      await env.runs.claim({ ...mine, logId: base + 1, scheduledTime: t + 1200 }, 'other');
      env.clock.current = t + 1200;
    };
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, planned(0, t + 200));
    expect(outcome).toEqual({
      kind: 'skipped',
      logIds: [base],
      reason: `overtaken by the fire due at ${iso(t + 1200)}, claimed before it`,
    });
    expect(env.transport.sent).toEqual([]);
    expect(env.runs.laterReads).toBe(1);
    expect(skippedCounted(env)).toBe(1);
  });

  it('skips an overtaken fire that found no executor rather than retrying or alarming it', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { executorFailRetryCount: 1 });
    env.groups.groups.set('app-a', testGroup({ appName: 'app-a', addressType: 'AUTO' }));
    const t = env.clock.now();
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, planned(1, t + 1000)); // refused: its retry is enqueued
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, planned(0, t));
    expect(outcome).toMatchObject({ kind: 'skipped', logIds: [base] });
    expect(env.runs.runs.get(base)?.triggerCode).toBe(TRIGGER_CODE.skipped);
    expect([...env.runs.outcomePending.keys()]).not.toContain(base);
    expect(env.ring.entries.map((e) => e.message.retry?.ofLogId)).toEqual([base + 1]);
    // The refused later fire counts as failed, the overtaken one as skipped.
    expect(env.reports.deltas.map((d) => d.delta)).toEqual([{ fail: 1 }, { skipped: 1 }]);
  });

  it('FIRE_ONCE_NOW: of three late fires of a job exactly one runs, as the catch-up, in order', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { misfireStrategy: 'FIRE_ONCE_NOW' });
    const t = env.clock.now();
    const fires = [0, 1, 2].map((slot) => planned(slot, t - 60_000 + slot * 1000));
    const outcomes = await Promise.all(
      [fires[2], fires[0], fires[1]].map((f) => dispatchFire(env.deps, DISPATCH_DEFAULTS, f as FireMessage)),
    );

    expect(outcomes.filter((o) => o.kind === 'dispatched')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'skipped')).toHaveLength(2);
    expect(env.transport.sent).toHaveLength(1);
    const [sent] = env.transport.sent;
    const caughtUp = env.runs.runs.get(sent?.param.logId ?? 0);
    expect(caughtUp?.triggerMsg).toContain(
      `the catch-up of the fire due at ${iso(caughtUp?.scheduledTime ?? 0)}`,
    );
    // No skipped fire is later than the one that ran: the runs start in schedule order.
    const skipped = env.runs.all().filter((r) => r.triggerCode === TRIGGER_CODE.skipped);
    expect(skipped).toHaveLength(2);
    expect(skipped.every((r) => r.logId !== sent?.param.logId)).toBe(true);
    expect(skippedMetric(env)).toBe(2);
    expect(skippedCounted(env)).toBe(2);

    // The job's next fire, on time, runs as usual and takes no mark.
    const attempts = env.runs.catchUpAttempts.length;
    env.clock.current = t + 1000 - DISPATCH_DEFAULTS.claimLeadMs;
    expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, planned(3, t + 1000))).kind).toBe('dispatched');
    expect(env.runs.catchUpAttempts).toHaveLength(attempts);
  });

  it('FIRE_ONCE_NOW: a late fire after a catch-up ran since it was due is skipped', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { misfireStrategy: 'FIRE_ONCE_NOW' });
    const t = env.clock.now();
    expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, planned(0, t - 60_000))).kind).toBe('dispatched');
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, planned(1, t - 59_000));
    expect(outcome).toEqual({
      kind: 'skipped',
      logIds: [base + 1],
      reason:
        'reached the dispatcher 59.0 s after its time (threshold 5 s); FIRE_ONCE_NOW: a catch-up already ran since',
    });
    expect(env.transport.sent.map((s) => s.param.logId)).toEqual([base]);
    expect(skippedCounted(env)).toBe(1);
  });

  it('DO_NOTHING: a held fire taken over late (its dispatcher died before sending it) is recorded as skipped, not sent', async () => {
    const env = memoryDispatchDeps();
    const message = planned(0, env.clock.now());
    const held = await recordOnly(env, message);
    env.clock.current += DISPATCH_DEFAULTS.claimStaleMs + 1;
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, message);

    expect(outcome).toMatchObject({ kind: 'skipped', logIds: [base] });
    expect(env.transport.sent).toEqual([]);
    const run = env.runs.runs.get(base);
    expect(run).toMatchObject({ triggerCode: TRIGGER_CODE.skipped, executorAddress: '' });
    expect(run?.claimToken).not.toBe(held.claimToken);
    expect(run?.triggerMsg).toContain(
      `reached the dispatcher ${((DISPATCH_DEFAULTS.claimStaleMs + 1) / 1000).toFixed(1)} s after its time`,
    );
    expect(skippedMetric(env)).toBe(1);
    expect(skippedCounted(env)).toBe(1);
    // And again later: a duplicate, never sent (nor counted again).
    env.clock.current += DISPATCH_DEFAULTS.claimStaleMs + 1;
    expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).kind).toBe('duplicate');
    expect(env.transport.sent).toEqual([]);
    expect(skippedCounted(env)).toBe(1);
  });

  it('never overwrites a held fire that was sent: a late duplicate of it stays a duplicate', async () => {
    const env = memoryDispatchDeps();
    const message = planned(0, env.clock.now());
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, message);
    env.clock.current += 10 * DISPATCH_DEFAULTS.claimStaleMs;
    expect(await dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).toEqual({
      kind: 'duplicate',
      logIds: [base],
    });
    expect(env.runs.runs.get(base)?.triggerCode).toBe(TRIGGER_CODE.success);
    expect(skippedMetric(env)).toBe(0);
    expect(skippedCounted(env)).toBe(0);
  });

  describe('a tick MISFIRE fire and a late fire of the same job make one catch-up', () => {
    const setup = () => {
      const env = memoryDispatchDeps();
      setJob(env, { misfireStrategy: 'FIRE_ONCE_NOW' });
      const t = env.clock.now();
      // A fire held by a dead dispatcher before the outage, and the tick's catch-up after it (next block).
      const late = planned(3, t - 30_000);
      const misfire = planned(32, t, {
        triggerType: 'MISFIRE',
        dedupKey: misfireDedupKey(1, t - 20_000),
        missedTime: t - 20_000,
      });
      return { env, late, misfire };
    };

    it('the late fire first: it is the catch-up, the MISFIRE fire is skipped', async () => {
      const { env, late, misfire } = setup();
      const outcomes = [
        await dispatchFire(env.deps, DISPATCH_DEFAULTS, late),
        await dispatchFire(env.deps, DISPATCH_DEFAULTS, misfire),
      ];
      expect(outcomes.map((o) => o.kind)).toEqual(['dispatched', 'skipped']);
      expect(outcomes[1]).toMatchObject({ reason: expect.stringContaining('a catch-up already ran since') });
      expect(env.transport.sent.map((s) => s.param.logId)).toEqual([late.logId]);
      expect(env.runs.catchUpAttempts.map((a) => [a.missedTime, a.won])).toEqual([
        [late.scheduledTime, true],
        [misfire.missedTime, false],
      ]);
      expect(skippedCounted(env)).toBe(1);
    });

    it('the MISFIRE fire first: it is the catch-up, the late fire (overtaken) is skipped', async () => {
      const { env, late, misfire } = setup();
      const outcomes = [
        await dispatchFire(env.deps, DISPATCH_DEFAULTS, misfire),
        await dispatchFire(env.deps, DISPATCH_DEFAULTS, late),
      ];
      expect(outcomes.map((o) => o.kind)).toEqual(['dispatched', 'skipped']);
      expect(env.transport.sent.map((s) => s.param.logId)).toEqual([misfire.logId]);
      expect(env.runs.catchUpAttempts.map((a) => [a.missedTime, a.won])).toEqual([
        [misfire.missedTime, true],
      ]);
      expect(skippedCounted(env)).toBe(1);
    });
  });
});

describe('dispatchFire: a result reported for a run recorded as skipped is dropped', () => {
  type Env = ReturnType<typeof memoryDispatchDeps>;
  const logId = firstPlannedLogId(1);

  /**
   * RunStore.complete over the memory runs: `refusing` as DynamoRunStore does (`handleCode = 0 AND
   * triggerCode <> 600`), or, not refusing, with the condition on handleCode only (DynamoRunStore
   * before): the callback must drop the result either way.
   */
  function completeRuns(env: Env, refusing: boolean) {
    env.runs.complete = (async (
      id: number,
      result: HandleResult,
      options: CompleteOptions = {},
    ): Promise<CompleteOutcome> => {
      const run = env.runs.runs.get(id);
      if (!run) return { kind: 'unknown' };
      if (run.handleCode !== 0 || (refusing && run.triggerCode === TRIGGER_CODE.skipped))
        return { kind: 'already-finished', run };
      const completed = { ...run, ...result };
      env.runs.runs.set(id, completed);
      if (options.markOutcomePending ?? true) env.runs.outcomePending.set(id, result.handleTime);
      return { kind: 'completed', run: completed };
    }) as typeof env.runs.complete;
  }

  const total = (env: Env, counter: 'running' | 'success' | 'fail' | 'skipped') =>
    env.reports.deltas.reduce((n, d) => n + (d.delta[counter] ?? 0), 0);

  /** The executor's result, reported twice (the executor sends a batch again), then once more later. */
  async function reportResult(env: Env, handleCode: number) {
    const item = { logId, logDateTime: 0, handleCode, handleMsg: 'from the executor' };
    const reports = [await processCallbacks(env.deps, [item, item])];
    env.clock.current += 60_000;
    reports.push(await processCallbacks(env.deps, [item]));
    return reports;
  }

  /** Nothing followed the result: no counter moved, no child, retry or alarm, no outcome left pending. */
  function expectDropped(env: Env, reports: Awaited<ReturnType<typeof reportResult>>, before: unknown) {
    expect(reports).toEqual([
      { completed: [], repeated: [], unknown: [], failed: [], dropped: [logId, logId] },
      { completed: [], repeated: [], unknown: [], failed: [], dropped: [logId] },
    ]);
    expect(env.reports.deltas).toEqual(before);
    expect(env.ring.entries).toEqual([]);
    expect(env.alarms.alarms).toEqual([]);
    expect(env.runs.outcomePending.has(logId)).toBe(false);
    const run = env.runs.runs.get(logId);
    expect(run && runStatus(run)).toBe('skipped');
    expect(
      env.logger.lines.filter((e) => e.message === 'result for a run recorded as skipped dropped'),
    ).toHaveLength(3);
  }

  for (const refusing of [true, false]) {
    const store = refusing ? 'the store refuses it' : 'a store that takes it';
    it(`${store}: a fire sent, its dispatch record lost, then taken over as skipped, counts once, as skipped`, async () => {
      const env = memoryDispatchDeps();
      completeRuns(env, refusing);
      env.jobs.jobs.set(1, { ...(env.jobs.jobs.get(1) as Job), childJobIds: [2], executorFailRetryCount: 1 });
      const message = cronFire(env.clock.now(), { logId });

      // Dispatcher 1 sends the run (the executor accepts and runs it) but its dispatch record is never
      // written (DynamoDB fails, or the invocation dies before the record's write).
      const recordDispatch = env.runs.recordDispatch.bind(env.runs);
      env.runs.recordDispatch = () => Promise.reject(new Error('ProvisionedThroughputExceeded'));
      await expect(dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).rejects.toThrow();
      env.runs.recordDispatch = recordDispatch;
      expect(env.transport.sent).toHaveLength(1);

      // SQS redelivers the fire once the claim is stale: DO_NOTHING, late, in no record: skipped.
      env.clock.current += DISPATCH_DEFAULTS.claimStaleMs + 1;
      expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).kind).toBe('skipped');
      const before = structuredClone(env.reports.deltas);

      // The executor, which did get the run, reports a success, or a failure: neither is taken.
      expectDropped(env, await reportResult(env, refusing ? HANDLE_CODE.success : HANDLE_CODE.fail), before);
      expect(total(env, 'skipped')).toBe(1);
      expect(total(env, 'success') + total(env, 'fail')).toBe(0);
      // The send was counted running when it was accepted; the take-over cannot tell (see the report).
      expect(total(env, 'running')).toBe(1);
    });

    it(`${store}: a result for a run skipped at its claim (never sent) moves no counter`, async () => {
      const env = memoryDispatchDeps();
      completeRuns(env, refusing);
      env.jobs.jobs.set(1, { ...(env.jobs.jobs.get(1) as Job), childJobIds: [2], executorFailRetryCount: 1 });
      // Late on arrival under DO_NOTHING: recorded as skipped in its claim, never sent.
      const message = cronFire(env.clock.now() - 30_000, { logId });
      expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).kind).toBe('skipped');
      expect(env.runs.runs.get(logId)?.triggerCode).toBe(TRIGGER_CODE.skipped);
      expect(env.reports.deltas.map((d) => d.delta)).toEqual([{ skipped: 1 }]);

      // A callback for it (a stray executor, a replayed request with the access token).
      expectDropped(env, await reportResult(env, HANDLE_CODE.success), [env.reports.deltas[0]]);
      if (refusing) expect(env.runs.runs.get(logId)).toMatchObject({ handleCode: 0, handleMsg: '' });
    });
  }
});

/** Records a fire without dispatching it: what a dispatcher that crashed after createFire leaves. */
async function recordOnly(env: ReturnType<typeof memoryDispatchDeps>, message: FireMessage) {
  const realSend = env.transport.run.bind(env.transport);
  env.transport.run = () => Promise.reject(new Error('crashed'));
  await expect(dispatchFire(env.deps, DISPATCH_DEFAULTS, message)).rejects.toThrow('crashed');
  env.transport.run = realSend;
  env.transport.sent.length = 0;
  const [run] = env.runs.all();
  if (!run || env.runs.dispatched.size > 0) throw new Error('expected one run recorded and not sent');
  return run;
}

describe('dispatchFire: routing', () => {
  it('rotates ROUND across consecutive fires through the stored state', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { executorRouteStrategy: 'ROUND' });
    env.groups.groups.set(
      'app-a',
      testGroup({ appName: 'app-a', addressType: 'MANUAL', addressList: [A, B, C] }),
    );
    const start = env.clock.now();
    for (let i = 0; i < 6; i++) await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(start + i * 1000));
    // random() = 0.5 seeds the counter at 50: 50 % 3 = 2 → C, then A, B, C, A, B
    expect(env.transport.sent.map((s) => s.address)).toEqual([C, A, B, C, A, B]);
    expect(env.routeStates.items.get(1)?.version).toBe(6);
  });

  it('re-reads and re-routes when another dispatcher wrote the ROUND state first', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { executorRouteStrategy: 'ROUND' });
    env.groups.groups.set(
      'app-a',
      testGroup({ appName: 'app-a', addressType: 'MANUAL', addressList: [A, B, C] }),
    );
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now())); // count 50 → C
    env.routeStates.interleavedWrites = 1; // someone else takes count 51 (A) meanwhile
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now() + 1000));
    expect(env.transport.sent.map((s) => s.address)).toEqual([C, B]); // we get 52
    expect(env.routeStates.items.get(1)?.state).toMatchObject({ kind: 'ROUND', count: 52 });
  });

  it('leaves a fire to be delivered again when its route state cannot be written for now (a full disk), not failed', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { executorRouteStrategy: 'ROUND' });
    env.routeStates.put = async () => {
      throw new StoreUnavailableError('the database cannot take writes: database or disk is full');
    };
    await expect(dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now()))).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    expect(env.transport.sent).toEqual([]);
    expect(env.runs.all().filter((r) => r.triggerCode !== undefined && r.triggerCode !== 200)).toEqual([]);
  });

  it('FAILOVER takes the first executor that answers the beat, and puts the trail in the trigger message', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { executorRouteStrategy: 'FAILOVER' });
    env.transport.dead.add(A);
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now()));
    expect(env.transport.sent.map((s) => s.address)).toEqual([B]);
    expect(env.transport.probes).toEqual([
      { kind: 'beat', address: A },
      { kind: 'beat', address: B },
    ]);
    const msg = env.runs.all()[0]?.triggerMsg ?? '';
    expect(msg).toContain(`beat ${A}: code=500 msg=connect refused`);
    expect(msg).toContain(`beat ${B}: code=200`);
  });

  it('BUSYOVER skips a busy executor; all busy is a failed trigger with the trail', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { executorRouteStrategy: 'BUSYOVER' });
    env.transport.busy.add(A);
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now()));
    expect(env.transport.sent.map((s) => s.address)).toEqual([B]);

    env.transport.busy.add(B);
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now() + 1000));
    const failed = env.runs.all()[1];
    expect(failed).toMatchObject({ triggerCode: 500, executorAddress: '' });
    expect(failed?.triggerMsg).toContain(
      'every executor is busy or failed the idleBeat check in group app-a',
    );
    expect(failed?.triggerMsg).toContain(
      `idleBeat ${B}: code=500 msg=job thread is running or has trigger queue.`,
    );
  });

  it('SHARDING_BROADCAST records one run per executor in the same fire and sends each its shard', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { executorRouteStrategy: 'SHARDING_BROADCAST' });
    env.groups.groups.set(
      'app-a',
      testGroup({ appName: 'app-a', addressType: 'MANUAL', addressList: [A, B, C] }),
    );
    const message = cronFire(env.clock.now());
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, message);
    const [first, second, third] = [0, 1, 2].map((n) => unplannedLogId(1, n));
    expect(env.runs.fires.get(message.dedupKey)?.logIds).toEqual([first, second, third]);
    expect(
      env.transport.sent
        .map((s) => [s.address, s.param.broadcastIndex, s.param.broadcastTotal, s.param.logId])
        .sort((x, y) => Number(x[1]) - Number(y[1])),
    ).toEqual([
      [A, 0, 3, first],
      [B, 1, 3, second],
      [C, 2, 3, third],
    ]);
  });

  it('a RETRY of a broadcast shard re-targets that shard only', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { executorRouteStrategy: 'SHARDING_BROADCAST' });
    env.groups.groups.set(
      'app-a',
      testGroup({ appName: 'app-a', addressType: 'MANUAL', addressList: [A, B, C] }),
    );
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, {
      jobId: 1,
      scheduledTime: env.clock.now(),
      triggerType: 'RETRY',
      dedupKey: 'retry#77',
      retry: { attempt: 2, ofLogId: 77, retriesLeft: 1, shard: { index: 1, total: 3, address: B } },
    });
    expect(
      env.transport.sent.map((s) => [s.address, s.param.broadcastIndex, s.param.broadcastTotal]),
    ).toEqual([[B, 1, 3]]);
    expect(env.runs.all()[0]).toMatchObject({ attempt: 2, retriesLeft: 1, shardIndex: 1, shardTotal: 3 });
  });
});

describe('dispatchFire: failed triggers', () => {
  it('fails the trigger when the group has no online executor, and schedules the retry', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { executorFailRetryCount: 1, retryBackoffSeconds: 10 });
    env.groups.groups.set('app-a', testGroup({ appName: 'app-a', addressType: 'AUTO' }));
    const now = env.clock.now();
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(now));
    const [run] = env.runs.all();
    expect(run).toMatchObject({ triggerCode: 500, executorAddress: '', alarmStatus: 1 });
    expect(run?.triggerMsg).toContain('msg: no online executor in group app-a (none registered within 90 s)');
    expect(env.transport.sent).toEqual([]);
    expect(env.ring.entries).toEqual([
      {
        lane: 'fast',
        delaySeconds: 10,
        message: {
          jobId: 1,
          scheduledTime: now + 10_000,
          triggerType: 'RETRY',
          dedupKey: `retry#${run?.logId}`,
          retry: { attempt: 2, ofLogId: run?.logId, retriesLeft: 0 },
          executorParam: '',
        },
      },
    ]);
    expect(env.reports.deltas).toEqual([{ day: '2030-01-01', delta: { fail: 1 }, appName: 'app-a' }]);
    expect(env.metrics.sum(METRIC.dispatchFailures)).toBe(1);
  });

  it('raises the alarm when an executor refuses the run and no retry is left', async () => {
    const env = memoryDispatchDeps();
    env.transport.replies.set(A, { code: 500, msg: 'job handler [demoJobHandler] not found.' });
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now()));
    const [run] = env.runs.all();
    expect(run).toMatchObject({ triggerCode: 500, executorAddress: A, alarmStatus: 2 });
    expect(run?.triggerMsg).toContain('msg: job handler [demoJobHandler] not found.');
    expect(env.alarms.alarms.map((a) => a.run?.logId)).toEqual([run?.logId]);
    expect(env.ring.entries).toEqual([]);
    // The refusal marked the run outcome-pending; the alarm done, the mark is gone.
    expect(env.runs.outcomePending.size).toBe(0);
  });

  it('leaves a refused run outcome-pending when its alarm cannot be recorded, for the monitors', async () => {
    const env = memoryDispatchDeps();
    env.transport.replies.set(A, { code: 500, msg: 'refused' });
    env.runs.setAlarmStatus = () => Promise.reject(new Error('throttled'));
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now())).catch(() => undefined);
    const [run] = env.runs.all();
    expect(run?.triggerCode).toBe(500);
    expect([...env.runs.outcomePending.keys()]).toEqual([run?.logId]);
  });

  it('names a missing group and an unknown route strategy in the failed trigger', async () => {
    const env = memoryDispatchDeps();
    env.groups.groups.clear();
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now()));
    setJob(env, { executorRouteStrategy: 'NEAREST' });
    env.groups.groups.set('app-a', testGroup({ appName: 'app-a', addressType: 'MANUAL', addressList: [A] }));
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now() + 1000));
    const [missing, unknown] = env.runs.all();
    expect(missing?.triggerMsg).toContain('no online executor in group app-a: the group does not exist');
    expect(unknown?.triggerMsg).toContain('the job\'s route strategy "NEAREST" is not one tickring knows');
  });
});

describe('dispatchFire: slow lane', () => {
  it('moves a job to the slow lane after more than 10 dispatches over 500 ms in one minute', async () => {
    const env = memoryDispatchDeps(Date.UTC(2030, 0, 1, 12, 0, 0, 0));
    env.transport.runTakesMs = 600;
    const start = env.clock.now();
    for (let i = 0; i < 10; i++) await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(start + i * 1000));
    expect(env.jobs.slowMarks).toEqual([]);
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(start + 10_000));
    expect(env.jobs.slowMarks).toEqual([{ id: 1, untilMs: env.clock.now() + 60_000 }]);
    expect(env.logger.lines.some((l) => l.message === 'job moved to the slow lane')).toBe(true);
  });

  it('counts no slow dispatch of a job in the slow lane for more than half of it yet, then renews it', async () => {
    const env = memoryDispatchDeps(Date.UTC(2030, 0, 1, 12, 0, 0, 0));
    env.transport.runTakesMs = 600;
    const start = env.clock.now();
    setJob(env, { slowUntil: start + 55_000 });
    for (let i = 0; i < 12; i++) await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(start + i * 1000));
    expect(env.slowTracker.counts.size).toBe(0);
    expect(env.jobs.slowMarks).toEqual([]);

    // Less than half of the lane's time left: slow dispatches count again, and the mark is renewed.
    setJob(env, { slowUntil: env.clock.now() + 20_000 });
    const later = env.clock.now() + 1000;
    for (let i = 0; i < 11; i++) await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(later + i * 1000));
    expect(env.jobs.slowMarks).toEqual([{ id: 1, untilMs: env.clock.now() + 60_000 }]);
  });

  it('does not count a slow dispatch that left late: the dispatcher was behind, not the executor', async () => {
    const env = memoryDispatchDeps(Date.UTC(2030, 0, 1, 12, 0, 0, 0));
    env.transport.runTakesMs = 600;
    for (let i = 0; i < 12; i++) {
      // Each fire reaches the dispatcher 2 s after its time (within the misfire threshold: sent).
      await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(env.clock.now() - 2000));
      env.clock.current += 400;
    }
    expect(env.runs.all()).toHaveLength(12);
    expect(env.slowTracker.counts.size).toBe(0);
    expect(env.jobs.slowMarks).toEqual([]);
  });

  it('does not count fast dispatches', async () => {
    const env = memoryDispatchDeps();
    env.transport.runTakesMs = 100;
    const start = env.clock.now();
    for (let i = 0; i < 12; i++) await dispatchFire(env.deps, DISPATCH_DEFAULTS, cronFire(start + i * 1000));
    expect(env.slowTracker.counts.size).toBe(0);
    expect(env.jobs.slowMarks).toEqual([]);
  });
});

describe('dispatchFire: jobs of other groups', () => {
  it('uses the job’s own group', async () => {
    const env = memoryDispatchDeps();
    env.jobs.jobs.set(2, testJob({ id: 2, appName: 'app-b' }));
    env.groups.groups.set('app-b', testGroup({ appName: 'app-b', addressType: 'MANUAL', addressList: [C] }));
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, {
      jobId: 2,
      scheduledTime: env.clock.now(),
      triggerType: 'API',
      dedupKey: 'api#2',
    });
    expect(env.transport.sent.map((s) => s.address)).toEqual([C]);
  });
});

describe('dispatchFire: the fire hook', () => {
  it('a plain fire never turns to it: neither for a link nor for an owner', async () => {
    const env = memoryDispatchDeps();
    const asked: string[] = [];
    const fireHook: FireHook = {
      linkedFire: () => {
        asked.push('linkedFire');
        throw new Error('a plain fire has no link');
      },
      ownedJob: () => {
        asked.push('ownedJob');
        throw new Error('a plain job has no owner');
      },
    };
    const outcome = await dispatchFire(
      { ...env.deps, fireHook },
      DISPATCH_DEFAULTS,
      cronFire(env.clock.now()),
    );
    expect(outcome.kind).toBe('dispatched');
    expect(env.transport.sent).toHaveLength(1);
    expect(asked).toEqual([]);
  });
});
