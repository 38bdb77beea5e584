import { makeJob, memoryDispatchDeps, testGroup } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { ForbiddenError, NotFoundError, ValidationError } from '../common/errors.js';
import { silentLogger } from '../common/logger.js';
import type { Job } from '../jobs/job.js';
import { unplannedLogId } from '../runs/run.js';
import { type AdminTriggerDeps, parseManualTrigger, triggerJob } from './admin-trigger.js';
import { dispatchFire } from './dispatch-fire.js';
import type { RingEntry } from './ring-queue.js';
import { DISPATCH_DEFAULTS } from './settings.js';
import type { FireMessage } from './trigger.js';

function fakes(jobs: Job[] = []) {
  const env = memoryDispatchDeps(1_700_000_000_000);
  for (const job of jobs) env.jobs.jobs.set(job.id, job);
  const deps: AdminTriggerDeps = {
    jobs: env.jobs,
    runs: env.runs,
    groups: env.groups,
    registry: env.registry,
    registryDeadSeconds: 90,
    ring: env.ring,
    clock: env.clock,
    logger: silentLogger,
    newId: () => 'uuid-1',
  };
  return { deps, env, enqueued: env.ring.entries };
}

/** Hands the trigger's ring message to a dispatcher, as SQS would (once more for a redelivery). */
const deliver = (env: ReturnType<typeof fakes>['env'], entry: RingEntry | undefined) =>
  dispatchFire(env.deps, DISPATCH_DEFAULTS, entry?.message as FireMessage);

describe('triggerJob', () => {
  it('puts one MANUAL fire for now on the fast ring queue with no delay, under a fresh manual# key, and answers its logId', async () => {
    const { deps, enqueued } = fakes([makeJob({ id: 4, appName: 'app-a' })]);
    const accepted = await triggerJob(deps, 4, undefined);
    const logId = unplannedLogId(4, 0);
    expect(accepted).toEqual({
      jobId: 4,
      dedupKey: 'manual#uuid-1',
      scheduledTime: 1_700_000_000_000,
      logId,
      logIds: [logId],
    });
    expect(enqueued).toEqual([
      {
        lane: 'fast',
        delaySeconds: 0,
        message: {
          jobId: 4,
          scheduledTime: 1_700_000_000_000,
          triggerType: 'MANUAL',
          dedupKey: 'manual#uuid-1',
          logId,
        },
      },
    ]);
  });

  it('answers the logId the run is recorded and sent under, and a redelivery does not send it again', async () => {
    const { deps, env, enqueued } = fakes([makeJob({ id: 4, appName: 'app-a' })]);
    const { logId } = await triggerJob(deps, 4, { executorParam: 'once' });
    expect(await deliver(env, enqueued[0])).toMatchObject({ kind: 'dispatched', runs: [{ logId }] });
    expect(await env.runs.get(logId)).toMatchObject({
      logId,
      jobId: 4,
      triggerType: 'MANUAL',
      executorParam: 'once',
    });
    expect(await deliver(env, enqueued[0])).toMatchObject({ kind: 'duplicate', logIds: [logId] });
    expect(env.transport.sent.map((s) => s.param.logId)).toEqual([logId]);
  });

  it('fixes a broadcast at the trigger: one shard and logId per online executor, sent under those logIds once', async () => {
    const { deps, env, enqueued } = fakes([
      makeJob({ id: 6, appName: 'app-b', executorRouteStrategy: 'SHARDING_BROADCAST' }),
    ]);
    env.groups.groups.set('app-b', testGroup({ appName: 'app-b', addressType: 'AUTO', addressList: [] }));
    const now = env.clock.now();
    for (const address of ['http://10.0.0.3:9999/', 'http://10.0.0.1:9999/', 'http://10.0.0.2:9999/']) {
      await env.registry.heartbeat('app-b', address, now);
    }
    await env.registry.heartbeat('app-b', 'http://10.0.0.9:9999/', now - 91_000); // gone
    const accepted = await triggerJob(deps, 6, {});
    expect(accepted.logIds).toHaveLength(3);
    expect(accepted.logId).toBe(accepted.logIds[0]);
    expect(enqueued[0]?.message.shards).toEqual([
      { logId: accepted.logIds[0], index: 0, total: 3, address: 'http://10.0.0.1:9999/' },
      { logId: accepted.logIds[1], index: 1, total: 3, address: 'http://10.0.0.2:9999/' },
      { logId: accepted.logIds[2], index: 2, total: 3, address: 'http://10.0.0.3:9999/' },
    ]);

    // An executor joining before the fire is dispatched gets no shard of it: the trigger fixed them.
    await env.registry.heartbeat('app-b', 'http://10.0.0.4:9999/', now);
    await deliver(env, enqueued[0]);
    expect(env.transport.sent.map((s) => [s.address, s.param.logId, s.param.broadcastIndex])).toEqual([
      ['http://10.0.0.1:9999/', accepted.logIds[0], 0],
      ['http://10.0.0.2:9999/', accepted.logIds[1], 1],
      ['http://10.0.0.3:9999/', accepted.logIds[2], 2],
    ]);
    // Another dispatcher receiving the same message (SQS at-least-once) sends nothing: not "its own" runs.
    expect(await deliver(env, enqueued[0])).toMatchObject({ kind: 'duplicate', logIds: accepted.logIds });
    expect(env.transport.sent).toHaveLength(3);
  });

  it("sends a broadcast to the trigger's own address list when it has one", async () => {
    const { deps, enqueued } = fakes([
      makeJob({ id: 6, appName: 'app-a', executorRouteStrategy: 'SHARDING_BROADCAST' }),
    ]);
    const accepted = await triggerJob(deps, 6, { addressList: 'http://10.0.0.7:9999,http://10.0.0.8:9999' });
    expect(enqueued[0]?.message.shards?.map((s) => [s.logId, s.address, s.total])).toEqual([
      [accepted.logIds[0], 'http://10.0.0.7:9999/', 2],
      [accepted.logIds[1], 'http://10.0.0.8:9999/', 2],
    ]);
  });

  it('records a broadcast with no executor online as one failed run under the answered logId', async () => {
    const { deps, env, enqueued } = fakes([
      makeJob({ id: 6, appName: 'app-c', executorRouteStrategy: 'SHARDING_BROADCAST' }),
    ]);
    env.groups.groups.set('app-c', testGroup({ appName: 'app-c', addressType: 'AUTO', addressList: [] }));
    const accepted = await triggerJob(deps, 6, {});
    expect(accepted.logIds).toEqual([accepted.logId]);
    await deliver(env, enqueued[0]);
    expect(await env.runs.get(accepted.logId)).toMatchObject({ triggerCode: 500 });
    expect(env.transport.sent).toEqual([]);
  });

  it("lets only an admin send a run outside the job's group: it carries the group's access token", async () => {
    const { deps, enqueued } = fakes([makeJob({ id: 4, appName: 'app-a' })]);
    const notAdmin = { anyAddress: false };
    await expect(
      triggerJob(deps, 4, { addressList: 'http://10.0.0.1:9999,http://evil.example:80' }, notAdmin),
    ).rejects.toThrow(
      new ForbiddenError(
        'addressList may only name executors of group app-a (only an admin may send a run elsewhere); not in it: http://evil.example:80/',
      ),
    );
    expect(enqueued).toEqual([]);
    await triggerJob(deps, 4, { addressList: ['http://10.0.0.2:9999'] }, notAdmin);
    await triggerJob(deps, 4, { addressList: ['http://evil.example'] }, { anyAddress: true });
    expect(enqueued.map((e) => e.message.addressList)).toEqual([
      ['http://10.0.0.2:9999/'],
      ['http://evil.example/'],
    ]);
  });

  it('carries the overrides for this run only', async () => {
    const { deps, enqueued } = fakes([makeJob({ id: 4, executorParam: 'job param' })]);
    await triggerJob(deps, 4, { executorParam: 'once', addressList: ['http://10.0.0.1:9999'] });
    expect(enqueued[0]?.message).toMatchObject({
      executorParam: 'once',
      addressList: ['http://10.0.0.1:9999/'],
    });
  });

  it('fires a stopped job and a NONE schedule (XXL-JOB allows it)', async () => {
    const { deps, enqueued } = fakes([
      makeJob({ id: 5, triggerStatus: 'STOPPED', scheduleType: 'NONE', scheduleConf: '' }),
    ]);
    await triggerJob(deps, 5, {});
    expect(enqueued).toHaveLength(1);
  });

  it('answers NotFoundError for a job that does not exist, enqueuing nothing', async () => {
    const { deps, enqueued } = fakes();
    await expect(triggerJob(deps, 99, {})).rejects.toBeInstanceOf(NotFoundError);
    expect(enqueued).toEqual([]);
  });

  it('uses a new key and logId for every trigger by default', async () => {
    const { deps, enqueued } = fakes([makeJob({ id: 4 })]);
    const { newId: _fixed, ...withRandomIds } = deps;
    const a = await triggerJob(withRandomIds, 4, {});
    const b = await triggerJob(withRandomIds, 4, {});
    expect(a.dedupKey).toMatch(/^manual#[0-9a-f-]{36}$/);
    expect(a.dedupKey).not.toBe(b.dedupKey);
    expect(a.logId).not.toBe(b.logId);
    expect(enqueued).toHaveLength(2);
  });
});

describe('parseManualTrigger', () => {
  it('takes an empty body, {} and nulls as a plain trigger', () => {
    expect(parseManualTrigger(undefined)).toEqual({});
    expect(parseManualTrigger({})).toEqual({});
    expect(parseManualTrigger({ executorParam: null, addressList: null })).toEqual({});
  });

  it('keeps an empty executorParam as an override, and drops an empty address list', () => {
    expect(parseManualTrigger({ executorParam: '', addressList: [] })).toEqual({ executorParam: '' });
  });

  it('accepts http(s) and lambda: addresses, as an array or XXL-JOB’s comma-separated string', () => {
    expect(
      parseManualTrigger({
        addressList: 'http://10.0.0.1:9999/, https://exec.example.com ,lambda:executor-runner,',
      }),
    ).toEqual({
      addressList: ['http://10.0.0.1:9999/', 'https://exec.example.com/', 'lambda:executor-runner'],
    });
    expect(
      parseManualTrigger({
        addressList: ['lambda:arn:aws:lambda:us-east-1:123456789012:function:runner:live', 'http://a:1'],
      }).addressList,
    ).toEqual(['lambda:arn:aws:lambda:us-east-1:123456789012:function:runner:live', 'http://a:1/']);
  });

  it('drops duplicate addresses', () => {
    expect(parseManualTrigger({ addressList: ['http://a:1', 'http://a:1/'] }).addressList).toEqual([
      'http://a:1/',
    ]);
  });

  it.each([
    ['a body that is not an object', [1], 'body'],
    ['a string body', 'x', 'body'],
    ['an unknown field', { executorParams: 'x' }, 'executorParams'],
    ['an executorParam over 2048 characters', { executorParam: 'p'.repeat(2049) }, 'executorParam'],
    ['a numeric executorParam', { executorParam: 3 }, 'executorParam'],
    ['a tcp address', { addressList: ['tcp://10.0.0.1:9999'] }, 'addressList'],
    ['a bare host', { addressList: ['10.0.0.1:9999'] }, 'addressList'],
    ['an empty lambda name', { addressList: ['lambda:'] }, 'addressList'],
    ['a lambda name with spaces', { addressList: ['lambda:my fn'] }, 'addressList'],
    ['a non-string entry', { addressList: [42] }, 'addressList'],
    ['an object for addressList', { addressList: { a: 1 } }, 'addressList'],
    [
      'more than 100 addresses',
      { addressList: Array.from({ length: 101 }, (_, i) => `http://h${i}:1`) },
      'addressList',
    ],
  ])('refuses %s, naming %s', (_label, body, field) => {
    let error: unknown;
    try {
      parseManualTrigger(body);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field });
    expect((error as Error).message).toContain(field === 'body' ? 'body' : field);
  });

  it('accepts an executorParam of exactly 2048 characters', () => {
    expect(parseManualTrigger({ executorParam: 'p'.repeat(2048) }).executorParam).toHaveLength(2048);
  });
});
