/**
 * The schedule model: when a job fires (NONE, CRON, FIX_RATE, ONCE), how a job's first fire is chosen,
 * and what a scheduler tick enqueues for a due job (the misfire rules of XXL-JOB's JobScheduleHelper).
 * Pure: no I/O, no clock; every function takes the times it needs.
 */
import { DateTime, IANAZone } from 'luxon';
import { ValidationError } from '../common/errors.js';
import { CronExpression } from './cron.js';

export type ScheduleType = 'NONE' | 'CRON' | 'FIX_RATE' | 'ONCE';
export const SCHEDULE_TYPES: readonly ScheduleType[] = Object.freeze(['NONE', 'CRON', 'FIX_RATE', 'ONCE']);

export type MisfireStrategy = 'DO_NOTHING' | 'FIRE_ONCE_NOW';
export const MISFIRE_STRATEGIES: readonly MisfireStrategy[] = Object.freeze(['DO_NOTHING', 'FIRE_ONCE_NOW']);

/**
 * - `NONE`: never fires on its own (manual, API, parent and retry triggers only); `conf` is ignored.
 * - `CRON`: `conf` is a Quartz cron expression, read in `timeZone`.
 * - `FIX_RATE`: `conf` is a whole number of seconds >= 1, counted from the previous scheduled time.
 * - `ONCE`: `conf` is an ISO-8601 instant with `Z` or an offset (`2026-12-01T10:00:00Z`); fires once.
 */
export interface Schedule {
  type: ScheduleType;
  conf: string;
  /** IANA time zone, 'UTC' by default. Only CRON reads it, but it is validated for every type. */
  timeZone: string;
}

export const DEFAULT_TIME_ZONE = 'UTC';

/** A fire more than this late (ms) is a misfire (XXL-JOB: `now > next + 5000`). */
export const MISFIRE_THRESHOLD_MS = 5000;

/** The scheduler's pre-read window (ms); also how far ahead of "now" a started job's first fire is sought. */
export const PRE_READ_MS = 5000;

/** The largest FIX_RATE interval, in seconds (XXL-JOB stores it in a Java int). */
export const MAX_FIX_RATE_SECONDS = 2_147_483_647;

const ONCE_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|z|[+-]\d{2}:?\d{2})$/;

/**
 * Whether `tz` is a time zone name the runtime knows (IANA names, including aliases such as
 * 'US/Eastern'). Not a bare UTC offset ('+05:00'): Node 22's Intl takes those, Node 20's does not, and
 * a job's zone must mean the same wherever the scheduler runs (an offset has no daylight saving; say
 * 'Etc/GMT-5').
 */
export function isValidTimeZone(tz: string): boolean {
  return typeof tz === 'string' && tz.length > 0 && !/^[+-]/.test(tz) && IANAZone.isValidZone(tz);
}

/** Throws ValidationError naming the field ('scheduleType' | 'scheduleConf' | 'timeZone') and the reason. */
export function validateSchedule(s: Schedule): void {
  if (!(SCHEDULE_TYPES as readonly string[]).includes(s.type)) throw invalidType(s.type);
  if (!isValidTimeZone(s.timeZone)) {
    throw new ValidationError(
      `timeZone must be an IANA time zone such as 'UTC' or 'Europe/Berlin'; got '${String(s.timeZone)}'`,
      'timeZone',
    );
  }
  if (s.type === 'NONE') return;
  if (typeof s.conf !== 'string') {
    throw new ValidationError(`scheduleConf is required for ${s.type} schedules`, 'scheduleConf');
  }
  switch (s.type) {
    case 'CRON':
      cronOf(s);
      return;
    case 'FIX_RATE':
      fixRateSeconds(s.conf);
      return;
    case 'ONCE':
      onceInstant(s.conf);
      return;
  }
}

/**
 * The next fire strictly after `afterMs` (epoch ms), or null when the schedule never fires again.
 * CRON: Quartz's getNextValidTimeAfter in the schedule's zone (whole seconds). FIX_RATE:
 * `afterMs + N s`, rounded up to a whole second (XXL-JOB 3.x); pass the previous *scheduled* time to get
 * a true fixed rate. ONCE: the instant if it is after `afterMs`. NONE: null.
 * @throws ValidationError when the type or the conf is invalid (the zone is checked for CRON only).
 */
export function nextFireAfter(s: Schedule, afterMs: number): number | null {
  assertTime('afterMs', afterMs);
  switch (s.type) {
    case 'NONE':
      return null;
    case 'CRON':
      return cronOf(s).nextAfter(afterMs);
    case 'FIX_RATE':
      return ceilToSecond(afterMs + fixRateSeconds(s.conf) * 1000);
    case 'ONCE': {
      const at = onceInstant(s.conf);
      return at > afterMs ? at : null;
    }
    default:
      throw invalidType(s.type);
  }
}

/** Up to `count` fire times strictly after `fromMs`, each computed from the previous one (the preview API). */
export function previewFireTimes(s: Schedule, fromMs: number, count: number): number[] {
  if (!Number.isInteger(count) || count < 0)
    throw new RangeError(`count must be a whole number >= 0, got ${count}`);
  const times: number[] = [];
  let t: number | null = fromMs;
  while (times.length < count) {
    t = nextFireAfter(s, t);
    if (t === null) break;
    times.push(t);
  }
  return times;
}

/**
 * The first fire when a job is started or its schedule edited at `nowMs`.
 * CRON and FIX_RATE follow XXL-JOB, `generateNextValidTime(now + 5 s)`: the first cron time after
 * now + 5 s, or now + 5 s + N rounded up to a second, so the first fire is never inside the window a
 * tick may already have read. ONCE returns the instant whenever it is still ahead (> `nowMs`), even
 * within the next 5 s (the next tick picks it up at once), and null when it is already in the past, so
 * the caller can refuse to start it. NONE: null.
 */
export function firstFireTime(s: Schedule, nowMs: number): number | null {
  assertTime('nowMs', nowMs);
  if (s.type === 'ONCE') return nextFireAfter(s, nowMs);
  return nextFireAfter(s, nowMs + PRE_READ_MS);
}

/** What a scheduler tick does with one due job. */
export type FireDecision = {
  kind: 'FIRE';
  /**
   * The scheduled times to enqueue, ascending, possibly empty. Each is exact: a cron or FIX_RATE time is a
   * whole second, a ONCE time is the instant itself, and the misfire fire (when `misfire`) is
   * `floor(now / 1000) * 1000`. Apart from that misfire fire, they depend only on the schedule and `due`,
   * so a retried tick that read the same `due` produces the same (jobId, scheduledTime) keys.
   */
  fireTimes: number[];
  /** True when the first entry of `fireTimes` is a FIRE_ONCE_NOW misfire fire (trigger type MISFIRE). */
  misfire: boolean;
  /** The value to store (CAS on `due`): the first fire >= windowEndMs, or null when the schedule has ended. */
  nextTriggerTime: number | null;
  /**
   * Set when `due` was more than {@link MISFIRE_THRESHOLD_MS} late: the missed scheduled time. Unlike the
   * misfire fire's own time, it does not depend on when the tick ran, so it is the stable key to
   * de-duplicate a misfire fire across ticks that read the same `due`.
   */
  missedTime?: number;
};

/**
 * Given the stored nextTriggerTime (`due`) read at `nowMs`, the pre-read window end `windowEndMs`
 * (now + 5 s), decide what to enqueue: fires 0–5 s late fire at once (kept at their scheduled time); a fire
 * more than 5 s late is a misfire: DO_NOTHING drops it, FIRE_ONCE_NOW fires it once now (misfire: true,
 * scheduled at nowMs rounded down to the second); after a misfire the next time is recomputed from now
 * (XXL-JOB). Then every further fire time < windowEndMs is included (a 1 s FIX_RATE or `* * * * * ?` job
 * yields up to 5 fires per window), and nextTriggerTime is the first fire >= windowEndMs (or null when the
 * schedule ends).
 *
 * Exactness: apart from the misfire fire, every fire time is `due` or a value of {@link nextFireAfter}
 * chained from it (from `nowMs` after a misfire), never a rounded "now", so it is the job's true scheduled
 * time (whole seconds for CRON and FIX_RATE, the instant itself for ONCE); late fires keep theirs, and a
 * tick that re-reads the same `due` computes the same times. Only the misfire fire depends on when the tick
 * ran; to de-duplicate it across ticks, key it by `missedTime` rather than by its scheduled time.
 *
 * Boundaries: "late" is strict, so `nowMs - due` of exactly 5000 ms still fires normally. A `due` at or
 * after `windowEndMs` yields no fire and leaves nextTriggerTime at `due`. A NONE schedule never fires: no
 * fire, nextTriggerTime null.
 * @throws ValidationError for an unknown strategy or an invalid schedule; RangeError for non-finite times.
 */
export function planFires(
  s: Schedule,
  strategy: MisfireStrategy,
  due: number,
  nowMs: number,
  windowEndMs: number,
): FireDecision {
  assertTime('due', due);
  assertTime('nowMs', nowMs);
  assertTime('windowEndMs', windowEndMs);
  if (!(MISFIRE_STRATEGIES as readonly string[]).includes(strategy)) {
    throw new ValidationError(
      `misfireStrategy must be one of ${MISFIRE_STRATEGIES.join(', ')}; got '${String(strategy)}'`,
      'misfireStrategy',
    );
  }
  if (s.type === 'NONE') return { kind: 'FIRE', fireTimes: [], misfire: false, nextTriggerTime: null };

  const fireTimes: number[] = [];
  let misfire = false;
  let missedTime: number | undefined;
  let next: number | null = due;
  if (nowMs > due + MISFIRE_THRESHOLD_MS) {
    missedTime = due;
    if (strategy === 'FIRE_ONCE_NOW') {
      // The catch-up is the sequence's fire now: a FIX_RATE sequence counts on from it (a cron's next
      // fire is the same either way: none falls between the whole second and now).
      const catchUp = floorToSecond(nowMs);
      fireTimes.push(catchUp);
      misfire = true;
      next = nextFireAfter(s, catchUp);
    } else {
      next = nextFireAfter(s, nowMs);
    }
  }
  while (next !== null && next < windowEndMs) {
    fireTimes.push(next);
    next = nextFireAfter(s, next);
  }
  const decision: FireDecision = { kind: 'FIRE', fireTimes, misfire, nextTriggerTime: next };
  if (missedTime !== undefined) decision.missedTime = missedTime;
  return decision;
}

// ---------------------------------------------------------------------------------------------------

const cronCache = new Map<string, CronExpression>();
const CRON_CACHE_SIZE = 500;

function cronOf(s: Schedule): CronExpression {
  const key = `${s.timeZone}\u0000${s.conf}`;
  let cron = cronCache.get(key);
  if (cron === undefined) {
    cron = CronExpression.parse(s.conf, s.timeZone);
    if (cronCache.size >= CRON_CACHE_SIZE) cronCache.clear();
    cronCache.set(key, cron);
  }
  return cron;
}

function invalidType(type: unknown): ValidationError {
  return new ValidationError(
    `scheduleType must be one of ${SCHEDULE_TYPES.join(', ')}; got '${String(type)}'`,
    'scheduleType',
  );
}

function fixRateSeconds(conf: string): number {
  if (!/^[0-9]+$/.test(conf)) {
    throw new ValidationError(
      `FIX_RATE scheduleConf must be a whole number of seconds >= 1; got '${conf}'`,
      'scheduleConf',
    );
  }
  const n = Number(conf);
  if (n < 1 || n > MAX_FIX_RATE_SECONDS) {
    throw new ValidationError(
      `FIX_RATE scheduleConf must be between 1 and ${MAX_FIX_RATE_SECONDS} seconds; got '${conf}'`,
      'scheduleConf',
    );
  }
  return n;
}

function onceInstant(conf: string): number {
  if (!ONCE_PATTERN.test(conf)) {
    throw new ValidationError(
      `ONCE scheduleConf must be an ISO-8601 instant with 'Z' or an offset, such as '2026-12-01T10:00:00Z'; got '${conf}'`,
      'scheduleConf',
    );
  }
  const dt = DateTime.fromISO(conf, { setZone: true });
  if (!dt.isValid) {
    throw new ValidationError(
      `ONCE scheduleConf '${conf}' is not a valid date-time (${dt.invalidExplanation ?? dt.invalidReason})`,
      'scheduleConf',
    );
  }
  return dt.toMillis();
}

function ceilToSecond(ms: number): number {
  return Math.ceil(ms / 1000) * 1000;
}

function floorToSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

function assertTime(name: string, ms: number): void {
  if (!Number.isFinite(ms))
    throw new RangeError(`${name} must be a finite epoch-millisecond number, got ${ms}`);
}
