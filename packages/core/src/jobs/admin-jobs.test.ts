import { describe, expect, it } from 'vitest';
import type { Clock } from '../common/clock.js';
import { ConflictError, NotFoundError, problemsOf, ValidationError } from '../common/errors.js';
import { silentLogger } from '../common/logger.js';
import { LOG_IDS_PER_PLAN } from '../dispatch/trigger.js';
import { firstPlannedLogId, MAX_JOB_ID } from '../runs/run.js';
import { jitterOffsetMs } from '../schedule/index.js';
import {
  type AdminJobsDeps,
  createJob,
  MAX_WRITE_ATTEMPTS,
  previewSchedule,
  startJob,
  stopJob,
  updateJob,
} from './admin-jobs.js';
import type { Group, Job } from './job.js';
import type { JobStore, PlanState } from './job-store.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');

/** Just enough of a JobStore for the use-case, with a hook to simulate the tick moving a job. */
class MemoryJobs {
  readonly items = new Map<number, Job>();
  /** The logIds reserved for each job's next plan, as the store keeps them. */
  readonly blocks = new Map<number, number | undefined>();
  /** Where each job's last plan began, as the tick left it (see PlannableJob). */
  readonly lastPlans = new Map<number, number | undefined>();
  private seq = 0;
  conflictsLeft = 0;
  writes = 0;

  async allocateId() {
    return ++this.seq;
  }
  async create(job: Job, plan?: PlanState) {
    this.items.set(job.id, job);
    this.blocks.set(job.id, plan?.logIdBlock);
  }
  async getPlannable(ids: readonly number[]) {
    return ids.flatMap((id) => {
      const job = this.items.get(id);
      const logIdBlock = this.blocks.get(id);
      const lastPlanDue = this.lastPlans.get(id);
      return job
        ? [
            {
              job,
              ...(logIdBlock === undefined ? {} : { logIdBlock }),
              ...(lastPlanDue === undefined ? {} : { lastPlanDue }),
            },
          ]
        : [];
    });
  }
  async get(id: number) {
    return this.items.get(id);
  }
  async getMany(ids: readonly number[]) {
    return ids.flatMap((id) => this.items.get(id) ?? []);
  }
  async replace(
    job: Job,
    expected: Pick<Job, 'version' | 'triggerNextTime' | 'triggerStatus'>,
    plan?: PlanState,
  ) {
    this.writes++;
    const current = this.items.get(job.id);
    if (!current) throw new NotFoundError('gone');
    if (this.conflictsLeft > 0) {
      this.conflictsLeft--;
      throw new ConflictError('moved meanwhile');
    }
    if (current.version !== expected.version || current.triggerNextTime !== expected.triggerNextTime) {
      throw new ConflictError('stale');
    }
    this.items.set(job.id, job);
    this.blocks.set(job.id, plan?.logIdBlock);
    this.lastPlans.set(job.id, plan?.lastPlanDue);
  }
}

function setup() {
  const jobs = new MemoryJobs();
  const group: Group = {
    appName: 'app-one',
    title: 't',
    addressType: 'AUTO',
    addressList: [],
    createdAt: 0,
    updatedAt: 0,
  };
  const clock: Clock = { now: () => NOW, sleep: async () => {} };
  const deps: AdminJobsDeps = {
    jobs: jobs as unknown as JobStore,
    groups: { get: async (appName) => (appName === group.appName ? group : undefined) },
    clock,
    logger: silentLogger,
  };
  return { jobs, deps };
}

const input = { appName: 'app-one', name: 'n', author: 'a', executorHandler: 'h' };
const yearly = { scheduleType: 'CRON', scheduleConf: '0 0 0 1 1 ?' };

describe('admin jobs', () => {
  it('creates a job at version 1 with no next fire while stopped', async () => {
    const { deps } = setup();
    const job = await createJob(deps, input);
    expect(job).toMatchObject({
      id: 1,
      version: 1,
      triggerNextTime: null,
      createdAt: NOW,
      glueUpdatetime: NOW,
    });
  });

  it('plans the first fire when created RUNNING', async () => {
    const { deps } = setup();
    const job = await createJob(deps, { ...input, ...yearly, triggerStatus: 'RUNNING' });
    expect(job.triggerNextTime).toBe(Date.parse('2031-01-01T00:00:00Z'));
  });

  it('retries the read-modify-write when the tick moved the job meanwhile', async () => {
    const { deps, jobs } = setup();
    const job = await createJob(deps, input);
    jobs.conflictsLeft = 2;
    const updated = await updateJob(deps, job.id, { name: 'renamed' });
    expect(updated).toMatchObject({ name: 'renamed', version: 2 });
    expect(jobs.writes).toBe(3);
  });

  it(`gives up with ConflictError after ${MAX_WRITE_ATTEMPTS} conflicting writes`, async () => {
    const { deps, jobs } = setup();
    const job = await createJob(deps, input);
    jobs.conflictsLeft = MAX_WRITE_ATTEMPTS;
    await expect(updateJob(deps, job.id, { name: 'renamed' })).rejects.toBeInstanceOf(ConflictError);
  });

  it('does not retry a stale version given by the caller', async () => {
    const { deps, jobs } = setup();
    const job = await createJob(deps, input);
    await expect(updateJob(deps, job.id, { name: 'x', version: 7 })).rejects.toBeInstanceOf(ConflictError);
    expect(jobs.writes).toBe(0);
  });

  it('keeps the next fire on a non-schedule edit and re-plans it on a schedule edit', async () => {
    const { deps, jobs } = setup();
    const job = await createJob(deps, { ...input, ...yearly, triggerStatus: 'RUNNING' });
    // The tick advanced it meanwhile.
    jobs.items.set(job.id, { ...job, triggerNextTime: job.triggerNextTime! + 1000 });
    const renamed = await updateJob(deps, job.id, { name: 'x' });
    expect(renamed.triggerNextTime).toBe(job.triggerNextTime! + 1000);
    expect(renamed.scheduleRevision).toBe(job.scheduleRevision);
    const edited = await updateJob(deps, job.id, { scheduleType: 'FIX_RATE', scheduleConf: '60' });
    expect(edited.triggerNextTime).toBeGreaterThan(NOW + 5000);
    expect(edited.triggerNextTime).toBeLessThanOrEqual(NOW + 66_000);
    expect(edited.scheduleRevision).toBe(job.scheduleRevision + 1);
  });

  it('numbers planned runs from the job’s own range: a new schedule moves one block on, other edits keep the block', async () => {
    const { deps, jobs } = setup();
    const stoppedJob = await createJob(deps, input);
    expect(jobs.blocks.get(stoppedJob.id)).toBe(firstPlannedLogId(stoppedJob.id));
    const job = await createJob(deps, { ...input, ...yearly, triggerStatus: 'RUNNING' });
    const first = firstPlannedLogId(job.id);
    expect(jobs.blocks.get(job.id)).toBe(first);
    // A crashed tick may have sent fires numbered from this block: an edit that keeps the schedule keeps it.
    await updateJob(deps, job.id, { name: 'renamed' });
    expect(jobs.blocks.get(job.id)).toBe(first);
    // A new schedule (new revision; its old fires are dropped) never reuses the old fires' numbers.
    await updateJob(deps, job.id, { scheduleType: 'FIX_RATE', scheduleConf: '60' });
    expect(jobs.blocks.get(job.id)).toBe(first + LOG_IDS_PER_PLAN);
    await stopJob(deps, job.id);
    await startJob(deps, job.id);
    expect(jobs.blocks.get(job.id)).toBe(first + 3 * LOG_IDS_PER_PLAN);
  });

  it('keeps where the last plan began through an edit of the same schedule, and forgets it with a new schedule', async () => {
    const { deps, jobs } = setup();
    const job = await createJob(deps, { ...input, ...yearly, triggerStatus: 'RUNNING' });
    // As the tick leaves it after planning: its fires in the ring can be re-sent after a restart.
    jobs.lastPlans.set(job.id, NOW);
    await updateJob(deps, job.id, { name: 'renamed' });
    expect(jobs.lastPlans.get(job.id)).toBe(NOW);
    await updateJob(deps, job.id, { scheduleType: 'FIX_RATE', scheduleConf: '60' });
    expect(jobs.lastPlans.get(job.id)).toBeUndefined();
  });

  it('refuses a new job once the job ids logIds can carry are used up', async () => {
    const { deps, jobs } = setup();
    jobs.allocateId = async () => MAX_JOB_ID + 1;
    await expect(createJob(deps, input)).rejects.toThrow(`tickring numbers at most ${MAX_JOB_ID} jobs`);
    expect(jobs.items.size).toBe(0);
  });

  it('stops (clearing the next fire) and leaves a stopped job alone', async () => {
    const { deps, jobs } = setup();
    const job = await createJob(deps, { ...input, ...yearly, triggerStatus: 'RUNNING' });
    const stopped = await stopJob(deps, job.id);
    expect(stopped).toMatchObject({ triggerStatus: 'STOPPED', triggerNextTime: null, version: 2 });
    const writes = jobs.writes;
    await stopJob(deps, job.id);
    expect(jobs.writes).toBe(writes);
  });

  it('refuses to start a NONE job', async () => {
    const { deps } = setup();
    const job = await createJob(deps, input);
    await expect(startJob(deps, job.id)).rejects.toBeInstanceOf(ValidationError);
  });

  it('refuses a child cycle through the job being saved', async () => {
    const { deps } = setup();
    const a = await createJob(deps, input);
    const b = await createJob(deps, { ...input, childJobIds: [a.id] });
    await expect(updateJob(deps, a.id, { childJobIds: [b.id] })).rejects.toThrow(/cycle: 1 → 2 → 1/);
  });
});

describe('bounds, limits and jitter of a job', () => {
  const hourly = { scheduleType: 'CRON', scheduleConf: '0 0 * * * ?' };

  it('refuses every problem of the bounds in one error: endAt before startAt, maxRuns 0, jitter too large', async () => {
    const { deps } = setup();
    const err = await createJob(deps, {
      ...input,
      ...hourly,
      startAt: '2030-02-01T00:00:00Z',
      endAt: '2030-01-01T00:00:00Z',
      maxRuns: 0,
      jitterSeconds: 3601,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(problemsOf(err as ValidationError).map((p) => p.field)).toEqual([
      'maxRuns',
      'jitterSeconds',
      'endAt',
    ]);
    expect((err as Error).message).toMatch(/maxRuns must be between 1 and/);
    expect((err as Error).message).toMatch(/jitterSeconds must be between 0 and 3600/);
    expect((err as Error).message).toMatch(/endAt \(2030-01-01T00:00:00.000Z\) must be after startAt/);
  });

  it('refuses a jitter as large as the schedule’s smallest interval, saying the interval', async () => {
    const { deps } = setup();
    await expect(
      createJob(deps, { ...input, scheduleType: 'FIX_RATE', scheduleConf: '60', jitterSeconds: 60 }),
    ).rejects.toThrow(
      /jitterSeconds must be less than the schedule's smallest interval between fires \(60 s\)/,
    );
    await expect(
      createJob(deps, { ...input, scheduleType: 'FIX_RATE', scheduleConf: '60', jitterSeconds: 59 }),
    ).resolves.toMatchObject({ jitterSeconds: 59 });
  });

  it('counts maxRuns from when it is set, keeps the count when it changes, forgets it when removed', async () => {
    const { deps, jobs } = setup();
    const job = await createJob(deps, { ...input, ...hourly, maxRuns: 3 });
    expect(job.scheduledFires).toBe(0);
    jobs.items.set(job.id, { ...job, scheduledFires: 2 });
    expect(await updateJob(deps, job.id, { maxRuns: 5 })).toMatchObject({ maxRuns: 5, scheduledFires: 2 });
    const removed = await updateJob(deps, job.id, { maxRuns: null });
    expect(removed.maxRuns).toBeUndefined();
    expect(removed.scheduledFires).toBeUndefined();
    expect(await updateJob(deps, job.id, { maxRuns: 1 })).toMatchObject({ scheduledFires: 0 });
  });

  it('clears the alert channels and the log retention with null, and keeps them when not given', async () => {
    const ops = {
      id: 'ops',
      name: 'ops',
      kind: 'email',
      revision: 1,
      createdAt: 0,
      createdBy: 'a',
      updatedAt: 0,
    } as const;
    const deps: AdminJobsDeps = { ...setup().deps, alertChannels: { listChannels: async () => [ops] } };
    const job = await createJob(deps, {
      ...input,
      alertChannels: ['ops'],
      logRetentionDays: 90,
      keepSuccessfulRuns: 0.1,
    });
    expect(await updateJob(deps, job.id, { name: 'renamed' })).toMatchObject({
      alertChannels: ['ops'],
      logRetentionDays: 90,
      keepSuccessfulRuns: 0.1,
    });
    const cleared = await updateJob(deps, job.id, {
      alertChannels: null,
      logRetentionDays: null,
      keepSuccessfulRuns: null,
    });
    expect(cleared).not.toHaveProperty('alertChannels');
    expect(cleared).not.toHaveProperty('logRetentionDays');
    expect(cleared).not.toHaveProperty('keepSuccessfulRuns');
    expect((await updateJob(deps, job.id, { alertChannels: [] })).alertChannels).toEqual([]);
  });

  it('refuses (409) to restart a job that stopped itself at maxRuns, unless the same update raises it; the start clears the reason', async () => {
    const { deps, jobs } = setup();
    const job = await createJob(deps, { ...input, ...hourly, maxRuns: 3 });
    jobs.items.set(job.id, { ...job, scheduledFires: 3, scheduleEnded: { reason: 'maxRuns', at: NOW - 1 } });
    const refused = await startJob(deps, job.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as Error).message).toMatch(
      /maxRuns 3 is used up \(3 scheduled fires made\).*raise maxRuns/,
    );
    // An edit that leaves it stopped keeps the reason.
    expect((await updateJob(deps, job.id, { name: 'renamed' })).scheduleEnded).toEqual({
      reason: 'maxRuns',
      at: NOW - 1,
    });
    const restarted = await updateJob(deps, job.id, { maxRuns: 4, triggerStatus: 'RUNNING' });
    expect(restarted).toMatchObject({
      triggerStatus: 'RUNNING',
      scheduledFires: 3,
      triggerNextTime: NOW + 3_600_000,
    });
    expect(restarted.scheduleEnded).toBeUndefined();
  });

  it('refuses (409) to start a job whose endAt has passed, unless the same update moves it', async () => {
    const { deps } = setup();
    const job = await createJob(deps, { ...input, ...hourly, endAt: '2029-12-31T00:00:00Z' });
    await expect(startJob(deps, job.id)).rejects.toThrow(
      /no fire between now and endAt \(2029-12-31T00:00:00.000Z\)/,
    );
    await expect(
      updateJob(deps, job.id, { endAt: '2030-06-01T00:00:00Z', triggerStatus: 'RUNNING' }),
    ).resolves.toMatchObject({ triggerStatus: 'RUNNING' });
  });

  it('re-plans a running job when its bounds change (a new revision drops the fires planned under the old ones)', async () => {
    const { deps } = setup();
    const job = await createJob(deps, { ...input, ...hourly, triggerStatus: 'RUNNING' });
    const bounded = await updateJob(deps, job.id, { startAt: '2030-01-02T10:00:00Z' });
    expect(bounded).toMatchObject({
      scheduleRevision: 2,
      triggerNextTime: Date.parse('2030-01-02T10:00:00Z'),
    });
    const jittered = await updateJob(deps, job.id, { jitterSeconds: 30 });
    expect(jittered.scheduleRevision).toBe(2);
  });

  it('previews within the bounds with the real (jittered) times and says why the schedule ends', () => {
    const schedule = { type: 'CRON' as const, conf: '0 0 * * * ?', timeZone: 'UTC' };
    const preview = previewSchedule(schedule, NOW, 10, {
      bounds: { maxRuns: 3 },
      jitterSeconds: 600,
      jobId: 7,
    });
    expect(preview.fires.map((f) => f.time)).toEqual([1, 2, 3].map((h) => NOW + h * 3_600_000));
    expect(preview.fires.map((f) => (f.fireAt ?? 0) - f.time)).toEqual(
      preview.fires.map((f) => jitterOffsetMs(7, f.time, 600)),
    );
    expect(preview.ends).toBe('maxRuns');
    expect(previewSchedule(schedule, NOW, 2, { jitterSeconds: 600 }).fires[0]?.fireAt).toBeNull();
    const ended = previewSchedule(schedule, NOW, 10, { bounds: { endAt: NOW + 2 * 3_600_000 } });
    expect(ended).toMatchObject({
      ends: 'endAt',
      fires: [{ time: NOW + 3_600_000 }, { time: NOW + 7_200_000 }],
    });
    expect(previewSchedule(schedule, NOW, 2).ends).toBeUndefined();
  });
});
