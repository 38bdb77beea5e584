import type { Job } from '../jobs/job.js';
import type { DispatchDeps } from './dispatch-deps.js';

/** XXL-JOB's slow-pool rule: more than 10 triggers slower than 500 ms in a minute. */
export const SLOW_DISPATCH_MS = 500;
export const SLOW_DISPATCHES_PER_MINUTE = 10;
/** How long a job demoted to the slow lane stays there (renewed while it stays slow). */
export const SLOW_LANE_MS = 60_000;
/** A send leaving more than this after its fire's time: the dispatcher is behind (see noteSlowDispatch). */
export const DISPATCHER_BEHIND_MS = 1_000;

/**
 * XXL-JOB's slow pool: > 10 dispatches over 500 ms in the current minute sends the job's fires to the
 * slow lane. `leftLateMs`: how late the send left (after the fire's time). A send that left more than
 * `DISPATCHER_BEHIND_MS` late says the dispatcher is behind, and its answer waited on the same busy
 * process: that is not the job's slowness, and demoting every job under overload moved the load to
 * the slow lane, where admission control (which reads the fast lane) did not see it.
 */
export async function noteSlowDispatch(
  deps: Pick<DispatchDeps, 'clock' | 'slowTracker' | 'jobs' | 'logger'>,
  job: Job,
  dispatchMs: number,
  leftLateMs: number,
): Promise<void> {
  if (dispatchMs <= SLOW_DISPATCH_MS || leftLateMs > DISPATCHER_BEHIND_MS) return;
  const now = deps.clock.now();
  // In the slow lane for more than half of its time yet: a count now could only renew a mark that
  // holds. Under overload every dispatch is slow, and counting each cost two writes per fire.
  if (job.slowUntil - now > SLOW_LANE_MS / 2) return;
  const count = await deps.slowTracker.countSlowDispatch(job.id, now);
  if (count <= SLOW_DISPATCHES_PER_MINUTE) return;
  await deps.jobs.markSlow(job.id, now + SLOW_LANE_MS);
  if (job.slowUntil <= now) {
    deps.logger.warn('job moved to the slow lane', {
      jobId: job.id,
      slowDispatchesThisMinute: count,
      dispatchMs,
    });
  }
}
