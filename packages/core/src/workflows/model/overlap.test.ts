import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../common/errors.js';
import { OVERLAP_POLICIES } from './definition.js';
import { overlapDecision } from './overlap.js';

const action = (...args: Parameters<typeof overlapDecision>) => overlapDecision(...args).action;

describe('overlapDecision', () => {
  it('starts when nothing runs or waits, whatever the policy', () => {
    for (const policy of OVERLAP_POLICIES) expect(action(policy, 0, 0)).toBe('start');
  });

  it('SKIP skips while a run is running', () => {
    expect(overlapDecision('SKIP', 1, 0)).toEqual({
      action: 'skip',
      reason: '1 run of the workflow is running (overlap policy SKIP)',
    });
    expect(action('SKIP', 3, 0)).toBe('skip');
  });

  it('BUFFER_ONE keeps one waiting and skips the rest', () => {
    expect(overlapDecision('BUFFER_ONE', 1, 0)).toEqual({
      action: 'buffer',
      reason: '1 run of the workflow is running; this one waits for it (overlap policy BUFFER_ONE)',
    });
    expect(action('BUFFER_ONE', 1, 1)).toBe('skip');
    // The running run has ended and the waiting one is about to start: it stands for this fire too.
    expect(action('BUFFER_ONE', 0, 1)).toBe('skip');
  });

  it('ALLOW starts beside running runs', () => {
    expect(action('ALLOW', 5, 0)).toBe('start');
  });

  it('CANCEL_PREVIOUS cancels the running runs, then starts', () => {
    expect(overlapDecision('CANCEL_PREVIOUS', 2, 0)).toEqual({
      action: 'cancel-previous-then-start',
      reason: '2 runs of the workflow are running; cancelled for this one (overlap policy CANCEL_PREVIOUS)',
    });
  });

  it('refuses counts that are not counts, and unknown policies', () => {
    expect(() => overlapDecision('SKIP', -1, 0)).toThrow(ValidationError);
    expect(() => overlapDecision('SKIP', 0, 0.5)).toThrow('bufferedCount must be a count');
    expect(() => overlapDecision('QUEUE' as never, 1, 0)).toThrow('unknown overlap policy QUEUE');
  });
});
