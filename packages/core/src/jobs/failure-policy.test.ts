import { describe, expect, it } from 'vitest';
import {
  afterPause,
  EMPTY_HISTORY,
  type FailurePolicy,
  failurePolicyProblems,
  type OutcomeHistory,
  recordFinalOutcome,
} from './failure-policy.js';

/** Feeds outcomes (true = failed) through the rule; answers the decision of each. */
function feed(
  policy: FailurePolicy | undefined,
  outcomes: readonly boolean[],
  start: OutcomeHistory = EMPTY_HISTORY,
) {
  let history = start;
  return outcomes.map((failed, i) => {
    const decision = recordFinalOutcome(history, { logId: 100 + i, failed, at: 1_000 + i }, policy);
    history = decision.pause ? afterPause(decision.history) : decision.history;
    return { ...decision, stored: history };
  });
}

describe('recordFinalOutcome', () => {
  it('pauses on the Nth final failure in a row, and a success in between starts the count again', () => {
    const policy = { pauseAfter: { consecutive: 3 } };
    const decisions = feed(policy, [true, true, false, true, true, true]);
    expect(decisions.map((d) => d.pause ?? null)).toEqual([
      null,
      null,
      null,
      null,
      null,
      { failures: 3, ofLast: 3 },
    ]);
  });

  it('pauses when N of the last M final outcomes failed, wherever the successes fall', () => {
    const policy = { pauseAfter: { failures: 3, ofLast: 5 } };
    const decisions = feed(policy, [true, false, true, false, true]);
    expect(decisions.map((d) => d.pause ?? null)).toEqual([
      null,
      null,
      null,
      null,
      { failures: 3, ofLast: 5 },
    ]);
    // The oldest failure falls out of the window: 2 of the last 5.
    const sliding = feed(policy, [true, false, false, false, true, true]);
    expect(sliding.map((d) => d.pause ?? null)).toEqual([null, null, null, null, null, null]);
  });

  it('never pauses on a success, nor without a policy (a deadline alone)', () => {
    expect(feed({ pauseAfter: { consecutive: 1 } }, [false]).map((d) => d.pause)).toEqual([undefined]);
    expect(feed(undefined, [true, true, true]).map((d) => d.pause)).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('counts a run once: the same logId again (a re-driven outcome) is a duplicate and changes nothing', () => {
    const policy = { pauseAfter: { consecutive: 2 } };
    const first = recordFinalOutcome(EMPTY_HISTORY, { logId: 7, failed: true, at: 1 }, policy);
    const again = recordFinalOutcome(first.history, { logId: 7, failed: true, at: 2 }, policy);
    expect(again).toEqual({ history: first.history, duplicate: true, recovered: false });
    expect(first.history.revision).toBe(1);
  });

  it('needs the rule met anew after a pause, and calls the first success after a failure a recovery', () => {
    const policy = { pauseAfter: { consecutive: 2 } };
    const decisions = feed(policy, [true, true, true, false, false]);
    expect(decisions.map((d) => Boolean(d.pause))).toEqual([false, true, false, false, false]);
    expect(decisions.map((d) => d.recovered)).toEqual([false, false, false, true, false]);
  });

  it('remembers the last success time for the deadline, and keeps it through failures', () => {
    const decisions = feed(undefined, [false, true]);
    expect(decisions.map((d) => d.history.lastSuccessAt)).toEqual([1_000, 1_000]);
  });
});

describe('failurePolicyProblems', () => {
  it('accepts both rules with or without a cooling-off period', () => {
    expect(failurePolicyProblems({ pauseAfter: { consecutive: 3 } })).toEqual([]);
    expect(
      failurePolicyProblems({ pauseAfter: { failures: 3, ofLast: 5 }, resumeAfterSeconds: 600 }),
    ).toEqual([]);
  });

  it('names every problem at once: N above M, a bad cooling-off, an unknown field', () => {
    const problems = failurePolicyProblems({
      pauseAfter: { failures: 6, ofLast: 5 },
      resumeAfterSeconds: 5,
      pauseAfterr: 1,
    });
    expect(problems.map((p) => p.field)).toEqual([
      'failurePolicy.pauseAfterr',
      'failurePolicy.pauseAfter.failures',
      'failurePolicy.resumeAfterSeconds',
    ]);
    expect(problems[1]?.message).toContain('must not exceed ofLast (5)');
  });

  it('refuses a rule that is neither shape, and counts out of range', () => {
    expect(failurePolicyProblems({ pauseAfter: { consecutive: 0 } })[0]?.field).toBe(
      'failurePolicy.pauseAfter.consecutive',
    );
    expect(failurePolicyProblems({ pauseAfter: { failures: 2 } })[0]?.message).toContain('{consecutive: N}');
    expect(failurePolicyProblems({})[0]?.field).toBe('failurePolicy.pauseAfter');
  });
});
