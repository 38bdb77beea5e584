import { describe, expect, it } from 'vitest';
import { msUntilTickPhase, planHorizonMs, TICK_PHASE_MS } from './run-tick.js';

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
