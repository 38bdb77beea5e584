import { MemoryBackfillStore, MemoryCalendarStore, memoryDispatchDeps, testJob } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import type { Calendar } from '../calendars/calendar.js';
import { parseCalendarSpec } from '../calendars/calendar-validation.js';
import { ConflictError, NotFoundError, RequestValidationError } from '../common/errors.js';
import { dispatchFire } from '../dispatch/dispatch-fire.js';
import { DISPATCH_DEFAULTS } from '../dispatch/settings.js';
import { type FireMessage, scheduledDedupKey } from '../dispatch/trigger.js';
import { firstPlannedLogId, HANDLE_CODE, TRIGGER_CODE, unplannedLogId } from '../runs/run.js';
import { cancelBackfill, previewBackfill, startBackfill } from './admin-backfills.js';
import { backfillDedupKey } from './backfill.js';
import { advanceBackfill, BACKFILL_SWEEP, driveBackfills, sweepBackfills } from './backfill-sweep.js';

const NOW = Date.UTC(2030, 0, 1, 12, 0, 0);
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Job 1 (group app-a, two executors) on a five-minute cron, the stores in memory, the clock at NOW. */
function fixture(conf = '0 */5 * * * ?') {
  const env = memoryDispatchDeps(NOW);
  env.jobs.jobs.set(1, testJob({ id: 1, appName: 'app-a', scheduleConf: conf, triggerStatus: 'RUNNING' }));
  const backfills = new MemoryBackfillStore();
  const calendars = new MemoryCalendarStore();
  const deps = {
    jobs: env.jobs,
    backfills,
    calendars,
    runs: env.runs,
    ring: env.ring,
    clock: env.clock,
    logger: env.logger,
    random: () => 0.5,
  };
  /** Hands every fire put on the ring since the last call to a dispatcher, as SQS would. */
  let delivered = 0;
  const deliver = async () => {
    const fresh = env.ring.entries.slice(delivered);
    delivered = env.ring.entries.length;
    for (const entry of fresh) await dispatchFire(env.deps, DISPATCH_DEFAULTS, entry.message);
  };
  /** The executor's result for a run. */
  const finish = (logId: number, handleCode: number = HANDLE_CODE.success) =>
    env.runs.complete(logId, { handleCode, handleMsg: '', handleTime: env.clock.now() });
  const fired = () => env.ring.entries.map((e) => e.message);
  return { env, deps, backfills, calendars, deliver, finish, fired };
}

const lastHour = { from: iso(NOW - HOUR), to: iso(NOW) };

describe('startBackfill: what it checks', () => {
  it('names every problem of a request at once', async () => {
    const { deps } = fixture();
    const err = await startBackfill(
      deps,
      1,
      { from: 'yesterday', to: iso(NOW + 60_000), parallelism: 0, ratePerMinute: 10_000 },
      'ana',
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).problems.map((p) => p.field)).toEqual([
      'from',
      'to',
      'parallelism',
      'ratePerMinute',
    ]);
    expect((err as Error).message).toContain('to must not be in the future');
    const reversed = await startBackfill(
      deps,
      1,
      { from: iso(NOW - 1000), to: iso(NOW - HOUR) },
      'ana',
    ).catch((e: unknown) => e);
    expect((reversed as Error).message).toMatch(/^to must be after from/);
  });

  it('refuses a job whose schedule makes no past fires, a range of more than 10,000 fires (naming where they end), and an unknown job', async () => {
    const { deps, env } = fixture('* * * * * ?');
    const tooMany = await startBackfill(deps, 1, { from: iso(NOW - 3 * HOUR), to: iso(NOW) }, 'ana').catch(
      (e: unknown) => e,
    );
    expect(tooMany).toBeInstanceOf(RequestValidationError);
    expect((tooMany as Error).message).toContain(
      `the range holds more than 10000 fires of job 1's schedule (the first 10000 end at ${iso(NOW - 3 * HOUR + 9_999_000)})`,
    );
    env.jobs.jobs.set(2, testJob({ id: 2, appName: 'app-a', scheduleType: 'NONE', scheduleConf: '' }));
    const none = await startBackfill(deps, 2, lastHour, 'ana').catch((e: unknown) => e);
    expect((none as Error).message).toContain('job 2 has a NONE schedule; only a CRON or FIX_RATE schedule');
    await expect(startBackfill(deps, 9, lastHour, 'ana')).rejects.toBeInstanceOf(NotFoundError);
    // Nothing was stored or fired.
    expect(deps.backfills.backfills.size).toBe(0);
    expect(env.ring.entries).toEqual([]);
  });

  it('previews the count, the first and the last fire, and says when a range holds too many', async () => {
    const { deps } = fixture();
    expect(await previewBackfill(deps, 1, lastHour)).toEqual({
      jobId: 1,
      from: NOW - HOUR,
      to: NOW,
      total: 12,
      tooMany: false,
      limit: 10_000,
      first: NOW - HOUR,
      last: NOW - 5 * 60_000,
    });
    const everySecond = fixture('* * * * * ?');
    const big = await previewBackfill(everySecond.deps, 1, { from: iso(NOW - 3 * HOUR), to: iso(NOW) });
    expect(big).toMatchObject({ total: 10_001, tooMany: true });
  });
});

describe('a backfill run by the sweep', () => {
  it('serial (parallelism 1): one fire at a time, oldest first, each BACKFILL with its scheduled time, then COMPLETED', async () => {
    const { deps, deliver, finish, fired, env } = fixture();
    const started = await startBackfill(deps, 1, { from: iso(NOW - 15 * 60_000), to: iso(NOW) }, 'ana');
    expect(started).toMatchObject({
      state: 'RUNNING',
      total: 3,
      dispatched: 1,
      parallelism: 1,
      createdBy: 'ana',
    });
    expect(fired()).toEqual([
      {
        jobId: 1,
        scheduledTime: NOW - 15 * 60_000,
        triggerType: 'BACKFILL',
        dedupKey: backfillDedupKey(started.id, NOW - 15 * 60_000),
        logId: unplannedLogId(1, 0),
      },
    ]);
    await deliver();
    // The handler sees the fire's own scheduled time (XXL-JOB's logDateTime).
    expect(env.transport.sent.map((s) => s.param.logDateTime)).toEqual([NOW - 15 * 60_000]);
    // Still running: a sweep starts nothing more.
    expect((await sweepBackfills(deps)).started).toBe(0);
    for (let i = 0; i < 3; i++) {
      await finish(unplannedLogId(1, i));
      await sweepBackfills(deps);
      await deliver();
    }
    expect(env.transport.sent.map((s) => s.param.logDateTime)).toEqual([
      NOW - 15 * 60_000,
      NOW - 10 * 60_000,
      NOW - 5 * 60_000,
    ]);
    const done = await deps.backfills.get(started.id);
    expect(done).toMatchObject({
      state: 'COMPLETED',
      dispatched: 3,
      succeeded: 3,
      failed: 0,
      running: [],
      endedAt: NOW,
    });
    expect(await deps.backfills.listActive()).toEqual([]);
    expect(env.runs.runs.get(unplannedLogId(1, 0))).toMatchObject({
      triggerType: 'BACKFILL',
      scheduledTime: NOW - 15 * 60_000,
    });
  });

  it('parallelism 2: never more than two of its fires running, a finished one replaced by the next', async () => {
    const { deps, deliver, finish, fired } = fixture();
    const started = await startBackfill(deps, 1, { ...lastHour, parallelism: 2 }, 'ana');
    expect(fired().map((m) => m.scheduledTime)).toEqual([NOW - HOUR, NOW - HOUR + 5 * 60_000]);
    await deliver();
    await sweepBackfills(deps);
    expect(fired()).toHaveLength(2);
    await finish(unplannedLogId(1, 1));
    await sweepBackfills(deps);
    expect(fired().map((m) => m.scheduledTime)).toEqual([
      NOW - HOUR,
      NOW - HOUR + 5 * 60_000,
      NOW - HOUR + 10 * 60_000,
    ]);
    expect(await deps.backfills.get(started.id)).toMatchObject({
      dispatched: 3,
      succeeded: 1,
      running: [{}, {}],
    });
  });

  it('a failed run counts as failed, with its scheduled time; the backfill still completes', async () => {
    const { deps, deliver, finish } = fixture();
    const started = await startBackfill(
      deps,
      1,
      { from: iso(NOW - 10 * 60_000), to: iso(NOW), parallelism: 2 },
      'ana',
    );
    await deliver();
    await finish(unplannedLogId(1, 0), HANDLE_CODE.fail);
    await finish(unplannedLogId(1, 1));
    await sweepBackfills(deps);
    expect(await deps.backfills.get(started.id)).toMatchObject({
      state: 'COMPLETED',
      succeeded: 1,
      failed: 1,
      failures: [NOW - 10 * 60_000],
    });
  });

  it('keeps to the rate: 60 a minute starts one fire a second, whatever the parallelism', async () => {
    const { deps, env, fired } = fixture();
    await startBackfill(deps, 1, { ...lastHour, parallelism: 10, ratePerMinute: 60 }, 'ana');
    expect(fired()).toHaveLength(1);
    env.clock.current += 500;
    await sweepBackfills(deps);
    expect(fired()).toHaveLength(1);
    env.clock.current += 500;
    await sweepBackfills(deps);
    expect(fired()).toHaveLength(2);
    // A sweep that comes late catches up at most a second's worth.
    env.clock.current += 10_000;
    await sweepBackfills(deps);
    expect(fired()).toHaveLength(4);
  });

  it('cancel: no new fire; the running ones finish and are counted; then it ends and the job may start another', async () => {
    const { deps, deliver, finish, fired, env } = fixture();
    const started = await startBackfill(deps, 1, { ...lastHour, parallelism: 2 }, 'ana');
    await deliver();
    const cancelled = await cancelBackfill(deps, started.id, 'bo');
    expect(cancelled).toMatchObject({ state: 'CANCELLED', cancelledBy: 'bo', cancelledAt: NOW });
    expect(cancelled.nextFireTime).toBeUndefined();
    expect(cancelled.endedAt).toBeUndefined();
    await expect(cancelBackfill(deps, started.id, 'bo')).rejects.toBeInstanceOf(ConflictError);
    const refused = await startBackfill(deps, 1, lastHour, 'ana').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as Error).message).toContain(started.id);

    await finish(unplannedLogId(1, 0));
    await sweepBackfills(deps);
    expect(fired()).toHaveLength(2);
    await finish(unplannedLogId(1, 1), HANDLE_CODE.fail);
    await sweepBackfills(deps);
    expect(await deps.backfills.get(started.id)).toMatchObject({
      state: 'CANCELLED',
      dispatched: 2,
      succeeded: 1,
      failed: 1,
      running: [],
      endedAt: NOW,
    });
    env.clock.current += 1;
    expect((await startBackfill(deps, 1, lastHour, 'ana')).state).toBe('RUNNING');
  });

  it('two sweeps racing from one read: one starts the fires, the other writes and sends nothing', async () => {
    const { deps, fired, finish, deliver } = fixture();
    const started = await startBackfill(deps, 1, { ...lastHour, parallelism: 3 }, 'ana');
    await deliver();
    await finish(unplannedLogId(1, 0));
    const read = await deps.backfills.get(started.id);
    if (!read) throw new Error('not stored');
    const steps = await Promise.all([advanceBackfill(deps, read), advanceBackfill(deps, read)]);
    expect(steps.map((s) => s.kind).sort()).toEqual(['advanced', 'lostRace']);
    const keys = fired().map((m) => m.dedupKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(4);
    // And concurrent sweeps over the store never start a fire twice either.
    await Promise.all([sweepBackfills(deps), sweepBackfills(deps), sweepBackfills(deps)]);
    expect(new Set(fired().map((m) => m.dedupKey)).size).toBe(fired().length);
    expect(await deps.backfills.get(started.id)).toMatchObject({ dispatched: fired().length, succeeded: 1 });
  });

  it('a fire sent without ever becoming a run (the ring send lost) goes on the ring again, same logId and key', async () => {
    const { deps, env, fired } = fixture();
    const started = await startBackfill(deps, 1, { ...lastHour }, 'ana');
    env.clock.current += BACKFILL_SWEEP.resendAfterMs - 1;
    await sweepBackfills(deps);
    expect(fired()).toHaveLength(1);
    env.clock.current += 1;
    await sweepBackfills(deps);
    expect(fired()).toHaveLength(2);
    expect(fired()[1]).toEqual(fired()[0]);
    expect(await deps.backfills.get(started.id)).toMatchObject({ dispatched: 1 });
  });

  it('stops a backfill whose job was deleted, saying so', async () => {
    const { deps, env } = fixture();
    const started = await startBackfill(deps, 1, lastHour, 'ana');
    env.jobs.jobs.delete(1);
    await sweepBackfills(deps);
    expect(await deps.backfills.get(started.id)).toMatchObject({
      state: 'CANCELLED',
      stopReason: 'job 1 was deleted',
      failed: 1,
      endedAt: NOW,
    });
  });

  it('a failing step is logged with the backfill and thrown after the others were stepped', async () => {
    const { deps, env, fired, deliver } = fixture();
    env.jobs.jobs.set(2, testJob({ id: 2, appName: 'app-a', scheduleConf: '0 */5 * * * ?' }));
    await startBackfill(deps, 1, { ...lastHour, parallelism: 2 }, 'ana');
    await startBackfill(deps, 2, { ...lastHour, parallelism: 2 }, 'ana');
    await deliver();
    const get = env.runs.getMany.bind(env.runs);
    env.runs.getMany = async (logIds) => {
      if (logIds.some((id) => id >= unplannedLogId(1, 0) && id < unplannedLogId(2, 0)))
        throw new Error('throttled');
      return get(logIds);
    };
    await env.runs.complete(unplannedLogId(2, 0), { handleCode: 200, handleMsg: '', handleTime: NOW });
    await expect(sweepBackfills(deps)).rejects.toThrow('throttled');
    expect(fired().filter((m) => m.jobId === 2)).toHaveLength(3);
    expect(env.logger.lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        message: 'backfill step failed',
        attributes: expect.objectContaining({ jobId: 1 }),
      }),
    );
  });

  it('driving steps every second until no backfill is active', async () => {
    const { deps, env, deliver } = fixture();
    await startBackfill(deps, 1, { from: iso(NOW - 10 * 60_000), to: iso(NOW) }, 'ana');
    await deliver();
    // The executor answers each run as it is sent.
    const run = env.transport.run.bind(env.transport);
    env.transport.run = async (target, param) => {
      const reply = await run(target, param);
      queueMicrotask(
        () => void env.runs.complete(param.logId, { handleCode: 200, handleMsg: '', handleTime: 0 }),
      );
      return reply;
    };
    await env.runs.complete(unplannedLogId(1, 0), { handleCode: 200, handleMsg: '', handleTime: 0 });
    const result = await driveBackfills(
      {
        ...deps,
        ring: {
          enqueue: async (e) => {
            await env.ring.enqueue(e);
            await deliver();
          },
        },
      },
      NOW + 60_000,
    );
    expect(result.active).toBe(0);
    expect(env.clock.now()).toBeLessThan(NOW + 60_000);
    expect(await deps.backfills.listActive()).toEqual([]);
  });
});

describe('backfill fires in the dispatcher', () => {
  const base = firstPlannedLogId(1);
  const liveFire = (slot: number, scheduledTime: number): FireMessage => ({
    jobId: 1,
    scheduledTime,
    triggerType: 'CRON',
    dedupKey: scheduledDedupKey(1, scheduledTime),
    scheduleRevision: 1,
    logId: base + slot,
  });
  const backfillFire = (scheduledTime: number, n: number): FireMessage => ({
    jobId: 1,
    scheduledTime,
    triggerType: 'BACKFILL',
    dedupKey: backfillDedupKey('bf-1-x-0000', scheduledTime),
    logId: unplannedLogId(1, n),
  });

  it('sends a fire hours in the past (never a misfire), nor is it overtaken by the live fires claimed before it', async () => {
    const { env } = fixture();
    expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, liveFire(0, NOW))).kind).toBe('dispatched');
    const outcome = await dispatchFire(env.deps, DISPATCH_DEFAULTS, backfillFire(NOW - 3 * HOUR, 0));
    expect(outcome.kind).toBe('dispatched');
    expect(env.runs.runs.get(unplannedLogId(1, 0))).toMatchObject({
      triggerType: 'BACKFILL',
      triggerCode: TRIGGER_CODE.success,
      scheduledTime: NOW - 3 * HOUR,
    });
  });

  it('does not make the live schedule’s next fire look overtaken, nor count as lateness', async () => {
    const { env } = fixture();
    // A backfill fire claimed first (a later logId than any planned one), then the live fire, a second late.
    expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, backfillFire(NOW - HOUR, 0))).kind).toBe(
      'dispatched',
    );
    env.clock.current += 1_500;
    expect((await dispatchFire(env.deps, DISPATCH_DEFAULTS, liveFire(0, NOW))).kind).toBe('dispatched');
    expect(env.transport.sent.map((s) => s.param.logDateTime)).toEqual([NOW - HOUR, NOW]);
    expect(env.metrics.sum('Lateness')).toBeLessThan(2_000);
  });
});

describe('a backfill of a job with calendars and one-off exceptions', () => {
  const holidays = (excluded: { from: string; to?: string }[], version = 1): Calendar => ({
    id: 'holidays',
    ...parseCalendarSpec({ name: 'Holidays', timeZone: 'UTC', excluded }),
    version,
    createdAt: 0,
    updatedAt: 0,
    updatedBy: 'ana',
  });
  const nineOn = (date: string) => Date.parse(`${date}T09:00:00Z`);
  // Daily at 09:00 UTC from 23 December to 1 January; Christmas, Boxing Day and New Year's Day removed.
  const lastTenDays = { from: iso(NOW - 10 * 24 * HOUR), to: iso(NOW) };
  const allowed = ['12-23', '12-24', '12-27', '12-28', '12-29', '12-30', '12-31'].map((d) =>
    nineOn(`2029-${d}`),
  );

  async function withCalendars() {
    const fixed = fixture('0 0 9 * * ?');
    await fixed.calendars.create(
      holidays([{ from: '2029-12-25', to: '2029-12-26' }, { from: '2030-01-01' }]),
    );
    const job = testJob({
      id: 1,
      appName: 'app-a',
      scheduleConf: '0 0 9 * * ?',
      triggerStatus: 'RUNNING',
      calendars: { exclude: ['holidays'] },
      // A one-off exception names a fire still ahead: a backfill of the past does not apply it.
      occurrenceExceptions: [{ at: nineOn('2029-12-28'), action: 'skip', by: 'ana', createdAt: NOW - HOUR }],
    });
    fixed.env.jobs.jobs.set(1, job);
    return fixed;
  }

  it('previews only the fires the calendars allow, the one-off exception not applied to the past', async () => {
    const { deps } = await withCalendars();
    expect(await previewBackfill(deps, 1, lastTenDays)).toMatchObject({
      total: allowed.length,
      first: allowed[0],
      last: allowed.at(-1),
    });
  });

  it('runs exactly the previewed fires, with the calendars as they were when it started', async () => {
    const { deps, calendars, deliver, finish, env } = await withCalendars();
    const preview = await previewBackfill(deps, 1, lastTenDays);
    const started = await startBackfill(deps, 1, lastTenDays, 'ana');
    expect(started.total).toBe(preview.total);
    await deliver();
    // The calendar changes after the start (28 December removed, Christmas given back): no matter.
    await calendars.update(holidays([{ from: '2029-12-28' }, { from: '2030-01-01' }], 2), 1);
    for (let i = 0; i < allowed.length; i++) {
      await finish(unplannedLogId(1, i));
      await sweepBackfills(deps);
      await deliver();
    }
    expect(env.transport.sent.map((s) => s.param.logDateTime)).toEqual(allowed);
    expect(await deps.backfills.get(started.id)).toMatchObject({
      state: 'COMPLETED',
      total: allowed.length,
      succeeded: allowed.length,
    });
  });
});
