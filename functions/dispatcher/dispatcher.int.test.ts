import { randomUUID } from 'node:crypto';
import { DynamoReportStore } from '@tickring/aws/dynamodb';
import { createExecutorTransport } from '@tickring/aws/lambda';
import { FUNCTIONS } from '@tickring/aws/topology';
import { silentLogger } from '@tickring/core/common';
import { ENV } from '@tickring/core/config';
import { type FireMessage, handedOffFires, scheduledDedupKey } from '@tickring/core/dispatch';
import type { ExecutorTarget, ExecutorTransport } from '@tickring/core/executors';
import type { Job } from '@tickring/core/jobs';
import { dayOf, firstPlannedLogId, type Run, runStatus, TRIGGER_CODE } from '@tickring/core/runs';
import type { JobContext } from '@tickring/executor';
import type { TriggerParam } from '@tickring/protocol';
import { testRun } from '@tickring/testing';
import type { Context, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionEnv } from '../../local/function-env.js';
import { type DispatchStack, startDispatchStack } from '../../test/dispatch-stack.js';
import { FakeExecutor } from '../../test/fake-executor.js';
import { waitFor } from '../../test/stand-ins.js';
import { loadConfig } from './config.js';
import { createHandler } from './handler.js';

/**
 * The dispatcher end to end on the local stack: fires go through the SQS ring queue to the real
 * handler (via the stack's SQS poller), to real executors (the SDK's and a minimal Java-like one),
 * and results come back through the real callback function.
 */
let env: DispatchStack;
const fakes: FakeExecutor[] = [];

async function fake(): Promise<FakeExecutor> {
  const executor = await FakeExecutor.start({
    accessToken: env.stack.tokens.accessToken,
    adminAddress: env.stack.urls.api,
  });
  fakes.push(executor);
  return executor;
}

/** An address nobody listens on. */
async function deadAddress(): Promise<string> {
  const executor = await FakeExecutor.start();
  const address = executor.address;
  await executor.stop();
  return address;
}

beforeAll(async () => {
  env = await startDispatchStack();
});

/** The env the stack gives its dispatcher, for handlers a test builds itself. */
function dispatcherEnv(): Record<string, string> {
  return functionEnv({
    region: 'us-east-1',
    endpoints: { dynamodb: env.stack.urls.dynamodb, sqs: env.stack.urls.sqs, lambda: env.stack.urls.api },
    resources: env.stack.resources,
    adminToken: 'unused',
    accessToken: env.stack.tokens.accessToken,
    tokenKey: env.stack.tokens.tokenKey,
    adminBaseUrl: env.stack.urls.api,
  });
}

afterAll(async () => {
  await Promise.allSettled(fakes.map((f) => f.stop()));
  await env?.stop();
});

describe('dispatcher: once and only once', () => {
  it('runs a fire that SQS delivers three times once', async () => {
    const appName = `once-${randomUUID().slice(0, 6)}`;
    const seen: number[] = [];
    const executor = await env.startSdkExecutor(appName, {
      countingJob: (ctx: JobContext) => {
        seen.push(ctx.logId);
      },
    });
    await env.waitForRegistered(appName, [executor.address]);
    const job = await env.createJob({ appName, executorHandler: 'countingJob' });
    const message = env.manualFire(job.id, 1_000);
    await Promise.all([env.send(message), env.send(message), env.send(message)]);

    const [run] = await env.waitForRuns(job.id, 1, (r) => r.handleCode === 200);
    await waitFor(async () => (await env.ringBacklog()) === 0, { what: 'all three deliveries processed' });
    expect(await env.runsOf(job.id)).toHaveLength(1);
    expect(seen).toEqual([run?.logId]);
    expect(run).toMatchObject({
      triggerCode: 200,
      executorAddress: executor.address,
      dedupKey: message.dedupKey,
    });
    expect(run?.logId).toBeGreaterThan(0);
    expect(Number.isSafeInteger(run?.logId)).toBe(true);
  });
});

describe('dispatcher: a dispatcher that died after recording the fire', () => {
  it('is taken over by the redelivery once its claim is stale (older than the dispatcher timeout and a margin)', async () => {
    const executor = await fake();
    const job = await env.createJob({}, { addressType: 'MANUAL', addressList: [executor.address] });
    const stale = env.manualFire(job.id, -40_000);
    const fresh = env.manualFire(job.id, -1_000);
    const [staleId = 0, freshId = 0] = await env.runs.allocateLogIds(job.id, 2);
    for (const [message, logId] of [
      [stale, staleId],
      [fresh, freshId],
    ] as const) {
      // Recorded as sent to the executor, but the dispatcher died before sending: nothing lists it as sent.
      const run = testRun({
        logId,
        jobId: job.id,
        appName: job.appName,
        dedupKey: message.dedupKey,
        scheduledTime: message.scheduledTime,
        triggerTime: message.scheduledTime,
        executorAddress: executor.address,
        triggerCode: 200,
      });
      const claim = env.runs.newClaimToken(message.scheduledTime);
      expect(await env.runs.createFire(message.dedupKey, [run], claim)).toEqual({ created: true });
    }
    await env.send(fresh); // claimed 1 s ago: a live dispatcher may still be sending it
    await env.send(stale);

    await waitFor(() => executor.runs.length > 0, { what: 'the stale run dispatched' });
    await waitFor(async () => (await env.ringBacklog()) === 0, { what: 'both deliveries processed' });
    expect(executor.runs.map((r) => [r.logId, r.logDateTime])).toEqual([[staleId, stale.scheduledTime]]);
    // The take-over claimed it anew and recorded it as sent under that claim.
    const [taken] = await env.runs.getMany([staleId]);
    expect(await env.runs.dispatchedUnder(taken?.claimToken ?? '')).toEqual(new Set([staleId]));
  });
});

describe('dispatcher: late and out-of-order fires (misfire policy)', () => {
  /** A scheduled (CRON) fire of the job in slot `slot` of its planned range, as the tick plans it. */
  const cronFire = (job: Job, slot: number, scheduledTime: number): FireMessage => ({
    jobId: job.id,
    logId: firstPlannedLogId(job.id) + slot,
    scheduledTime,
    triggerType: 'CRON',
    dedupKey: scheduledDedupKey(job.id, scheduledTime),
    scheduleRevision: job.scheduleRevision,
  });
  /** A run claimed under `claimToken`, to be sent to `address`, as the dispatcher puts it. */
  const claimed = (job: Job, logId: number, scheduledTime: number, extra: Partial<Run> = {}) =>
    testRun({
      logId,
      jobId: job.id,
      appName: job.appName,
      dedupKey: scheduledDedupKey(job.id, scheduledTime),
      scheduledTime,
      triggerType: 'CRON',
      executorAddress: 'http://127.0.0.1:1/',
      triggerCode: 200,
      dispatchedAt: scheduledTime,
      ...extra,
    });

  it('laterPlannedRun: the next claimed run above a logId in the job’s planned range, from one query', async () => {
    const job = await env.createJob();
    const base = firstPlannedLogId(job.id);
    const t = Date.now();
    const token = env.runs.newClaimToken(t);
    await env.runs.claim(claimed(job, base, t), token);
    await env.runs.claim(claimed(job, base + 40, t + 2000), token); // a later plan's block
    const [unplanned = 0] = await env.runs.allocateLogIds(job.id, 1);
    await env.runs.claim(claimed(job, unplanned, t + 5000, { triggerType: 'MANUAL' }), token);

    expect(await env.runs.laterPlannedRun(base)).toEqual({ logId: base + 40, scheduledTime: t + 2000 });
    expect(await env.runs.laterPlannedRun(base + 1)).toEqual({ logId: base + 40, scheduledTime: t + 2000 });
    // Unplanned runs (manual, retries) are no place in the schedule: not seen.
    expect(await env.runs.laterPlannedRun(base + 40)).toBeUndefined();
    const other = await env.createJob();
    expect(await env.runs.laterPlannedRun(firstPlannedLogId(other.id))).toBeUndefined();
  });

  it('skipClaimed: rewrites our own unsent claim, or takes over a stale one, as skipped; never another’s or a finished run', async () => {
    const job = await env.createJob();
    const base = firstPlannedLogId(job.id);
    const t = Date.now();
    const [ours, theirs] = [env.runs.newClaimToken(t), env.runs.newClaimToken(t + 1)];
    await env.runs.claim(claimed(job, base, t, { triggerTime: t }), theirs);
    const skip = { claimToken: ours, triggerMsg: 'Skipped, never sent: late', nowMs: t + 30_000 };

    expect(await env.runs.skipClaimed(base, skip)).toBe(false); // not our claim
    const takeOver = { previousToken: theirs, staleBeforeMs: t };
    expect(await env.runs.skipClaimed(base, { ...skip, takeOver })).toBe(false); // not stale yet
    expect(
      await env.runs.skipClaimed(base, { ...skip, takeOver: { ...takeOver, staleBeforeMs: t + 1 } }),
    ).toBe(true);
    const [skipped] = await env.runs.getMany([base]);
    expect(skipped).toMatchObject({
      triggerCode: TRIGGER_CODE.skipped,
      triggerMsg: 'Skipped, never sent: late',
      executorAddress: '',
      dispatchedAt: 0,
      handleCode: 0,
      claimToken: ours,
      claimAt: t + 30_000,
    });
    expect(skipped && runStatus(skipped)).toBe('skipped');
    expect(await env.runs.skipClaimed(base, skip)).toBe(false); // skipped already

    // Our own claim: recorded to be sent, or refused for want of an executor (its outcome mark goes).
    await env.runs.claim(claimed(job, base + 1, t + 1000), ours);
    await env.runs.claim(claimed(job, base + 2, t + 2000, { triggerCode: 500, executorAddress: '' }), ours);
    expect(await env.runs.skipClaimed(base + 1, skip)).toBe(true);
    expect(await env.runs.skipClaimed(base + 2, skip)).toBe(true);
    const pending = await env.runs.findOutcomePending(t + 10 * 60_000, 100);
    expect(pending.map((r) => r.logId)).not.toContain(base + 2);
    // A run with a result is never skipped.
    await env.runs.claim(claimed(job, base + 3, t + 3000), ours);
    await env.runs.complete(base + 3, { handleCode: 200, handleMsg: '', handleTime: t + 4000 });
    expect(await env.runs.skipClaimed(base + 3, skip)).toBe(false);
    expect((await env.runs.get(base + 3))?.triggerCode).toBe(200);
  });

  it('takeCatchUp: one catch-up per job for the fires missed before it; the same fire may take it again', async () => {
    const [job, other] = [await env.createJob(), await env.createJob()];
    const take = (jobId: number, missedTime: number, nowMs: number, fireKey: string) =>
      env.runs.takeCatchUp(jobId, { missedTime, nowMs, fireKey });
    expect(await take(job.id, 1_000, 60_000, 'a')).toBe(true);
    expect(await take(job.id, 2_000, 61_000, 'b')).toBe(false); // missed before the catch-up at 60 s
    expect(await take(job.id, 1_000, 90_000, 'a')).toBe(true); // its take-over after a crash
    expect(await take(other.id, 2_000, 61_000, 'b')).toBe(true); // each job has its own
    expect(await take(job.id, 95_000, 100_000, 'c')).toBe(true); // missed after the last catch-up
    expect(await take(job.id, 92_000, 101_000, 'b')).toBe(false);
  });

  it('records a fire that arrives after a later fire of its job was claimed as skipped, and never sends it', async () => {
    const executor = await fake();
    const job = await env.createJob({}, { addressType: 'MANUAL', addressList: [executor.address] });
    const base = firstPlannedLogId(job.id);
    const due = Date.now() + 3_000;
    const later = cronFire(job, 1, due);
    const earlier = cronFire(job, 0, due - 1_000);
    await env.send(later);
    await waitFor(async () => (await env.runs.get(base + 1)) !== undefined, {
      what: 'the later fire claimed',
    });
    await env.send(earlier);

    // Its claim records it as to be sent (200) for a moment before the order check rewrites it: wait
    // for an end state, skipped or sent.
    const skipped = await waitFor(
      async () => {
        const run = await env.runs.get(base);
        const sent = executor.runs.some((r) => r.logId === base);
        return run && (run.triggerCode === TRIGGER_CODE.skipped || sent) ? run : undefined;
      },
      { what: 'the earlier fire skipped or sent' },
    );
    await waitFor(async () => (await env.ringBacklog()) === 0, { what: 'both fires processed' });
    expect(skipped).toMatchObject({
      triggerCode: TRIGGER_CODE.skipped,
      scheduledTime: earlier.scheduledTime,
    });
    expect(skipped.triggerMsg).toContain(
      `overtaken by the fire due at ${new Date(due).toISOString()}, claimed before it`,
    );
    await waitFor(() => executor.runs.length > 0, { what: 'the later fire sent' });
    expect(executor.runs.map((r) => [r.logId, r.logDateTime])).toEqual([[base + 1, due]]);
    // Listed with the job's runs, as skipped.
    const page = await env.runs.list({ jobId: job.id, status: 'skipped', limit: 10 });
    expect(page.items.map((r) => r.logId)).toEqual([base]);
    // Counted in the daily report counters of its trigger day and group, as skipped only.
    const reports = new DynamoReportStore({
      doc: env.stack.clients.doc,
      controlTable: env.stack.resources.tables.control,
    });
    const day = dayOf(skipped.triggerTime);
    const [counted] = await waitFor(
      async () => {
        const range = await reports.range(day, day, [job.appName]);
        return range[0]?.skipped === 1 ? range : undefined;
      },
      { what: 'the skipped fire counted' },
    );
    expect(counted).toMatchObject({ day, skipped: 1 });
    // The sent fire counts as running, then as finished; the skipped one as neither.
    const sent = await env.runs.get(base + 1);
    if (sent && dayOf(sent.triggerTime) === day) {
      await waitFor(
        async () => {
          const [r] = await reports.range(day, day, [job.appName]);
          return r && r.running + r.success + r.fail === 1 ? r : undefined;
        },
        { what: 'the sent fire counted once' },
      );
    }
  });
});

describe('dispatcher: routing over real executors', () => {
  it('SHARDING_BROADCAST over 3 executors gives 3 runs with shard indexes 0..2', async () => {
    const appName = `shard-${randomUUID().slice(0, 6)}`;
    const shards: { index: number; total: number; port: number }[] = [];
    const started = await Promise.all(
      [0, 1, 2].map(async () => {
        let port = 0;
        const executor = await env.startSdkExecutor(appName, {
          shardJob: (ctx: JobContext) => {
            shards.push({ index: ctx.shardIndex, total: ctx.shardTotal, port });
          },
        });
        port = executor.port;
        return executor;
      }),
    );
    const addresses = started.map((e) => e.address).sort();
    await env.waitForRegistered(appName, addresses);
    const job = await env.createJob({
      appName,
      executorHandler: 'shardJob',
      executorRouteStrategy: 'SHARDING_BROADCAST',
    });
    await env.send(env.manualFire(job.id));

    const runs = await env.waitForRuns(job.id, 3, (r) => r.handleCode === 200);
    expect(runs.map((r) => [r.shardIndex, r.shardTotal, r.executorAddress])).toEqual(
      addresses.map((address, index) => [index, 3, address]),
    );
    expect(new Set(runs.map((r) => r.dedupKey)).size).toBe(1);
    // Each executor ran its own shard (the sorted registry order decides the index).
    expect(shards.sort((a, b) => a.index - b.index)).toEqual(
      addresses.map((address, index) => ({ index, total: 3, port: Number(new URL(address).port) })),
    );
  });

  it('FAILOVER skips an executor that does not answer the beat', async () => {
    const dead = await deadAddress();
    const alive = await fake();
    const job = await env.createJob(
      { executorRouteStrategy: 'FAILOVER' },
      { addressType: 'MANUAL', addressList: [dead, alive.address] },
    );
    await env.send(env.manualFire(job.id));
    const [run] = await env.waitForRuns(job.id, 1, (r) => r.handleCode === 200);
    expect(run?.executorAddress).toBe(alive.address);
    expect(run?.triggerMsg).toContain(`beat ${dead}: code=500`);
    expect(run?.triggerMsg).toContain(`beat ${alive.address}: code=200`);
    expect(alive.count('/beat')).toBe(1);
    expect(alive.runs.map((r) => r.logId)).toEqual([run?.logId]);
  });

  it('BUSYOVER skips an executor whose job thread is busy', async () => {
    const busy = await fake();
    busy.busy = true;
    const idle = await fake();
    const job = await env.createJob(
      { executorRouteStrategy: 'BUSYOVER' },
      { addressType: 'MANUAL', addressList: [busy.address, idle.address] },
    );
    await env.send(env.manualFire(job.id));
    const [run] = await env.waitForRuns(job.id, 1);
    expect(run).toMatchObject({ triggerCode: 200, executorAddress: idle.address });
    expect(run?.triggerMsg).toContain(
      `idleBeat ${busy.address}: code=500 msg=job thread is running or has trigger queue.`,
    );
    expect(busy.requests.find((r) => r.path === '/idleBeat')?.body).toEqual({ jobId: job.id });
    expect(busy.runs).toEqual([]);
    expect(idle.runs).toHaveLength(1);
  });

  it('ROUND rotates across consecutive fires, with the counter stored between them', async () => {
    const executors = await Promise.all([fake(), fake(), fake()]);
    const list = executors.map((e) => e.address).sort();
    const job = await env.createJob(
      { executorRouteStrategy: 'ROUND' },
      { addressType: 'MANUAL', addressList: list },
    );
    const picked: string[] = [];
    for (let i = 1; i <= 6; i++) {
      await env.send(env.manualFire(job.id, 300));
      const runs = await env.waitForRuns(job.id, i);
      picked.push(runs[i - 1]?.executorAddress ?? '');
    }
    const start = list.indexOf(picked[0] ?? '');
    expect(start).toBeGreaterThanOrEqual(0);
    expect(picked).toEqual([0, 1, 2, 3, 4, 5].map((i) => list[(start + i) % 3]));
  });

  it('sends every TriggerParam field, with the token, at the scheduled millisecond', async () => {
    const executor = await fake();
    const job = await env.createJob(
      { executorParam: 'a=1', executorTimeout: 9, executorBlockStrategy: 'COVER_EARLY', glueUpdatetime: 5 },
      { addressType: 'MANUAL', addressList: [executor.address.replace(/\/$/, '')] }, // registered without the "/"
    );
    // How long a conditional write to DynamoDB Local takes now (the claim is one, 250 ms before the
    // fire's millisecond): on a busy machine it alone can make the send late.
    let slowestWriteMs = 0;
    for (let i = 0; i < 3; i++) {
      const t0 = Date.now();
      await env.jobs.allocateId();
      slowestWriteMs = Math.max(slowestWriteMs, Date.now() - t0);
    }
    const message = env.manualFire(job.id, 1_200);
    await env.send(message);
    const [run] = await env.waitForRuns(job.id, 1);
    const request = executor.requests.find((r) => r.path === '/run');
    expect(request?.headers['xxl-job-access-token']).toBe(env.stack.tokens.accessToken);
    expect(request?.headers['content-type']).toBe('application/json;charset=UTF-8');
    expect(request?.body).toStrictEqual({
      jobId: job.id,
      executorHandler: 'demoJobHandler',
      executorParams: 'a=1',
      executorBlockStrategy: 'COVER_EARLY',
      executorTimeout: 9,
      logId: run?.logId,
      logDateTime: message.scheduledTime,
      glueType: 'BEAN',
      glueSource: '',
      glueUpdatetime: 5,
      broadcastIndex: 0,
      broadcastTotal: 1,
    });
    // Never early; late by the HTTP hop and the timer (SQS handed it over ~1.2 s early), and by a
    // claim that took longer than its lead (once 542 ms late beside the whole test suite, load ~8).
    const lateness = (request?.at ?? 0) - message.scheduledTime;
    expect(lateness).toBeGreaterThanOrEqual(0);
    expect(lateness).toBeLessThan(500 + 2 * slowestWriteMs);
    expect(run?.scheduledTime).toBe(message.scheduledTime);
  });
});

describe('dispatcher: slow lane', () => {
  it('moves a job whose dispatches take over 500 ms more than 10 times in a minute to the slow lane', async () => {
    const executor = await fake();
    executor.runReply = 'slow';
    executor.slowMs = 600;
    const job = await env.createJob({}, { addressType: 'MANUAL', addressList: [executor.address] });
    // 22 slow dispatches: however a minute boundary splits them, one minute gets more than 10. Due 3 s
    // out and 150 ms apart, so that each claim is done before its time even on a busy DynamoDB Local
    // (22 claims at once could take over a second there): a send that left more than a second late
    // would not count (the dispatcher behind, not the executor).
    for (let i = 0; i < 22; i++) {
      await env.send(env.manualFire(job.id, 3_000));
      await new Promise((r) => setTimeout(r, 150));
    }
    await env.waitForRuns(job.id, 22, (r) => r.triggerCode !== 0);
    // The flag is written after the dispatch that crossed the line finished.
    const moved = await waitFor(
      async () => {
        const current = await env.jobs.get(job.id);
        return current && current.slowUntil > 0 ? current : undefined;
      },
      { what: 'the slow-lane flag', timeoutMs: 30_000 },
    );
    expect(moved?.slowUntil).toBeGreaterThan(Date.now());
    expect(moved?.slowUntil).toBeLessThanOrEqual(Date.now() + 60_000);
  });
});

describe('dispatcher: Lambda executors', () => {
  it('invokes lambda:executor-runner through the local Lambda endpoint, and the runner calls back', async () => {
    const job = await env.createJob(
      { executorHandler: 'demoJobHandler', executorParam: 'from-lambda' },
      { addressType: 'MANUAL', addressList: ['lambda:executor-runner'] },
    );
    await env.send(env.manualFire(job.id));
    const [run] = await env.waitForRuns(job.id, 1, (r) => r.handleCode !== 0);
    expect(run).toMatchObject({
      triggerCode: 200,
      executorAddress: 'lambda:executor-runner',
      handleCode: 200,
    });
    expect(run?.triggerMsg).toContain('address: lambda:executor-runner');
  });

  it('fails the trigger for a Lambda function that does not exist', async () => {
    const job = await env.createJob({}, { addressType: 'MANUAL', addressList: ['lambda:no-such-function'] });
    await env.send(env.manualFire(job.id));
    // The claim writes the run as sent (200) before the refusal rewrites it: wait for the rewrite.
    const [run] = await env.waitForRuns(job.id, 1, (r) => r.triggerCode !== 200);
    expect(run?.triggerCode).toBe(500);
    expect(run?.triggerMsg).toContain('ResourceNotFoundException');
  });
});

describe('dispatcher: failed triggers', () => {
  it('an executor answering HTTP 500 fails the trigger and the retry is scheduled as a RETRY fire', async () => {
    const executor = await fake();
    executor.runReply = 'http-500';
    const job = await env.createJob(
      { executorFailRetryCount: 1, retryBackoffSeconds: 1 },
      { addressType: 'MANUAL', addressList: [executor.address] },
    );
    await env.send(env.manualFire(job.id));
    const [first, retry] = await env.waitForRuns(
      job.id,
      2,
      (r) => r.triggerCode !== 0 && r.alarmStatus !== 0,
    );
    expect(first).toMatchObject({
      triggerType: 'MANUAL',
      triggerCode: 500,
      attempt: 1,
      retriesLeft: 1,
      alarmStatus: 1,
    });
    expect(first?.triggerMsg).toContain('StatusCode(500) invalid');
    expect(retry).toMatchObject({
      triggerType: 'RETRY',
      dedupKey: `retry#${first?.logId}`,
      triggerCode: 500,
      attempt: 2,
      retriesLeft: 0,
      alarmStatus: 2, // the last try failed: alarm sent (SNS topic on the stand-in)
    });
    expect((retry?.scheduledTime ?? 0) - (first?.dispatchedAt ?? 0)).toBeGreaterThanOrEqual(1_000);
    expect(executor.runs).toHaveLength(2);
  });

  it('an executor answering code 500 fails the trigger and, with no retry left, raises the alarm', async () => {
    const executor = await fake();
    executor.runReply = 'refuse';
    const job = await env.createJob({}, { addressType: 'MANUAL', addressList: [executor.address] });
    await env.send(env.manualFire(job.id));
    const [run] = await env.waitForRuns(job.id, 1, (r) => r.alarmStatus !== 0);
    expect(run).toMatchObject({
      triggerCode: 500,
      executorAddress: executor.address,
      alarmStatus: 2,
      handleCode: 0,
    });
    expect(run?.triggerMsg).toContain('msg: job handler [demoJobHandler] not found.');
  });

  it('a group with no online executor fails the trigger, naming the group', async () => {
    const appName = `empty-${randomUUID().slice(0, 6)}`;
    // Seen, but longer ago than the registry dead timeout.
    await env.registry.heartbeat(appName, 'http://127.0.0.1:1/', Date.now() - 60_000);
    const job = await env.createJob({ appName });
    await env.send(env.manualFire(job.id));
    const [run] = await env.waitForRuns(job.id, 1);
    expect(run).toMatchObject({ triggerCode: 500, executorAddress: '' });
    expect(run?.triggerMsg).toContain(`msg: no online executor in group ${appName}`);
  });
});

describe('dispatcher handler: records that carry several fires', () => {
  it('runs each fire of a record SQS delivers three times once', async () => {
    const executor = await fake();
    const group = { addressType: 'MANUAL' as const, addressList: [executor.address] };
    const jobs = [await env.createJob({}, group), await env.createJob({}, group)];
    const fires = jobs.map((job) => env.manualFire(job.id, 1_000));
    const body = JSON.stringify(fires);
    await Promise.all([
      env.send(fires[0] as FireMessage, body),
      env.send(fires[0] as FireMessage, body),
      env.send(fires[0] as FireMessage, body),
    ]);

    for (const job of jobs) await env.waitForRuns(job.id, 1, (r) => r.triggerCode === 200);
    await waitFor(async () => (await env.ringBacklog()) === 0, { what: 'all three deliveries processed' });
    for (const job of jobs) expect(await env.runsOf(job.id)).toHaveLength(1);
    expect(executor.runs.map((r) => r.jobId).sort()).toEqual(jobs.map((j) => j.id).sort());
  });

  it('reports a record one of whose fires failed, and its redelivery sends only what was not sent', async () => {
    const executor = await fake();
    const group = { addressType: 'MANUAL' as const, addressList: [executor.address] };
    const [lucky, unlucky] = [await env.createJob({}, group), await env.createJob({}, group)] as [Job, Job];
    const config = { ...loadConfig(dispatcherEnv()), claimStaleMs: 1_000 };
    const real = createExecutorTransport({
      accessToken: async () => env.stack.tokens.accessToken,
      timeoutMs: 3_000,
      lambda: env.stack.clients.lambda,
    });
    let failUnlucky = true;
    const transport: ExecutorTransport = Object.assign(Object.create(real) as ExecutorTransport, {
      run: (target: ExecutorTarget, param: TriggerParam) => {
        if (failUnlucky && param.jobId === unlucky.id) return Promise.reject(new Error('connection reset'));
        return real.run(target, param);
      },
    });
    const handler = createHandler(config, {
      clients: env.stack.clients,
      logger: silentLogger,
      metrics: { add() {}, flush() {} },
      transport,
    });
    const fires = [env.manualFire(lucky.id, 0), env.manualFire(unlucky.id, 0)];
    const event: SQSEvent = {
      Records: [
        {
          messageId: 'two-fires',
          body: JSON.stringify(fires),
          eventSourceARN: env.stack.resources.queues.ringFast.arn,
        } as SQSEvent['Records'][number],
      ],
    };

    expect(await handler(event, lambdaContext('first'))).toEqual({
      batchItemFailures: [{ itemIdentifier: 'two-fires' }],
    });
    expect(executor.runs.map((r) => r.jobId)).toEqual([lucky.id]);

    // The redelivery comes after the visibility timeout, when the failed fire's claim is stale.
    failUnlucky = false;
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await handler(event, lambdaContext('second'))).toEqual({ batchItemFailures: [] });
    expect(executor.runs.map((r) => r.jobId).sort()).toEqual([lucky.id, unlucky.id].sort());
    expect(await env.runsOf(lucky.id)).toHaveLength(1);
    expect(await env.runsOf(unlucky.id)).toHaveLength(1);
  });
});

describe('dispatcher handler: fires handed to it directly', () => {
  const handlerFor = (config = loadConfig(dispatcherEnv())) =>
    createHandler(config, {
      clients: env.stack.clients,
      logger: silentLogger,
      metrics: { add() {}, flush() {} },
    });

  it('dispatches a handed-off fire at once, and a copy of it from the ring is a duplicate', async () => {
    const executor = await fake();
    const job = await env.createJob({}, { addressType: 'MANUAL', addressList: [executor.address] });
    const fire = env.manualFire(job.id, 0);
    const handler = handlerFor();

    expect(await handler(handedOffFires([fire]), lambdaContext('hand-off'))).toEqual({
      batchItemFailures: [],
    });
    expect(executor.runs.map((r) => r.jobId)).toEqual([job.id]);

    const copy: SQSEvent = {
      Records: [
        {
          messageId: 'ring-copy',
          body: JSON.stringify([fire]),
          eventSourceARN: env.stack.resources.queues.ringFast.arn,
        } as SQSEvent['Records'][number],
      ],
    };
    expect(await handler(copy, lambdaContext('ring-copy'))).toEqual({ batchItemFailures: [] });
    expect(executor.runs.map((r) => r.jobId)).toEqual([job.id]);
    expect(await env.runsOf(job.id)).toHaveLength(1);
  });

  it('puts a handed-off fire it could not dispatch on the ring, where a dispatcher runs it', async () => {
    const executor = await fake();
    const job = await env.createJob({}, { addressType: 'MANUAL', addressList: [executor.address] });
    const broken = handlerFor(loadConfig({ ...dispatcherEnv(), [ENV.jobsTable]: 'no-such-table' }));

    await broken(handedOffFires([env.manualFire(job.id, 0)]), lambdaContext('hand-off'));

    // The stack's own dispatcher, on the ring, runs it.
    const [run] = await env.waitForRuns(job.id, 1, (r) => r.triggerCode === TRIGGER_CODE.success);
    expect(run?.jobId).toBe(job.id);
    await waitFor(() => executor.runs.length === 1, { what: 'the executor called once' });
  });
});

describe('dispatcher handler: what SQS redelivers', () => {
  it('drops a malformed message instead of letting SQS redeliver it until the DLQ', async () => {
    await env.send(env.manualFire(1), '{"not":"a fire"}');
    await waitFor(async () => (await env.ringBacklog()) === 0, { what: 'the malformed message deleted' });
  });

  it('reports a record whose store is unreachable as a batch item failure, and drops the malformed one', async () => {
    const config = loadConfig({ ...dispatcherEnv(), [ENV.jobsTable]: 'no-such-table' });
    const handler = createHandler(config, {
      clients: env.stack.clients,
      logger: silentLogger,
      metrics: { add() {}, flush() {} },
    });
    const record = (messageId: string, body: string) =>
      ({
        messageId,
        body,
        eventSourceARN: env.stack.resources.queues.ringFast.arn,
      }) as SQSEvent['Records'][number];
    const event: SQSEvent = {
      Records: [
        record('good-but-unlucky', JSON.stringify(env.manualFire(1, 0))),
        record('malformed', 'garbage'),
      ],
    };
    const result = await handler(event, lambdaContext('test'));
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'good-but-unlucky' }] });
  });
});

/** What Lambda hands the handler: a request id and the time left (the dispatcher's timeout). */
function lambdaContext(awsRequestId: string): Context {
  return {
    awsRequestId,
    getRemainingTimeInMillis: () => FUNCTIONS.dispatcher.timeoutSeconds * 1000,
  } as Context;
}
