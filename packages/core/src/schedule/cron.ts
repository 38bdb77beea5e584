/**
 * A port of Quartz 2.3.2's `org.quartz.CronExpression` (Apache License 2.0, Terracotta, Inc.): the
 * parser (`buildExpression`, `storeExpressionVals`, `checkNext`, `addToSet`) and `getTimeAfter`, line
 * by line, over an emulated lenient `java.util.GregorianCalendar` (see `java-calendar.ts`), so that
 * {@link CronExpression.nextAfter} returns what Quartz's `getNextValidTimeAfter` returns in the same zone,
 * DST gaps and overlaps included. `fixtures/quartz-golden.json` (from `tools/quartz-golden`) pins this.
 *
 * Dialect: `sec min hour day-of-month month day-of-week [year]`; `, - * /` everywhere, `?` in
 * day-of-month or day-of-week (exactly one of them must be `?`), `L`, `L-n`, `nW`, `LW`, `L-nW` in
 * day-of-month, `nL` and `n#k` in day-of-week, JAN-DEC and SUN-SAT (case-insensitive), and
 * day-of-week 1 = Sunday ... 7 = Saturday.
 *
 * The port accepts what Quartz accepts (odd inputs included: `MONDAY` reads as `MON`, `MON-FRI/2` as
 * `MON-FRI`, `5X` as `5`), with these deliberate exceptions, each of which Quartz accepts but cannot use:
 * - more than 7 fields (Quartz silently ignores the extra ones);
 * - a year outside 1970-2199 (Quartz accepts it and never fires);
 * - a field that yields no value at all, such as `,` or `L` in the seconds (Quartz throws
 *   NoSuchElementException when computing a fire time);
 * - `0W`, and `L-nW` with n > 27 (Quartz's getNextValidTimeAfter never returns for them);
 * - a day-of-week outside 1-7 before `#` (`8#2` never fires in Quartz, `0#2` fires on arbitrary days).
 * Leading and trailing whitespace (Java's trim: anything <= U+0020) is ignored, so a stray trailing
 * newline cannot turn into an empty year field. And two differences in evaluation:
 * - Quartz caps the search at "the current year + 100" (read when the JVM loads the class); the port uses
 *   2199, the documented upper bound, so results never depend on when the code was loaded;
 * - Quartz's `W` handling compares a candidate with a Calendar whose milliseconds come from the wall clock,
 *   so for a start time with a non-zero millisecond part the result can depend on the clock; the port
 *   compares at whole seconds (the outcome Quartz gives for start times on whole seconds, which fire
 *   times always are);
 * - where Quartz's search would never end (e.g. `LW` in December 2011 in Pacific/Apia, whose 30 December
 *   did not exist), a loop guard makes the port return null instead.
 */
import { ValidationError } from '../common/errors.js';
import {
  DAY_OF_MONTH as CAL_DAY_OF_MONTH,
  DAY_OF_WEEK as CAL_DAY_OF_WEEK,
  HOUR_OF_DAY as CAL_HOUR_OF_DAY,
  MILLISECOND as CAL_MILLISECOND,
  MINUTE as CAL_MINUTE,
  MONTH as CAL_MONTH,
  SECOND as CAL_SECOND,
  YEAR as CAL_YEAR,
  daysInMonth,
  JavaCalendar,
  SATURDAY,
  SUNDAY,
  ZoneRules,
} from './java-calendar.js';

const SECOND = 0;
const MINUTE = 1;
const HOUR = 2;
const DAY_OF_MONTH = 3;
const MONTH = 4;
const DAY_OF_WEEK = 5;
const YEAR = 6;
type FieldType = 0 | 1 | 2 | 3 | 4 | 5 | 6;

const FIELD_NAMES = ['second', 'minute', 'hour', 'day-of-month', 'month', 'day-of-week', 'year'] as const;

/** Quartz's marker values for `*` and `?` inside the value sets. */
const ALL_SPEC = 99;
const NO_SPEC = 98;

export const MIN_YEAR = 1970;
export const MAX_YEAR = 2199;
/** Loop guard for getTimeAfter; a legitimate search needs a few thousand iterations at most. */
const MAX_ITERATIONS = 100_000;

const MONTHS: Record<string, number> = {
  JAN: 0,
  FEB: 1,
  MAR: 2,
  APR: 3,
  MAY: 4,
  JUN: 5,
  JUL: 6,
  AUG: 7,
  SEP: 8,
  OCT: 9,
  NOV: 10,
  DEC: 11,
};
const DAYS: Record<string, number> = { SUN: 1, MON: 2, TUE: 3, WED: 4, THU: 5, FRI: 6, SAT: 7 };

/** A syntax error found by the parser (Quartz's ParseException). */
class CronSyntaxError extends Error {}

/** Stands for the Java runtime exceptions Quartz's parser turns into "Illegal cron expression format". */
class MalformedError extends Error {}

/** A sorted set of ints (Quartz's TreeSet<Integer>). */
class IntSet {
  private values: number[] = [];

  add(v: number): void {
    let lo = 0;
    let hi = this.values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const m = this.values[mid]!;
      if (m === v) return;
      if (m < v) lo = mid + 1;
      else hi = mid;
    }
    this.values.splice(lo, 0, v);
  }

  has(v: number): boolean {
    return this.values.includes(v);
  }

  get size(): number {
    return this.values.length;
  }

  /** TreeSet.first(); throws (NoSuchElementException) when empty. */
  first(): number {
    const v = this.values[0];
    if (v === undefined) throw new MalformedError('no value');
    return v;
  }

  /** TreeSet.last(); throws (NoSuchElementException) when empty. */
  last(): number {
    const v = this.values[this.values.length - 1];
    if (v === undefined) throw new MalformedError('the day-of-month field has no value');
    return v;
  }

  /** tailSet(v).first(), or undefined when the tail set is empty. */
  firstAtLeast(v: number): number | undefined {
    for (const x of this.values) if (x >= v) return x;
    return undefined;
  }
}

function isDigit(c: string | undefined): c is string {
  return c !== undefined && c.length === 1 && c >= '0' && c <= '9';
}

/** String.charAt: throws (StringIndexOutOfBoundsException) outside the string. */
function charAt(s: string, i: number): string {
  const c = s[i];
  if (c === undefined) throw new MalformedError(`'${s}' ends too early`);
  return c;
}

/** String.substring(begin, end): throws outside the string. */
function substring(s: string, begin: number, end: number): string {
  if (begin < 0 || end > s.length || begin > end) {
    throw new MalformedError(`'${s.substring(begin)}' is neither a number nor a 3-letter name`);
  }
  return s.substring(begin, end);
}

/** Integer.parseInt: an optional sign and decimal digits, within the int range. */
function parseJavaInt(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new MalformedError(`'${s}' is not a number`);
  const n = Number(s);
  if (n > 2_147_483_647 || n < -2_147_483_648) throw new MalformedError(`'${s}' is out of range`);
  return n;
}

/** String.trim(): strips every char <= U+0020 at both ends. */
function javaTrim(s: string): string {
  let b = 0;
  let e = s.length;
  while (b < e && s.charCodeAt(b) <= 0x20) b++;
  while (e > b && s.charCodeAt(e - 1) <= 0x20) e--;
  return s.substring(b, e);
}

interface ValueSet {
  value: number;
  pos: number;
}

/** The parsed form of an expression (Quartz's instance fields). */
class CronFields {
  readonly sets: [IntSet, IntSet, IntSet, IntSet, IntSet, IntSet, IntSet] = [
    new IntSet(),
    new IntSet(),
    new IntSet(),
    new IntSet(),
    new IntSet(),
    new IntSet(),
    new IntSet(),
  ];
  lastdayOfWeek = false;
  nthdayOfWeek = 0;
  lastdayOfMonth = false;
  nearestWeekday = false;
  lastdayOffset = 0;

  get seconds(): IntSet {
    return this.sets[SECOND];
  }
  get minutes(): IntSet {
    return this.sets[MINUTE];
  }
  get hours(): IntSet {
    return this.sets[HOUR];
  }
  get daysOfMonth(): IntSet {
    return this.sets[DAY_OF_MONTH];
  }
  get months(): IntSet {
    return this.sets[MONTH];
  }
  get daysOfWeek(): IntSet {
    return this.sets[DAY_OF_WEEK];
  }
  get years(): IntSet {
    return this.sets[YEAR];
  }
}

// ---------------------------------------------------------------------------------------------------
// Parsing (buildExpression and friends)
// ---------------------------------------------------------------------------------------------------

function buildExpression(expression: string): CronFields {
  const f = new CronFields();
  const tokens = expression.split(/[ \t]+/).filter((t) => t.length > 0);
  if (tokens.length > 7) {
    throw new CronSyntaxError(
      `expected 6 or 7 fields (second minute hour day-of-month month day-of-week [year]), got ${tokens.length}`,
    );
  }
  let exprOn: number = SECOND;
  for (const token of tokens) {
    const type = exprOn as FieldType;
    const expr = javaTrim(token);
    if (type === DAY_OF_MONTH && expr.includes('L') && expr.length > 1 && expr.includes(',')) {
      throw new CronSyntaxError("'L' and 'LW' in the day-of-month cannot be combined with other days");
    }
    if (type === DAY_OF_WEEK && expr.includes('L') && expr.length > 1 && expr.includes(',')) {
      throw new CronSyntaxError("'L' in the day-of-week cannot be combined with other days");
    }
    if (type === DAY_OF_WEEK && expr.indexOf('#') !== -1 && expr.indexOf('#', expr.indexOf('#') + 1) !== -1) {
      throw new CronSyntaxError("only one 'n#k' (k-th weekday of the month) is supported in the day-of-week");
    }
    for (const v of expr.split(',')) {
      if (v.length === 0) continue;
      try {
        storeExpressionVals(f, v, type);
      } catch (err) {
        if (!(err instanceof MalformedError)) throw err;
        throw new CronSyntaxError(`malformed ${FIELD_NAMES[type]} field '${expr}': ${err.message}`);
      }
    }
    exprOn++;
  }
  if (exprOn <= DAY_OF_WEEK) {
    throw new CronSyntaxError(
      `expected 6 or 7 fields (second minute hour day-of-month month day-of-week [year]), got ${tokens.length}`,
    );
  }
  if (exprOn <= YEAR) storeExpressionVals(f, '*', YEAR);

  const dayOfMSpec = !f.daysOfMonth.has(NO_SPEC);
  const dayOfWSpec = !f.daysOfWeek.has(NO_SPEC);
  if ((!dayOfMSpec || dayOfWSpec) && (!dayOfWSpec || dayOfMSpec)) {
    throw new CronSyntaxError(
      "Support for specifying both a day-of-week AND a day-of-month parameter is not implemented (use '?' in one of them)",
    );
  }
  // Stricter than Quartz: a field without any value makes Quartz throw when it computes a fire time.
  for (const type of [SECOND, MINUTE, HOUR, DAY_OF_MONTH, MONTH, DAY_OF_WEEK, YEAR] as const) {
    if (type === DAY_OF_MONTH && f.lastdayOfMonth) continue;
    if (f.sets[type].size === 0) throw new CronSyntaxError(`the ${FIELD_NAMES[type]} field has no value`);
  }
  return f;
}

function storeExpressionVals(f: CronFields, s: string, type: FieldType): void {
  const field = FIELD_NAMES[type];
  let incr = 0;
  let i = 0;
  let c = charAt(s, i);
  if (c >= 'A' && c <= 'Z' && s !== 'L' && s !== 'LW' && !/^L-[0-9]*W?$/.test(s)) {
    let sub = substring(s, i, i + 3);
    let sval: number;
    let eval_ = -1;
    if (type === MONTH) {
      sval = monthNumber(sub) + 1;
      if (sval <= 0) throw new CronSyntaxError(`invalid month '${sub}' (use 1-12 or JAN-DEC)`);
      if (s.length > i + 3) {
        c = charAt(s, i + 3);
        if (c === '-') {
          i += 4;
          sub = substring(s, i, i + 3);
          eval_ = monthNumber(sub) + 1;
          if (eval_ <= 0) throw new CronSyntaxError(`invalid month '${sub}' (use 1-12 or JAN-DEC)`);
        }
      }
    } else if (type === DAY_OF_WEEK) {
      sval = dayNumber(sub);
      if (sval < 0) throw new CronSyntaxError(`invalid day-of-week '${sub}' (use 1-7 or SUN-SAT)`);
      if (s.length > i + 3) {
        c = charAt(s, i + 3);
        if (c === '-') {
          i += 4;
          sub = substring(s, i, i + 3);
          eval_ = dayNumber(sub);
          if (eval_ < 0) throw new CronSyntaxError(`invalid day-of-week '${sub}' (use 1-7 or SUN-SAT)`);
        } else if (c === '#') {
          i += 4;
          f.nthdayOfWeek = parseNth(s.substring(i));
        } else if (c === 'L') {
          f.lastdayOfWeek = true;
          i++;
        }
      }
    } else {
      throw new CronSyntaxError(`'${sub}' is not allowed in the ${field} field`);
    }
    if (eval_ !== -1) incr = 1;
    addToSet(f, sval, eval_, incr, type);
    return;
  }

  if (c === '?') {
    i++;
    if (i + 1 < s.length && s[i] !== ' ' && s[i + 1] !== '\t') {
      throw new CronSyntaxError(`illegal character after '?' in the ${field} field: '${s[i]}'`);
    }
    if (type !== DAY_OF_WEEK && type !== DAY_OF_MONTH) {
      throw new CronSyntaxError(
        `'?' is only allowed in the day-of-month or day-of-week field, not the ${field}`,
      );
    }
    if (type === DAY_OF_WEEK && !f.lastdayOfMonth) {
      if (f.daysOfMonth.last() === NO_SPEC) {
        throw new CronSyntaxError(
          "'?' can only be specified for the day-of-month -OR- the day-of-week, not both",
        );
      }
    }
    addToSet(f, NO_SPEC, -1, 0, type);
    return;
  }

  if (c === '*' || c === '/') {
    if (c === '*' && i + 1 >= s.length) {
      addToSet(f, ALL_SPEC, -1, incr, type);
      return;
    }
    if (c === '/' && (i + 1 >= s.length || s[i + 1] === ' ' || s[i + 1] === '\t')) {
      throw new CronSyntaxError(`'/' must be followed by an integer in the ${field} field`);
    }
    if (c === '*') i++;
    c = charAt(s, i);
    if (c === '/') {
      i++;
      if (i >= s.length)
        throw new CronSyntaxError(`'/' must be followed by an integer in the ${field} field`);
      incr = parseJavaInt(s.substring(i));
      checkIncrementRange(incr, type);
    } else {
      incr = 1;
    }
    addToSet(f, ALL_SPEC, -1, incr, type);
    return;
  }

  if (c === 'L') {
    i++;
    if (type === DAY_OF_MONTH) f.lastdayOfMonth = true;
    if (type === DAY_OF_WEEK) addToSet(f, 7, 7, 0, type);
    if (type === DAY_OF_MONTH && s.length > i) {
      c = charAt(s, i);
      if (c === '-') {
        const vs = getValue(0, s, i + 1);
        f.lastdayOffset = vs.value;
        if (f.lastdayOffset > 30) {
          throw new CronSyntaxError(
            `the offset from the last day must be at most 30 (got L-${f.lastdayOffset})`,
          );
        }
        i = vs.pos;
      }
      if (s.length > i) {
        c = charAt(s, i);
        if (c === 'W') {
          f.nearestWeekday = true;
          i++;
        }
      }
      if (f.nearestWeekday && f.lastdayOffset > 27) {
        // Stricter than Quartz, whose getNextValidTimeAfter loops forever once the day falls before the 1st.
        throw new CronSyntaxError(
          `'L-${f.lastdayOffset}W' would fall before the 1st of February; the offset with 'W' must be at most 27`,
        );
      }
    }
    return;
  }

  if (c >= '0' && c <= '9') {
    let val = Number(c);
    i++;
    if (i >= s.length) {
      addToSet(f, val, -1, -1, type);
    } else {
      c = charAt(s, i);
      if (isDigit(c)) {
        const vs = getValue(val, s, i);
        val = vs.value;
        i = vs.pos;
      }
      checkNext(f, i, s, val, type);
    }
    return;
  }

  throw new CronSyntaxError(`unexpected character '${c}' in the ${field} field`);
}

function parseNth(s: string): number {
  let n: number;
  try {
    n = parseJavaInt(s);
  } catch {
    n = 0;
  }
  if (n < 1 || n > 5) {
    throw new CronSyntaxError(`'#' must be followed by a number between 1 and 5 (got '#${s}')`);
  }
  return n;
}

function checkIncrementRange(incr: number, type: FieldType): void {
  const max = type === SECOND || type === MINUTE ? 59 : type === HOUR ? 23 : type === DAY_OF_MONTH ? 31 : -1;
  const limit = type === DAY_OF_WEEK ? 7 : type === MONTH ? 12 : max;
  if (limit !== -1 && incr > limit) {
    throw new CronSyntaxError(`the ${FIELD_NAMES[type]} increment ${incr} is too large (at most ${limit})`);
  }
}

function checkNext(f: CronFields, pos: number, s: string, val: number, type: FieldType): void {
  const field = FIELD_NAMES[type];
  let end = -1;
  let i = pos;
  if (i >= s.length) {
    addToSet(f, val, end, -1, type);
    return;
  }
  let c = charAt(s, pos);

  if (c === 'L') {
    if (type !== DAY_OF_WEEK)
      throw new CronSyntaxError(`'L' after a number is only valid in the day-of-week`);
    if (val < 1 || val > 7) throw new CronSyntaxError(`day-of-week value ${val} out of range 1-7`);
    f.lastdayOfWeek = true;
    f.sets[type].add(val);
    return;
  }

  if (c === 'W') {
    if (type !== DAY_OF_MONTH)
      throw new CronSyntaxError(`'W' is only valid in the day-of-month, not the ${field}`);
    f.nearestWeekday = true;
    if (val > 31 || val < 1)
      throw new CronSyntaxError(`day-of-month value ${val} out of range 1-31 before 'W'`);
    f.sets[type].add(val);
    return;
  }

  if (c === '#') {
    if (type !== DAY_OF_WEEK)
      throw new CronSyntaxError(`'#' is only valid in the day-of-week, not the ${field}`);
    i++;
    f.nthdayOfWeek = parseNth(s.substring(i));
    // Stricter than Quartz, which does not range-check the day before '#'.
    if (val < 1 || val > 7) throw new CronSyntaxError(`day-of-week value ${val} out of range 1-7`);
    f.sets[type].add(val);
    return;
  }

  if (c === '-') {
    i++;
    c = charAt(s, i);
    const v = parseJavaInt(c);
    end = v;
    i++;
    if (i >= s.length) {
      addToSet(f, val, end, 1, type);
      return;
    }
    c = charAt(s, i);
    if (isDigit(c)) {
      const vs = getValue(v, s, i);
      end = vs.value;
      i = vs.pos;
    }
    if (i < s.length && s[i] === '/') {
      i++;
      c = charAt(s, i);
      const v2 = parseJavaInt(c);
      i++;
      if (i >= s.length) {
        addToSet(f, val, end, v2, type);
        return;
      }
      c = charAt(s, i);
      if (isDigit(c)) {
        const vs = getValue(v2, s, i);
        addToSet(f, val, end, vs.value, type);
      } else {
        addToSet(f, val, end, v2, type);
      }
      return;
    }
    addToSet(f, val, end, 1, type);
    return;
  }

  if (c === '/') {
    if (i + 1 >= s.length || s[i + 1] === ' ' || s[i + 1] === '\t') {
      throw new CronSyntaxError(`'/' must be followed by an integer in the ${field} field`);
    }
    i++;
    c = charAt(s, i);
    const v2 = parseJavaInt(c);
    i++;
    if (i >= s.length) {
      checkIncrementRange(v2, type);
      addToSet(f, val, end, v2, type);
      return;
    }
    c = charAt(s, i);
    if (isDigit(c)) {
      const vs = getValue(v2, s, i);
      checkIncrementRange(vs.value, type);
      addToSet(f, val, end, vs.value, type);
      return;
    }
    throw new CronSyntaxError(`unexpected character '${c}' after '/' in the ${field} field`);
  }

  addToSet(f, val, end, 0, type);
}

function addToSet(f: CronFields, val: number, end: number, incr: number, type: FieldType): void {
  const set = f.sets[type];
  const outOfRange = (min: number, max: number) =>
    new CronSyntaxError(
      `${FIELD_NAMES[type]} value ${val < min || val > max ? val : end} out of range ${min}-${max}`,
    );
  switch (type) {
    case SECOND:
    case MINUTE:
      if ((val < 0 || val > 59 || end > 59) && val !== ALL_SPEC) throw outOfRange(0, 59);
      break;
    case HOUR:
      if ((val < 0 || val > 23 || end > 23) && val !== ALL_SPEC) throw outOfRange(0, 23);
      break;
    case DAY_OF_MONTH:
      if ((val < 1 || val > 31 || end > 31) && val !== ALL_SPEC && val !== NO_SPEC) throw outOfRange(1, 31);
      break;
    case MONTH:
      if ((val < 1 || val > 12 || end > 12) && val !== ALL_SPEC) throw outOfRange(1, 12);
      break;
    case DAY_OF_WEEK:
      if ((val === 0 || val > 7 || end > 7) && val !== ALL_SPEC && val !== NO_SPEC) throw outOfRange(1, 7);
      break;
    case YEAR:
      // Stricter than Quartz, which accepts any year and then never fires outside 1970-(now+100).
      if ((val < MIN_YEAR || val > MAX_YEAR || end > MAX_YEAR) && val !== ALL_SPEC) {
        throw outOfRange(MIN_YEAR, MAX_YEAR);
      }
      break;
  }

  if ((incr === 0 || incr === -1) && val !== ALL_SPEC) {
    set.add(val !== -1 ? val : NO_SPEC);
    return;
  }

  let startAt = val;
  let stopAt = end;
  let step = incr;
  if (val === ALL_SPEC && step <= 0) {
    step = 1;
    set.add(ALL_SPEC); // a marker, but the values are filled in too
  }
  const [first, last] = (
    [
      [0, 59],
      [0, 59],
      [0, 23],
      [1, 31],
      [1, 12],
      [1, 7],
      [MIN_YEAR, MAX_YEAR],
    ] as const
  )[type];
  if (stopAt === -1) stopAt = last;
  if (startAt === -1 || startAt === ALL_SPEC) startAt = first;

  // A range whose end is before its start wraps around (22-2 in the hours, NOV-FEB in the months).
  let max = -1;
  if (stopAt < startAt) {
    if (type === YEAR) {
      throw new CronSyntaxError(`the year range ${startAt}-${stopAt} ends before it starts`);
    }
    max = [60, 60, 24, 31, 12, 7][type]!;
    stopAt += max;
  }
  for (let v = startAt; v <= stopAt; v += step) {
    if (max === -1) {
      set.add(v);
    } else {
      let v2 = v % max;
      if (v2 === 0 && (type === MONTH || type === DAY_OF_WEEK || type === DAY_OF_MONTH)) v2 = max;
      set.add(v2);
    }
  }
}

function getValue(v: number, s: string, start: number): ValueSet {
  let i = start;
  let c = charAt(s, i);
  let digits = String(v);
  while (isDigit(c)) {
    digits += c;
    i++;
    if (i >= s.length) break;
    c = charAt(s, i);
  }
  return { pos: i < s.length ? i : i + 1, value: parseJavaInt(digits) };
}

function monthNumber(s: string): number {
  return MONTHS[s] ?? -1;
}

function dayNumber(s: string): number {
  return DAYS[s] ?? -1;
}

// ---------------------------------------------------------------------------------------------------
// Evaluation (getTimeAfter)
// ---------------------------------------------------------------------------------------------------

function getLastDayOfMonth(monthNum: number, year: number): number {
  return daysInMonth(year, monthNum - 1);
}

/** Sets the hour, stepping one further if Java's calendar lands elsewhere (an hour in a DST gap). */
function setCalendarHour(cal: JavaCalendar, hour: number): void {
  cal.set(CAL_HOUR_OF_DAY, hour);
  if (cal.get(CAL_HOUR_OF_DAY) !== hour && hour !== 24) cal.set(CAL_HOUR_OF_DAY, hour + 1);
}

/** The nearest weekday to `day` in the month, not crossing the month's ends (Quartz's 'W' block). */
function nearestWeekdayCandidate(
  zone: ZoneRules,
  day: number,
  mon: number,
  year: number,
  hr: number,
  min: number,
  sec: number,
): { day: number; time: number } {
  // Quartz uses Calendar.getInstance(zone), i.e. the current time, and overwrites every field but the
  // milliseconds; 999 makes the comparison with afterTime whole-second (see the module comment).
  const tcal = new JavaCalendar(zone, 0);
  tcal.set(CAL_MILLISECOND, 999);
  tcal.set(CAL_SECOND, 0);
  tcal.set(CAL_MINUTE, 0);
  tcal.set(CAL_HOUR_OF_DAY, 0);
  tcal.set(CAL_DAY_OF_MONTH, day);
  tcal.set(CAL_MONTH, mon - 1);
  tcal.set(CAL_YEAR, year);

  const ldom = getLastDayOfMonth(mon, year);
  const dow = tcal.get(CAL_DAY_OF_WEEK);
  let d = day;
  if (dow === SATURDAY && d === 1) d += 2;
  else if (dow === SATURDAY) d -= 1;
  else if (dow === SUNDAY && d === ldom) d -= 2;
  else if (dow === SUNDAY) d += 1;

  tcal.set(CAL_SECOND, sec);
  tcal.set(CAL_MINUTE, min);
  tcal.set(CAL_HOUR_OF_DAY, hr);
  tcal.set(CAL_DAY_OF_MONTH, d);
  tcal.set(CAL_MONTH, mon - 1);
  return { day: d, time: tcal.getTime() };
}

function getTimeAfter(f: CronFields, zone: ZoneRules, afterMs: number): number | null {
  // move ahead one second, since we're computing the time *after* the given time
  const afterTime = afterMs + 1000;
  const cl = new JavaCalendar(zone, afterTime);
  // CronTrigger does not deal with milliseconds
  cl.set(CAL_MILLISECOND, 0);

  const { seconds, minutes, hours, daysOfMonth, months, daysOfWeek, years } = f;
  for (let iteration = 0; ; iteration++) {
    if (iteration > MAX_ITERATIONS) return null;
    if (cl.get(CAL_YEAR) > 2999) return null;

    let sec = cl.get(CAL_SECOND);
    let min = cl.get(CAL_MINUTE);

    // get second
    const s = seconds.firstAtLeast(sec);
    if (s !== undefined) {
      sec = s;
    } else {
      sec = seconds.first();
      min++;
      cl.set(CAL_MINUTE, min);
    }
    cl.set(CAL_SECOND, sec);

    min = cl.get(CAL_MINUTE);
    let hr = cl.get(CAL_HOUR_OF_DAY);
    let t = -1;

    // get minute
    const m = minutes.firstAtLeast(min);
    if (m !== undefined) {
      t = min;
      min = m;
    } else {
      min = minutes.first();
      hr++;
    }
    if (min !== t) {
      cl.set(CAL_SECOND, 0);
      cl.set(CAL_MINUTE, min);
      setCalendarHour(cl, hr);
      continue;
    }
    cl.set(CAL_MINUTE, min);

    hr = cl.get(CAL_HOUR_OF_DAY);
    let day = cl.get(CAL_DAY_OF_MONTH);
    t = -1;

    // get hour
    const h = hours.firstAtLeast(hr);
    if (h !== undefined) {
      t = hr;
      hr = h;
    } else {
      hr = hours.first();
      day++;
    }
    if (hr !== t) {
      cl.set(CAL_SECOND, 0);
      cl.set(CAL_MINUTE, 0);
      cl.set(CAL_DAY_OF_MONTH, day);
      setCalendarHour(cl, hr);
      continue;
    }
    cl.set(CAL_HOUR_OF_DAY, hr);

    day = cl.get(CAL_DAY_OF_MONTH);
    let mon = cl.get(CAL_MONTH) + 1;
    t = -1;
    let tmon = mon;

    // get day
    const dayOfMSpec = !daysOfMonth.has(NO_SPEC);
    const dayOfWSpec = !daysOfWeek.has(NO_SPEC);
    if (dayOfMSpec && !dayOfWSpec) {
      // by day of month
      const st = daysOfMonth.firstAtLeast(day);
      if (f.lastdayOfMonth) {
        if (!f.nearestWeekday) {
          t = day;
          day = getLastDayOfMonth(mon, cl.get(CAL_YEAR));
          day -= f.lastdayOffset;
          if (t > day) {
            mon++;
            if (mon > 12) {
              mon = 1;
              tmon = 3333; // ensure test of mon != tmon further below fails
              cl.addYears(1);
            }
            day = 1;
          }
        } else {
          t = day;
          day = getLastDayOfMonth(mon, cl.get(CAL_YEAR));
          day -= f.lastdayOffset;
          const c = nearestWeekdayCandidate(zone, day, mon, cl.get(CAL_YEAR), hr, min, sec);
          day = c.day;
          if (c.time < afterTime) {
            day = 1;
            mon++;
          }
        }
      } else if (f.nearestWeekday) {
        t = day;
        day = daysOfMonth.first();
        const c = nearestWeekdayCandidate(zone, day, mon, cl.get(CAL_YEAR), hr, min, sec);
        day = c.day;
        if (c.time < afterTime) {
          day = daysOfMonth.first();
          mon++;
        }
      } else if (st !== undefined) {
        t = day;
        day = st;
        // make sure we don't over-run a short month, such as february
        const lastDay = getLastDayOfMonth(mon, cl.get(CAL_YEAR));
        if (day > lastDay) {
          day = daysOfMonth.first();
          mon++;
        }
      } else {
        day = daysOfMonth.first();
        mon++;
      }

      if (day !== t || mon !== tmon) {
        cl.set(CAL_SECOND, 0);
        cl.set(CAL_MINUTE, 0);
        cl.set(CAL_HOUR_OF_DAY, 0);
        cl.set(CAL_DAY_OF_MONTH, day);
        cl.set(CAL_MONTH, mon - 1);
        continue;
      }
    } else if (dayOfWSpec && !dayOfMSpec) {
      // by day of week
      if (f.lastdayOfWeek) {
        // the last xxx day of the month
        const dow = daysOfWeek.first();
        const cDow = cl.get(CAL_DAY_OF_WEEK);
        let daysToAdd = 0;
        if (cDow < dow) daysToAdd = dow - cDow;
        if (cDow > dow) daysToAdd = dow + (7 - cDow);

        const lDay = getLastDayOfMonth(mon, cl.get(CAL_YEAR));
        if (day + daysToAdd > lDay) {
          // already missed the last one: first of next month
          cl.set(CAL_SECOND, 0);
          cl.set(CAL_MINUTE, 0);
          cl.set(CAL_HOUR_OF_DAY, 0);
          cl.set(CAL_DAY_OF_MONTH, 1);
          cl.set(CAL_MONTH, mon);
          continue;
        }
        while (day + daysToAdd + 7 <= lDay) daysToAdd += 7;
        day += daysToAdd;
        if (daysToAdd > 0) {
          cl.set(CAL_SECOND, 0);
          cl.set(CAL_MINUTE, 0);
          cl.set(CAL_HOUR_OF_DAY, 0);
          cl.set(CAL_DAY_OF_MONTH, day);
          cl.set(CAL_MONTH, mon - 1);
          continue;
        }
      } else if (f.nthdayOfWeek !== 0) {
        // the nth xxx day of the month
        const dow = daysOfWeek.first();
        const cDow = cl.get(CAL_DAY_OF_WEEK);
        let daysToAdd = 0;
        if (cDow < dow) daysToAdd = dow - cDow;
        else if (cDow > dow) daysToAdd = dow + (7 - cDow);
        const dayShifted = daysToAdd > 0;

        day += daysToAdd;
        let weekOfMonth = Math.trunc(day / 7);
        if (day % 7 > 0) weekOfMonth++;

        daysToAdd = (f.nthdayOfWeek - weekOfMonth) * 7;
        day += daysToAdd;
        if (daysToAdd < 0 || day > getLastDayOfMonth(mon, cl.get(CAL_YEAR))) {
          cl.set(CAL_SECOND, 0);
          cl.set(CAL_MINUTE, 0);
          cl.set(CAL_HOUR_OF_DAY, 0);
          cl.set(CAL_DAY_OF_MONTH, 1);
          cl.set(CAL_MONTH, mon);
          continue;
        }
        if (daysToAdd > 0 || dayShifted) {
          cl.set(CAL_SECOND, 0);
          cl.set(CAL_MINUTE, 0);
          cl.set(CAL_HOUR_OF_DAY, 0);
          cl.set(CAL_DAY_OF_MONTH, day);
          cl.set(CAL_MONTH, mon - 1);
          continue;
        }
      } else {
        const cDow = cl.get(CAL_DAY_OF_WEEK);
        let dow = daysOfWeek.first();
        const st = daysOfWeek.firstAtLeast(cDow);
        if (st !== undefined) dow = st;

        let daysToAdd = 0;
        if (cDow < dow) daysToAdd = dow - cDow;
        if (cDow > dow) daysToAdd = dow + (7 - cDow);

        const lDay = getLastDayOfMonth(mon, cl.get(CAL_YEAR));
        if (day + daysToAdd > lDay) {
          // would pass the end of the month
          cl.set(CAL_SECOND, 0);
          cl.set(CAL_MINUTE, 0);
          cl.set(CAL_HOUR_OF_DAY, 0);
          cl.set(CAL_DAY_OF_MONTH, 1);
          cl.set(CAL_MONTH, mon);
          continue;
        }
        if (daysToAdd > 0) {
          cl.set(CAL_SECOND, 0);
          cl.set(CAL_MINUTE, 0);
          cl.set(CAL_HOUR_OF_DAY, 0);
          cl.set(CAL_DAY_OF_MONTH, day + daysToAdd);
          cl.set(CAL_MONTH, mon - 1);
          continue;
        }
      }
    } else {
      // unreachable: the parser rejects it
      throw new Error(
        'Support for specifying both a day-of-week AND a day-of-month parameter is not implemented.',
      );
    }
    cl.set(CAL_DAY_OF_MONTH, day);

    mon = cl.get(CAL_MONTH) + 1;
    let year = cl.get(CAL_YEAR);
    t = -1;

    // test for expressions that never generate a valid fire date, but keep looping...
    if (year > MAX_YEAR) return null;

    // get month
    const mo = months.firstAtLeast(mon);
    if (mo !== undefined) {
      t = mon;
      mon = mo;
    } else {
      mon = months.first();
      year++;
    }
    if (mon !== t) {
      cl.set(CAL_SECOND, 0);
      cl.set(CAL_MINUTE, 0);
      cl.set(CAL_HOUR_OF_DAY, 0);
      cl.set(CAL_DAY_OF_MONTH, 1);
      cl.set(CAL_MONTH, mon - 1);
      cl.set(CAL_YEAR, year);
      continue;
    }
    cl.set(CAL_MONTH, mon - 1);

    year = cl.get(CAL_YEAR);
    t = -1;

    // get year
    const y = years.firstAtLeast(year);
    if (y === undefined) return null; // ran out of years
    t = year;
    year = y;
    if (year !== t) {
      cl.set(CAL_SECOND, 0);
      cl.set(CAL_MINUTE, 0);
      cl.set(CAL_HOUR_OF_DAY, 0);
      cl.set(CAL_DAY_OF_MONTH, 1);
      cl.set(CAL_MONTH, 0);
      cl.set(CAL_YEAR, year);
      continue;
    }
    cl.set(CAL_YEAR, year);

    return cl.getTime();
  }
}

// ---------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------

/** A parsed Quartz cron expression bound to an IANA time zone. Immutable. */
export class CronExpression {
  private constructor(
    /** The expression as given. */
    readonly expression: string,
    /** The IANA time zone the fields are read in. */
    readonly timeZone: string,
    private readonly fields: CronFields,
    private readonly zone: ZoneRules,
  ) {}

  /**
   * Parses a Quartz cron expression for the IANA `timeZone`.
   * @throws ValidationError (field `scheduleConf`, or `timeZone` for an unknown zone) saying what is wrong.
   */
  static parse(expression: string, timeZone: string): CronExpression {
    let zone: ZoneRules;
    try {
      zone = new ZoneRules(timeZone);
    } catch {
      throw new ValidationError(
        `Unknown time zone '${timeZone}' (use an IANA name such as 'UTC')`,
        'timeZone',
      );
    }
    if (typeof expression !== 'string') {
      throw new ValidationError('Invalid cron expression: it must be a string', 'scheduleConf');
    }
    try {
      return new CronExpression(
        expression,
        timeZone,
        buildExpression(javaTrim(expression).toUpperCase()),
        zone,
      );
    } catch (err) {
      const reason =
        err instanceof CronSyntaxError
          ? err.message
          : `malformed expression (${err instanceof Error ? err.message : String(err)})`;
      throw new ValidationError(`Invalid cron expression '${expression}': ${reason}`, 'scheduleConf', {
        cause: err,
      });
    }
  }

  /** Whether `expression` parses (in UTC). */
  static isValid(expression: string): boolean {
    try {
      CronExpression.parse(expression, 'UTC');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Identical to Quartz getNextValidTimeAfter: the first fire time strictly after `afterMs` (epoch ms),
   * or null when there is none (through the year 2199). Fire times are whole seconds.
   */
  nextAfter(afterMs: number): number | null {
    if (!Number.isFinite(afterMs)) throw new RangeError(`afterMs must be a finite number, got ${afterMs}`);
    return getTimeAfter(this.fields, this.zone, Math.trunc(afterMs));
  }

  toString(): string {
    return this.expression;
  }
}
