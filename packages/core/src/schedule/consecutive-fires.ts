/**
 * Which fire times of a schedule follow one another: a late backlog of a job's fires is recorded as
 * ranges of consecutive fires (see the dispatcher's skip ranges), and a range stands for every fire
 * between its first and its last only if none of the schedule's fires is missing in between.
 */
import { ValidationError } from '../common/errors.js';
import { nextFireAfter, type Schedule } from './schedule.js';

/**
 * Whether `later` is the schedule's very next fire after `earlier`. False after a ONCE schedule's one
 * fire, and for a schedule that cannot be read (a range then simply ends there).
 */
export function followsInSchedule(s: Schedule, earlier: number, later: number): boolean {
  try {
    return nextFireAfter(s, earlier) === later;
  } catch (err) {
    if (err instanceof ValidationError) return false;
    throw err;
  }
}

/**
 * Splits ascending fire times into runs of consecutive fires: in each run every time is the
 * schedule's next fire after the one before it. Runs keep the input order; none is empty.
 */
export function consecutiveFireRuns(s: Schedule, times: readonly number[]): number[][] {
  const runs: number[][] = [];
  let current: number[] = [];
  for (const time of times) {
    const last = current.at(-1);
    if (last !== undefined && !followsInSchedule(s, last, time)) {
      runs.push(current);
      current = [];
    }
    current.push(time);
  }
  if (current.length > 0) runs.push(current);
  return runs;
}
