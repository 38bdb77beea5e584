import { memoryDispatchDeps } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { hashFraction } from '../common/hash-fraction.js';
import type { Job } from '../jobs/job.js';
import { processCallbacks } from '../runs/executor-callbacks.js';
import { firstPlannedLogId, HANDLE_CODE } from '../runs/run.js';
import { dispatchFire } from './dispatch-fire.js';
import { DISPATCH_DEFAULTS } from './settings.js';
import { scheduledDedupKey } from './trigger.js';

type Env = ReturnType<typeof memoryDispatchDeps>;
const DAY_S = 86_400;
const logId = firstPlannedLogId(1);

function setJob(env: Env, overrides: Partial<Job>) {
  const job = env.jobs.jobs.get(1);
  if (!job) throw new Error('no job 1');
  env.jobs.jobs.set(1, { ...job, ...overrides });
}

const fire = (scheduledTime: number) => ({
  jobId: 1,
  logId,
  scheduledTime,
  triggerType: 'CRON' as const,
  dedupKey: scheduledDedupKey(1, scheduledTime),
  scheduleRevision: 1,
});

const expiryOf = async (env: Env) => (await env.runs.getMany([logId]))[0]?.expiresAt;

describe("a job's log retention, from the claim to the result", () => {
  it('records the retention on the run at its claim, and leaves a job without one on the default', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { logRetentionDays: 7, keepSuccessfulRuns: 0.25 });
    const t = env.clock.now();
    expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, fire(t + 500))).kind).toBe('dispatched');
    const [run] = env.runs.all();
    expect(run?.retention).toEqual({ days: 7, successSample: 0.25 });
    expect(await expiryOf(env)).toBe(Math.floor((run?.triggerTime ?? 0) / 1000) + 7 * DAY_S);

    const plain = memoryDispatchDeps();
    await dispatchFire(plain.deps, DISPATCH_DEFAULTS, fire(t + 500));
    expect(plain.runs.all()[0]).not.toHaveProperty('retention');
  });

  it('gives a skipped fire its job’s retention too', async () => {
    const env = memoryDispatchDeps();
    setJob(env, { logRetentionDays: 400 });
    const t = env.clock.now();
    expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, fire(t - 120_000))).kind).toBe('skipped');
    expect(env.runs.all()[0]?.retention).toEqual({ days: 400 });
  });

  it('keeps a sampled-out success a day after its trigger, set by the callback from what the run recorded', async () => {
    const env = memoryDispatchDeps();
    // Below the run's hash: its success is sampled out.
    setJob(env, { logRetentionDays: 7, keepSuccessfulRuns: hashFraction(`retention#${logId}`) / 2 });
    const t = env.clock.now();
    await dispatchFire(env.deps, DISPATCH_DEFAULTS, fire(t + 500));
    const triggerS = Math.floor((env.runs.all()[0]?.triggerTime ?? 0) / 1000);
    // The job is gone by then: what the run recorded at its claim decides.
    env.jobs.jobs.delete(1);
    await processCallbacks(env.deps, [
      { logId, logDateTime: 0, handleCode: HANDLE_CODE.success, handleMsg: 'ok' },
    ]);
    expect(await expiryOf(env)).toBe(triggerS + DAY_S);
  });
});
