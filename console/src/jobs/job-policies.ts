// A job's failure policy and deadline in words: its rule, why it was paused, where it stands against
// its deadline. Pure.

import type { Job, PausedBy } from '@tickring/client';

/** "3 failures in a row, resumes after 600 s" / "3 failures of the last 5". */
export function failurePolicyText(policy: NonNullable<Job['failurePolicy']>): string {
  const rule = policy.pauseAfter;
  const what =
    'consecutive' in rule
      ? `pause after ${rule.consecutive} failure${rule.consecutive === 1 ? '' : 's'} in a row`
      : `pause after ${rule.failures} failure${rule.failures === 1 ? '' : 's'} of the last ${rule.ofLast}`;
  return policy.resumeAfterSeconds === undefined
    ? `${what}; stays paused until started`
    : `${what}; resumes ${policy.resumeAfterSeconds} s later`;
}

/** "3 of the last 5 failed" / "3 in a row failed": what met the rule when the job was paused. */
export function pausedReasonText(paused: PausedBy, policy: Job['failurePolicy']): string {
  if (policy && 'consecutive' in policy.pauseAfter && paused.failures === paused.ofLast)
    return `${paused.failures} in a row failed`;
  return `${paused.failures} of the last ${paused.ofLast} failed`;
}

/** "06:00 Europe/Berlin" or "06:00 Europe/Berlin on weekdays". */
export function deadlineText(deadline: NonNullable<Job['deadline']>): string {
  return `${deadline.time} ${deadline.timeZone}${deadline.days === 'weekdays' ? ' on weekdays' : ''}`;
}
