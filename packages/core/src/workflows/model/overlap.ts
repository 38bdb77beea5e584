/**
 * What a new run of a workflow (a scheduled fire or a trigger) does while other runs of the same
 * workflow are still running, by its overlap policy. The engine counts the runs (RUNNING ones, and
 * the one BUFFER_ONE keeps waiting) and carries the decision out; when a run ends it starts the
 * buffered one, if any.
 */
import { ValidationError } from '../../common/errors.js';
import type { OverlapPolicy } from './definition.js';

export type OverlapAction = 'start' | 'skip' | 'buffer' | 'cancel-previous-then-start';

export interface OverlapDecision {
  readonly action: OverlapAction;
  /** Why, for the run's record (a skipped run says why it never started). */
  readonly reason: string;
}

/**
 * - No run running and none buffered: `start`, whatever the policy.
 * - SKIP: `skip` while a run is running.
 * - BUFFER_ONE: `buffer` while a run is running and none waits yet; `skip` when one already waits
 *   (it stands for this fire too), even if the running run has just ended and the buffered one is
 *   about to be started.
 * - ALLOW: `start`.
 * - CANCEL_PREVIOUS: `cancel-previous-then-start` while a run is running (every running run).
 */
export function overlapDecision(
  policy: OverlapPolicy,
  runningRuns: number,
  bufferedCount: number,
): OverlapDecision {
  for (const [name, value] of [
    ['runningRuns', runningRuns],
    ['bufferedCount', bufferedCount],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new ValidationError(`${name} must be a count (an integer of at least 0); got ${value}`, name);
    }
  }
  const running = `${runningRuns} run${runningRuns === 1 ? '' : 's'} of the workflow ${runningRuns === 1 ? 'is' : 'are'} running`;
  switch (policy) {
    case 'SKIP':
      return runningRuns === 0
        ? { action: 'start', reason: 'no run of the workflow is running' }
        : { action: 'skip', reason: `${running} (overlap policy SKIP)` };
    case 'BUFFER_ONE':
      if (bufferedCount > 0) {
        return {
          action: 'skip',
          reason: 'a run of the workflow is already waiting (overlap policy BUFFER_ONE)',
        };
      }
      return runningRuns === 0
        ? { action: 'start', reason: 'no run of the workflow is running' }
        : { action: 'buffer', reason: `${running}; this one waits for it (overlap policy BUFFER_ONE)` };
    case 'ALLOW':
      return { action: 'start', reason: 'overlap policy ALLOW' };
    case 'CANCEL_PREVIOUS':
      return runningRuns === 0
        ? { action: 'start', reason: 'no run of the workflow is running' }
        : {
            action: 'cancel-previous-then-start',
            reason: `${running}; cancelled for this one (overlap policy CANCEL_PREVIOUS)`,
          };
    default:
      throw new ValidationError(`unknown overlap policy ${String(policy)}`, 'overlapPolicy');
  }
}
