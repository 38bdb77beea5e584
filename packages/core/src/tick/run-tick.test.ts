import { FakeClock, MemoryJobStore, MemoryLeaseStore, MemoryRingQueue, makeJob } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../common/logger.js';
import { noMetrics } from '../common/metrics.js';
import type { RingEntry, RingQueue } from '../dispatch/ring-queue.js';
import type { FireMessage } from '../dispatch/trigger.js';
import { msUntilTickPhase, planHorizonMs, TICK_PHASE_MS, tickOnce } from './run-tick.js';

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

describe('the fires of a plan name the fire planned before each', () => {
  const t0 = Date.UTC(2030, 0, 1, 12, 0, 0);
  const setup = async () => {
    const clock = new FakeClock(t0 - 5_000);
    const jobs = new MemoryJobStore({ shardCount: 1 });
    const ring = new MemoryRingQueue({ clock });
    const sent: FireMessage[] = [];
    const recording: RingQueue = Object.assign(Object.create(ring) as RingQueue, {
      enqueue: async (entries: readonly RingEntry[]) => {
        sent.push(...entries.map((e) => e.message));
        return ring.enqueue(entries);
      },
    });
    await jobs.create(makeJob({ id: 7, scheduleConf: '* * * * * ?', triggerNextTime: t0 }));
    const deps = {
      jobs,
      leases: new MemoryLeaseStore(),
      ring: recording,
      clock,
      logger: silentLogger,
      metrics: noMetrics,
    };
    const settings = { shardCount: 1, preReadCount: 100, preReadMs: 5_000, leaseMs: 3_000, owner: 'solo' };
    return { clock, deps, settings, sent };
  };

  it('each fire after the first of its plan, and a plan’s first the last plan’s last; not the job’s first fire', async () => {
    const { clock, deps, settings, sent } = await setup();
    await tickOnce(deps, settings, clock.now());
    clock.advance(7_000); // at t0 + 2 s the job is due again (its plan ends at t0 + 5 s)
    await tickOnce(deps, settings, clock.now());
    const times = sent.map((m) => m.scheduledTime);
    expect(times.length).toBeGreaterThan(6);
    expect(times).toEqual(times.map((_, i) => t0 + i * 1000));
    expect(sent[0]?.previousFireTime).toBeUndefined();
    expect(sent.slice(1).map((m) => m.previousFireTime)).toEqual(times.slice(0, -1));
  });
});
