import type { Job } from '@tickring/client';
import { Time } from '../components/common';

/** A schedule's bounds and state as a job, or a workflow through its starter job, shows them. */
export type BoundedSchedule = Pick<
  Job,
  'timeZone' | 'startAt' | 'endAt' | 'maxRuns' | 'runsRemaining' | 'jitterSeconds' | 'scheduleEnded'
>;

/** Why a schedule ended, in words. */
const ENDED_TEXT = {
  maxRuns: 'its most scheduled runs were used up',
  endAt: 'its end was reached',
  noNextFire: 'it fires no more',
  calendar: 'its calendars allow none of its fires',
} as const;

/** " — the schedule ended (why) at …", after the status; nothing while it has not ended. */
export function ScheduleEndedNote({ schedule }: { schedule: BoundedSchedule }) {
  const ended = schedule.scheduleEnded;
  if (!ended) return null;
  return (
    <>
      {' '}
      <span class="muted">
        — the schedule ended ({ENDED_TEXT[ended.reason]}) at <Time at={ended.at} zone={schedule.timeZone} />
      </span>
    </>
  );
}

/** The facts rows (dt/dd) of a schedule's bounds and jitter: only those it has. */
export function ScheduleBoundsFacts({ schedule }: { schedule: BoundedSchedule }) {
  return (
    <>
      {(schedule.startAt || schedule.endAt) && (
        <>
          <dt>Between</dt>
          <dd>
            {schedule.startAt ? <Time at={schedule.startAt} zone={schedule.timeZone} /> : 'now'} –{' '}
            {schedule.endAt ? <Time at={schedule.endAt} zone={schedule.timeZone} /> : 'no end'}
          </dd>
        </>
      )}
      {schedule.maxRuns !== null && (
        <>
          <dt>Scheduled runs left</dt>
          <dd>
            {schedule.runsRemaining ?? 0} of {schedule.maxRuns}
          </dd>
        </>
      )}
      {schedule.jitterSeconds > 0 && (
        <>
          <dt>Jitter</dt>
          <dd>each fire up to {schedule.jitterSeconds} s after its scheduled time</dd>
        </>
      )}
    </>
  );
}
