import { type Run, TRIGGER_CODE } from '../runs/run.js';
import { onRunFinished } from '../runs/run-outcome.js';
import type { DispatchDeps } from './dispatch-deps.js';
import type { DispatchOutcome } from './dispatch-outcome.js';
import type { FireContext } from './fire-context.js';
import { catchUpNote, lateReason, type Misfire, misfireAfterClaim, misfireOf } from './misfire.js';
import type { DispatchSettings } from './settings.js';
import { noteSkipped, skipOwnClaim } from './skip.js';
import { skippedTriggerMsg, withNote } from './trigger-text.js';

/**
 * A duplicate delivery. Runs recorded but never sent (no dispatch record under their claim lists
 * them) are taken over when their claim is stale (the dispatcher that recorded them died), under
 * the misfire policy of a scheduled fire (see `misfireOf`): a late DO_NOTHING fire is
 * taken over as skipped (one write, in place of the take-over), the rest are checked as a claim of
 * our own is; runs refused long ago whose retry/alarm never happened (the dispatcher died between
 * recording the refusal and enqueueing the retry) get it now; the retry's own dedupKey keeps a
 * second retry from running twice. A run that was sent is never touched.
 */
export async function reclaimUndispatched(
  deps: DispatchDeps,
  settings: DispatchSettings,
  ctx: FireContext,
  logIds: readonly number[],
  claimToken: string,
): Promise<{ runs: Run[]; skipped?: DispatchOutcome }> {
  const stored = await deps.runs.getMany(logIds);
  const staleBefore = deps.clock.now() - settings.claimStaleMs;
  for (const run of stored) {
    const outcomePending =
      run.triggerCode === TRIGGER_CODE.fail &&
      run.handleCode === 0 &&
      run.alarmStatus === 0 &&
      run.dispatchedAt < staleBefore;
    if (!outcomePending) continue;
    deps.logger.warn('finishing a refused run whose retry or alarm was never handled', {
      jobId: run.jobId,
      logId: run.logId,
    });
    // Its failure was counted when it was refused; only the retry or alarm is missing.
    await onRunFinished(deps, run, false, { countersDone: true });
  }
  // Only runs claimed long ago and still unfinished can be unsent; only they cost a look at their record.
  const suspects = stored.filter(
    (r) => r.triggerCode === TRIGGER_CODE.success && r.handleCode === 0 && r.claimAt < staleBefore,
  );
  const sentUnder = new Map<string, Promise<ReadonlySet<number>>>();
  const taken: Run[] = [];
  const skipped: Run[] = [];
  let skipReason = '';
  let misfire: Misfire | undefined;
  for (const run of suspects.sort((a, b) => a.shardIndex - b.shardIndex)) {
    let sent = sentUnder.get(run.claimToken);
    if (!sent) {
      sent = deps.runs.dispatchedUnder(run.claimToken);
      sentUnder.set(run.claimToken, sent);
    }
    if ((await sent).has(run.logId)) continue;
    const now = deps.clock.now();
    const previous = { previousToken: run.claimToken, staleBeforeMs: now - settings.claimStaleMs };
    misfire = misfireOf(ctx.job, ctx.message, now);
    const { claimToken: _t, claimAt: _c, ...plain } = run;
    if (misfire?.skip) {
      skipReason = lateReason(misfire);
      const triggerMsg = skippedTriggerMsg(ctx.job, run.triggerType, skipReason);
      if (
        await deps.runs.skipClaimed(run.logId, { claimToken, triggerMsg, nowMs: now, takeOver: previous })
      ) {
        skipped.push(plain);
      }
      continue;
    }
    const triggerMsg = misfire?.catchUp ? withNote(run.triggerMsg, catchUpNote(misfire)) : undefined;
    const reclaimed = await deps.runs.reclaim(run.logId, {
      ...previous,
      claimToken,
      nowMs: now,
      ...(triggerMsg === undefined ? {} : { triggerMsg }),
    });
    if (reclaimed) taken.push(triggerMsg === undefined ? plain : { ...plain, triggerMsg });
  }
  if (skipped.length > 0) {
    return { runs: taken, skipped: await noteSkipped(deps, ctx, skipped, skipReason, skipped, true) };
  }
  if (taken.length > 0 && misfire) {
    const reason = await misfireAfterClaim(deps, settings, ctx, misfire, taken);
    if (reason !== undefined)
      return { runs: [], skipped: await skipOwnClaim(deps, ctx, taken, claimToken, reason) };
  }
  return { runs: taken };
}
