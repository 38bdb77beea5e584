import { memoryDispatchDeps } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../common/errors.js';
import { firstPlannedLogId } from '../runs/run.js';
import { dispatchRingBatch, type RingBatchDeps } from './dispatch-batch.js';
import { JobTurns } from './job-turns.js';
import { DISPATCH_DEFAULTS } from './settings.js';
import { type FireMessage, scheduledDedupKey } from './trigger.js';

function setup() {
  const env = memoryDispatchDeps();
  const flushed = { reports: 0, metrics: 0 };
  const deps: RingBatchDeps = {
    ...env.deps,
    settings: DISPATCH_DEFAULTS,
    jobTurns: new JobTurns(),
    flushReports: async () => {
      flushed.reports++;
    },
    flushMetrics: () => {
      flushed.metrics++;
    },
  };
  return { env, deps, flushed };
}

const manual = (now: number): FireMessage => ({
  jobId: 1,
  scheduledTime: now,
  triggerType: 'MANUAL',
  dedupKey: `manual#${now}`,
});
/** A ring message's body: the fires of one lane and second (what packRingMessages writes). */
const bodyOf = (fire: FireMessage) => JSON.stringify([fire]);

/** Job 1's scheduled fire in slot `slot` of its planned range. */
const planned = (slot: number, scheduledTime: number): FireMessage => ({
  jobId: 1,
  logId: firstPlannedLogId(1) + slot,
  scheduledTime,
  triggerType: 'CRON',
  dedupKey: scheduledDedupKey(1, scheduledTime),
  scheduleRevision: 1,
});

describe('dispatchRingBatch', () => {
  it('sends a job’s late fires from two batches in flight at once in schedule order, none skipped', async () => {
    const { env, deps } = setup();
    const now = env.clock.now();
    // Two batches of a backlog taken by two pollers: the one with the latest second starts first.
    const record = (id: string, fire: FireMessage) => ({ id, lane: 'fast' as const, body: bodyOf(fire) });
    const first = dispatchRingBatch(deps, [record('m2', planned(2, now - 1000))], now + 60_000);
    const second = dispatchRingBatch(
      deps,
      [record('m1', planned(1, now - 2000)), record('m0', planned(0, now - 3000))],
      now + 60_000,
    );
    expect(await Promise.all([first, second])).toEqual([[], []]);
    const base = firstPlannedLogId(1);
    expect(env.transport.sent.map((s) => s.param.logId)).toEqual([base, base + 1, base + 2]);
    expect(env.logger.lines.filter((l) => l.message === 'fire skipped (misfire)')).toEqual([]);
  });

  it('sends a job’s late fires from several records of one batch one after another, in schedule order, none skipped', async () => {
    const { env, deps } = setup();
    const now = env.clock.now();
    // A backlog after a pause: three seconds of the job in one batch, the latest record first.
    const fires = [planned(2, now - 1000), planned(0, now - 3000), planned(1, now - 2000)];
    const failed = await dispatchRingBatch(
      deps,
      fires.map((fire, i) => ({ id: `m${i}`, lane: 'fast' as const, body: bodyOf(fire) })),
      now + 60_000,
    );
    expect(failed).toEqual([]);
    const base = firstPlannedLogId(1);
    expect(env.transport.sent.map((s) => s.param.logId)).toEqual([base, base + 1, base + 2]);
    expect(env.logger.lines.filter((l) => l.message === 'fire skipped (misfire)')).toEqual([]);
  });

  it('records what all the records of a batch sent under one claim token', async () => {
    const { env, deps } = setup();
    const now = env.clock.now();
    const tokens: string[] = [];
    const recordDispatch = env.runs.recordDispatch.bind(env.runs);
    env.runs.recordDispatch = async (token, entries) => {
      tokens.push(...entries.map(() => token));
      await recordDispatch(token, entries);
    };
    const fires = [manual(now), { ...manual(now), dedupKey: 'manual#b' }, planned(0, now)];
    const failed = await dispatchRingBatch(
      deps,
      fires.map((fire, i) => ({ id: `m${i}`, lane: 'fast' as const, body: bodyOf(fire) })),
      now + 60_000,
    );
    expect(failed).toEqual([]);
    expect(env.transport.sent).toHaveLength(3);
    expect(tokens).toHaveLength(3);
    expect(new Set(tokens).size).toBe(1);
    const [token] = tokens;
    const sentUnder = await env.runs.dispatchedUnder(token ?? '');
    expect([...sentUnder].sort()).toEqual(env.transport.sent.map((s) => s.param.logId).sort());
  });

  it('sends a fire that came twice in one batch once: the copy under the same token claims nothing', async () => {
    const { env, deps } = setup();
    const now = env.clock.now();
    const claims = { planned: 0, fires: 0 };
    const claim = env.runs.claim.bind(env.runs);
    const createFire = env.runs.createFire.bind(env.runs);
    env.runs.claim = (run, token) => {
      claims.planned++;
      return claim(run, token);
    };
    env.runs.createFire = (key, runs, token) => {
      claims.fires++;
      return createFire(key, runs, token);
    };
    // A redelivered message beside its first delivery, and a re-planned scheduled fire.
    const twice = [manual(now), manual(now), planned(0, now), planned(0, now)];
    const failed = await dispatchRingBatch(
      deps,
      twice.map((fire, i) => ({ id: `m${i}`, lane: 'fast' as const, body: bodyOf(fire) })),
      now + 60_000,
    );
    expect(failed).toEqual([]);
    expect(env.transport.sent.map((s) => s.param.logId)).toHaveLength(2);
    expect(new Set(env.transport.sent.map((s) => s.param.logId)).size).toBe(2);
    expect(claims).toEqual({ planned: 1, fires: 1 });
    expect(env.logger.lines.filter((l) => l.message === 'duplicate fire ignored')).toHaveLength(2);
  });

  it('drops a malformed record with a log line and reports nothing to deliver again', async () => {
    const { env, deps, flushed } = setup();
    const failed = await dispatchRingBatch(
      deps,
      [{ id: 'm1', lane: 'fast', body: '{not json' }],
      Date.now() + 60_000,
    );
    expect(failed).toEqual([]);
    expect(env.logger.lines.some((l) => l.message === 'fire message dropped')).toBe(true);
    expect(flushed).toEqual({ reports: 1, metrics: 1 });
  });

  it('reports a record whose fire met a store failure, and drops one whose failure is permanent', async () => {
    const { env, deps, flushed } = setup();
    const now = env.clock.now();
    env.jobs.getMany = async () => {
      throw new Error('store unavailable');
    };
    env.jobs.get = async () => {
      throw new Error('store unavailable');
    };
    const failed = await dispatchRingBatch(
      deps,
      [{ id: 'm2', lane: 'fast', body: bodyOf(manual(now)) }],
      now + 60_000,
    );
    expect(failed).toEqual(['m2']);

    env.jobs.get = async () => {
      throw new ValidationError('permanently wrong');
    };
    env.jobs.getMany = env.jobs.get as never;
    const dropped = await dispatchRingBatch(
      deps,
      [{ id: 'm3', lane: 'fast', body: bodyOf(manual(now)) }],
      now + 60_000,
    );
    expect(dropped).toEqual([]);
    expect(env.logger.lines.some((l) => l.message === 'fire dropped')).toBe(true);
    expect(flushed.reports).toBe(2);
  });
});
