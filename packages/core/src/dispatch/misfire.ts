import type { Job } from '../jobs/job.js';
import { firstPlannedLogId, type Run, UNPLANNED_LOG_ID_OFFSET } from '../runs/run.js';
import { MISFIRE_THRESHOLD_MS } from '../schedule/index.js';
import type { DispatchDeps } from './dispatch-deps.js';
import { SCHEDULED_TRIGGERS } from './drop-rules.js';
import type { FireContext } from './fire-context.js';
import type { DispatchSettings } from './settings.js';
import { type FireMessage, fireTimeOf } from './trigger.js';

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
 *   steady state. Fires without a planned logId are not checked.
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
  // Counted from the jittered time: a fire delayed on purpose is not late for it.
  const latenessMs = nowMs - fireTimeOf(message);
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

/**
 * Why the fires of a skip range (see `skip-ranges.ts`) were skipped: a single fire's reason is a
 * late fire's own; a range's names its fires.
 */
export function lateRangeReason(first: Misfire, count: number, firstTime: number, untilTime: number): string {
  if (count === 1) return lateReason(first);
  return `${count} fires due from ${iso(firstTime)} to ${iso(untilTime)}: each reached the dispatcher more than ${
    MISFIRE_THRESHOLD_MS / 1000
  } s after its time; ${first.strategy} skips them`;
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
 * After a scheduled fire's runs were claimed (or taken over) by us: why they must not be sent
 * (overtaken, or a catch-up that lost the job's mark), or undefined to send them.
 */
export async function misfireAfterClaim(
  deps: Pick<DispatchDeps, 'runs' | 'clock'>,
  settings: DispatchSettings,
  ctx: FireContext,
  misfire: Misfire,
  runs: readonly Run[],
): Promise<string | undefined> {
  const { message } = ctx;
  const [only] = runs;
  const now = deps.clock.now();
  const overtakable = mayBeOvertaken(settings, now - fireTimeOf(message));
  if (runs.length === 1 && only && isPlannedLogId(message.jobId, only.logId) && overtakable) {
    const later = await deps.runs.laterPlannedRun(only.logId);
    if (later) return `overtaken by the fire due at ${iso(later.scheduledTime)}, claimed before it`;
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
 * A last look before sending, for a dispatcher held up since its claim (paused, starved of CPU):
 * a scheduled fire is not sent past the misfire threshold (DO_NOTHING; FIRE_ONCE_NOW sends it
 * only as the job's catch-up), nor after a later fire of its job was claimed. Free unless the
 * send itself is late; a catch-up is meant to run late and is not looked at again.
 */
export async function heldUpReason(
  deps: Pick<DispatchDeps, 'runs' | 'clock'>,
  settings: DispatchSettings,
  ctx: FireContext,
  runs: readonly Run[],
): Promise<string | undefined> {
  const atSend = misfireOf(ctx.job, ctx.message, deps.clock.now());
  if (!atSend || !mayBeOvertaken(settings, atSend.latenessMs)) return undefined;
  if (atSend.skip) {
    return `held up ${(atSend.latenessMs / 1000).toFixed(1)} s past its time before it could be sent (threshold ${
      MISFIRE_THRESHOLD_MS / 1000
    } s); ${atSend.strategy} skips it`;
  }
  return misfireAfterClaim(deps, settings, ctx, atSend, runs);
}
