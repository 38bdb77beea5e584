/**
 * One-off exceptions to a schedule: one occurrence skipped, or moved to another time, without
 * pausing the schedule. An occurrence keeps its scheduled time as its identity (the run's
 * scheduledTime, the handler's logDateTime); a moved one fires at `to` instead (its fireAt, like
 * jitter's, but never jittered again). Pure: no I/O, no clock.
 *
 * The job's stored next trigger time (the tick's due index) is the *effective* next fire: a skipped
 * occurrence is stepped over, a moved one stands at `to`. Moves keep each job's fires in order: a
 * `to` lies strictly between its neighbours' effective times, so the effective times ascend as the
 * scheduled ones do, and `to` is never another occurrence's time (see {@link nominalOf}).
 */
import {
  type FireDecision,
  MISFIRE_THRESHOLD_MS,
  type MisfireStrategy,
  nextFireAfter,
  type Schedule,
} from './schedule.js';

export const OCCURRENCE_ACTIONS = ['skip', 'move'] as const;
export type OccurrenceAction = (typeof OCCURRENCE_ACTIONS)[number];

/** One occurrence of a job's schedule skipped or moved. Times in epoch ms. */
export interface OccurrenceException {
  /** The occurrence's scheduled time: its identity, kept by a move. */
  readonly at: number;
  readonly action: OccurrenceAction;
  /** A move's new fire time. */
  readonly to?: number;
  readonly reason?: string;
  /** Who made it (a user or token name). */
  readonly by: string;
  readonly createdAt: number;
}

/** Most exceptions a job may hold for occurrences still ahead. */
export const MAX_PENDING_EXCEPTIONS = 100;
/**
 * A passed exception is kept this long before a write prunes it: a fire re-sent after a restart
 * (replanLostFires, from the job's last two plans) must still see its skip or move.
 */
export const EXCEPTION_KEEP_MS = 3_600_000;

/** The exception for the occurrence at `at`, if any. */
export function exceptionAt(
  exceptions: readonly OccurrenceException[] | undefined,
  at: number,
): OccurrenceException | undefined {
  return exceptions?.find((e) => e.at === at);
}

/**
 * The occurrence a stored next trigger time stands for: the one moved there, else the time itself
 * (a `to` is never an occurrence's own time: it lies strictly between two of them).
 */
export function nominalOf(due: number, exceptions: readonly OccurrenceException[] | undefined): number {
  return exceptions?.find((e) => e.action === 'move' && e.to === due)?.at ?? due;
}

/** When an occurrence fires: its move's `to`, its own time, or null when it is skipped. */
export function effectiveTimeOf(
  at: number,
  exceptions: readonly OccurrenceException[] | undefined,
): number | null {
  const e = exceptionAt(exceptions, at);
  if (e === undefined) return at;
  return e.action === 'skip' ? null : (e.to ?? at);
}

/**
 * The effective next fire from the occurrence `nominal` on: skipped occurrences stepped over (at
 * most one per exception), a moved one at its `to`; null when the schedule has no fire left.
 */
export function effectiveNextFire(
  s: Schedule,
  nominal: number | null,
  exceptions: readonly OccurrenceException[] | undefined,
): number | null {
  let at = nominal;
  for (let i = 0; at !== null && i <= (exceptions?.length ?? 0); i++) {
    const fire = effectiveTimeOf(at, exceptions);
    if (fire !== null) return fire;
    at = nextFireAfter(s, at);
  }
  return at;
}

/** A tick's decision for a due job with exceptions (see {@link planOccurrences}). */
export interface OccurrencePlan {
  /** fireTimes are scheduled times (skipped ones left out); nextTriggerTime is effective. */
  readonly decision: FireDecision;
  /** The occurrence the stored due stands for: where the plan's logId slots count from. */
  readonly nominalDue: number;
  /** The occurrences the plan steps over because they are skipped. */
  readonly skipped: readonly number[];
}

/**
 * What the tick plans for a job due at `due` (its stored, effective next fire) read at `nowMs`: the
 * schedule's occurrences from the one `due` stands for whose effective time is before `planEndMs`,
 * at most `maxPlaces` of them (a plan's block of logIds), skipped ones left out; nextTriggerTime is
 * the effective time of the first occurrence after them that fires. The misfire rules read the
 * effective time: a due more than MISFIRE_THRESHOLD_MS past is the missed occurrence (its move no
 * longer matters), handled as planFires does, and the plan goes on from the first occurrence after
 * both now and it. Without exceptions it is `planFires`' decision, cut to `maxPlaces`.
 */
export function planOccurrences(
  s: Schedule,
  strategy: MisfireStrategy,
  due: number,
  nowMs: number,
  planEndMs: number,
  maxPlaces: number,
  exceptions: readonly OccurrenceException[],
): OccurrencePlan {
  const nominalDue = nominalOf(due, exceptions);
  const fireTimes: number[] = [];
  const skipped: number[] = [];
  let misfire = false;
  let missedTime: number | undefined;
  let next: number | null = nominalDue;
  if (s.type === 'NONE') next = null;
  else if (nowMs > due + MISFIRE_THRESHOLD_MS) {
    missedTime = nominalDue;
    if (strategy === 'FIRE_ONCE_NOW') {
      fireTimes.push(Math.floor(nowMs / 1000) * 1000);
      misfire = true;
    }
    next = nextFireAfter(s, Math.max(nowMs, nominalDue));
  }
  // Places count from the due occurrence (skipped ones keep theirs), as the logId slots do.
  let places = 0;
  while (next !== null && (missedTime !== undefined || places < maxPlaces)) {
    const fire = effectiveTimeOf(next, exceptions);
    // A skipped occurrence is ordered by its own time (its neighbours' moves stay clear of it).
    if ((fire ?? next) >= planEndMs) break;
    if (fire === null) skipped.push(next);
    else fireTimes.push(next);
    places++;
    next = nextFireAfter(s, next);
  }
  const decision: FireDecision = {
    kind: 'FIRE',
    fireTimes,
    misfire,
    nextTriggerTime: effectiveNextFire(s, next, exceptions),
  };
  if (missedTime !== undefined) decision.missedTime = missedTime;
  return { decision, nominalDue, skipped };
}

/** The latest occurrence before `t` and the earliest after it, and whether `t` is one. */
export interface Neighbours {
  readonly isOccurrence: boolean;
  readonly before: number | null;
  readonly after: number | null;
}

/**
 * Where `t` falls in a schedule: a FIX_RATE schedule's occurrences are every period from `anchor`
 * (one of them, e.g. the job's next), either way; a cron's and a ONCE's are their own. Null: none.
 */
export function neighboursOf(s: Schedule, anchor: number, t: number): Neighbours {
  if (s.type === 'NONE') return { isOccurrence: false, before: null, after: null };
  if (s.type === 'FIX_RATE') {
    const period = Number(s.conf) * 1000;
    const k = Math.floor((t - anchor) / period);
    const isOccurrence = anchor + k * period === t;
    const before = isOccurrence ? anchor + (k - 1) * period : anchor + k * period;
    return { isOccurrence, before, after: anchor + (k + 1) * period };
  }
  return {
    isOccurrence: nextFireAfter(s, t - 1) === t,
    before: previousFire(s, t),
    after: nextFireAfter(s, t),
  };
}

/**
 * The latest fire strictly before `t` (a cron or ONCE has no backward step): the window before `t`
 * doubles from a second until it holds a fire, then its fires are walked. Null when none in ~68 years.
 */
function previousFire(s: Schedule, t: number): number | null {
  for (let width = 1000; width < 2 ** 41; width *= 2) {
    let fire = nextFireAfter(s, t - width - 1);
    if (fire === null || fire >= t) continue;
    for (let next = nextFireAfter(s, fire); next !== null && next < t; next = nextFireAfter(s, next))
      fire = next;
    return fire;
  }
  return null;
}

/**
 * The open window a move of the occurrence at `at` may land in: after the effective time of the
 * occurrence before it and before that of the one after (a skipped neighbour counts at its own time),
 * so the job's fires stay in order. `from`/`until` null: no neighbour on that side.
 */
export function moveWindow(
  s: Schedule,
  anchor: number,
  at: number,
  exceptions: readonly OccurrenceException[] | undefined,
): { readonly from: number | null; readonly until: number | null } {
  const { before, after } = neighboursOf(s, anchor, at);
  const effective = (t: number | null) => (t === null ? null : (effectiveTimeOf(t, exceptions) ?? t));
  return { from: effective(before), until: effective(after) };
}

/** Exceptions whose occurrence and move are still ahead of `nowMs` (what the cap counts). */
export function pendingExceptions(
  exceptions: readonly OccurrenceException[] | undefined,
  nowMs: number,
): OccurrenceException[] {
  return (exceptions ?? []).filter((e) => Math.max(e.at, e.to ?? e.at) > nowMs);
}

/** The exceptions a write keeps: those not passed more than EXCEPTION_KEEP_MS ago, by time. */
export function prunedExceptions(
  exceptions: readonly OccurrenceException[] | undefined,
  nowMs: number,
): OccurrenceException[] {
  return pendingExceptions(exceptions, nowMs - EXCEPTION_KEEP_MS).sort((a, b) => a.at - b.at);
}

/**
 * The exceptions that still name occurrences of a changed schedule (a cron's, or a ONCE instant;
 * a FIX_RATE schedule counts from its start, so none survive a change), each move still inside its
 * window. What an edit of the schedule keeps.
 */
export function exceptionsFitting(
  s: Schedule,
  exceptions: readonly OccurrenceException[] | undefined,
): OccurrenceException[] {
  if (s.type !== 'CRON' && s.type !== 'ONCE') return [];
  const kept = (exceptions ?? []).filter((e) => nextFireAfter(s, e.at - 1) === e.at);
  return kept.filter((e) => {
    if (e.action !== 'move' || e.to === undefined) return true;
    const { from, until } = moveWindow(s, e.at, e.at, kept);
    return (from === null || e.to > from) && (until === null || e.to < until);
  });
}

/** A previewed occurrence with its exception: when it fires (null: skipped). */
export interface OccurrenceMark {
  readonly time: number;
  readonly fireAt: number | null;
  readonly exception?: OccurrenceException;
}

/**
 * The exceptions laid over previewed scheduled times: a skipped one has no fire time, a moved one
 * fires at its `to` (not jittered); the others at `jitteredAt(time)`.
 */
export function markOccurrences(
  times: readonly number[],
  exceptions: readonly OccurrenceException[] | undefined,
  jitteredAt: (time: number) => number | null,
): OccurrenceMark[] {
  return times.map((time) => {
    const exception = exceptionAt(exceptions, time);
    if (exception === undefined) return { time, fireAt: jitteredAt(time) };
    return { time, fireAt: effectiveTimeOf(time, exceptions), exception };
  });
}
