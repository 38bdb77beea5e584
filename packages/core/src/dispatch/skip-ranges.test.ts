import { memoryDispatchDeps, sentRun, testJob } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { METRIC } from '../common/metrics.js';
import type { Job } from '../jobs/job.js';
import { firstPlannedLogId, type Run, runStatus, TRIGGER_CODE } from '../runs/run.js';
import { dispatchRingBatch, type RingBatchDeps, type RingRecord } from './dispatch-batch.js';
import { JobTurns } from './job-turns.js';
import { DISPATCH_DEFAULTS } from './settings.js';
import { type FireMessage, scheduledDedupKey } from './trigger.js';

const BASE = firstPlannedLogId(1);

/** Job 1 fires every second (DO_NOTHING unless told otherwise); its batches share one process's turns. */
function setup(job: Partial<Job> = {}) {
  const env = memoryDispatchDeps();
  env.jobs.jobs.set(1, testJob({ id: 1, appName: 'app-a', scheduleConf: '* * * * * ?', ...job }));
  const deps: RingBatchDeps = {
    ...env.deps,
    settings: DISPATCH_DEFAULTS,
    jobTurns: new JobTurns(),
    flushReports: async () => {},
    flushMetrics: () => {},
  };
  // Second n of the schedule, an hour before the clock (whole seconds, as cron fires are).
  const t0 = env.clock.now() - 3_600_000;
  const second = (n: number) => t0 + n * 1000;
  /** Job 1's fire of second `n`, planned in slot `n` of its range. */
  const fire = (n: number, overrides: Partial<FireMessage> = {}): FireMessage => ({
    jobId: 1,
    logId: BASE + n,
    scheduledTime: second(n),
    triggerType: 'CRON',
    dedupKey: scheduledDedupKey(1, second(n)),
    scheduleRevision: 1,
    ...overrides,
  });
  /** One ring record per fire (each second is its own message on the ring), delivered in one batch. */
  const batch = (fires: readonly FireMessage[]) =>
    dispatchRingBatch(
      deps,
      fires.map((f, i): RingRecord => ({ id: `m${f.logId ?? i}`, lane: 'fast', body: JSON.stringify([f]) })),
      env.clock.now() + 60_000,
    );
  /** Sets the clock `ms` past second `n`. */
  const at = (n: number, ms: number) => {
    env.clock.current = second(n) + ms;
  };
  const skippedRuns = () =>
    env.runs
      .all()
      .filter((r) => r.triggerCode === TRIGGER_CODE.skipped)
      .sort((a, b) => a.logId - b.logId);
  const counted = () => ({
    report: env.reports.deltas.reduce((n, d) => n + (d.delta.skipped ?? 0), 0),
    misfires: env.metrics.sum(METRIC.misfiresSkipped),
    overload: env.metrics.sum(METRIC.firesSkippedOverload),
  });
  const logged = (message: string) => env.logger.lines.filter((l) => l.message === message);
  return { env, deps, second, fire, batch, at, skippedRuns, counted, logged };
}

/** What a skip range is as stored: its first fire's skipped run standing for `count` fires until `until`. */
const range = (logId: number, scheduledTime: number, count: number, until: number): Partial<Run> => ({
  logId,
  scheduledTime,
  triggerCode: TRIGGER_CODE.skipped,
  skippedCount: count,
  skippedUntil: until,
  executorAddress: '',
  dispatchedAt: 0,
  handleCode: 0,
});

describe('dispatchRingBatch: late DO_NOTHING fires are recorded in skip ranges', () => {
  it('records a batch of 5 late seconds of a job as one skipped run standing for the 5 fires', async () => {
    const { env, second, fire, batch, at, skippedRuns, counted, logged } = setup();
    at(4, 7_000);
    expect(await batch([0, 1, 2, 3, 4].map((n) => fire(n)))).toEqual([]);

    expect(env.runs.all()).toHaveLength(1);
    const [run] = skippedRuns();
    expect(run).toMatchObject(range(BASE, second(0), 5, second(4)));
    expect(run && runStatus(run)).toBe('skipped');
    expect(run?.triggerMsg).toContain(
      `Skipped, never sent: 5 fires due from ${new Date(second(0)).toISOString()} to ${new Date(second(4)).toISOString()}`,
    );
    expect(env.transport.sent).toEqual([]);
    // Placed with one read of the job's planned runs.
    expect(env.runs.latestReads).toBe(1);
    // Counted as 5 skipped fires, said once.
    expect(counted()).toEqual({ report: 5, misfires: 5, overload: 5 });
    expect(env.reports.deltas).toEqual([{ day: '2030-01-01', delta: { skipped: 5 }, appName: 'app-a' }]);
    expect(logged('fire skipped (misfire)')).toEqual([]);
    expect(logged('fires skipped (misfire)')).toEqual([
      {
        level: 'warn',
        message: 'fires skipped (misfire)',
        attributes: expect.objectContaining({
          jobId: 1,
          logId: BASE,
          firstScheduledTime: new Date(second(0)).toISOString(),
          lastScheduledTime: new Date(second(4)).toISOString(),
          count: 5,
          latenessMs: 11_000,
          misfireStrategy: 'DO_NOTHING',
        }),
      },
    ]);
  });

  it('extends the same record with a second batch that continues it', async () => {
    const { env, second, fire, batch, at, skippedRuns, counted } = setup();
    at(4, 7_000);
    await batch([0, 1, 2, 3, 4].map((n) => fire(n)));
    at(7, 6_000);
    expect(await batch([5, 6, 7].map((n) => fire(n)))).toEqual([]);

    expect(env.runs.all()).toHaveLength(1);
    expect(skippedRuns()).toEqual([expect.objectContaining(range(BASE, second(0), 8, second(7)))]);
    expect(env.runs.latestReads).toBe(2);
    expect(skippedRuns()[0]?.triggerMsg).toContain(
      `8 fires due from ${new Date(second(0)).toISOString()} to ${new Date(second(7)).toISOString()}`,
    );
    expect(counted()).toEqual({ report: 8, misfires: 8, overload: 8 });
  });

  it('records a tick’s note of missed fires as one range of all of them, never sent, counted in the day only', async () => {
    const { env, second, fire, batch, at, skippedRuns, counted } = setup();
    at(8, 200);
    expect(await batch([fire(0, { missedThrough: { until: second(8), count: 9 } })])).toEqual([]);

    expect(skippedRuns()).toEqual([expect.objectContaining(range(BASE, second(0), 9, second(8)))]);
    expect(skippedRuns()[0]?.triggerMsg).toContain(
      `9 fires due from ${new Date(second(0)).toISOString()} to ${new Date(second(8)).toISOString()}: not planned within 5 s`,
    );
    expect(env.transport.sent).toEqual([]);
    // The tick counted them in its metrics; the day's report counts them here.
    expect(counted()).toEqual({ report: 9, misfires: 0, overload: 0 });

    // Late fires that follow extend it; a note delivered again is recognised.
    at(11, 6_000);
    expect(
      await batch([fire(9), fire(10), fire(0, { missedThrough: { until: second(8), count: 9 } })]),
    ).toEqual([]);
    expect(skippedRuns()).toEqual([expect.objectContaining(range(BASE, second(0), 11, second(10)))]);
    expect(counted()).toEqual({ report: 11, misfires: 2, overload: 2 });
  });

  it('sends the fires still on time in the same batch, in schedule order, and records the late ones below them', async () => {
    const { env, second, fire, batch, at, skippedRuns } = setup();
    // Seconds 0–2 are more than 5 s past, 3 and 4 within it.
    at(0, 7_500);
    expect(await batch([4, 2, 0, 3, 1].map((n) => fire(n)))).toEqual([]);

    expect(env.transport.sent.map((s) => s.param.logId)).toEqual([BASE + 3, BASE + 4]);
    expect(skippedRuns()).toEqual([expect.objectContaining(range(BASE, second(0), 3, second(2)))]);
    // The job's late fires are written in its turn, before its later fires claim.
    expect(env.runs.all().map((r) => [r.logId - BASE, runStatus(r)])).toEqual([
      [0, 'skipped'],
      [3, 'running'],
      [4, 'running'],
    ]);
  });

  it('extends one range from two batches in flight at once, whichever writes first, in schedule order', async () => {
    const { env, second, fire, batch, at, skippedRuns } = setup();
    at(0, 9_500);
    // Two pollers' batches of a backlog: the later seconds' batch starts first.
    const later = batch([2, 3].map((n) => fire(n)));
    const earlier = batch([0, 1].map((n) => fire(n)));
    expect(await Promise.all([later, earlier])).toEqual([[], []]);
    expect(skippedRuns()).toEqual([expect.objectContaining(range(BASE, second(0), 4, second(3)))]);
    expect(env.transport.sent).toEqual([]);
  });

  it('starts a new record after a fire that ran in between, and leaves the range before it as it was', async () => {
    const { env, second, fire, batch, at, skippedRuns, counted } = setup();
    at(0, 7_500);
    await batch([0, 1, 2, 3].map((n) => fire(n))); // 0–2 skipped, 3 sent
    at(4, 9_000);
    expect(await batch([4, 5].map((n) => fire(n)))).toEqual([]);

    expect(env.transport.sent.map((s) => s.param.logId)).toEqual([BASE + 3]);
    expect(skippedRuns()).toEqual([
      expect.objectContaining(range(BASE, second(0), 3, second(2))),
      expect.objectContaining(range(BASE + 4, second(4), 2, second(5))),
    ]);
    expect(counted().report).toBe(5);
  });

  it('starts a new record where a second of the schedule is missing from the backlog', async () => {
    const { fire, batch, at, second, skippedRuns } = setup();
    at(9, 6_000);
    await batch([0, 1, 2, 5, 6].map((n) => fire(n)));
    expect(skippedRuns()).toEqual([
      expect.objectContaining(range(BASE, second(0), 3, second(2))),
      expect.objectContaining(range(BASE + 5, second(5), 2, second(6))),
    ]);
  });

  it('counts nothing twice when a batch is delivered again, whole or in part', async () => {
    const { env, second, fire, batch, at, skippedRuns, counted, logged } = setup();
    at(4, 7_000);
    await batch([0, 1, 2, 3, 4].map((n) => fire(n)));
    expect(await batch([0, 1, 2, 3, 4].map((n) => fire(n)))).toEqual([]);
    expect(counted()).toEqual({ report: 5, misfires: 5, overload: 5 });
    expect(logged('late fires recorded before ignored').at(-1)?.attributes).toEqual({ jobId: 1, count: 5 });

    // A redelivery overlapping the range's end adds only the fires past it.
    at(6, 6_000);
    await batch([2, 3, 4, 5, 6].map((n) => fire(n)));
    expect(env.runs.all()).toHaveLength(1);
    expect(skippedRuns()).toEqual([expect.objectContaining(range(BASE, second(0), 7, second(6)))]);
    expect(counted()).toEqual({ report: 7, misfires: 7, overload: 7 });
  });

  it('counts a backlog taken in two batches, the later seconds first, once each', async () => {
    const { env, second, fire, batch, at, skippedRuns, counted } = setup();
    at(7, 6_000);
    await batch([5, 6, 7].map((n) => fire(n)));
    await batch([0, 1, 2, 3, 4].map((n) => fire(n)));
    expect(skippedRuns()).toEqual([
      expect.objectContaining(range(BASE, second(0), 5, second(4))),
      expect.objectContaining(range(BASE + 5, second(5), 3, second(7))),
    ]);
    expect(counted().report).toBe(8);
    // Again, both: nothing more.
    await batch([0, 1, 2, 3, 4, 5, 6, 7].map((n) => fire(n)));
    expect(env.runs.all()).toHaveLength(2);
    expect(counted().report).toBe(8);
  });

  it('takes over as skipped a fire claimed before but never sent, on its own, and ranges the others around it', async () => {
    const { env, second, fire, batch, at, skippedRuns, counted } = setup();
    // Second 2 was claimed to be sent by a dispatcher that died before sending it.
    const claimed = sentRun(BASE + 2, {
      jobId: 1,
      appName: 'app-a',
      triggerTime: second(2) - 250,
      scheduledTime: second(2),
      triggerType: 'CRON',
    });
    expect(await env.runs.claim(claimed, env.runs.newClaimToken(second(2) - 250))).toEqual({ created: true });
    at(4, 60_000);
    expect(await batch([0, 1, 2, 3, 4].map((n) => fire(n)))).toEqual([]);

    expect(env.transport.sent).toEqual([]);
    expect(skippedRuns()).toEqual([
      expect.objectContaining(range(BASE, second(0), 2, second(1))),
      expect.objectContaining({ logId: BASE + 2, triggerCode: TRIGGER_CODE.skipped }),
      expect.objectContaining(range(BASE + 3, second(3), 2, second(4))),
    ]);
    expect(skippedRuns()[1]).not.toHaveProperty('skippedCount');
    expect(counted()).toEqual({ report: 5, misfires: 5, overload: 5 });
  });

  it('never holds a later fire back: one on time above a range is sent, not overtaken', async () => {
    const { env, fire, batch, at, skippedRuns } = setup();
    at(4, 7_000);
    await batch([0, 1, 2, 3, 4].map((n) => fire(n)));
    at(12, -400);
    expect(await batch([fire(12)])).toEqual([]);
    expect(env.transport.sent.map((s) => s.param.logId)).toEqual([BASE + 12]);
    expect(skippedRuns()).toHaveLength(1);
  });

  it('FIRE_ONCE_NOW: still runs one catch-up of a late backlog, and skips the rest on their own', async () => {
    const { env, fire, batch, at, skippedRuns } = setup({ misfireStrategy: 'FIRE_ONCE_NOW' });
    at(4, 7_000);
    expect(await batch([0, 1, 2, 3, 4].map((n) => fire(n)))).toEqual([]);
    expect(env.transport.sent.map((s) => s.param.logId)).toEqual([BASE]);
    expect(skippedRuns().map((r) => r.logId - BASE)).toEqual([1, 2, 3, 4]);
    expect(skippedRuns().filter((r) => r.skippedCount !== undefined)).toEqual([]);
  });

  it('leaves a late fire without a planned logId, or a broadcast job’s, to its own claim', async () => {
    const { fire, batch, at, skippedRuns } = setup();
    at(4, 7_000);
    await batch([0, 1].map((n) => fire(n, { logId: undefined })));
    expect(skippedRuns()).toHaveLength(2);
    expect(skippedRuns().filter((r) => r.skippedCount !== undefined)).toEqual([]);

    const broadcast = setup({ executorRouteStrategy: 'SHARDING_BROADCAST' });
    broadcast.at(4, 7_000);
    await broadcast.batch([0, 1].map((n) => broadcast.fire(n)));
    // One skipped run per executor (two in its group) and fire.
    expect(broadcast.skippedRuns()).toHaveLength(4);
    expect(broadcast.env.runs.all().filter((r) => r.skippedCount !== undefined)).toEqual([]);
  });

  it('delivers the records again when the range cannot be written, and counts the fires once then', async () => {
    const { env, second, fire, batch, at, skippedRuns, counted } = setup();
    at(4, 7_000);
    env.runs.failCreateFire = { times: 3, error: new Error('store unavailable') };
    const failed = await batch([0, 1, 2].map((n) => fire(n)));
    expect(failed.sort()).toEqual([`m${BASE}`, `m${BASE + 1}`, `m${BASE + 2}`]);
    expect(env.runs.all()).toEqual([]);
    expect(counted().report).toBe(0);

    expect(await batch([0, 1, 2].map((n) => fire(n)))).toEqual([]);
    expect(skippedRuns()).toEqual([expect.objectContaining(range(BASE, second(0), 3, second(2)))]);
    expect(counted().report).toBe(3);
  });
});
