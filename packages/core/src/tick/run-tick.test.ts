import {
  FakeClock,
  MemoryAuditLog,
  MemoryCalendarStore,
  MemoryJobStore,
  MemoryLeaseStore,
  MemoryRingQueue,
  makeJob,
  testRun,
} from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import type { Calendar } from '../calendars/calendar.js';
import { calendarGate } from '../calendars/calendar-schedule.js';
import { parseCalendarSpec } from '../calendars/calendar-validation.js';
import { silentLogger } from '../common/logger.js';
import { noMetrics } from '../common/metrics.js';
import type { RingEntry } from '../dispatch/ring-queue.js';
import { LOG_IDS_PER_PLAN } from '../dispatch/trigger.js';
import { buildFireLedger } from '../runs/fire-ledger.js';
import { firstPlannedLogId, HANDLE_CODE, type Run, TRIGGER_CODE } from '../runs/run.js';
import { jitterOffsetMs } from '../schedule/index.js';
import type { OccurrenceException } from '../schedule/occurrences.js';
import { HOLD_MS, MIN_SHARE, SHARE_CUT, SUSTAINED_READINGS, TickAdmission } from './admission.js';
import type { Lease } from './lease-store.js';
import { lastPlanFires } from './replan-lost-fires.js';
import { msUntilTickPhase, planHorizonMs, runTickLoop, TICK_PHASE_MS, tickOnce } from './run-tick.js';

describe('the tick’s rhythm', () => {
  it('iterates at the half second, off the whole seconds cron and FIX_RATE fires fall on', () => {
    const second = Date.parse('2030-01-01T00:00:00Z');
    expect(TICK_PHASE_MS).toBe(500);
    expect(msUntilTickPhase(second)).toBe(500);
    expect(msUntilTickPhase(second + 499)).toBe(1);
    expect(msUntilTickPhase(second + 500)).toBe(1000);
    expect(msUntilTickPhase(second + 730)).toBe(770);
  });

  it('stretches each job’s plan by a fraction of its span fixed per job, so jobs made together fall out of step', () => {
    const settings = { preReadMs: 5_000, planAheadMs: 10_000 };
    const horizons = Array.from({ length: 200 }, (_, i) => planHorizonMs(settings, i + 1));
    for (const h of horizons) {
      expect(h).toBeGreaterThanOrEqual(10_000);
      expect(h).toBeLessThan(15_000);
    }
    expect(planHorizonMs(settings, 7)).toBe(planHorizonMs(settings, 7));
    // Spread over the range: every tenth of it holds some jobs.
    const tenths = new Set(horizons.map((h) => Math.floor((h - 10_000) / 500)));
    expect(tenths.size).toBe(10);
  });

  it('plans no further than the pre-read when planning ahead is off', () => {
    expect(planHorizonMs({ preReadMs: 5_000 }, 3)).toBe(5_000);
    expect(planHorizonMs({ preReadMs: 5_000, planAheadMs: 2_000 }, 3)).toBe(5_000);
  });
});

describe('the tick’s leases', () => {
  it('renews a lease it holds once half of it has run, not each iteration, and never lets it lapse', async () => {
    const clock = new FakeClock(Date.parse('2030-01-01T00:00:00.500Z'));
    const store = new MemoryLeaseStore();
    const acquired: { shard: number; at: number; lease: Lease | undefined }[] = [];
    const leases = {
      acquire: async (shard: number, owner: string, nowMs: number, durationMs: number) => {
        const lease = await store.acquire(shard, owner, nowMs, durationMs);
        acquired.push({ shard, at: nowMs, lease });
        return lease;
      },
      release: (shard: number, owner: string) => store.release(shard, owner),
    };
    const deps = {
      jobs: new MemoryJobStore({ shardCount: 2 }),
      leases,
      ring: new MemoryRingQueue(),
      clock,
      logger: silentLogger,
      metrics: noMetrics,
    };
    const settings = { shardCount: 2, preReadCount: 100, preReadMs: 5_000, leaseMs: 3_000, owner: 'tick' };
    const { iterations } = await runTickLoop(deps, settings, clock.now() + 20_000);

    expect(iterations).toBe(20);
    for (const shard of [0, 1]) {
      const mine = acquired.filter((a) => a.shard === shard);
      // Taken at the first iteration, then renewed every second iteration: 10, not 20, writes.
      expect(mine.map((a) => a.at - (mine[0]?.at ?? 0))).toEqual(
        Array.from({ length: 10 }, (_, i) => i * 2_000),
      );
      for (const [i, a] of mine.entries()) {
        expect(a.lease).toMatchObject({ owner: 'tick', fencingToken: 1 });
        const next = mine[i + 1];
        if (next) expect(a.lease?.leaseUntil ?? 0).toBeGreaterThan(next.at);
      }
    }
    // Handed over at the end.
    expect([...store.leases.values()].map((l) => l.leaseUntil)).toEqual([0, 0]);
  });
});

describe('an iteration', () => {
  it('sends the fires of every shard in one go, then advances each shard’s jobs', async () => {
    const start = Date.parse('2030-01-01T00:00:00.000Z');
    const clock = new FakeClock(start - 4_500);
    const jobs = new MemoryJobStore({ shardCount: 2 });
    // Jobs 1 and 2 fall in shards 1 and 0 (id % 2).
    for (const id of [1, 2])
      await jobs.create(makeJob({ id, scheduleConf: '* * * * * ?', triggerNextTime: start }));
    const sends: number[][] = [];
    const deps = {
      jobs,
      leases: new MemoryLeaseStore(),
      ring: {
        enqueue: async (entries: readonly RingEntry[]) =>
          void sends.push(entries.map((e) => e.message.jobId)),
      },
      clock,
      logger: silentLogger,
      metrics: noMetrics,
    };
    const settings = { shardCount: 2, preReadCount: 100, preReadMs: 5_000, leaseMs: 3_000, owner: 't' };
    const results = await tickOnce(deps, settings, clock.now());
    expect(sends).toEqual([[2, 1]]);
    expect(results.map((r) => [r.shard, r.held, r.firesEnqueued])).toEqual([
      [0, true, 1],
      [1, true, 1],
    ]);
    expect((await jobs.get(1))?.triggerNextTime).toBe(start + 1_000);
    expect((await jobs.get(2))?.triggerNextTime).toBe(start + 1_000);
  });
});

describe('a plan', () => {
  it('ends with its block of logIds: the fires past it are the next plan’s, each with its logId', async () => {
    const start = Date.parse('2030-01-01T00:00:00.000Z');
    const clock = new FakeClock(start - 4_500);
    const jobs = new MemoryJobStore({ shardCount: 1 });
    await jobs.create(makeJob({ id: 1, scheduleConf: '* * * * * ?', triggerNextTime: start }));
    const sent: RingEntry[] = [];
    const deps = {
      jobs,
      leases: new MemoryLeaseStore(),
      ring: { enqueue: async (entries: readonly RingEntry[]) => void sent.push(...entries) },
      clock,
      logger: silentLogger,
      metrics: noMetrics,
    };
    // Planned a minute ahead: sixty fires, more than a block holds.
    const settings = {
      shardCount: 1,
      preReadCount: 100,
      preReadMs: 5_000,
      planAheadMs: 65_000,
      leaseMs: 3_000,
      owner: 't',
    };
    await tickOnce(deps, settings, clock.now());
    expect(sent).toHaveLength(LOG_IDS_PER_PLAN);
    clock.advance(LOG_IDS_PER_PLAN * 1_000);
    await tickOnce(deps, settings, clock.now());
    const fires = sent.map((e) => e.message);
    expect(fires.map((f) => f.scheduledTime)).toEqual(fires.map((_, i) => start + i * 1_000));
    expect(fires.map((f) => f.logId)).toEqual(fires.map((_, i) => firstPlannedLogId(1) + i));
  });
});

describe('a bounded schedule', () => {
  const start = Date.parse('2030-01-01T00:00:00.000Z');
  const settings = { shardCount: 1, preReadCount: 100, preReadMs: 5_000, leaseMs: 3_000, owner: 't' };
  // Planned about 10 s ahead: a plan holds several fires.
  const ahead = { ...settings, planAheadMs: 10_000 };

  async function setUp(job: Partial<Parameters<typeof makeJob>[0]>) {
    const clock = new FakeClock(start - 4_500);
    const jobs = new MemoryJobStore({ shardCount: 1 });
    await jobs.create(makeJob({ id: 1, scheduleConf: '* * * * * ?', triggerNextTime: start, ...job }));
    const sent: RingEntry[] = [];
    const audit = new MemoryAuditLog({ clock, retentionDays: 365 });
    const deps = {
      jobs,
      leases: new MemoryLeaseStore(),
      ring: { enqueue: async (entries: readonly RingEntry[]) => void sent.push(...entries) },
      audit,
      clock,
      logger: silentLogger,
      metrics: noMetrics,
    };
    return { clock, jobs, sent, audit, deps };
  }

  it('makes exactly maxRuns fires, counted in the advance, then stops itself with the reason, audited as the system', async () => {
    const { clock, jobs, sent, audit, deps } = await setUp({ maxRuns: 3, scheduledFires: 0 });
    for (let i = 0; i < 6; i++) {
      await tickOnce(deps, settings, clock.now());
      clock.advance(1_000);
    }
    expect(sent.map((e) => e.message.scheduledTime)).toEqual([start, start + 1_000, start + 2_000]);
    const job = await jobs.get(1);
    expect(job).toMatchObject({
      triggerStatus: 'STOPPED',
      triggerNextTime: null,
      scheduledFires: 3,
      scheduleEnded: { reason: 'maxRuns' },
    });
    // Stopped by the tick, not by an edit: the fires already planned keep their revision and run.
    expect(job?.scheduleRevision).toBe(1);
    const { items } = await audit.list({ limit: 10, from: 0, to: clock.now() + 1 });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      actor: { kind: 'system', name: 'scheduler' },
      action: 'job.scheduleEnded',
      target: 'job#1',
      detail: { reason: 'maxRuns', maxRuns: 3, scheduledFires: 3 },
    });
  });

  it('counts nothing twice when a tick is retried after its advance was lost (same due, same fires, one count)', async () => {
    const { clock, jobs, sent, deps } = await setUp({
      maxRuns: 10,
      scheduledFires: 4,
      scheduleConf: '0/2 * * * * ?',
    });
    let dropFirstAdvance = true;
    const flaky = {
      ...deps,
      jobs: Object.assign(Object.create(jobs), {
        advanceSchedule: async (advance: Parameters<typeof jobs.advanceSchedule>[0]) => {
          if (dropFirstAdvance) {
            dropFirstAdvance = false;
            throw new Error('crashed before the advance');
          }
          return jobs.advanceSchedule(advance);
        },
      }),
    };
    await expect(tickOnce(flaky, ahead, clock.now())).rejects.toThrow('crashed');
    const firstPlan = sent.map((e) => e.message.dedupKey);
    await tickOnce(flaky, ahead, clock.now());
    // The retry sent the same fires again (the dispatcher drops the copies); they count once.
    expect(sent.map((e) => e.message.dedupKey)).toEqual([...firstPlan, ...firstPlan]);
    expect(firstPlan.length).toBeGreaterThan(1);
    expect((await jobs.get(1))?.scheduledFires).toBe(4 + firstPlan.length);
  });

  it('stops with endAt when the next fire would pass it, and makes no fire after it', async () => {
    const { clock, jobs, sent, deps } = await setUp({ endAt: start + 2_500 });
    await tickOnce(deps, ahead, clock.now());
    expect(sent.map((e) => e.message.scheduledTime)).toEqual([start, start + 1_000, start + 2_000]);
    expect(await jobs.get(1)).toMatchObject({ triggerStatus: 'STOPPED', scheduleEnded: { reason: 'endAt' } });
  });

  it('says noNextFire when a ONCE schedule has fired', async () => {
    const { clock, jobs, deps } = await setUp({ scheduleType: 'ONCE', scheduleConf: '2030-01-01T00:00:00Z' });
    await tickOnce(deps, settings, clock.now());
    expect(await jobs.get(1)).toMatchObject({
      triggerStatus: 'STOPPED',
      scheduleEnded: { reason: 'noNextFire', at: clock.now() },
    });
  });
});

describe('a schedule with calendars', () => {
  const settings = { shardCount: 1, preReadCount: 100, preReadMs: 5_000, leaseMs: 3_000, owner: 't' };
  const ahead = { ...settings, planAheadMs: 10_000 };
  const cn: Calendar = {
    id: 'cn',
    ...parseCalendarSpec({
      name: 'China',
      timeZone: 'Asia/Shanghai',
      excluded: [{ from: '2030-10-01', to: '2030-10-07', label: 'National Day' }],
    }),
    version: 1,
    createdAt: 0,
    updatedAt: 0,
    updatedBy: 't',
  };

  async function setUp(now: number, ...made: Parameters<typeof makeJob>[0][]) {
    const clock = new FakeClock(now);
    const jobs = new MemoryJobStore({ shardCount: 1 });
    for (const job of made) await jobs.create(makeJob(job));
    const calendars = new MemoryCalendarStore();
    await calendars.create(cn);
    const reads: string[] = [];
    const sent: RingEntry[] = [];
    const audit = new MemoryAuditLog({ clock, retentionDays: 365 });
    const deps = {
      jobs,
      leases: new MemoryLeaseStore(),
      ring: { enqueue: async (entries: readonly RingEntry[]) => void sent.push(...entries) },
      calendars: {
        get: (id: string) => {
          reads.push(id);
          return calendars.get(id);
        },
      },
      audit,
      clock,
      logger: silentLogger,
      metrics: noMetrics,
    };
    return { clock, jobs, sent, reads, audit, deps };
  }

  it('makes no fire on a day removed, and a fire keeps the logId of its place in the schedule (as a re-plan after a restart rebuilds it)', async () => {
    // Sunday 29 September 23:59:58 in Shanghai: two fires of Sunday, then Monday's.
    const due = Date.parse('2030-09-29T15:59:58Z');
    const { jobs, sent, deps } = await setUp(due - 4_500, {
      id: 1,
      scheduleConf: '* * * * * ?',
      triggerNextTime: due,
      calendars: { only: ['cn'] },
    });
    await tickOnce(deps, ahead, due - 4_500);
    const fires = sent.map((e) => e.message);
    expect(fires.length).toBeGreaterThan(2);
    expect(fires.map((f) => f.scheduledTime)).toEqual(fires.map((_, i) => due + (i + 2) * 1_000));
    expect(fires.map((f) => f.logId)).toEqual(fires.map((_, i) => firstPlannedLogId(1) + i + 2));
    const [plannable] = await jobs.getPlannable([1]);
    const gate = calendarGate({ only: ['cn'] }, new Map([['cn', cn]]));
    expect(lastPlanFires(plannable as NonNullable<typeof plannable>, gate)).toEqual(fires);
  });

  it('moves the next fire over the days removed, reading a calendar once per iteration for every job naming it', async () => {
    const due = Date.parse('2030-09-30T01:00:00Z'); // Monday 09:00 in Shanghai, the day before the holidays
    const made = [1, 2, 3].map((id) => ({
      id,
      scheduleConf: '0 0 9 * * ?',
      timeZone: 'Asia/Shanghai',
      triggerNextTime: due,
      calendars: { only: ['cn'] },
    }));
    const { jobs, sent, reads, deps } = await setUp(due - 4_500, ...made);
    await tickOnce(deps, settings, due - 4_500);
    expect(sent.map((e) => e.message.scheduledTime)).toEqual([due, due, due]);
    expect(reads).toEqual(['cn']);
    for (const id of [1, 2, 3]) {
      expect((await jobs.get(id))?.triggerNextTime).toBe(Date.parse('2030-10-08T01:00:00Z'));
    }
  });

  it('makes no FIRE_ONCE_NOW catch-up, nor a DO_NOTHING skip note, for a missed fire on a day removed', async () => {
    const due = Date.parse('2030-10-01T01:00:00Z'); // National Day, 09:00 in Shanghai
    const base = {
      scheduleConf: '0 0 9 * * ?',
      timeZone: 'Asia/Shanghai',
      triggerNextTime: due,
      calendars: { exclude: ['cn'] },
    };
    const { jobs, sent, deps } = await setUp(
      due + 60_000,
      { id: 1, ...base, misfireStrategy: 'FIRE_ONCE_NOW' },
      { id: 2, ...base, misfireStrategy: 'DO_NOTHING' },
    );
    await tickOnce(deps, settings, due + 60_000);
    expect(sent).toEqual([]);
    for (const id of [1, 2]) {
      expect((await jobs.get(id))?.triggerNextTime).toBe(Date.parse('2030-10-08T01:00:00Z'));
    }
  });

  it('stops the job, saying calendar, when its calendars allow none of its fires', async () => {
    const due = Date.parse('2030-10-02T01:00:00Z');
    // A calendar deleted in a race with the job's save counts as one with no working day.
    const { jobs, sent, audit, deps, clock } = await setUp(due - 4_500, {
      id: 1,
      scheduleType: 'ONCE',
      scheduleConf: '2030-10-02T01:00:00Z',
      triggerNextTime: due,
      calendars: { only: ['gone'] },
    });
    await tickOnce(deps, settings, clock.now());
    expect(sent).toEqual([]);
    expect(await jobs.get(1)).toMatchObject({
      triggerStatus: 'STOPPED',
      triggerNextTime: null,
      scheduleEnded: { reason: 'calendar' },
    });
    const { items } = await audit.list({ limit: 10, from: 0, to: clock.now() + 1 });
    expect(items[0]).toMatchObject({
      action: 'job.scheduleEnded',
      detail: { reason: 'calendar', calendars: { only: ['gone'] } },
    });
  });
});

describe('a jittered schedule', () => {
  it('sends each fire at its scheduled time plus the offset of (job, scheduled time), the same on every plan of it', async () => {
    const start = Date.parse('2030-01-01T00:00:00.000Z');
    const plans: RingEntry[][] = [];
    for (let attempt = 0; attempt < 2; attempt++) {
      const clock = new FakeClock(start - 4_500);
      const jobs = new MemoryJobStore({ shardCount: 1 });
      await jobs.create(
        makeJob({ id: 5, scheduleConf: '0 * * * * ?', jitterSeconds: 50, triggerNextTime: start }),
      );
      const sent: RingEntry[] = [];
      const deps = {
        jobs,
        leases: new MemoryLeaseStore(),
        ring: { enqueue: async (entries: readonly RingEntry[]) => void sent.push(...entries) },
        clock,
        logger: silentLogger,
        metrics: noMetrics,
      };
      await tickOnce(
        deps,
        { shardCount: 1, preReadCount: 9, preReadMs: 5_000, leaseMs: 3_000, owner: 't' },
        clock.now(),
      );
      plans.push(sent);
    }
    const [first, again] = plans;
    const offset = jitterOffsetMs(5, start, 50);
    expect(offset).toBeGreaterThan(0);
    expect(first?.[0]?.message).toMatchObject({
      scheduledTime: start,
      fireAt: start + offset,
      dedupKey: `5#${start}`,
    });
    // The ring delay aims at the jittered time, in whole seconds.
    expect(first?.[0]?.delaySeconds).toBe(Math.floor((start + offset - (start - 4_500)) / 1000));
    expect(again?.[0]?.message).toEqual(first?.[0]?.message);
  });
});

describe('a DO_NOTHING misfire', () => {
  it('sends one note for the missed fires, in the due fire’s slot, for the dispatcher to record as a skip range', async () => {
    const due = Date.parse('2030-01-01T00:00:00.000Z');
    // The tick comes back 8.2 s after `due`: the fires of 0 s to 8 s were missed.
    const clock = new FakeClock(due + 8_200);
    const jobs = new MemoryJobStore({ shardCount: 1 });
    await jobs.create(
      makeJob({ id: 7, scheduleConf: '* * * * * ?', triggerNextTime: due, misfireStrategy: 'DO_NOTHING' }),
    );
    const sent: RingEntry[] = [];
    const deps = {
      jobs,
      leases: new MemoryLeaseStore(),
      ring: { enqueue: async (entries: readonly RingEntry[]) => void sent.push(...entries) },
      clock,
      logger: silentLogger,
      metrics: noMetrics,
    };
    const settings = { shardCount: 1, preReadCount: 100, preReadMs: 5_000, leaseMs: 3_000, owner: 't' };
    const [result] = await tickOnce(deps, settings, clock.now());

    const [note, ...fires] = sent.map((e) => e.message);
    expect(note).toMatchObject({
      jobId: 7,
      scheduledTime: due,
      logId: firstPlannedLogId(7),
      triggerType: 'CRON',
      missedThrough: { until: due + 8_000, count: 9 },
    });
    expect(sent[0]?.delaySeconds).toBe(0);
    // The schedule picks up after now; none of its fires is in the note's range.
    expect(fires.map((f) => f.scheduledTime - due)).toEqual([9_000, 10_000, 11_000, 12_000, 13_000]);
    expect(fires.every((f) => f.missedThrough === undefined && f.logId !== firstPlannedLogId(7))).toBe(true);
    expect(result?.misfiresSkipped).toBe(9);
  });

  it('counts in the note every fire of the old FIX_RATE sequence before the one it resumes at (no fire left unaccounted)', async () => {
    const due = Date.parse('2030-01-01T00:00:18.000Z');
    // 5.6 s late: the fires of 18 s to 23 s were missed, and the sequence re-counts from now (XXL-JOB's
    // FIX_RATE: now + rate, here rounded up to 25 s), so the fire of 24 s will not come either.
    const clock = new FakeClock(due + 5_600);
    const jobs = new MemoryJobStore({ shardCount: 1 });
    await jobs.create(
      makeJob({
        id: 7,
        scheduleType: 'FIX_RATE',
        scheduleConf: '1',
        triggerNextTime: due,
        misfireStrategy: 'DO_NOTHING',
      }),
    );
    const sent: RingEntry[] = [];
    const warnings: unknown[] = [];
    const deps = {
      jobs,
      leases: new MemoryLeaseStore(),
      ring: { enqueue: async (entries: readonly RingEntry[]) => void sent.push(...entries) },
      clock,
      logger: {
        ...silentLogger,
        warn: (msg: string, fields?: unknown) => void warnings.push({ msg, fields }),
      },
      metrics: noMetrics,
    };
    const settings = { shardCount: 1, preReadCount: 100, preReadMs: 5_000, leaseMs: 3_000, owner: 't' };
    const [result] = await tickOnce(deps, settings, clock.now());

    const [note, ...fires] = sent.map((e) => e.message);
    expect(note?.missedThrough).toEqual({ until: due + 6_000, count: 7 });
    expect(fires[0]?.scheduledTime).toBe(due + 7_000);
    expect(result?.misfiresSkipped).toBe(7);
    // The log names where the schedule picks up: its first fire, not the note's first missed one.
    expect(warnings).toContainEqual({
      msg: 'misfire: missed fires skipped',
      fields: expect.objectContaining({ resumesAt: new Date(due + 7_000).toISOString() }),
    });
  });
});

describe('a FIX_RATE misfire in the fire ledger', () => {
  // What the tick plans after the misfire, recorded as the dispatcher records it: the note as a skip
  // range, a catch-up as its MISFIRE run, every other fire (and the next fire after the plan) as run.
  it.each([
    ['DO_NOTHING', 1],
    ['DO_NOTHING', 60],
    ['FIRE_ONCE_NOW', 1],
    ['FIRE_ONCE_NOW', 60],
  ] as const)('leaves no fire unexplained (%s, every %i s)', async (misfireStrategy, rate) => {
    const due = Date.parse('2030-01-01T00:00:18.000Z');
    const clock = new FakeClock(due + 5_600);
    const jobs = new MemoryJobStore({ shardCount: 1 });
    const schedule = { scheduleType: 'FIX_RATE', scheduleConf: String(rate) } as const;
    await jobs.create(makeJob({ id: 7, ...schedule, triggerNextTime: due, misfireStrategy }));
    const sent: RingEntry[] = [];
    const deps = {
      jobs,
      leases: new MemoryLeaseStore(),
      ring: { enqueue: async (entries: readonly RingEntry[]) => void sent.push(...entries) },
      clock,
      logger: silentLogger,
      metrics: noMetrics,
    };
    await tickOnce(
      deps,
      { shardCount: 1, preReadCount: 10, preReadMs: 5_000, leaseMs: 3_000, owner: 't' },
      clock.now(),
    );
    const next = (await jobs.get(7))?.triggerNextTime ?? 0;

    let logId = 1;
    const run = (scheduledTime: number, fields: Partial<Run> = {}): Run =>
      testRun({
        logId: logId++,
        jobId: 7,
        appName: 'app',
        dedupKey: `7#${scheduledTime}`,
        scheduledTime,
        triggerType: 'FIX_RATE',
        triggerCode: TRIGGER_CODE.success,
        handleCode: HANDLE_CODE.success,
        ...fields,
      });
    const runs = [run(due - rate * 1000), run(next)];
    for (const { message: m } of sent) {
      if (m.missedThrough) {
        runs.push(
          run(m.scheduledTime, {
            triggerCode: TRIGGER_CODE.skipped,
            handleCode: 0,
            triggerMsg: 'Skipped, never sent: not planned within 5 s of their time',
            skippedCount: m.missedThrough.count,
            skippedUntil: m.missedThrough.until,
          }),
        );
      } else {
        runs.push(run(m.scheduledTime, { triggerType: m.triggerType }));
      }
    }
    const definition = {
      schedule: { type: 'FIX_RATE', conf: String(rate), timeZone: 'UTC' },
      bounds: {},
    } as const;
    const ledger = buildFireLedger({
      jobId: 7,
      from: due - rate * 1000,
      to: next + 1,
      nowMs: next + 3_600_000,
      periods: [{ from: due - 3_600_000, to: next + 3_600_000, running: true, definition }],
      runs,
    });
    expect(ledger.entries.filter((e) => e.outcome === 'unexplained')).toEqual([]);
    expect(ledger.entries.at(-1)).toMatchObject({ scheduledTime: next, outcome: 'ran' });
  });
});

describe('admission control', () => {
  const due = Date.parse('2030-01-01T00:00:00.000Z');
  const settings = { shardCount: 1, preReadCount: 1_000, preReadMs: 5_000, leaseMs: 3_000, owner: 't' };

  async function setUp(backlog: { waiting: number; inFlight: number }) {
    const clock = new FakeClock(due - 4_500);
    const jobs = new MemoryJobStore({ shardCount: 1 });
    for (let id = 1; id <= 400; id++)
      await jobs.create(
        makeJob({ id, scheduleConf: '* * * * * ?', triggerNextTime: due, misfireStrategy: 'DO_NOTHING' }),
      );
    const sent: RingEntry[] = [];
    const deps = {
      jobs,
      leases: new MemoryLeaseStore(),
      ring: { enqueue: async (entries: readonly RingEntry[]) => void sent.push(...entries) },
      ringGauge: { backlog: async () => backlog },
      clock,
      logger: silentLogger,
      metrics: noMetrics,
    };
    return { clock, jobs, sent, deps };
  }

  it('plans every due job while the ring keeps up', async () => {
    const { clock, sent, deps } = await setUp({ waiting: 0, inFlight: 1 });
    const admission = new TickAdmission();
    const [result] = await tickOnce(deps, settings, clock.now(), undefined, admission);
    expect(admission.state.share).toBe(1);
    expect(new Set(sent.map((e) => e.message.jobId)).size).toBe(400);
    expect(result?.firesEnqueued).toBe(400);
  });

  it('with the ring behind, plans only its share of the due jobs and leaves the others due, unwritten', async () => {
    const { clock, jobs, sent, deps } = await setUp({ waiting: 500, inFlight: 20 });
    const admission = new TickAdmission();
    admission.sent(10); // ten messages an iteration: 52 s behind, and not draining
    for (let i = SUSTAINED_READINGS - 1; i > 0; i--)
      admission.observe({ waiting: 500, inFlight: 20 }, clock.now() - i * 1000);
    await tickOnce(deps, settings, clock.now(), undefined, admission);
    expect(admission.state.share).toBe(SHARE_CUT);

    const planned = new Set(sent.map((e) => e.message.jobId));
    expect(planned.size).toBeGreaterThan(400 * SHARE_CUT - 40);
    expect(planned.size).toBeLessThan(400 * SHARE_CUT + 40);
    for (let id = 1; id <= 400; id++) {
      const job = await jobs.get(id);
      expect(job?.triggerNextTime === due).toBe(!planned.has(id));
    }
  });

  it('reads only the jobs it admits, and those past the misfire threshold', async () => {
    const { clock, jobs, sent, deps } = await setUp({ waiting: 500, inFlight: 20 });
    const read: number[] = [];
    const getPlannable = jobs.getPlannable.bind(jobs);
    jobs.getPlannable = (ids) => {
      read.push(...ids);
      return getPlannable(ids);
    };
    const admission = new TickAdmission();
    admission.sent(10);
    for (let i = SUSTAINED_READINGS - 1; i > 0; i--)
      admission.observe({ waiting: 500, inFlight: 20 }, clock.now() - i * 1000);
    await tickOnce(deps, settings, clock.now(), undefined, admission);
    const planned = new Set(sent.map((e) => e.message.jobId));
    expect(new Set(read)).toEqual(planned);

    // Past the threshold every due job is read: the left-out ones for their misfire plans.
    read.length = 0;
    clock.advance(4_500 + 6_000);
    await tickOnce(deps, settings, clock.now(), undefined, admission);
    expect(read.length).toBeGreaterThan(400 - planned.size - 1);
  });

  it('makes the misfire plan of a job left due past the threshold, but plans on past now only if admitted', async () => {
    const { clock, jobs, sent, deps } = await setUp({ waiting: 500, inFlight: 20 });
    const admission = new TickAdmission();
    admission.sent(10);
    for (let i = 0; i < 20; i++) admission.observe({ waiting: 500, inFlight: 20 }, clock.now() + i * 10_000);
    expect(admission.state.share).toBe(MIN_SHARE);
    clock.advance(4_500 + 6_000); // 6 s past due
    await tickOnce(deps, settings, clock.now(), undefined, admission);
    const notes = sent.filter((e) => e.message.missedThrough);
    expect(notes).toHaveLength(400);
    expect(notes.every((e) => e.message.missedThrough?.count === 7)).toBe(true);
    // Only the admitted jobs' plans go on past now; the others are due again at their next fire.
    const goingOn = new Set(sent.filter((e) => !e.message.missedThrough).map((e) => e.message.jobId));
    expect(goingOn.size).toBeLessThan(400 * MIN_SHARE + 20);
    for (let id = 1; id <= 400; id++) {
      const next = (await jobs.get(id))?.triggerNextTime ?? 0;
      if (goingOn.has(id)) expect(next).toBeGreaterThan(due + 7_000);
      else expect(next).toBe(due + 7_000);
    }
  });

  it('is the process’s: a loop started later goes on from the share the one before it left', async () => {
    const { clock, sent, deps } = await setUp({ waiting: 500, inFlight: 20 });
    const admission = new TickAdmission();
    admission.sent(10); // 52 s behind, and not draining
    for (let i = 0; i < 3 * SUSTAINED_READINGS; i++)
      admission.observe({ waiting: 500, inFlight: 20 }, clock.now() - 20_000 + i * HOLD_MS);
    const share = admission.state.share;
    expect(share).toBeLessThan(SHARE_CUT * SHARE_CUT);
    // The next minute's loop: its first iteration holds no lease yet, and plans at that share.
    await runTickLoop(deps, { ...settings, owner: 'next' }, clock.now() + 1, undefined, admission);
    const admitted = Array.from({ length: 400 }, (_, i) => i + 1).filter((id) => admission.admits(id, due));
    expect(admitted.length).toBeGreaterThan(0);
    expect(new Set(sent.map((e) => e.message.jobId))).toEqual(new Set(admitted));
  });

  it('is handed over with the leases: another instance’s loop taking them goes on from the share', async () => {
    const { clock, sent, deps } = await setUp({ waiting: 500, inFlight: 20 });
    const first = new TickAdmission();
    first.sent(10); // 52 s behind, and not draining
    for (let i = 0; i < 3 * SUSTAINED_READINGS; i++)
      first.observe({ waiting: 500, inFlight: 20 }, clock.now() - 20_000 + i * HOLD_MS);
    const share = first.state.share;
    expect(share).toBeLessThan(SHARE_CUT * SHARE_CUT);
    await runTickLoop(deps, { ...settings, owner: 'instance-a' }, clock.now() + 1, undefined, first);
    // The next minute's loop runs in another instance, with an admission of its own.
    const second = new TickAdmission();
    await runTickLoop(deps, { ...settings, owner: 'instance-b' }, clock.now() + 1, undefined, second);
    expect(second.state.share).toBe(share);
    const admitted = Array.from({ length: 400 }, (_, i) => i + 1).filter((id) => second.admits(id, due));
    expect(admitted.length).toBeGreaterThan(0);
    expect(new Set(sent.map((e) => e.message.jobId))).toEqual(new Set(admitted));
  });

  it('goes on from a handover only in a loop that held no shard: one already planning keeps its own share', async () => {
    const { clock, deps } = await setUp({ waiting: 0, inFlight: 1 });
    const leases = new MemoryLeaseStore();
    // Read after this loop's own reading of the iteration (another host's clock, a little ahead).
    const handover = { share: 0.3, backlogSeconds: 4, messagesPerIteration: 10, readAt: clock.now() + 500 };
    await leases.acquire(0, 'other', clock.now() - 1_000, 60_000);
    await leases.release(0, 'other', handover);
    const admission = new TickAdmission();
    admission.sent(10);
    const ours = await leases.acquire(1, 'us', clock.now(), 60_000);
    // A loop that holds a lease (its own, of another shard) and takes this one: its share stays.
    if (!ours) throw new Error('shard 1 is free');
    const two = { ...settings, shardCount: 2, owner: 'us' };
    const [first] = await tickOnce({ ...deps, leases }, two, clock.now(), new Map([[1, ours]]), admission);
    expect(first).toMatchObject({ shard: 0, held: true });
    expect(admission.state.share).toBe(1);
  });

  it('begins at a full share when the share it was left is stale (a Lambda instance’s next loop)', async () => {
    const { clock, sent, deps } = await setUp({ waiting: 500, inFlight: 20 });
    const admission = new TickAdmission();
    admission.sent(10);
    for (let i = 0; i < 3 * SUSTAINED_READINGS; i++)
      admission.observe({ waiting: 500, inFlight: 20 }, clock.now() - 300_000 + i * HOLD_MS);
    expect(admission.state.share).toBeLessThan(SHARE_CUT);
    await runTickLoop(deps, { ...settings, owner: 'later' }, clock.now() + 1, undefined, admission);
    expect(admission.state.share).toBe(1);
    expect(new Set(sent.map((e) => e.message.jobId)).size).toBe(400);
  });

  it('is left alone by a standby holding no shard: it neither reads the backlog nor counts its empty sends', async () => {
    const { clock, deps } = await setUp({ waiting: 500, inFlight: 20 });
    const other = new MemoryLeaseStore();
    await other.acquire(0, 'the active tick', clock.now(), 60_000);
    let reads = 0;
    const standby = {
      ...deps,
      leases: other,
      ringGauge: {
        backlog: async () => {
          reads++;
          return { waiting: 500, inFlight: 20 };
        },
      },
    };
    const admission = new TickAdmission();
    admission.sent(100);
    for (let i = 0; i < 10; i++) {
      await tickOnce(standby, { ...settings, owner: 'standby' }, clock.now(), new Map(), admission);
      clock.advance(1_000);
    }
    expect(reads).toBe(0);
    expect(admission.state.share).toBe(1);
    // Its sends counted (none), the active loop's 100 messages an iteration would read as 520 s.
    admission.observe({ waiting: 500, inFlight: 20 }, clock.now());
    expect(admission.state.backlogSeconds).toBeCloseTo(5.2);
  });

  it('keeps the share when the backlog cannot be read, and says so', async () => {
    const { clock, deps } = await setUp({ waiting: 0, inFlight: 0 });
    const warnings: unknown[] = [];
    const admission = new TickAdmission();
    await tickOnce(
      {
        ...deps,
        ringGauge: { backlog: async () => Promise.reject(new Error('throttled')) },
        logger: {
          ...silentLogger,
          warn: (msg: string, fields?: unknown) => void warnings.push({ msg, fields }),
        },
      },
      settings,
      clock.now(),
      undefined,
      admission,
    );
    expect(admission.state.share).toBe(1);
    expect(warnings).toContainEqual({
      msg: 'background sweep failed',
      fields: { sweep: 'ring backlog', error: 'Error: throttled' },
    });
  });
});

describe('one-off exceptions in the tick', () => {
  const start = Date.parse('2030-01-01T00:00:00.000Z');
  const by = { by: 'ana', createdAt: start - 60_000 };
  async function planOnce(job: Parameters<typeof makeJob>[0], at: number, planAheadMs = 10_000) {
    const clock = new FakeClock(at);
    const jobs = new MemoryJobStore({ shardCount: 1 });
    await jobs.create(makeJob(job));
    const sent: RingEntry[] = [];
    const deps = {
      jobs,
      leases: new MemoryLeaseStore(),
      ring: { enqueue: async (entries: readonly RingEntry[]) => void sent.push(...entries) },
      clock,
      logger: silentLogger,
      metrics: noMetrics,
    };
    const settings = {
      shardCount: 1,
      preReadCount: 9,
      preReadMs: 5_000,
      planAheadMs,
      leaseMs: 3_000,
      owner: 't',
    };
    await tickOnce(deps, settings, clock.now());
    return { sent, stored: await jobs.getPlannable([job.id ?? 0]) };
  }

  it('sends no fire for a skipped occurrence, the others in their slots, and a moved one at its new time, not jittered', async () => {
    const { sent, stored } = await planOnce(
      {
        id: 5,
        scheduleType: 'FIX_RATE',
        scheduleConf: '2',
        jitterSeconds: 1,
        triggerNextTime: start,
        occurrenceExceptions: [
          { at: start + 2_000, action: 'skip', ...by },
          { at: start + 4_000, action: 'move', to: start + 5_000, ...by },
        ],
      },
      start - 4_500,
    );
    const fires = sent.map((e) => e.message);
    const block = firstPlannedLogId(5);
    expect(fires.map((f) => f.scheduledTime)).not.toContain(start + 2_000);
    const moved = fires.find((f) => f.scheduledTime === start + 4_000);
    // The moved one keeps its scheduled time (its identity) and its place; only its fire time changes.
    expect(moved).toMatchObject({ fireAt: start + 5_000, logId: block + 2, dedupKey: `5#${start + 4_000}` });
    expect(fires.find((f) => f.scheduledTime === start)).toMatchObject({
      logId: block,
      fireAt: start + jitterOffsetMs(5, start, 1),
    });
    expect(stored[0]?.lastPlanDue).toBe(start);
  });

  it('stores a moved-later occurrence’s new time as the next fire, and plans from the occurrence when it is due', async () => {
    const exceptions = [{ at: start + 8_000, action: 'move' as const, to: start + 9_000, ...by }];
    const job = {
      id: 6,
      scheduleType: 'FIX_RATE' as const,
      scheduleConf: '2',
      occurrenceExceptions: exceptions,
    };
    // Planned up to 7.5 s: the occurrence of 8 s, moved to 9 s, is left for later, its new time stored as due.
    const first = await planOnce({ ...job, triggerNextTime: start + 6_000 }, start + 2_500, 5_000);
    expect(first.sent.map((e) => e.message.scheduledTime)).toEqual([start + 6_000]);
    expect(first.stored[0]?.job.triggerNextTime).toBe(start + 9_000);
    // Read at its new time (not late), the due stands for the occurrence: the plan counts from it.
    const due = await planOnce({ ...job, triggerNextTime: start + 9_000 }, start + 4_500, 5_000);
    expect(due.sent[0]?.message).toMatchObject({ scheduledTime: start + 8_000, fireAt: start + 9_000 });
    expect(due.sent[0]?.message.missedTime).toBeUndefined();
    expect(due.stored[0]?.lastPlanDue).toBe(start + 8_000);
  });
});

describe('calendars and one-off exceptions together in the tick', () => {
  const settings = { shardCount: 1, preReadCount: 100, preReadMs: 5_000, leaseMs: 3_000, owner: 't' };
  // Golden week off, and 9 October too, in Shanghai; every job fires daily at 09:00 there (01:00Z).
  const holidays: Calendar = {
    id: 'holidays',
    ...parseCalendarSpec({
      name: 'Holidays',
      timeZone: 'Asia/Shanghai',
      excluded: [
        { from: '2030-10-01', to: '2030-10-07', label: 'National Day' },
        { from: '2030-10-09', label: 'Bridge day' },
      ],
    }),
    version: 1,
    createdAt: 0,
    updatedAt: 0,
    updatedBy: 't',
  };
  const nineOn = (date: string) => Date.parse(`${date}T01:00:00Z`);
  const by = { by: 'ana', createdAt: nineOn('2030-09-01') };

  async function planOnce(triggerNextTime: number, occurrenceExceptions: OccurrenceException[], at: number) {
    const jobs = new MemoryJobStore({ shardCount: 1 });
    await jobs.create(
      makeJob({
        id: 1,
        scheduleConf: '0 0 9 * * ?',
        timeZone: 'Asia/Shanghai',
        triggerNextTime,
        calendars: { exclude: ['holidays'] },
        occurrenceExceptions,
      }),
    );
    const calendars = new MemoryCalendarStore();
    await calendars.create(holidays);
    const sent: RingEntry[] = [];
    const deps = {
      jobs,
      leases: new MemoryLeaseStore(),
      ring: { enqueue: async (entries: readonly RingEntry[]) => void sent.push(...entries) },
      calendars,
      clock: new FakeClock(at),
      logger: silentLogger,
      metrics: noMetrics,
    };
    await tickOnce(deps, settings, at);
    return { fires: sent.map((e) => e.message), job: await jobs.get(1) };
  }

  it('fires an occurrence moved on a day the calendars allow at its new time, keeping its scheduled time', async () => {
    const monday = nineOn('2030-09-30');
    const movedTo = monday + 30_000;
    const { fires, job } = await planOnce(
      movedTo,
      [{ at: monday, action: 'move', to: movedTo, ...by }],
      movedTo - 4_500,
    );
    expect(fires).toHaveLength(1);
    expect(fires[0]).toMatchObject({ scheduledTime: monday, fireAt: movedTo, logId: firstPlannedLogId(1) });
    expect(job?.triggerNextTime).toBe(nineOn('2030-10-08'));
  });

  it('makes no fire for an occurrence on a day the calendars remove, even when it was moved, and even when its new time is the stored next fire', async () => {
    const holiday = nineOn('2030-10-01');
    const movedTo = holiday + 3_600_000;
    const exceptions: OccurrenceException[] = [{ at: holiday, action: 'move', to: movedTo, ...by }];
    // Planned from the day before: the holiday's moved time is not the next fire.
    const before = await planOnce(nineOn('2030-09-30'), exceptions, nineOn('2030-09-30') - 4_500);
    expect(before.fires.map((f) => f.scheduledTime)).toEqual([nineOn('2030-09-30')]);
    expect(before.job?.triggerNextTime).toBe(nineOn('2030-10-08'));
    // Stored as the next fire (planned before the calendar said so): due, and still not fired.
    const due = await planOnce(movedTo, exceptions, movedTo - 4_500);
    expect(due.fires).toEqual([]);
    expect(due.job?.triggerNextTime).toBe(nineOn('2030-10-08'));
  });

  it('stores as the next fire the effective time of the next occurrence the calendars allow and no exception skips', async () => {
    const monday = nineOn('2030-09-30');
    const eighth = nineOn('2030-10-08');
    // The first allowed day after the holidays is moved: its new time is the next fire.
    const moved = await planOnce(
      monday,
      [{ at: eighth, action: 'move', to: eighth + 600_000, ...by }],
      monday - 4_500,
    );
    expect(moved.job?.triggerNextTime).toBe(eighth + 600_000);
    // It is skipped: the day after (9 October) is removed too, so the next fire is the 10th's.
    const skipped = await planOnce(monday, [{ at: eighth, action: 'skip', ...by }], monday - 4_500);
    expect(skipped.fires.map((f) => f.scheduledTime)).toEqual([monday]);
    expect(skipped.job?.triggerNextTime).toBe(nineOn('2030-10-10'));
  });
});
