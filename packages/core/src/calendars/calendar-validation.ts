/**
 * The checks of a calendar as written by a caller: every problem is found and reported at once
 * (a 400 listing them), and what passes comes back normalised (lists sorted, defaults filled).
 */
import { type Problem, RequestValidationError } from '../common/errors.js';
import { isValidTimeZone } from '../schedule/schedule.js';
import {
  CALENDAR_ID,
  CALENDAR_LIMITS,
  type CalendarSpec,
  DEFAULT_WORKING_DAYS,
  type ExcludedDates,
  type IncludedDate,
  WEEKDAYS,
  type Weekday,
} from './calendar.js';
import { dayNumber, isIsoDate } from './calendar-rules.js';

const SPEC_FIELDS = ['name', 'description', 'timeZone', 'workingDays', 'excluded', 'included'] as const;

/** Throws one RequestValidationError naming every problem, if there is any. */
export function rejectProblems(problems: readonly Problem[]): void {
  const [first, ...rest] = problems;
  if (first) throw new RequestValidationError([first, ...rest]);
}

/** A calendar id's problem, if it has one. */
export function calendarIdProblem(id: unknown, field = 'id'): Problem | undefined {
  if (typeof id === 'string' && CALENDAR_ID.test(id)) return undefined;
  return {
    field,
    message: `${field} must be 1-${CALENDAR_LIMITS.idLength} characters of lower-case letters, digits and '-', starting with a letter or digit; got ${JSON.stringify(id)}`,
  };
}

/**
 * A calendar's spec from a request body, checked as a whole. `extraFields` are fields the caller
 * reads itself (the id on create, the expected version on update), not reported as unknown.
 */
export function parseCalendarSpec(input: unknown, extraFields: readonly string[] = []): CalendarSpec {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    rejectProblems([{ field: 'body', message: 'body must be a JSON object describing the calendar' }]);
  }
  const body = input as Record<string, unknown>;
  const problems: Problem[] = [];
  for (const field of Object.keys(body)) {
    if (!(SPEC_FIELDS as readonly string[]).includes(field) && !extraFields.includes(field)) {
      problems.push({ field, message: `${field} is not a field of a calendar` });
    }
  }
  const name = text(body, 'name', CALENDAR_LIMITS.name, problems, true);
  const description = text(body, 'description', CALENDAR_LIMITS.description, problems, false);
  const timeZone = body.timeZone === undefined ? 'UTC' : body.timeZone;
  if (typeof timeZone !== 'string' || !isValidTimeZone(timeZone)) {
    problems.push({
      field: 'timeZone',
      message: `timeZone must be an IANA time zone such as 'UTC' or 'Asia/Shanghai'; got ${JSON.stringify(timeZone)}`,
    });
  }
  const spec: CalendarSpec = {
    name,
    description,
    timeZone: String(timeZone),
    workingDays: workingDays(body.workingDays, problems),
    excluded: excluded(body.excluded, problems),
    included: included(body.included, problems),
  };
  rejectProblems(problems);
  return spec;
}

function text(
  body: Record<string, unknown>,
  field: string,
  max: number,
  problems: Problem[],
  required: boolean,
): string {
  const value = body[field];
  if (value === undefined && !required) return '';
  if (typeof value !== 'string' || (required && value.trim() === '') || value.length > max) {
    problems.push({
      field,
      message: `${field} must be ${required ? 'a non-blank text' : 'a text'} of at most ${max} characters; got ${describe(value)}`,
    });
    return '';
  }
  return value.trim();
}

function workingDays(value: unknown, problems: Problem[]): Weekday[] {
  if (value === undefined) return [...DEFAULT_WORKING_DAYS];
  if (!Array.isArray(value)) {
    problems.push({
      field: 'workingDays',
      message: `workingDays must be a list of weekdays (${WEEKDAYS.join(', ')}); got ${describe(value)}`,
    });
    return [];
  }
  const seen = new Set<Weekday>();
  for (const [i, day] of value.entries()) {
    if (!(WEEKDAYS as readonly unknown[]).includes(day)) {
      problems.push({
        field: 'workingDays',
        message: `workingDays[${i}] must be one of ${WEEKDAYS.join(', ')}; got ${describe(day)}`,
      });
    } else if (seen.has(day as Weekday)) {
      problems.push({ field: 'workingDays', message: `workingDays[${i}]: ${day} is listed twice` });
    } else {
      seen.add(day as Weekday);
    }
  }
  return WEEKDAYS.filter((day) => seen.has(day));
}

function excluded(value: unknown, problems: Problem[]): ExcludedDates[] {
  const entries = list(value, 'excluded', CALENDAR_LIMITS.excluded, problems);
  const valid: (ExcludedDates & { index: number; start: number; end: number })[] = [];
  for (const [i, entry] of entries.entries()) {
    const at = `excluded[${i}]`;
    if (!isRecord(entry)) {
      problems.push({
        field: 'excluded',
        message: `${at} must be {from, to?, label?}; got ${describe(entry)}`,
      });
      continue;
    }
    const before = problems.length;
    unknownKeys(entry, ['from', 'to', 'label'], at, 'excluded', problems);
    date(entry.from, `${at}.from`, 'excluded', problems);
    if (entry.to !== undefined) date(entry.to, `${at}.to`, 'excluded', problems);
    const label = labelOf(entry.label, at, 'excluded', problems);
    if (problems.length > before) continue;
    const from = entry.from as string;
    const to = (entry.to as string | undefined) ?? from;
    const start = dayNumber(from);
    const end = dayNumber(to);
    if (end < start) {
      problems.push({ field: 'excluded', message: `${at}: to ${to} is before from ${from}` });
      continue;
    }
    if (end - start + 1 > CALENDAR_LIMITS.rangeDays) {
      problems.push({
        field: 'excluded',
        message: `${at}: ${from}..${to} spans ${end - start + 1} days; a range spans at most ${CALENDAR_LIMITS.rangeDays}`,
      });
      continue;
    }
    valid.push({ from, ...(to === from ? {} : { to }), ...labelField(label), index: i, start, end });
  }
  valid.sort((a, b) => a.start - b.start || a.index - b.index);
  for (let k = 1; k < valid.length; k++) {
    const [prev, next] = [valid[k - 1], valid[k]] as [(typeof valid)[number], (typeof valid)[number]];
    if (next.start <= prev.end) {
      problems.push({
        field: 'excluded',
        message: `excluded[${next.index}] (${span(next)}) overlaps excluded[${prev.index}] (${span(prev)}): a day is excluded once`,
      });
    }
  }
  return valid.map(({ index: _i, start: _s, end: _e, ...rest }) => rest);
}

function included(value: unknown, problems: Problem[]): IncludedDate[] {
  const entries = list(value, 'included', CALENDAR_LIMITS.included, problems);
  const byDate = new Map<string, number>();
  const valid: IncludedDate[] = [];
  for (const [i, entry] of entries.entries()) {
    const at = `included[${i}]`;
    if (!isRecord(entry)) {
      problems.push({ field: 'included', message: `${at} must be {date, label?}; got ${describe(entry)}` });
      continue;
    }
    const before = problems.length;
    unknownKeys(entry, ['date', 'label'], at, 'included', problems);
    date(entry.date, `${at}.date`, 'included', problems);
    const label = labelOf(entry.label, at, 'included', problems);
    if (problems.length > before) continue;
    const day = entry.date as string;
    const first = byDate.get(day);
    if (first !== undefined) {
      problems.push({
        field: 'included',
        message: `${at}: ${day} is included already by included[${first}]`,
      });
      continue;
    }
    byDate.set(day, i);
    valid.push({ date: day, ...labelField(label) });
  }
  return valid.sort((a, b) => a.date.localeCompare(b.date));
}

function list(value: unknown, field: string, max: number, problems: Problem[]): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push({ field, message: `${field} must be a list; got ${describe(value)}` });
    return [];
  }
  if (value.length > max) {
    problems.push({
      field,
      message: `${field} has ${value.length} entries; a calendar holds at most ${max}`,
    });
    return [];
  }
  return value;
}

function date(value: unknown, at: string, field: string, problems: Problem[]): void {
  if (!isIsoDate(value)) {
    problems.push({ field, message: `${at} must be a date written YYYY-MM-DD; got ${describe(value)}` });
  } else if (value < CALENDAR_LIMITS.firstDate || value > CALENDAR_LIMITS.lastDate) {
    problems.push({
      field,
      message: `${at} must be between ${CALENDAR_LIMITS.firstDate} and ${CALENDAR_LIMITS.lastDate}; got ${value}`,
    });
  }
}

function labelOf(value: unknown, at: string, field: string, problems: Problem[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > CALENDAR_LIMITS.label) {
    problems.push({
      field,
      message: `${at}.label must be a text of at most ${CALENDAR_LIMITS.label} characters; got ${describe(value)}`,
    });
    return undefined;
  }
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function unknownKeys(
  entry: Record<string, unknown>,
  known: readonly string[],
  at: string,
  field: string,
  problems: Problem[],
): void {
  for (const key of Object.keys(entry)) {
    if (!known.includes(key))
      problems.push({ field, message: `${at}.${key} is not a field (use ${known.join(', ')})` });
  }
}

const labelField = (label: string | undefined) => (label === undefined ? {} : { label });
const span = (e: ExcludedDates) => (e.to === undefined ? e.from : `${e.from}..${e.to}`);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
