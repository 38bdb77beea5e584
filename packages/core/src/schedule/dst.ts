/**
 * What a cron schedule does where its zone's clocks change: the wall times it names inside a skipped
 * local hour (spring forward) or a repeated one (fall back), and which instants of them fire. The
 * policy is Quartz's, which tickring's cron reproduces exactly (see `java-calendar.ts`): a wall time
 * that does not exist is not fired at all that day; one that exists twice fires once, in the second
 * pass (standard time), and the cron's times in the first pass are skipped. The notes are worked out
 * by asking the cron itself, instant by instant, so they say what the scheduler will do.
 */
import { DateTime, IANAZone } from 'luxon';
import { CronExpression } from './cron.js';
import { nextFireAfter, type Schedule } from './schedule.js';

/** The one DST policy today: Quartz's (what XXL-JOB and every Quartz-based scheduler do). */
export const DST_POLICY = 'QUARTZ';
export const DST_POLICY_TEXT =
  'Quartz: a local time that does not exist (clocks spring forward) is skipped, no fire that day; a local time that exists twice (clocks fall back) fires once, at the second (standard-time) pass.';

export type DstKind = 'skippedHour' | 'repeatedHour';

/** One clock change inside the preview's range, with the schedule's wall times it touches. */
export interface DstTransition {
  readonly kind: DstKind;
  /** The instant the offset changes (epoch ms). */
  readonly at: number;
  /** The local wall times skipped or repeated, [from, to), as `YYYY-MM-DDTHH:mm:ss`. */
  readonly localFrom: string;
  readonly localTo: string;
  readonly offsetBefore: string;
  readonly offsetAfter: string;
  /** How many of the cron's wall times fall in that range, and the first few of them. */
  readonly matches: number;
  readonly firstMatches: readonly string[];
  /** What the job does there, in words. */
  readonly note: string;
}

/** A previewed fire that falls in a repeated local hour, and what that means for it. */
export interface DstFireMark {
  readonly time: number;
  readonly kind: 'repeatedHour';
  readonly note: string;
}

export interface DstMarks {
  readonly transitions: DstTransition[];
  readonly fires: DstFireMark[];
}

const MINUTE_MS = 60_000;
const WEEK_MS = 7 * 86_400_000;
const SHOWN_MATCHES = 5;

/**
 * The clock changes of a CRON schedule's zone from `fromMs` to its last previewed fire, each with
 * what the schedule does there, and the previewed fires that fall in a repeated hour. Nothing for
 * other schedule types (their fires are instants, whatever the clocks say) or a zone without DST.
 */
export function dstMarks(s: Schedule, fromMs: number, fires: readonly number[]): DstMarks {
  const last = fires.at(-1);
  if (s.type !== 'CRON' || last === undefined) return { transitions: [], fires: [] };
  const zone = IANAZone.create(s.timeZone);
  const wallCron = CronExpression.parse(s.conf, 'UTC');
  const transitions: DstTransition[] = [];
  const marks: DstFireMark[] = [];
  for (const at of offsetChanges(zone, fromMs, last)) {
    const before = zone.offset(at - 1);
    const after = zone.offset(at);
    const kind: DstKind = after > before ? 'skippedHour' : 'repeatedHour';
    // The wall range, as wall-clock-as-UTC milliseconds: skipped [at+before, at+after), repeated [at+after, at+before).
    const wallFrom = at + Math.min(before, after) * MINUTE_MS;
    const wallTo = at + Math.max(before, after) * MINUTE_MS;
    const walls = wallTimesIn(wallCron, wallFrom, wallTo);
    if (walls.length === 0) continue;
    const fired = (instant: number) => nextFireAfter(s, instant - 1) === instant;
    let note: string;
    if (kind === 'skippedHour') {
      // Java reads a wall time in the gap with the offset before it (02:30 → 03:30 new time): a
      // fire there is a moved one unless the cron names that later wall time itself.
      const shift = (after - before) * MINUTE_MS;
      const namesItself = (wall: number) => wallCron.nextAfter(wall - 1) === wall;
      const moved = walls.filter((w) => fired(w - before * MINUTE_MS) && !namesItself(w + shift));
      note =
        moved.length === 0
          ? `${describeCount(walls.length)} in the skipped hour: no fire for ${walls.length === 1 ? 'it' : 'them'} that day (the clocks jump from ${wallText(wallFrom)} to ${wallText(wallTo)}).`
          : `${describeCount(walls.length)} in the skipped hour: ${moved.length} of them fire ${gapSize(before, after)} later, the others not at all.`;
    } else {
      const firstPass = walls.filter((w) => fired(w - before * MINUTE_MS));
      const secondPass = walls.filter((w) => fired(w - after * MINUTE_MS));
      for (const w of secondPass) {
        const time = w - after * MINUTE_MS;
        if (fires.includes(time))
          marks.push({
            time,
            kind,
            note: `${wallText(w)} happens twice (${offsetText(before)}, then ${offsetText(after)}): ${
              firstPass.includes(w)
                ? 'the job fires at both'
                : `the job fires once, at the second (${offsetText(after)}); the first is skipped`
            }.`,
          });
      }
      for (const w of firstPass) {
        const time = w - before * MINUTE_MS;
        if (fires.includes(time) && !secondPass.includes(w))
          marks.push({
            time,
            kind,
            note: `${wallText(w)} happens twice: the job fires at the first (${offsetText(before)}) only.`,
          });
      }
      note = `${describeCount(walls.length)} in the repeated hour: ${repeatedSummary(walls.length, firstPass.length, secondPass.length, before, after)}`;
    }
    transitions.push({
      kind,
      at,
      localFrom: wallText(wallFrom),
      localTo: wallText(wallTo),
      offsetBefore: offsetText(before),
      offsetAfter: offsetText(after),
      matches: walls.length,
      firstMatches: walls.slice(0, SHOWN_MATCHES).map(wallText),
      note,
    });
  }
  marks.sort((a, b) => a.time - b.time);
  return { transitions, fires: marks };
}

/** The instants in (fromMs, toMs] where the zone's offset changes (a week at a time, then to the ms). */
function offsetChanges(zone: IANAZone, fromMs: number, toMs: number): number[] {
  const found: number[] = [];
  let at = fromMs;
  let offset = zone.offset(at);
  while (at < toMs) {
    const step = Math.min(at + WEEK_MS, toMs);
    const stepOffset = zone.offset(step);
    if (stepOffset !== offset) {
      // The first instant with the new offset: between `at` (old) and `step` (new).
      let low = at;
      let high = step;
      while (high - low > 1) {
        const mid = Math.floor((low + high) / 2);
        if (zone.offset(mid) === offset) low = mid;
        else high = mid;
      }
      found.push(high);
      offset = zone.offset(high);
      at = high;
      continue;
    }
    at = step;
  }
  return found;
}

/** The cron's wall times in [fromWall, toWall), read as UTC (a wall clock without changes). */
function wallTimesIn(wallCron: CronExpression, fromWall: number, toWall: number): number[] {
  const times: number[] = [];
  let t = wallCron.nextAfter(fromWall - 1);
  while (t !== null && t < toWall) {
    times.push(t);
    t = wallCron.nextAfter(t);
  }
  return times;
}

function repeatedSummary(
  total: number,
  first: number,
  second: number,
  before: number,
  after: number,
): string {
  if (second === total && first === 0)
    return `each fires once, at the second pass (${offsetText(after)}); the first pass (${offsetText(before)}) is skipped.`;
  if (first === total && second === total) return 'each fires twice, once in each pass.';
  return `${second} fire${second === 1 ? 's' : ''} in the second pass (${offsetText(after)}), ${first} in the first (${offsetText(before)}).`;
}

const describeCount = (n: number) =>
  n === 1 ? 'The schedule names 1 time' : `The schedule names ${n} times`;

const gapSize = (before: number, after: number) => `${Math.abs(after - before)} min`;

const wallText = (wallMs: number) =>
  DateTime.fromMillis(wallMs, { zone: 'UTC' }).toFormat("yyyy-MM-dd'T'HH:mm:ss");

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
