import { DynamoRunStore } from '@tickring/aws/dynamodb';
import { silentLogger } from '@tickring/core/common';
import { type FireMessage, LOG_IDS_PER_PLAN } from '@tickring/core/dispatch';
import type { JobStore } from '@tickring/core/jobs';
import { firstPlannedLogId } from '@tickring/core/runs';
import {
  lastPlanFires,
  planHorizonMs,
  replanLostFires,
  runTickLoop,
  tickOnce,
} from '@tickring/core/tick/use-cases';
import { FakeClock, makeJob, makeRun } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { drainRing } from './ring-reader.js';
import { nextWholeSecond, recording, tickHarness } from './tick-harness.js';

const { env, stores, deps, settings, releaseAll, nextIds } = tickHarness('tick');
// Each test has job ids of its own and reads only what its recorder saw, so a test leaves its
// delayed fires on the ring rather than waiting them out: only the first reads the ring back.

describe('scheduler tick on the stand-ins', () => {
  it('turns a job firing every second for 10 s into exactly 10 ring messages with the right times and delays', async () => {
    const [id] = nextIds(1) as [number];
    const t0 = nextWholeSecond(Date.now(), 60_000);
    // Ticks at whole seconds from t0 - 5 s: the second at t0 + k s enters the window at t0 + (k - 4) s.
    const clock = new FakeClock(t0 - 5_000);
    const { jobs, ring } = stores();
    await jobs.create(makeJob({ id, scheduleConf: '* * * * * ?', triggerNextTime: t0 }));
    const recorder = recording(ring);

    await runTickLoop(deps({ clock, ring: recorder }), settings('solo'), clock.now() + 10_500);

    const mine = recorder.sent.filter((e) => e.message.jobId === id);
    expect(mine.map((e) => e.message.scheduledTime)).toEqual(
      Array.from({ length: 10 }, (_, i) => t0 + i * 1000),
    );
    // Each fire was enqueued 4 s ahead (4 whole seconds of SQS delay).
    expect(mine.map((e) => e.delaySeconds)).toEqual(Array(10).fill(4));
    expect(
      mine.every(
        (e) => e.message.triggerType === 'CRON' && e.message.dedupKey === `${id}#${e.message.scheduledTime}`,
      ),
    ).toBe(true);

    // The messages become visible 4 s after they were sent.
    const received = await drainRing(env().clients.sqs, env().resources.queues.ringFast.url, {
      expected: 10,
      match: (m) => m.jobId === id,
      minWaitMs: 6_000,
      timeoutMs: 30_000,
    });
    expect(
      received
        .filter((r) => r.message.jobId === id)
        .map((r) => r.message.scheduledTime)
        .sort(),
    ).toEqual(mine.map((e) => e.message.scheduledTime));
    expect((await jobs.get(id))?.triggerNextTime).toBe(t0 + 10_000);
  });

  it('plans a due job ahead to planAheadMs: every second fires once, in order, with one advance per ~5 fires', async () => {
    const [id] = nextIds(1) as [number];
    const t0 = nextWholeSecond(Date.now(), 60_000);
    const clock = new FakeClock(t0 - 5_000);
    const { jobs, ring } = stores();
    await jobs.create(makeJob({ id, scheduleConf: '* * * * * ?', triggerNextTime: t0 }));
    const recorder = recording(ring);
    let advances = 0;
    const countingJobs: JobStore = Object.assign(Object.create(jobs) as JobStore, {
      advanceSchedule: (update: Parameters<JobStore['advanceSchedule']>[0]) => {
        if (update.id === id) advances++;
        return jobs.advanceSchedule(update);
      },
    });

    const ahead = settings('ahead', { planAheadMs: 10_000 });
    await runTickLoop(deps({ clock, ring: recorder, jobs: countingJobs }), ahead, clock.now() + 20_500);

    const times = recorder.sent.filter((e) => e.message.jobId === id).map((e) => e.message.scheduledTime);
    // Ticks ran from t0 - 5 s to t0 + 15 s: at least every second up to the last tick's pre-read
    // window (t0 + 20 s) is planned, each exactly once, in order.
    expect(times).toEqual(Array.from({ length: times.length }, (_, i) => t0 + i * 1000));
    expect(times.length).toBeGreaterThanOrEqual(20);
    // The whole-second SQS delays still put each message on the ring just before its fire, no
    // further out than the job's plan horizon.
    for (const e of recorder.sent.filter((x) => x.message.jobId === id)) {
      expect(e.delaySeconds).toBeLessThanOrEqual(planHorizonMs(ahead, id) / 1000);
    }
    expect(advances).toBeLessThanOrEqual(Math.ceil(times.length / 4));
    expect((await jobs.get(id))?.triggerNextTime).toBe(t0 + times.length * 1000);
  });

  it('numbers planned fires from the job’s own block, one block per plan, the same numbers again after a crash', async () => {
    const [id] = nextIds(1) as [number];
    const t0 = nextWholeSecond(Date.now(), 120_000);
    const clock = new FakeClock(t0 - 4_000);
    const { jobs, ring } = stores();
    await jobs.create(makeJob({ id, scheduleConf: '* * * * * ?', triggerNextTime: t0 }));
    const recorder = recording(ring);
    const ticking = settings('blocks', { planAheadMs: 10_000 });
    const mine = () => recorder.sent.filter((e) => e.message.jobId === id).map((e) => e.message);

    // The first plan starts the job's range; its advance moves the block on for the next plan.
    await tickOnce(deps({ clock, ring: recorder }), ticking, clock.now());
    expect(mine().map((m) => m.logId)).toEqual(mine().map((_, i) => firstPlannedLogId(id) + i));
    const [block] = (await jobs.getPlannable([id])).map((p) => p.logIdBlock);
    expect(block).toBe(firstPlannedLogId(id) + LOG_IDS_PER_PLAN);

    // The next plan (due again within 5 s) numbers its fires from that block, in schedule order.
    recorder.sent.length = 0;
    clock.advance(t0 + 5_000 - clock.now());
    const before = await jobs.get(id);
    // A crash after sending: the advance never happens.
    const crashing: JobStore = Object.assign(Object.create(jobs) as JobStore, {
      advanceSchedule: async () => false,
    });
    await tickOnce(deps({ clock, ring: recorder, jobs: crashing }), ticking, clock.now());
    const first = mine();
    expect(first.length).toBeGreaterThan(1);
    expect(first.map((m) => m.logId)).toEqual(first.map((_, i) => (block as number) + i));
    expect((await jobs.get(id))?.triggerNextTime).toBe(before?.triggerNextTime);

    // The re-plan sends the same fires with the same logIds, so the dispatcher claims each once.
    recorder.sent.length = 0;
    await tickOnce(deps({ clock, ring: recorder }), ticking, clock.now());
    expect(mine().map((m) => [m.scheduledTime, m.logId])).toEqual(
      first.map((m) => [m.scheduledTime, m.logId]),
    );
    const [next] = (await jobs.getPlannable([id])).map((p) => p.logIdBlock);
    expect(next).toBe((block as number) + LOG_IDS_PER_PLAN);
    await releaseAll('blocks');
  });

  it('after a misfire numbers the fires by their place in the schedule, so none takes the slot of a fire sent before', async () => {
    const [id] = nextIds(1) as [number];
    const t0 = nextWholeSecond(Date.now(), 180_000);
    const { jobs, ring } = stores();
    const recorder = recording(ring);
    await jobs.create(
      makeJob({ id, scheduleConf: '* * * * * ?', triggerNextTime: t0, misfireStrategy: 'FIRE_ONCE_NOW' }),
    );
    const clock = new FakeClock(t0 - 4_000);
    await tickOnce(deps({ clock, ring: recorder }), settings('misfire'), clock.now()); // reserves a block
    const [block] = (await jobs.getPlannable([id])).map((p) => p.logIdBlock);
    const due = (await jobs.get(id))?.triggerNextTime as number;
    recorder.sent.length = 0;

    // The tick comes back 8 s after `due`: a misfire; the missed time keeps the first slot.
    clock.advance(due + 8_000 - clock.now());
    await tickOnce(deps({ clock, ring: recorder }), settings('misfire'), clock.now());
    const fires = recorder.sent.filter((e) => e.message.jobId === id).map((e) => e.message);
    expect(fires[0]).toMatchObject({ triggerType: 'MISFIRE', logId: block });
    for (const m of fires.slice(1)) {
      expect(m.logId).toBe((block as number) + (m.scheduledTime - due) / 1_000);
    }
    await releaseAll('misfire');
  });

  it('keeps where its last two plans began, so a restart that lost the ring re-sends exactly the fires no dispatcher sent', async () => {
    const [id] = nextIds(1) as [number];
    const t0 = nextWholeSecond(Date.now(), 240_000);
    const clock = new FakeClock(t0 - 4_000);
    const { jobs, ring } = stores();
    const runs = new DynamoRunStore({
      doc: env().clients.doc,
      runsTable: env().resources.tables.runs,
      controlTable: env().resources.tables.control,
      retentionDays: 1,
    });
    const claimStaleMs = 20_000;
    const replan = () =>
      replanLostFires({ jobs, runs, ring: recorder, clock, logger: silentLogger }, { claimStaleMs });
    await jobs.create(makeJob({ id, scheduleConf: '* * * * * ?', triggerNextTime: t0 }));
    const recorder = recording(ring);
    const ticking = settings('replan', { planAheadMs: 10_000 });
    const mine = () => recorder.sent.filter((e) => e.message.jobId === id);
    await tickOnce(deps({ clock, ring: recorder }), ticking, clock.now());
    // Planned again up to 5 s before the first plan ends: fires of both can be on the ring.
    clock.advance(((await jobs.get(id))?.triggerNextTime as number) - 4_000 - clock.now());
    await tickOnce(deps({ clock, ring: recorder }), ticking, clock.now());
    const planned = mine().map((e) => e.message);
    expect(planned.length).toBeGreaterThan(8);

    // The job knows both plans: the same fires, logIds, keys and revision as the tick sent.
    const [plannable] = await jobs.getPlannable([id]);
    expect(plannable?.prevPlanDue).toBe(t0);
    expect(lastPlanFires(plannable as NonNullable<typeof plannable>)).toEqual(planned);

    // Before the crash: the first fire was claimed and sent; the second claimed, its dispatcher
    // died before sending it (no dispatch record lists it); the others were still on the ring.
    const [sent, held] = planned as [FireMessage, FireMessage];
    const claimOf = async (fire: FireMessage) => {
      const token = runs.newClaimToken(fire.scheduledTime - 250);
      const run = makeRun({
        logId: fire.logId as number,
        jobId: id,
        triggerType: fire.triggerType,
        dedupKey: fire.dedupKey,
        scheduledTime: fire.scheduledTime,
        triggerTime: fire.scheduledTime - 250,
      });
      expect((await runs.claim(run, token)).created).toBe(true);
      return token;
    };
    await runs.recordDispatch(await claimOf(sent), [
      { logId: sent.logId as number, appName: 'a', deadline: 0 },
    ]);
    await claimOf(held);
    recorder.sent.length = 0;
    const result = await replan();
    expect(mine().map((e) => e.message)).toEqual(planned.slice(1));
    // Never-claimed fires come at their time; the held one once its claim has gone stale.
    expect(mine().map((e) => e.delaySeconds)).toEqual([
      Math.floor((held.scheduledTime - 250 + claimStaleMs + 1_000 - clock.now()) / 1000),
      ...planned.slice(2).map((m) => Math.max(0, Math.floor((m.scheduledTime - clock.now()) / 1000))),
    ]);
    expect(result).toMatchObject({ jobs: 1, heldByTheDead: 1 });

    // Once every fire was sent, a restart re-sends nothing.
    for (const fire of planned.slice(1)) {
      const token = fire === held ? undefined : await claimOf(fire);
      if (token)
        await runs.recordDispatch(token, [{ logId: fire.logId as number, appName: 'a', deadline: 0 }]);
    }
    await runs.complete(held.logId as number, { handleCode: 200, handleMsg: '', handleTime: clock.now() });
    recorder.sent.length = 0;
    await replan();
    expect(mine()).toEqual([]);
    await releaseAll('replan');
  });

  it('forgets the last plan after a misfire, whose fires are not the schedule’s from its due', async () => {
    const [id] = nextIds(1) as [number];
    const t0 = nextWholeSecond(Date.now(), 300_000);
    const { jobs, ring } = stores();
    await jobs.create(makeJob({ id, scheduleConf: '* * * * * ?', triggerNextTime: t0 }));
    const clock = new FakeClock(t0 - 4_000);
    await tickOnce(deps({ clock, ring }), settings('forget'), clock.now());
    expect((await jobs.getPlannable([id]))[0]?.lastPlanDue).toBe(t0);
    const due = (await jobs.get(id))?.triggerNextTime as number;
    clock.advance(due + 8_000 - clock.now());
    await tickOnce(deps({ clock, ring }), settings('forget'), clock.now());
    expect((await jobs.getPlannable([id]))[0]?.lastPlanDue).toBeUndefined();
    await releaseAll('forget');
  });
});
