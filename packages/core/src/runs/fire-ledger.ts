/**
 * The fire ledger: for a window, every fire a job's schedule owed and what became of it. Pure: no
 * I/O, no clock. The caller hands it the job's history as periods (the definition and whether the
 * job was running, from the audit log) and the job's runs around the window; the ledger matches
 * each owed fire to its run by scheduled time (a moved or jittered fire keeps its scheduled time).
 */
import { type CalendarBlock, type CalendarGate, calendarBlockOf } from '../calendars/calendar-schedule.js';
import { firstBoundedFire, jitterOffsetMs, type ScheduleBounds } from '../schedule/bounds.js';
import { exceptionAt, type OccurrenceException } from '../schedule/occurrences.js';
import { nextFireAfter, type Schedule } from '../schedule/schedule.js';
import { type Run, runStatus, skippedUntilOf } from './run.js';

/** What became of an owed fire. `calendar`, `exception` and `paused` fires were not owed after all. */
export const LEDGER_OUTCOMES = [
  'ran',
  'skipped',
  'calendar',
  'exception',
  'paused',
  'notYetDue',
  'unexplained',
] as const;
export type LedgerOutcome = (typeof LEDGER_OUTCOMES)[number];

/**
 * Why a fire was skipped: `misfire` (not planned in time, or a FIRE_ONCE_NOW catch-up stood for it),
 * `overload` (it reached the dispatcher past the misfire threshold: FiresSkippedOverload),
 * `overlap` (a later fire of the job was claimed first), `block` (the executor's block strategy).
 */
export const SKIP_RULES = ['misfire', 'overload', 'overlap', 'block'] as const;
export type SkipRule = (typeof SKIP_RULES)[number];

/** Most fires one ledger accounts for (a longer window is refused, naming the limit). */
export const MAX_LEDGER_FIRES = 10_000;
/** A fire due less than this long ago without a run yet is `notYetDue`, not unexplained. */
export const LEDGER_SETTLE_MS = 30_000;

/** The schedule as it was in a period. */
export interface LedgerDefinition {
  readonly schedule: Schedule;
  readonly bounds: Pick<ScheduleBounds, 'startAt' | 'endAt'>;
  readonly jitterSeconds?: number;
  readonly exceptions?: readonly OccurrenceException[];
  readonly gate?: CalendarGate;
}

/** A stretch of the job's history with one definition and one status, [from, to). */
export interface LedgerPeriod {
  readonly from: number;
  readonly to: number;
  readonly running: boolean;
  /** Why the job was stopped (the audit action that stopped it: `job.stop`, `job.pausedByPolicy`, …). */
  readonly stoppedBy?: string;
  /**
   * Set when the period begins with a start or a schedule edit at this time: the schedule begins
   * again there (its first fire more than 5 s later, as `firstFireTime` says).
   */
  readonly restartedAt?: number;
  /** The first fire after that restart, when known (the job's next fire as the change stored it). */
  readonly firstFire?: number;
  /** A fire of the period's FIX_RATE sequence known from elsewhere (the job's next fire). */
  readonly anchor?: number;
  readonly definition: LedgerDefinition;
}

export interface LedgerInput {
  readonly jobId: number;
  readonly from: number;
  readonly to: number;
  readonly nowMs: number;
  /** Oldest first, covering [from, to) without gaps. */
  readonly periods: readonly LedgerPeriod[];
  /** The job's runs around the window (any order); runs of other triggers are left out here. */
  readonly runs: readonly Run[];
  readonly settleMs?: number;
  readonly limit?: number;
}

/** One fire, or consecutive fires with the same fate (`count` > 1, the last at `until`). */
export interface LedgerEntry {
  readonly scheduledTime: number;
  readonly outcome: LedgerOutcome;
  readonly count: number;
  readonly until?: number;
  /** ran / skipped: the run (a skip range's first run stands for all its fires). */
  readonly logId?: number;
  readonly status?: 'running' | 'success' | 'fail';
  readonly rule?: SkipRule;
  /** When it was due to fire, when not at its scheduled time (jitter, a move). */
  readonly fireAt?: number;
  readonly calendar?: CalendarBlock;
  readonly exception?: Pick<OccurrenceException, 'action' | 'to' | 'by' | 'reason'>;
  readonly stoppedBy?: string;
}

export interface FireLedger {
  readonly jobId: number;
  readonly from: number;
  readonly to: number;
  readonly entries: readonly LedgerEntry[];
  /** Fires per outcome (each entry counted `count` times), and skipped fires per rule. */
  readonly summary: Readonly<Record<LedgerOutcome, number>> & {
    readonly skippedBy: Readonly<Record<SkipRule, number>>;
  };
}

/** Refused: the window holds more fires than the limit. */
export class TooManyFiresError extends RangeError {
  constructor(readonly limit: number) {
    super(`the window holds more than ${limit} fires; ask for a shorter one`);
  }
}

const SCHEDULED = new Set(['CRON', 'FIX_RATE', 'ONCE']);
/** The executor's answer when its block strategy refused a run (XXL-JOB's `block strategy effect：…`). */
const BLOCKED = /block strategy effect/i;

/**
 * Refuses a window in which the schedule makes more than `limit` fires (whatever the job's history
 * there), so the limit does not depend on when the job existed or ran.
 * @throws TooManyFiresError
 */
export function checkWindowFires(
  schedule: Schedule,
  from: number,
  to: number,
  limit = MAX_LEDGER_FIRES,
): void {
  if (schedule.type === 'FIX_RATE') {
    if ((to - from) / (Number(schedule.conf) * 1000) > limit + 1) throw new TooManyFiresError(limit);
    return;
  }
  let fires = 0;
  for (let t = nextFireAfter(schedule, from - 1); t !== null && t < to; t = nextFireAfter(schedule, t))
    if (++fires > limit) throw new TooManyFiresError(limit);
}

/** The ledger of the window. @throws TooManyFiresError past `limit` fires. */
export function buildFireLedger(input: LedgerInput): FireLedger {
  const settle = input.settleMs ?? LEDGER_SETTLE_MS;
  const limit = input.limit ?? MAX_LEDGER_FIRES;
  const index = indexRuns(input.runs);
  const entries: LedgerEntry[] = [];
  let fires = 0;
  for (const period of input.periods) {
    const from = Math.max(period.from, input.from);
    const to = Math.min(period.to, input.to);
    if (from >= to) continue;
    for (const time of owedTimes(period, from, to, index)) {
      if (++fires > limit) throw new TooManyFiresError(limit);
      push(entries, fateOf(input.jobId, period, time, index, input.nowMs - settle));
    }
  }
  return { jobId: input.jobId, from: input.from, to: input.to, entries, summary: summarize(entries) };
}

interface RunIndex {
  /** Scheduled runs by scheduled time (broadcast shards: several). */
  readonly byTime: ReadonlyMap<number, Run[]>;
  /** Skipped runs standing for a range of fires, by first fire. */
  readonly ranges: readonly Run[];
  /** FIRE_ONCE_NOW catch-ups (trigger MISFIRE), by scheduled time. */
  readonly catchUps: readonly Run[];
  /** Scheduled times of runs, ascending (re-anchoring a FIX_RATE sequence). */
  readonly times: readonly number[];
}

function indexRuns(runs: readonly Run[]): RunIndex {
  const byTime = new Map<number, Run[]>();
  const ranges: Run[] = [];
  const catchUps: Run[] = [];
  for (const run of runs) {
    if (run.triggerType === 'MISFIRE') catchUps.push(run);
    if (!SCHEDULED.has(run.triggerType)) continue;
    byTime.set(run.scheduledTime, [...(byTime.get(run.scheduledTime) ?? []), run]);
    if (skippedUntilOf(run) > run.scheduledTime) ranges.push(run);
  }
  catchUps.sort((a, b) => a.scheduledTime - b.scheduledTime);
  return { byTime, ranges, catchUps, times: [...byTime.keys()].sort((a, b) => a - b) };
}

/**
 * The fires the period's schedule owed in [from, to), within its bounds. After a start or an edit
 * the schedule begins anew (its first fire as a start finds it). A FIX_RATE sequence counts from a
 * fire known to be on it and follows a recorded run off it (a misfire re-counts it from then), a
 * FIRE_ONCE_NOW catch-up too.
 */
function* owedTimes(period: LedgerPeriod, from: number, to: number, index: RunIndex): Generator<number> {
  const { schedule, bounds } = period.definition;
  if (schedule.type === 'NONE') return;
  const inBounds = (t: number) =>
    (bounds.startAt === undefined || t >= bounds.startAt) &&
    (bounds.endAt === undefined || t <= bounds.endAt);
  let t: number | null;
  if (period.restartedAt !== undefined && period.restartedAt >= from - 1) {
    const first = firstBoundedFire(schedule, bounds, 0, period.restartedAt);
    t = period.firstFire ?? ('time' in first ? first.time : null);
  } else if (schedule.type === 'FIX_RATE') t = fixRateFirst(period, from, to, index);
  else t = nextFireAfter(schedule, from - 1);
  // A FIRE_ONCE_NOW catch-up off the sequence is its fire then (the sequence goes on from it) but no
  // fire it owed: the catch-up stands for the missed ones before it.
  let catchUp = false;
  while (t !== null && t < to) {
    if (!catchUp && t >= from && inBounds(t)) yield t;
    let next = nextFireAfter(schedule, t);
    catchUp = false;
    if (schedule.type === 'FIX_RATE' && next !== null) {
      const offChain = firstRunBetween(index, t, next);
      const offChainCatchUp = firstCatchUpBetween(index, t, offChain ?? next);
      if (offChainCatchUp !== undefined) {
        next = offChainCatchUp;
        catchUp = true;
      } else if (offChain !== undefined) next = offChain;
    }
    t = next;
  }
}

/** The first catch-up run's scheduled time strictly between two times. */
function firstCatchUpBetween(index: RunIndex, after: number, before: number): number | undefined {
  return index.catchUps.find((c) => c.scheduledTime > after && c.scheduledTime < before)?.scheduledTime;
}

function fixRateFirst(period: LedgerPeriod, from: number, to: number, index: RunIndex): number {
  const periodMs = Number(period.definition.schedule.conf) * 1000;
  const anchor = firstRunBetween(index, from - 1, to) ?? period.anchor ?? Math.ceil(from / 1000) * 1000;
  return anchor - Math.floor((anchor - from) / periodMs) * periodMs;
}

/** The first scheduled run strictly between two times. */
function firstRunBetween(index: RunIndex, after: number, before: number): number | undefined {
  const { times } = index;
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] as number) <= after) lo = mid + 1;
    else hi = mid;
  }
  const found = times[lo];
  return found !== undefined && found < before ? found : undefined;
}

function fateOf(
  jobId: number,
  period: LedgerPeriod,
  time: number,
  index: RunIndex,
  settledBefore: number,
): LedgerEntry {
  const runs = index.byTime.get(time);
  if (runs?.[0]) return runEntry(time, runs);
  const range = index.ranges.find((r) => r.scheduledTime < time && time <= skippedUntilOf(r));
  if (range) return { ...runEntry(time, [range]), count: 1 };
  if (!period.running)
    return { scheduledTime: time, outcome: 'paused', count: 1, stoppedBy: period.stoppedBy ?? 'job.stop' };
  const { gate, exceptions, jitterSeconds } = period.definition;
  const block = gate && calendarBlockOf(gate, time);
  if (block) return { scheduledTime: time, outcome: 'calendar', count: 1, calendar: block };
  const exception = exceptionAt(exceptions, time);
  if (exception?.action === 'skip')
    return { scheduledTime: time, outcome: 'exception', count: 1, exception: exceptionView(exception) };
  const fireAt =
    exception?.action === 'move' && exception.to !== undefined
      ? exception.to
      : time + jitterOffsetMs(jobId, time, jitterSeconds ?? 0);
  const moved = fireAt === time ? {} : { fireAt };
  const withException = exception ? { exception: exceptionView(exception) } : {};
  if (fireAt > settledBefore)
    return { scheduledTime: time, outcome: 'notYetDue', count: 1, ...moved, ...withException };
  const catchUp = index.catchUps.find((c) => c.scheduledTime >= time);
  if (catchUp && !ranBetween(index, time, catchUp.scheduledTime))
    return { scheduledTime: time, outcome: 'skipped', rule: 'misfire', count: 1, logId: catchUp.logId };
  return { scheduledTime: time, outcome: 'unexplained', count: 1, ...moved, ...withException };
}

/** Whether a scheduled run stands between a missed fire and a catch-up (the catch-up is then another's). */
function ranBetween(index: RunIndex, after: number, until: number): boolean {
  return firstRunBetween(index, after, until) !== undefined;
}

function exceptionView(e: OccurrenceException): LedgerEntry['exception'] {
  return {
    action: e.action,
    by: e.by,
    ...(e.to === undefined ? {} : { to: e.to }),
    ...(e.reason === undefined ? {} : { reason: e.reason }),
  };
}

function runEntry(time: number, runs: readonly Run[]): LedgerEntry {
  const [first] = runs as [Run];
  const statuses = runs.map(runStatus);
  const fireAt = first.jitterMs ? { fireAt: time + first.jitterMs } : {};
  if (statuses.includes('skipped'))
    return { scheduledTime: time, outcome: 'skipped', count: 1, logId: first.logId, rule: skipRuleOf(first) };
  if (statuses.every((s) => s === 'fail') && BLOCKED.test(`${first.triggerMsg}\n${first.handleMsg}`))
    return {
      scheduledTime: time,
      outcome: 'skipped',
      count: 1,
      logId: first.logId,
      rule: 'block',
      ...fireAt,
    };
  const status = statuses.includes('running') ? 'running' : statuses.includes('fail') ? 'fail' : 'success';
  return { scheduledTime: time, outcome: 'ran', count: 1, logId: first.logId, status, ...fireAt };
}

/** The rule a skipped run names in its trigger message (see dispatch/misfire.ts, skip-ranges.ts). */
export function skipRuleOf(run: Pick<Run, 'triggerMsg'>): SkipRule {
  const msg = run.triggerMsg;
  if (/overtaken by/.test(msg)) return 'overlap';
  if (/reached the dispatcher/.test(msg)) return 'overload';
  if (BLOCKED.test(msg)) return 'block';
  return 'misfire';
}

/**
 * Entries whose fates were refined (a workflow's fires, by the runs they started), joined again where
 * consecutive ones now share a fate (an entry of several fires adds its count), with their summary.
 */
export function rejoined<T extends LedgerEntry>(
  entries: readonly T[],
): { entries: T[]; summary: FireLedger['summary'] } {
  const joined: T[] = [];
  for (const entry of entries) push(joined, entry);
  return { entries: joined, summary: summarize(joined) };
}

/** Adds an entry, joining it to the last one when both are the same fate (a range, a paused stretch). */
function push<T extends LedgerEntry>(entries: T[], entry: T): void {
  const last = entries[entries.length - 1];
  if (last && joins(last, entry)) {
    entries[entries.length - 1] = {
      ...last,
      count: last.count + entry.count,
      until: entry.until ?? entry.scheduledTime,
    };
    return;
  }
  entries.push(entry);
}

function joins(a: LedgerEntry, b: LedgerEntry): boolean {
  if (a.outcome !== b.outcome) return false;
  switch (a.outcome) {
    case 'ran':
    case 'exception':
      return false;
    case 'skipped':
      return a.logId === b.logId && a.rule === b.rule;
    case 'paused':
      return a.stoppedBy === b.stoppedBy;
    case 'calendar':
      return a.calendar?.calendarId === b.calendar?.calendarId && a.calendar?.date === b.calendar?.date;
    default:
      // An unexplained fire that names a run (a workflow's start that never came) stands alone.
      return (
        a.fireAt === undefined &&
        b.fireAt === undefined &&
        !a.exception &&
        !b.exception &&
        a.logId === undefined &&
        b.logId === undefined
      );
  }
}

function summarize(entries: readonly LedgerEntry[]): FireLedger['summary'] {
  const counts = Object.fromEntries(LEDGER_OUTCOMES.map((o) => [o, 0])) as Record<LedgerOutcome, number>;
  const skippedBy = Object.fromEntries(SKIP_RULES.map((r) => [r, 0])) as Record<SkipRule, number>;
  for (const e of entries) {
    counts[e.outcome] += e.count;
    if (e.outcome === 'skipped' && e.rule) skippedBy[e.rule] += e.count;
  }
  return { ...counts, skippedBy };
}
