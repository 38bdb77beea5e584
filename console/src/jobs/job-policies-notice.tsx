import type { Job } from '@tickring/client';
import { Time } from '../components/common';
import { exactTime } from '../lib/format';
import { deadlineText, failurePolicyText, pausedReasonText } from './job-policies';

/** "Paused by its failure policy (3 of the last 5 failed) at …, resumes at …": while its policy stopped it. */
export function PausedNotice({ job }: { job: Job }) {
  const paused = job.pausedBy;
  if (!paused) return null;
  return (
    <div class="notice warning" role="status">
      <strong>Paused by its failure policy</strong> ({pausedReasonText(paused, job.failurePolicy)}) at{' '}
      <Time at={paused.at} zone={job.timeZone} /> <span class="muted small">({exactTime(paused.at)})</span>
      {paused.resumeAt ? (
        <>
          , resumes at <Time at={paused.resumeAt} zone={job.timeZone} />{' '}
          <span class="muted small">({exactTime(paused.resumeAt)})</span>.
        </>
      ) : (
        '; it stays off until someone turns its schedule on.'
      )}
    </div>
  );
}

const DEADLINE_BADGE = { met: 'status-success', missed: 'status-fail', pending: 'warn' } as const;

/**
 * "deadline 06:00 Europe/Berlin — met at 05:12 / missed / pending": where a job or a workflow stands
 * against its deadline.
 */
export function DeadlineBadge({ subject }: { subject: Pick<Job, 'deadline' | 'deadlineStatus'> }) {
  const deadline = subject.deadline;
  const status = subject.deadlineStatus;
  if (!deadline) return null;
  return (
    <p class="deadline-line">
      deadline {deadlineText(deadline)} —{' '}
      {status ? (
        <>
          <span class={`badge ${DEADLINE_BADGE[status.state]}`}>{status.state}</span>
          {status.at && status.state === 'met' && (
            <>
              {' '}
              at <Time at={status.at} zone={deadline.timeZone} />
            </>
          )}{' '}
          <span class="muted small">
            (window {exactTime(status.window.from, deadline.timeZone)} –{' '}
            {exactTime(status.window.to, deadline.timeZone)})
          </span>
        </>
      ) : (
        <span class="muted">not known yet</span>
      )}
    </p>
  );
}

/** The facts rows (dt/dd) of the failure policy and the deadline: only those the job has. */
export function JobPolicyFacts({ job }: { job: Job }) {
  return (
    <>
      {job.failurePolicy && (
        <>
          <dt>When runs fail</dt>
          <dd>{failurePolicyText(job.failurePolicy)}</dd>
        </>
      )}
      {job.deadline && (
        <>
          <dt>Deadline</dt>
          <dd>must have succeeded by {deadlineText(job.deadline)}</dd>
        </>
      )}
    </>
  );
}
