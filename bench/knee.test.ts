import { describe, expect, it } from 'vitest';
import { findKnee } from './knee.js';

/** A store that runs clean up to `capacity` jobs, recording the counts tried. */
function store(capacity: number) {
  const tried: number[] = [];
  return {
    tried,
    run: async (jobs: number) => {
      tried.push(jobs);
      return { clean: jobs <= capacity, result: `${jobs}` };
    },
  };
}

describe('findKnee', () => {
  it('grows while clean, then bisects between the last clean and the first failed count', async () => {
    const s = store(420);
    const knee = await findKnee(s.run, { start: 200, max: 5000 });

    // 200, 300, 450 (fails), then 375 (clean), 413 (clean).
    expect(s.tried).toEqual([200, 300, 450, 375, 413]);
    expect(knee.highestClean).toBe(413);
    expect(knee.lowestFailed).toBe(450);
    expect(knee.steps.map((step) => [step.jobs, step.clean, step.result])).toEqual([
      [200, true, '200'],
      [300, true, '300'],
      [450, false, '450'],
      [375, true, '375'],
      [413, true, '413'],
    ]);
  });

  it('stops at the most jobs allowed when every run is clean', async () => {
    const s = store(10_000);
    const knee = await findKnee(s.run, { start: 100, max: 200, growth: 2 });

    expect(s.tried).toEqual([100, 200]);
    expect(knee).toMatchObject({ highestClean: 200, lowestFailed: undefined });
  });

  it('reports no clean count when the first run already fails, and bisects below it', async () => {
    const s = store(10);
    const knee = await findKnee(s.run, { start: 100, max: 1000, bisections: 3 });

    expect(s.tried).toEqual([100, 50, 25, 13]);
    expect(knee).toMatchObject({ highestClean: undefined, lowestFailed: 13 });
  });

  it('refuses a growth that would not grow', async () => {
    await expect(findKnee(store(1).run, { start: 1, max: 2, growth: 1 })).rejects.toThrow(/growth/);
  });
});
