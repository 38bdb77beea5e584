import { type Clock, mapLimit, systemClock } from '@tickring/core/common';
import type { RingQueue } from '@tickring/core/dispatch';
import type { JobStore } from '@tickring/core/jobs';
import type { LeaseStore } from '@tickring/core/tick';
import { runTickLoop } from '@tickring/core/tick/use-cases';
import { makeJob } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { drainRing } from './ring-reader.js';
import { nextWholeSecond, recording, SHARDS, tickHarness } from './tick-harness.js';

/** The tick on the stand-ins (continued from run-tick.int.test.ts, split so the two run side by side). */
const { env, stores, deps, settings, nextIds } = tickHarness('tick-leases');

describe('scheduler tick on the stand-ins: races, standby, edits, load', () => {
  it('never enqueues the same fire twice when two ticks race on the same shards', async () => {
    const ids = nextIds(8);
    const { jobs, ring } = stores();
    const start = nextWholeSecond(Date.now(), 1_000);
    await Promise.all(
      ids.map((id) => jobs.create(makeJob({ id, scheduleConf: '* * * * * ?', triggerNextTime: start }))),
    );
    const recorder = recording(ring);
    const until = Date.now() + 6_000;

    await Promise.all([
      runTickLoop(deps({ ring: recorder }), settings('racer-a'), until),
      runTickLoop(deps({ ring: recorder }), settings('racer-b'), until),
    ]);

    const mine = recorder.sent.filter((e) => ids.includes(e.message.jobId));
    const keys = mine.map((e) => e.message.dedupKey);
    expect(new Set(keys).size).toBe(keys.length);
    // Every second of every job up to the last window is covered.
    for (const id of ids) {
      const times = mine
        .filter((e) => e.message.jobId === id)
        .map((e) => e.message.scheduledTime)
        .sort();
      expect(times.length).toBeGreaterThanOrEqual(6);
      expect(times).toEqual(times.map((_, i) => start + i * 1000));
    }
    await drainRing(env().clients.sqs, env().resources.queues.ringFast.url, {
      quietMs: 500,
      timeoutMs: 20_000,
    });
  });

  it("hands a dead holder's shards to the standby within 5 s, losing no fire", async () => {
    const ids = nextIds(4);
    const { jobs, leases, ring } = stores();
    const start = nextWholeSecond(Date.now(), 1_000);
    await Promise.all(
      ids.map((id) => jobs.create(makeJob({ id, scheduleConf: '* * * * * ?', triggerNextTime: start }))),
    );
    const recorder = recording(ring);

    // The holder "dies" 3 s in: from then on every call it makes fails, and it never releases.
    const deathAt = Date.now() + 3_000;
    let lastHeldAt = 0;
    const dying = <T extends object>(target: T): T =>
      new Proxy(target, {
        get(obj, prop, receiver) {
          const value = Reflect.get(obj, prop, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            if (Date.now() >= deathAt) return Promise.reject(new Error('holder killed'));
            return value.apply(obj, args);
          };
        },
      });
    const holderLeases: LeaseStore = {
      acquire: async (...args) => {
        const lease = await dying(leases).acquire(...args);
        if (lease) lastHeldAt = Date.now();
        return lease;
      },
      release: async () => {}, // a dead process releases nothing
    };
    const holder = runTickLoop(
      deps({ leases: holderLeases, jobs: dying(jobs) as JobStore, ring: dying(recorder) as RingQueue }),
      settings('holder'),
      Date.now() + 20_000,
    ).catch(() => 'dead');

    // The standby starts a moment later, so the holder has the shards first.
    await new Promise((r) => setTimeout(r, 300));
    const takeovers: number[] = [];
    let slowestAcquireMs = 0;
    const standbyLeases: LeaseStore = {
      acquire: async (...args) => {
        const t0 = Date.now();
        const lease = await leases.acquire(...args);
        slowestAcquireMs = Math.max(slowestAcquireMs, Date.now() - t0);
        if (lease?.tookOver) takeovers.push(Date.now());
        return lease;
      },
      release: (shard, owner) => leases.release(shard, owner),
    };
    const standby = runTickLoop(
      deps({ leases: standbyLeases, ring: recorder }),
      settings('standby'),
      Date.now() + 11_000,
    );

    expect(await holder).toBe('dead');
    await standby;

    expect(takeovers.length).toBe(SHARDS);
    // The lease (3 s) and the standby's next iteration (1 s) after the holder's last renewal, with a
    // second to spare, plus what the store's lease requests took in this run (once 5,018 ms beside
    // the whole test suite).
    for (const at of takeovers) expect(at - lastHeldAt).toBeLessThanOrEqual(5_000 + slowestAcquireMs);
    for (const id of ids) {
      const times = [
        ...new Set(recorder.sent.filter((e) => e.message.jobId === id).map((e) => e.message.scheduledTime)),
      ].sort();
      // Contiguous seconds from the first fire: nothing was skipped during the hand-over.
      expect(times.length).toBeGreaterThanOrEqual(10);
      expect(times).toEqual(times.map((_, i) => start + i * 1000));
      expect(recorder.sent.some((e) => e.message.jobId === id && e.message.triggerType === 'MISFIRE')).toBe(
        false,
      );
    }
    await drainRing(env().clients.sqs, env().resources.queues.ringFast.url, {
      quietMs: 500,
      timeoutMs: 20_000,
    });
  });

  it('stops enqueuing a job stopped mid-window and follows an edited schedule from its next fire', async () => {
    const [stoppedId, editedId] = nextIds(2) as [number, number];
    const { jobs, ring } = stores();
    const start = nextWholeSecond(Date.now(), 1_000);
    await jobs.create(makeJob({ id: stoppedId, scheduleConf: '* * * * * ?', triggerNextTime: start }));
    await jobs.create(makeJob({ id: editedId, scheduleConf: '* * * * * ?', triggerNextTime: start }));
    const recorder = recording(ring);
    const loop = runTickLoop(deps({ ring: recorder }), settings('editor'), Date.now() + 9_000);

    await new Promise((r) => setTimeout(r, 2_500));
    const stopped = (await jobs.get(stoppedId))!;
    await jobs.replace(
      {
        ...stopped,
        triggerStatus: 'STOPPED',
        triggerNextTime: null,
        scheduleRevision: 2,
        version: stopped.version + 1,
      },
      stopped,
    );
    const stoppedAt = Date.now();
    const edited = (await jobs.get(editedId))!;
    const newFirst = nextWholeSecond(Date.now(), 5_000);
    await jobs.replace(
      {
        ...edited,
        scheduleType: 'FIX_RATE',
        scheduleConf: '3',
        triggerNextTime: newFirst,
        scheduleRevision: 2,
        version: edited.version + 1,
      },
      edited,
    );
    await loop;

    const stoppedFires = recorder.sent.filter((e) => e.message.jobId === stoppedId);
    expect(stoppedFires.length).toBeGreaterThan(0);
    // Nothing was planned for it after the stop (fires already on the ring carry revision 1,
    // which the dispatcher drops).
    expect(stoppedFires.every((e) => e.message.scheduleRevision === 1)).toBe(true);
    expect(Math.max(...stoppedFires.map((e) => e.message.scheduledTime))).toBeLessThan(stoppedAt + 5_000);

    const after = recorder.sent.filter(
      (e) => e.message.jobId === editedId && e.message.scheduleRevision === 2,
    );
    expect(after.map((e) => e.message.scheduledTime)).toEqual(after.map((_, i) => newFirst + i * 3_000));
    expect(after.length).toBeGreaterThanOrEqual(1);
    expect(after.every((e) => e.message.triggerType === 'FIX_RATE')).toBe(true);
    await drainRing(env().clients.sqs, env().resources.queues.ringFast.url, {
      quietMs: 500,
      timeoutMs: 20_000,
    });
  });

  it('enqueues 2,000 jobs due in the same second once each, none of them as a misfire', async () => {
    const ids = nextIds(2_000);
    const { jobs, ring } = stores();
    // Far enough ahead that creating the jobs (about 10 s here) ends before the second is pre-read.
    const due = nextWholeSecond(Date.now(), 60_000);
    await mapLimit(ids, 32, (id) =>
      jobs.create(makeJob({ id, scheduleType: 'FIX_RATE', scheduleConf: '3600', triggerNextTime: due })),
    );
    const recorder = recording(ring);
    // The tick starts half a second after the second entered the pre-read window, on a clock moved
    // forward to then rather than after waiting for it: the ring's delays follow the same clock.
    const shift = due - 4_500 - Date.now();
    expect(shift).toBeGreaterThan(0);
    const clock: Clock = { now: () => Date.now() + shift, sleep: systemClock.sleep };
    const started = Date.now();
    await runTickLoop(deps({ ring: recorder, clock }), settings('bulk'), clock.now() + 1_000);
    const elapsed = Date.now() - started;

    const mine = recorder.sent.filter((e) => e.message.jobId >= ids[0]! && e.message.jobId <= ids.at(-1)!);
    expect(mine).toHaveLength(2_000);
    expect(new Set(mine.map((e) => e.message.jobId)).size).toBe(2_000);
    expect(mine.every((e) => e.message.scheduledTime === due && e.message.triggerType === 'FIX_RATE')).toBe(
      true,
    );
    console.info(`[measure] 2,000 jobs due in one second enqueued by one tick iteration in ${elapsed} ms`);

    const received = await drainRing(env().clients.sqs, env().resources.queues.ringFast.url, {
      expected: 2_000,
      minWaitMs: 8_000,
      quietMs: 3_000,
      timeoutMs: 60_000,
      pollers: 8,
      match: (m) => ids.includes(m.jobId),
    });
    const receivedKeys = received.filter((r) => ids.includes(r.message.jobId)).map((r) => r.message.dedupKey);

    expect(receivedKeys).toHaveLength(2_000);
    expect(new Set(receivedKeys).size).toBe(2_000);
  }, 180_000);
});
