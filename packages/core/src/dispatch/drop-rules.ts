import type { Job } from '../jobs/job.js';
import type { FireMessage, TriggerType } from './trigger.js';

/**
 * Fires planned by the tick: dropped when the job was stopped or re-scheduled since, and subject to
 * the job's misfire strategy when late or out of order (see `misfireOf`). Manual, API, parent and
 * retry fires always run.
 */
export const SCHEDULED_TRIGGERS: ReadonlySet<TriggerType> = new Set(['CRON', 'FIX_RATE', 'ONCE', 'MISFIRE']);

/** Why the fire is not run at all, or undefined to run it. */
export function dropReason(job: Job | undefined, message: FireMessage): string | undefined {
  if (!job) return 'the job does not exist';
  if (!SCHEDULED_TRIGGERS.has(message.triggerType)) return undefined; // manual, API, parent, retry: always run
  // A stop or a schedule edit bumps the revision. The tick's own stop at the end of a schedule does
  // not, so the last fires of a ONCE job (or of a cron with a final year) still run.
  if (message.scheduleRevision === job.scheduleRevision) return undefined;
  if (job.triggerStatus !== 'RUNNING') return 'the job was stopped after the fire was planned';
  return `the schedule changed since the fire was planned (revision ${message.scheduleRevision ?? 'none'} → ${job.scheduleRevision})`;
}
