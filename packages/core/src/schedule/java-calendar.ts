/**
 * Just enough of `java.util.GregorianCalendar` (lenient, in one time zone) for the Quartz port in
 * `cron.ts`: field get/set with Java's lazy recomputation, lenient normalisation (day 32 rolls into the
 * next month, hour 24 into the next day, month 12 into the next year) and Java's resolution of local
 * wall times that do not exist (DST gap) or exist twice (DST overlap).
 *
 * How Java resolves a wall time (`ZoneInfo.getOffsetsByWall`, used by `GregorianCalendar.computeTime`):
 * it takes the offset of the last transition whose *wall* instant (transition UTC + offset after it) is
 * <= the wall time. So
 * - in a gap (e.g. 02:30 on a spring-forward night in New York) the offset from *before* the transition
 *   applies: 02:30 EST, which is 03:30 EDT (the calendar moves forward by the size of the gap);
 * - in an overlap (01:30 on a fall-back night) the offset from *after* the transition applies: 01:30 EST,
 *   the later of the two 01:30s (standard time).
 * In both cases Java picks the smaller of the two offsets. (Checked against Quartz on the JDK for
 * transitions from 2000 to 2060, midnight transitions and 30-minute shifts included.)
 *
 * Offsets come from luxon (ICU's tz database), which must agree with the JDK's tzdb for the dates used.
 * Assumption: a zone has at most one transition within a day either side of a wall time.
 */
import { IANAZone } from 'luxon';

export const YEAR = 1;
export const MONTH = 2;
export const DAY_OF_MONTH = 5;
export const DAY_OF_WEEK = 7;
export const HOUR_OF_DAY = 11;
export const MINUTE = 12;
export const SECOND = 13;
export const MILLISECOND = 14;

export type CalendarField =
  | typeof YEAR
  | typeof MONTH
  | typeof DAY_OF_MONTH
  | typeof DAY_OF_WEEK
  | typeof HOUR_OF_DAY
  | typeof MINUTE
  | typeof SECOND
  | typeof MILLISECOND;

export type SettableField = Exclude<CalendarField, typeof DAY_OF_WEEK>;

/** java.util.Calendar.SUNDAY / SATURDAY. */
export const SUNDAY = 1;
export const SATURDAY = 7;

const DAY_MS = 86_400_000;

/** Time-zone offsets for one IANA zone, in milliseconds, with Java's wall-time resolution. */
export class ZoneRules {
  private readonly zone: IANAZone;
  private readonly cache = new Map<number, number>();

  constructor(readonly name: string) {
    this.zone = IANAZone.create(name);
    if (!this.zone.isValid) throw new RangeError(`unknown time zone '${name}'`);
  }

  /** Offset (local - UTC) in ms at the UTC instant `utcMs`. */
  offsetAt(utcMs: number): number {
    let o = this.cache.get(utcMs);
    if (o === undefined) {
      o = Math.round(this.zone.offset(utcMs) * 60_000);
      if (this.cache.size > 4096) this.cache.clear();
      this.cache.set(utcMs, o);
    }
    return o;
  }

  /** The UTC instant Java's GregorianCalendar gives the local wall time `wallMs` (wall fields read as UTC). */
  wallToUtc(wallMs: number): number {
    const before = this.offsetAt(wallMs - DAY_MS);
    const after = this.offsetAt(wallMs + DAY_MS);
    if (before === after) return wallMs - after;
    // One transition T near the wall time: Java uses the offset after T iff wall >= T + after,
    // i.e. iff the instant `wall - after` is already past T.
    return this.offsetAt(wallMs - after) === after ? wallMs - after : wallMs - before;
  }
}

/** Calendar fields in local time: [year, month (0-11), day of month, hour, minute, second, ms]. */
type Fields = [number, number, number, number, number, number, number];

/** A lenient java.util.GregorianCalendar in one zone, limited to the fields Quartz uses. */
export class JavaCalendar {
  private time = 0;
  private fields: Fields = [1970, 0, 1, 0, 0, 0, 0];
  private dayOfWeek = 5;
  /** Fields were set after the time was last computed (Java's !isTimeSet). */
  private dirty = false;

  constructor(
    private readonly zone: ZoneRules,
    timeMs: number,
  ) {
    this.setTime(timeMs);
  }

  setTime(timeMs: number): void {
    this.time = timeMs;
    this.computeFields();
    this.dirty = false;
  }

  getTime(): number {
    this.complete();
    return this.time;
  }

  get(field: CalendarField): number {
    this.complete();
    if (field === DAY_OF_WEEK) return this.dayOfWeek;
    return this.fields[index(field)];
  }

  set(field: SettableField, value: number): void {
    this.fields[index(field)] = value;
    this.dirty = true;
  }

  /** Calendar.add(YEAR, n): move the year and pin the day of month to the new month's length. */
  addYears(amount: number): void {
    this.complete();
    this.set(YEAR, this.fields[0] + amount);
    const monthLength = daysInMonth(this.fields[0], this.fields[1]);
    if (this.fields[2] > monthLength) this.set(DAY_OF_MONTH, monthLength);
  }

  private complete(): void {
    if (!this.dirty) return;
    const [y, mo, d, h, mi, s, ms] = this.fields;
    // Date.UTC normalises out-of-range fields exactly like Java's lenient GregorianCalendar.
    const wall = Date.UTC(y, mo, d, h, mi, s, ms);
    this.time = this.zone.wallToUtc(wall);
    this.computeFields();
    this.dirty = false;
  }

  private computeFields(): void {
    const local = new Date(this.time + this.zone.offsetAt(this.time));
    this.fields = [
      local.getUTCFullYear(),
      local.getUTCMonth(),
      local.getUTCDate(),
      local.getUTCHours(),
      local.getUTCMinutes(),
      local.getUTCSeconds(),
      local.getUTCMilliseconds(),
    ];
    this.dayOfWeek = local.getUTCDay() + 1;
  }
}

function index(field: SettableField): 0 | 1 | 2 | 3 | 4 | 5 | 6 {
  switch (field) {
    case YEAR:
      return 0;
    case MONTH:
      return 1;
    case DAY_OF_MONTH:
      return 2;
    case HOUR_OF_DAY:
      return 3;
    case MINUTE:
      return 4;
    case SECOND:
      return 5;
    case MILLISECOND:
      return 6;
  }
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in a month; `month0` is 0-11. */
export function daysInMonth(year: number, month0: number): number {
  return new Date(Date.UTC(year, month0 + 1, 0)).getUTCDate();
}
