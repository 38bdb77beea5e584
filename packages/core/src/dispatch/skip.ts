import { METRIC } from '../common/metrics.js';
import { dayOf, type Run } from '../runs/run.js';
import type { DispatchDeps } from './dispatch-deps.js';
import type { DispatchOutcome } from './dispatch-outcome.js';
import type { FireContext } from './fire-context.js';
import { iso } from './misfire.js';
import { skippedTriggerMsg } from './trigger-text.js';

/** Rewrites runs we claimed (not sent) as skipped. */
export async function skipOwnClaim(
  deps: DispatchDeps,
  ctx: FireContext,
  runs: readonly Run[],
  claimToken: string,
  reason: string,
): Promise<DispatchOutcome> {
  const nowMs = deps.clock.now();
  const skipped: Run[] = [];
  for (const run of runs) {
    const triggerMsg = skippedTriggerMsg(ctx.job, run.triggerType, reason);
    if (await deps.runs.skipClaimed(run.logId, { claimToken, triggerMsg, nowMs })) {
      skipped.push(run);
    } else {
      // Only a take-over of our claim changes it: not sent by us either way.
      deps.logger.warn('a skipped run changed meanwhile; left as it is', {
        jobId: run.jobId,
        logId: run.logId,
      });
    }
  }
  return noteSkipped(deps, ctx, runs, reason, skipped);
}

/**
 * Counts and logs a fire recorded as skipped (a misfire): the runs `recorded` as skipped count in
 * the daily report counters of their trigger day and group, as sent runs count as running. `late`:
 * skipped because it reached the dispatcher past the misfire threshold, a sign the scheduler is
 * behind (METRIC.firesSkippedOverload).
 */
export async function noteSkipped(
  deps: DispatchDeps,
  ctx: FireContext,
  runs: readonly Pick<Run, 'logId'>[],
  reason: string,
  recorded: readonly Pick<Run, 'triggerTime' | 'appName'>[],
  late = false,
): Promise<DispatchOutcome> {
  const { job, message } = ctx;
  const logIds = runs.map((r) => r.logId);
  deps.metrics.add(METRIC.misfiresSkipped, 'Count', 1);
  if (late) deps.metrics.add(METRIC.firesSkippedOverload, 'Count', 1);
  for (const run of recorded) await deps.reports.add(dayOf(run.triggerTime), { skipped: 1 }, run.appName);
  deps.logger.warn('fire skipped (misfire)', {
    jobId: job.id,
    logId: logIds[0],
    ...(logIds.length > 1 ? { logIds } : {}),
    scheduledTime: iso(message.scheduledTime),
    latenessMs: deps.clock.now() - message.scheduledTime,
    reason,
    misfireStrategy: job.misfireStrategy,
  });
  return { kind: 'skipped', logIds, reason };
}
