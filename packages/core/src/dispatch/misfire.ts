import type { Job } from '../jobs/job.js';
import { firstPlannedLogId, type Run, UNPLANNED_LOG_ID_OFFSET } from '../runs/run.js';
import { MISFIRE_THRESHOLD_MS } from '../schedule/index.js';
import type { DispatchDeps } from './dispatch-deps.js';
import { SCHEDULED_TRIGGERS } from './drop-rules.js';
import type { FireContext } from './fire-context.js';
import type { DispatchSettings } from './settings.js';
import type { FireMessage } from './trigger.js';

/**
 * The order check. A job's scheduled fires are at least this far apart (cron and FIX_RATE fires fall
 * on whole seconds, a ONCE job fires once, the tick's MISFIRE fire is the second before the next), and
 * each is claimed no earlier than `claimLeadMs` before its time; with {@link CLOCK_SKEW_MARGIN_MS} for
 * the clocks of two dispatchers, a claim completed sooner than `MIN_FIRE_GAP_MS − claimLeadMs −
 * CLOCK_SKEW_MARGIN_MS` after its fire's time cannot have been overtaken, and needs no read.
 */
const MIN_FIRE_GAP_MS = 1000;
const CLOCK_SKEW_MARGIN_MS = 250;

/**
 * A scheduled fire as the job's misfire strategy sees it when it is about to be claimed; undefined
 * for the triggers that always run (manual, API, parent, retry).
 *
 * - Late: more than MISFIRE_THRESHOLD_MS (5 s) past its time (a dispatcher that held it died and SQS
 *   redelivered it, or everything is overloaded). DO_NOTHING records it as skipped instead of sending
 *   it; FIRE_ONCE_NOW sends it as the job's catch-up, if it is the first since the fire was due.
 * - Overtaken: a later fire of the job was claimed before it (planned logIds grow in schedule order,
 *   so a run above its logId in the job's planned range is one); skipped, whatever the strategy, so
 *   a job's runs start in schedule order. Checked after the claim, and only when the claim completed
 *   late enough for a later fire to have been claimed first (see MIN_FIRE_GAP_MS): no read in the
 *   steady state. Fires without a planned logId are not checked. A late fire's claim first waits for
 *   the job's fire before it (see `waitForEarlierFire`), so tickring's own delivery order (parallel
 *   pollers, a restart's re-sends) does not make the earlier one overtaken.
 * - Catch-up: a late FIRE_ONCE_NOW fire, or the tick's own MISFIRE fire (FIRE_ONCE_NOW after a
 *   downtime), runs only if it takes the job's catch-up mark (`RunStore.takeCatchUp`): at most one
 *   catch-up per job for the fires missed before it, whoever noticed them.
 */
export interface Misfire {
  readonly strategy: string;
  readonly latenessMs: number;
  readonly late: boolean;
  /** Late under DO_NOTHING: recorded as skipped instead of being sent. */
  readonly skip: boolean;
  /** It runs only as the job's catch-up. */
  readonly catchUp: boolean;
  /** The fire time it stands for: its own, or, for a MISFIRE fire, the missed one. */
  readonly missedTime: number;
}

export function misfireOf(job: Job, message: FireMessage, nowMs: number): Misfire | undefined {
  if (!SCHEDULED_TRIGGERS.has(message.triggerType)) return undefined;
  const latenessMs = nowMs - message.scheduledTime;
  const late = latenessMs > MISFIRE_THRESHOLD_MS;
  return {
    strategy: job.misfireStrategy,
    latenessMs,
    late,
    skip: late && job.misfireStrategy !== 'FIRE_ONCE_NOW',
    catchUp: message.triggerType === 'MISFIRE' || (late && job.misfireStrategy === 'FIRE_ONCE_NOW'),
    missedTime: message.missedTime ?? message.scheduledTime,
  };
}

export const iso = (ms: number): string => new Date(ms).toISOString();

function lateText(misfire: Misfire): string {
  return `reached the dispatcher ${(misfire.latenessMs / 1000).toFixed(1)} s after its time (threshold ${
    MISFIRE_THRESHOLD_MS / 1000
  } s)`;
}

/** Why a late fire is skipped (DO_NOTHING). */
export function lateReason(misfire: Misfire): string {
  return `${lateText(misfire)}; ${misfire.strategy} skips it`;
}

/** The trigger log's note on a catch-up run. */
export function catchUpNote(misfire: Misfire): string {
  const why = misfire.late ? `${lateText(misfire)}; ` : '';
  return `Misfire: ${why}FIRE_ONCE_NOW: the catch-up of the fire due at ${iso(misfire.missedTime)}`;
}

/** Whether a later fire of the job can have been claimed by the time this one is `latenessMs` past its time. */
function mayBeOvertaken(settings: DispatchSettings, latenessMs: number): boolean {
  return latenessMs > MIN_FIRE_GAP_MS - settings.claimLeadMs - CLOCK_SKEW_MARGIN_MS;
}

/** The planned range of the fire's job holds the logId: its place in the schedule is known. */
function isPlannedLogId(jobId: number, logId: number): boolean {
  const first = firstPlannedLogId(jobId);
  return logId >= first && logId < first + UNPLANNED_LOG_ID_OFFSET;
}

/**
 * A claimed fire is sent within this long unless its dispatcher is held up (paused, starved of CPU):
 * past it, a later fire of its job claimed after ours may have been sent already (on time, it did not
 * look for ours), so ours is skipped as overtaken.
 */
const CLAIM_TO_SEND_MS = 1000;

/**
 * After a scheduled fire's runs were claimed (or taken over) by us at `claimedAt`: why they must not
 * be sent (overtaken, or a catch-up that lost the job's mark), or undefined to send them. Overtaken:
 * a later fire of the job was claimed before ours, or at all once we are held up past
 * CLAIM_TO_SEND_MS. A later fire claimed after ours, in time, waited for ours (`waitForEarlierFire`)
 * and is sent after it: no reason to skip.
 */
export async function misfireAfterClaim(
  deps: Pick<DispatchDeps, 'runs' | 'clock'>,
  settings: DispatchSettings,
  ctx: FireContext,
  misfire: Misfire,
  runs: readonly Run[],
  claimedAt: number,
): Promise<string | undefined> {
  const { message } = ctx;
  const [only] = runs;
  const now = deps.clock.now();
  const overtakable = mayBeOvertaken(settings, now - message.scheduledTime);
  if (runs.length === 1 && only && isPlannedLogId(message.jobId, only.logId) && overtakable) {
    const later = await deps.runs.laterPlannedRun(only.logId);
    if (later && (later.claimAt <= claimedAt || now - claimedAt > CLAIM_TO_SEND_MS)) {
      return `overtaken by the fire due at ${iso(later.scheduledTime)}, claimed before it`;
    }
  }
  if (!misfire.catchUp) return undefined;
  const won = await deps.runs.takeCatchUp(message.jobId, {
    missedTime: misfire.missedTime,
    nowMs: now,
    fireKey: message.dedupKey,
  });
  if (won) return undefined;
  return misfire.late
    ? `${lateText(misfire)}; FIRE_ONCE_NOW: a catch-up already ran since`
    : `FIRE_ONCE_NOW: a catch-up already ran since the fire due at ${iso(misfire.missedTime)}`;
}

/**
 * A last look before sending, for a dispatcher held up since its claim (at `claimedAt`): a
 * scheduled fire is not sent past the misfire threshold (DO_NOTHING; FIRE_ONCE_NOW sends it only as
 * the job's catch-up), nor after a later fire of its job was claimed (see `misfireAfterClaim`). Free
 * unless the send itself is late; a catch-up is meant to run late and is not looked at again.
 */
export async function heldUpReason(
  deps: Pick<DispatchDeps, 'runs' | 'clock'>,
  settings: DispatchSettings,
  ctx: FireContext,
  runs: readonly Run[],
  claimedAt: number,
): Promise<string | undefined> {
  const atSend = misfireOf(ctx.job, ctx.message, deps.clock.now());
  if (!atSend || !mayBeOvertaken(settings, atSend.latenessMs)) return undefined;
  if (atSend.skip) {
    return `held up ${(atSend.latenessMs / 1000).toFixed(1)} s past its time before it could be sent (threshold ${
      MISFIRE_THRESHOLD_MS / 1000
    } s); ${atSend.strategy} skips it`;
  }
  return misfireAfterClaim(deps, settings, ctx, atSend, runs, claimedAt);
}

/** How often a claim waiting for an earlier fire looks again: doubling from the first to the last. */
const EARLIER_FIRE_POLL_MS = { first: 50, last: 400 } as const;
/**
 * The longest a claim waits for the earlier fire. It holds its ring batch meanwhile (and a local
 * poller has few), so an earlier fire whose message no consumer has taken yet must not stall the
 * ring until its deadline; one that is in another batch is claimed well within this.
 */
const EARLIER_FIRE_WAIT_MS = 1500;

/**
 * Order without drops of our own making. Before a late scheduled fire (late enough to have overtaken
 * one, see MIN_FIRE_GAP_MS) is claimed: if the tick planned the job's fire before it
 * (`previousFireTime`), that fire can still run on time (not past the misfire threshold), and no run
 * of the job's planned range at or after that time is recorded yet, it is still in flight (on the
 * ring, in another dispatcher's batch): wait for its claim, looking again with a growing pause, at
 * most EARLIER_FIRE_WAIT_MS and never past its misfire deadline (past that it would be skipped as late
 * whatever we do). Claimed after it, ours is sent after it, and neither is skipped for the other
 * (see `misfireAfterClaim`). On time: no read, no wait.
 */
export async function waitForEarlierFire(
  deps: Pick<DispatchDeps, 'runs' | 'clock' | 'logger'>,
  settings: DispatchSettings,
  message: FireMessage,
): Promise<void> {
  const { logId, previousFireTime } = message;
  const started = deps.clock.now();
  if (
    logId === undefined ||
    previousFireTime === undefined ||
    message.triggerType === 'MISFIRE' ||
    !SCHEDULED_TRIGGERS.has(message.triggerType) ||
    !isPlannedLogId(message.jobId, logId) ||
    !mayBeOvertaken(settings, started - message.scheduledTime)
  ) {
    return;
  }
  const giveUpAt = Math.min(previousFireTime + MISFIRE_THRESHOLD_MS, started + EARLIER_FIRE_WAIT_MS);
  if (started >= giveUpAt) return;
  const keys = { jobId: message.jobId, logId, earlierFireTime: iso(previousFireTime) };
  let pauseMs: number = EARLIER_FIRE_POLL_MS.first;
  for (;;) {
    const earlier = await deps.runs.earlierPlannedRun(logId);
    const now = deps.clock.now();
    if (earlier !== undefined && earlier.scheduledTime >= previousFireTime) {
      if (now > started)
        deps.logger.info('claim waited for the earlier fire of its job', {
          ...keys,
          waitedMs: now - started,
        });
      return;
    }
    if (now >= giveUpAt) {
      deps.logger.info('earlier fire of the job not claimed in time', { ...keys, waitedMs: now - started });
      return;
    }
    await deps.clock.sleep(Math.min(pauseMs, giveUpAt - now));
    pauseMs = Math.min(pauseMs * 2, EARLIER_FIRE_POLL_MS.last);
  }
}
