import { hashFraction } from '../common/hash-fraction.js';
import type { RingBacklog } from '../dispatch/ring-queue.js';

/**
 * Admission control: when the dispatchers fall behind, the tick plans only a share of the due
 * jobs, and leaves the others due. Without it every fire waited in one queue behind the late
 * ones, each came too late, and a stack offered three times what it ran executed almost nothing;
 * with it the admitted fires run on time and the rest cost nothing until the misfire rule takes
 * them, a job at a time (see `runTick`: a job left due past the misfire threshold gets its
 * misfire plan: DO_NOTHING records its missed fires as one skip range, FIRE_ONCE_NOW fires once).
 *
 * The share follows the fast lane's backlog (messages past their delay and not done, in seconds
 * of what the tick sends): cut by a factor when it has stayed above `HIGH_BACKLOG_SECONDS` without
 * draining for `SUSTAINED_READINGS` readings (a restart's or a pause's backlog drains and is not
 * overload: cutting then skipped fires due after the stack was back), at most once per `HOLD_MS`
 * (fires planned before the cut still arrive); grown by a step each iteration while it is below
 * `LOW_BACKLOG_SECONDS`. A job is admitted when a hash of (job, due)
 * falls under the share: the same decision for every iteration that reads the same due at the
 * same share, so a job left out stays out for whole plans (its skips then form one range).
 */
export const HIGH_BACKLOG_SECONDS = 2.5;
export const LOW_BACKLOG_SECONDS = 1.5;
export const SHARE_CUT = 0.7;
export const SHARE_STEP = 0.02;
export const MIN_SHARE = 0.05;
export const HOLD_MS = 2_000;
/** Readings in a row above the high mark, none draining by more than `DRAINING`, before a cut. */
export const SUSTAINED_READINGS = 3;
/** A reading below this share of the one before is a backlog draining. */
export const DRAINING = 0.9;
/**
 * A share whose backlog was last read longer ago than this is forgotten (a full share again): what
 * the backlog called for then says nothing of now (a Lambda instance's next loop may come hours later).
 */
export const STALE_MS = 10_000;
/** How far after now a handover's reading may be (the clocks of two hosts differ) before it is ignored. */
export const HANDOVER_SKEW_MS = 1_000;
/** Weight of an iteration's sends in the running rate of ring messages per iteration. */
const RATE_WEIGHT = 0.2;

export interface AdmissionState {
  /** Share of the due jobs planned, in [MIN_SHARE, 1]. */
  readonly share: number;
  /** The backlog last read, in seconds of sends (undefined before the first read). */
  readonly backlogSeconds: number | undefined;
}

/**
 * The admission a loop hands over with its shard leases (see `LeaseStore.release`), so the loop
 * taking them next goes on from its share. On Lambda that loop runs in another instance (the tick
 * is started anew each minute, and each minute's loop overlaps the last one's end), which without it
 * began every minute at a full share and planned every due job into a ring seconds behind.
 */
export interface AdmissionHandover {
  readonly share: number;
  /** The backlog last read, in seconds of sends. */
  readonly backlogSeconds: number;
  /** The running rate of ring messages per iteration it was read against. */
  readonly messagesPerIteration: number;
  /** When the backlog was last read (epoch ms): a handover older than `STALE_MS` is ignored. */
  readonly readAt: number;
  /** When the share was last cut (epoch ms), if it was. */
  readonly cutAt?: number;
}

export class TickAdmission {
  private current = 1;
  private lastCutAt = Number.NEGATIVE_INFINITY;
  private messagesPerIteration = 0;
  private backlogSeconds: number | undefined;
  private highReadings = 0;
  private lastReadingAt: number | undefined;

  get state(): AdmissionState {
    return { share: this.current, backlogSeconds: this.backlogSeconds };
  }

  /** Notes an iteration's fast-lane ring messages (an estimate: see `ringMessageCount`). */
  sent(messages: number): void {
    this.messagesPerIteration =
      this.messagesPerIteration === 0
        ? messages
        : this.messagesPerIteration + RATE_WEIGHT * (messages - this.messagesPerIteration);
  }

  /** Starts again at a full share when the last reading is older than `STALE_MS`; answers whether it did. */
  forgetIfStale(nowMs: number): boolean {
    if (this.lastReadingAt === undefined || nowMs - this.lastReadingAt <= STALE_MS) return false;
    const changed = this.current !== 1;
    this.current = 1;
    this.lastCutAt = Number.NEGATIVE_INFINITY;
    this.messagesPerIteration = 0;
    this.backlogSeconds = undefined;
    this.highReadings = 0;
    this.lastReadingAt = undefined;
    return changed;
  }

  /** What the next loop needs to go on from this share; undefined before the first reading. */
  handover(): AdmissionHandover | undefined {
    if (this.lastReadingAt === undefined || this.backlogSeconds === undefined) return undefined;
    const handover = {
      share: this.current,
      backlogSeconds: this.backlogSeconds,
      messagesPerIteration: this.messagesPerIteration,
      readAt: this.lastReadingAt,
      ...(Number.isFinite(this.lastCutAt) ? { cutAt: this.lastCutAt } : {}),
    };
    // A gauge that answered nonsense (not a number) leaves nothing to go on from, and nothing a store refuses.
    return isHandover(handover) ? handover : undefined;
  }

  /**
   * Goes on from a loop's handover when it was read after this admission's own last reading and is
   * neither stale at `nowMs` nor read after it (beyond `HANDOVER_SKEW_MS`: another host's clock);
   * answers whether it did. A handover that is not one (a share outside [MIN_SHARE, 1], a time that
   * is not a number) is ignored: it comes from a store.
   */
  adopt(handover: AdmissionHandover, nowMs: number): boolean {
    if (!isHandover(handover)) return false;
    if (nowMs - handover.readAt > STALE_MS || handover.readAt - nowMs > HANDOVER_SKEW_MS) return false;
    if (this.lastReadingAt !== undefined && this.lastReadingAt >= handover.readAt) return false;
    this.current = handover.share;
    this.backlogSeconds = handover.backlogSeconds;
    this.messagesPerIteration = handover.messagesPerIteration;
    this.lastReadingAt = handover.readAt;
    this.lastCutAt = handover.cutAt ?? Number.NEGATIVE_INFINITY;
    this.highReadings = 0;
    return true;
  }

  /** Adjusts the share to the backlog read at `nowMs`; answers whether it changed. */
  observe(backlog: RingBacklog, nowMs: number): boolean {
    const forgot = this.forgetIfStale(nowMs);
    this.lastReadingAt = nowMs;
    const behind = backlog.waiting + backlog.inFlight;
    const seconds = behind / Math.max(1, this.messagesPerIteration);
    const draining = this.backlogSeconds !== undefined && seconds < this.backlogSeconds * DRAINING;
    this.backlogSeconds = seconds;
    this.highReadings = seconds > HIGH_BACKLOG_SECONDS && !draining ? this.highReadings + 1 : 0;
    const before = this.current;
    if (seconds > HIGH_BACKLOG_SECONDS) {
      if (this.highReadings >= SUSTAINED_READINGS && nowMs - this.lastCutAt >= HOLD_MS) {
        this.current = Math.max(MIN_SHARE, this.current * SHARE_CUT);
        this.lastCutAt = nowMs;
      }
    } else if (seconds < LOW_BACKLOG_SECONDS) {
      this.current = Math.min(1, this.current + SHARE_STEP);
    }
    return forgot || this.current !== before;
  }

  /** Whether the job's plan from `due` is made now (always, at a full share). */
  admits(jobId: number, due: number): boolean {
    return this.current >= 1 || unitHash(jobId, due) < this.current;
  }
}

function isHandover(h: AdmissionHandover): boolean {
  const finite = (n: unknown) => typeof n === 'number' && Number.isFinite(n);
  return (
    finite(h.share) &&
    h.share >= MIN_SHARE &&
    h.share <= 1 &&
    finite(h.backlogSeconds) &&
    h.backlogSeconds >= 0 &&
    finite(h.messagesPerIteration) &&
    h.messagesPerIteration >= 0 &&
    finite(h.readAt) &&
    (h.cutAt === undefined || finite(h.cutAt))
  );
}

/** A number in [0, 1) from (jobId, due), the same in every process (see `hashFraction`). */
export function unitHash(jobId: number, due: number): number {
  return hashFraction(`tickring-admission#${jobId}#${due}`);
}

/**
 * How many fast-lane ring messages fires make, as the ring packs them: one group per delay, split
 * every `perMessage` fires (the byte limit is ignored: an estimate).
 */
export function ringMessageCount(delays: readonly number[], perMessage: number): number {
  const byDelay = new Map<number, number>();
  for (const delay of delays) byDelay.set(delay, (byDelay.get(delay) ?? 0) + 1);
  let messages = 0;
  for (const count of byDelay.values()) messages += Math.ceil(count / perMessage);
  return messages;
}
