/**
 * A job's failure policy and the bookkeeping of its final outcomes (pure: no I/O, no clock).
 *
 * A run's outcome is final when nothing more is tried for it: a success, or a failure whose retries are
 * used up (a failure answered by a retry is not counted; the retry's own outcome is). Runs a user killed,
 * runs recorded as skipped and workflow nodes' runs are not counted.
 */
import type { Problem } from '../common/errors.js';

/** Pause after N final failures in a row, or after N of the last M final outcomes. */
export type PauseRule =
  | { readonly consecutive: number }
  | { readonly failures: number; readonly ofLast: number };

export interface FailurePolicy {
  readonly pauseAfter: PauseRule;
  /** Started again this long after the pause (by the monitors); absent: stays paused until a user starts it. */
  readonly resumeAfterSeconds?: number;
}

/** The most outcomes a rule may look at (`ofLast`, `consecutive`): they are kept on one small record. */
export const MAX_POLICY_WINDOW = 100;
/** The longest cooling-off period: 30 days. */
export const MAX_RESUME_AFTER_SECONDS = 30 * 24 * 3600;
/**
 * How many counted runs are remembered by logId beyond the rule's window, so that an outcome handled
 * twice (a re-driven outcome after a crash) is recognised and not counted again.
 */
export const REMEMBERED_OUTCOMES = 32;

/** One final outcome as remembered: the run's logId and whether it failed. */
export interface RememberedOutcome {
  readonly logId: number;
  readonly failed: boolean;
  /** Counted before the job's last pause by its policy: the rule no longer looks at it. */
  readonly beforePause?: boolean;
}

/**
 * A job's final outcomes, newest last, kept beside the job (not in it: the admin's whole-job writes
 * never race it). `revision` moves with every write (the conditional write's compare value).
 */
export interface OutcomeHistory {
  readonly revision: number;
  readonly recent: readonly RememberedOutcome[];
  /** When the job's last success was recorded (epoch ms); what its deadline looks at. */
  readonly lastSuccessAt?: number;
}

export const EMPTY_HISTORY: OutcomeHistory = { revision: 0, recent: [] };

/** The rule's window: how many of the newest outcomes it looks at. */
export function ruleWindow(rule: PauseRule): number {
  return 'consecutive' in rule ? rule.consecutive : rule.ofLast;
}

/** The rule as N (failures) of M (outcomes): N consecutive is N of the last N. */
export function ruleFailures(rule: PauseRule): { failures: number; ofLast: number } {
  return 'consecutive' in rule
    ? { failures: rule.consecutive, ofLast: rule.consecutive }
    : { failures: rule.failures, ofLast: rule.ofLast };
}

export interface OutcomeDecision {
  /** The history with this outcome in it (unchanged when `duplicate`). */
  readonly history: OutcomeHistory;
  /** The run was counted before: nothing is written and nothing follows. */
  readonly duplicate: boolean;
  /** The rule is met by this failure: the job is to be paused. */
  readonly pause?: { readonly failures: number; readonly ofLast: number };
  /** A success right after a final failure: a recovery notice is due. */
  readonly recovered: boolean;
}

/**
 * Counts one final outcome. `policy` absent (a job with only a deadline): the outcome is remembered
 * (for the recovery notice and the deadline), never pauses. The rule is met when, among the newest
 * `ofLast` outcomes, at least `failures` failed and this outcome is one of them; a success never pauses.
 */
export function recordFinalOutcome(
  history: OutcomeHistory,
  outcome: RememberedOutcome & { readonly at: number },
  policy: FailurePolicy | undefined,
): OutcomeDecision {
  if (history.recent.some((r) => r.logId === outcome.logId)) {
    return { history, duplicate: true, recovered: false };
  }
  const window = policy ? ruleWindow(policy.pauseAfter) : 1;
  const keep = Math.max(window, REMEMBERED_OUTCOMES);
  const previous = history.recent.at(-1);
  const recent: RememberedOutcome[] = [
    ...history.recent,
    { logId: outcome.logId, failed: outcome.failed },
  ].slice(-keep);
  const next: OutcomeHistory = {
    revision: history.revision + 1,
    recent,
    ...(outcome.failed
      ? history.lastSuccessAt === undefined
        ? {}
        : { lastSuccessAt: history.lastSuccessAt }
      : { lastSuccessAt: Math.max(outcome.at, history.lastSuccessAt ?? 0) }),
  };
  const recovered = !outcome.failed && previous?.failed === true;
  if (!outcome.failed || !policy) return { history: next, duplicate: false, recovered };
  const { failures, ofLast } = ruleFailures(policy.pauseAfter);
  const failed = recent.slice(-ofLast).filter((r) => r.failed && !r.beforePause).length;
  return failed >= failures
    ? { history: next, duplicate: false, pause: { failures: failed, ofLast }, recovered }
    : { history: next, duplicate: false, recovered };
}

/**
 * The history written with a pause: the outcomes so far no longer count for the rule, so a job started
 * again needs the rule met anew before it pauses again. They stay remembered (a repeat is still
 * recognised; a success after them is still a recovery).
 */
export function afterPause(history: OutcomeHistory): OutcomeHistory {
  return { ...history, recent: history.recent.map((r) => ({ ...r, beforePause: true })) };
}

/** "3 failures in a row" / "3 of the last 5": the rule for people. */
export function describePauseRule(rule: PauseRule): string {
  return 'consecutive' in rule
    ? `${rule.consecutive} final failure${rule.consecutive === 1 ? '' : 's'} in a row`
    : `${rule.failures} final failures of the last ${rule.ofLast}`;
}

/** Every problem of a failure policy as given (field names under `field`), at once. */
export function failurePolicyProblems(value: unknown, field = 'failurePolicy'): Problem[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ field, message: `${field} must be an object {pauseAfter, resumeAfterSeconds?} or null` }];
  }
  const given = value as Record<string, unknown>;
  const problems: Problem[] = [];
  for (const key of Object.keys(given)) {
    if (key !== 'pauseAfter' && key !== 'resumeAfterSeconds') {
      problems.push({
        field: `${field}.${key}`,
        message: `unknown field "${key}"; a failure policy has pauseAfter, resumeAfterSeconds`,
      });
    }
  }
  const count = (name: string, n: unknown, min: number, max: number): boolean => {
    if (Number.isSafeInteger(n) && (n as number) >= min && (n as number) <= max) return true;
    problems.push({
      field: `${field}.${name}`,
      message: `${field}.${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(n)}`,
    });
    return false;
  };
  const rule = given.pauseAfter;
  const ruleField = `${field}.pauseAfter`;
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
    problems.push({
      field: ruleField,
      message: `${ruleField} is required: {consecutive: N} or {failures: N, ofLast: M}`,
    });
  } else {
    const keys = Object.keys(rule).sort().join(',');
    const r = rule as Record<string, unknown>;
    if (keys === 'consecutive') count('pauseAfter.consecutive', r.consecutive, 1, MAX_POLICY_WINDOW);
    else if (keys === 'failures,ofLast') {
      const okN = count('pauseAfter.failures', r.failures, 1, MAX_POLICY_WINDOW);
      const okM = count('pauseAfter.ofLast', r.ofLast, 1, MAX_POLICY_WINDOW);
      if (okN && okM && (r.failures as number) > (r.ofLast as number)) {
        problems.push({
          field: `${ruleField}.failures`,
          message: `${ruleField}.failures (${r.failures}) must not exceed ofLast (${r.ofLast}): N failures of the last M outcomes`,
        });
      }
    } else {
      problems.push({
        field: ruleField,
        message: `${ruleField} must be {consecutive: N} or {failures: N, ofLast: M}, got fields ${keys === '' ? 'none' : keys}`,
      });
    }
  }
  if (given.resumeAfterSeconds !== undefined && given.resumeAfterSeconds !== null) {
    count('resumeAfterSeconds', given.resumeAfterSeconds, 60, MAX_RESUME_AFTER_SECONDS);
  }
  return problems;
}
