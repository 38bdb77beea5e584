import { describe, expect, it } from 'vitest';
import { rampSteps } from './ramp-plan.js';

describe('rampSteps', () => {
  it('climbs from the start by half again each step and ends at 3× the knee', () => {
    // 3 × 844 = 2,532; 1,943 × 1.5 would pass it.
    expect(rampSteps({ start: 50, knee: 844 })).toEqual([
      50, 75, 113, 170, 255, 383, 575, 863, 1295, 1943, 2532,
    ]);
  });

  it('goes straight to the top when the step before it would be within a tenth of it', () => {
    // 50, 75, 113, 170; the top, 3 × 60 = 180, is less than 1.1 × 170: 170 is dropped.
    expect(rampSteps({ start: 50, knee: 60 })).toEqual([50, 75, 113, 180]);
  });

  it('takes its multiple and growth from the options', () => {
    expect(rampSteps({ start: 10, knee: 20, over: 2, growth: 2 })).toEqual([10, 20, 40]);
  });

  it('grows by at least one fire a second, however small the start', () => {
    expect(rampSteps({ start: 1, knee: 2, growth: 1.2 })).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('is the start alone when the top is not above it', () => {
    expect(rampSteps({ start: 50, knee: 10 })).toEqual([50]);
  });

  it('refuses a growth, start or knee that would not climb', () => {
    expect(() => rampSteps({ start: 50, knee: 100, growth: 1 })).toThrow(/growth must be above 1/);
    expect(() => rampSteps({ start: 0, knee: 100 })).toThrow(/start must be a whole number >= 1/);
    expect(() => rampSteps({ start: 50, knee: 0 })).toThrow(/knee and multiple must be above 0/);
  });
});
