/**
 * The calendars a ledger's window needs, each as it was at every time of the window: read as it is
 * now, then taken back through its audit records after the window's start (newest first, each
 * record's `before` values), as job-ledger.ts does for the schedule. A version holds from its own
 * `updatedAt` (the record is written a moment after the change, and after the jobs it re-planned).
 * Limits: a record that failed to be written, or is older than the audit retention, leaves its
 * change out (the version before it is then read as the one after).
 */
import type { AuditRecord } from '../audit/audit.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { Calendar } from '../calendars/calendar.js';
import { type CalendarGate, calendarGate, scheduleCalendarIds } from '../calendars/calendar-schedule.js';
import type { CalendarStore } from '../calendars/calendar-store.js';
import type { Job } from '../jobs/job.js';

/** One version of a calendar and when it began to hold (epoch ms); `calendar` absent: it did not exist. */
interface CalendarSpan {
  readonly from: number;
  readonly calendar: Calendar | undefined;
}

export interface CalendarHistory {
  /** Every calendar named by the schedule now or by a record read. */
  readonly ids: readonly string[];
  /** The calendars as read now. */
  readonly current: ReadonlyMap<string, Calendar | undefined>;
  /** The gate of a schedule's calendars at `at`; undefined without a calendar store. */
  readonly gateAt: ((calendars: Job['calendars'], at: number) => CalendarGate | undefined) | undefined;
  /** The versions that held at the given times, per calendar (missing ones left out), each once, ascending. */
  versionsAt(id: string, times: readonly number[]): number[];
  /** Calendars with a record in [from, to). */
  readonly changedIn: (from: number, to: number) => string[];
}

/** The calendar ids the schedule names now and in every record's before and after. */
export function calendarIdsNamed(current: Job['calendars'], records: readonly AuditRecord[]): string[] {
  const ids = new Set(scheduleCalendarIds(current));
  for (const record of records) {
    const change = record.changes.calendars;
    if (!change) continue;
    for (const value of [change.before, change.after]) {
      for (const id of scheduleCalendarIds(value as Job['calendars'])) ids.add(id);
    }
  }
  return [...ids];
}

export async function readCalendarHistory(
  deps: { readonly calendars?: Pick<CalendarStore, 'get'>; readonly audit?: Pick<AuditLog, 'list'> },
  ids: readonly string[],
  since: number,
  now: number,
  recordsOf: (
    audit: Pick<AuditLog, 'list'>,
    target: string,
    from: number,
    to: number,
  ) => Promise<AuditRecord[]>,
): Promise<CalendarHistory> {
  const store = deps.calendars;
  const current = new Map<string, Calendar | undefined>();
  const spans = new Map<string, CalendarSpan[]>();
  const recordTimes = new Map<string, number[]>();
  await Promise.all(
    ids.map(async (id) => {
      const calendar = store ? await store.get(id) : undefined;
      current.set(id, calendar);
      const records = deps.audit ? await recordsOf(deps.audit, `calendar#${id}`, since, now) : [];
      recordTimes.set(
        id,
        records.map((r) => r.at),
      );
      spans.set(id, spansOf(id, calendar, records));
    }),
  );
  const at = (id: string, time: number): Calendar | undefined =>
    (spans.get(id) ?? []).find((span) => span.from <= time)?.calendar;
  return {
    ids,
    current,
    // Without a calendar store no calendar is known: none removes a fire (rather than all of them).
    gateAt: store
      ? (calendars, time) => {
          const byId = new Map(scheduleCalendarIds(calendars).map((id) => [id, at(id, time)] as const));
          return calendarGate(calendars, byId);
        }
      : undefined,
    versionsAt: (id, times) => {
      const versions = new Set<number>();
      for (const time of times) {
        const version = at(id, time)?.version;
        if (version !== undefined) versions.add(version);
      }
      return [...versions].sort((a, b) => a - b);
    },
    changedIn: (from, to) =>
      ids.filter((id) => (recordTimes.get(id) ?? []).some((time) => time >= from && time < to)),
  };
}

/** The calendar's versions, newest first, from `calendar` (now) back through `records` (oldest first). */
function spansOf(
  id: string,
  calendar: Calendar | undefined,
  records: readonly AuditRecord[],
): CalendarSpan[] {
  const spans: CalendarSpan[] = [];
  let state = calendar;
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i] as AuditRecord;
    spans.push({ from: heldFrom(record), calendar: state });
    state = record.action.endsWith('.create') ? undefined : before(id, state, record);
  }
  spans.push({ from: Number.NEGATIVE_INFINITY, calendar: state });
  return spans;
}

/** When the version a record made began to hold: its `updatedAt`, else the record's own time. */
function heldFrom(record: AuditRecord): number {
  const after = record.changes.updatedAt?.after;
  const ms = typeof after === 'string' ? Date.parse(after) : typeof after === 'number' ? after : Number.NaN;
  return Number.isFinite(ms) && ms <= record.at ? ms : record.at;
}

/** The calendar before `record`: its changed fields' `before` values laid over it (a deletion's over nothing). */
function before(id: string, after: Calendar | undefined, record: AuditRecord): Calendar | undefined {
  const fields: Record<string, unknown> = { ...(after ?? { id }) };
  for (const [name, change] of Object.entries(record.changes)) fields[name] = change.before;
  for (const name of ['createdAt', 'updatedAt'] as const) {
    if (typeof fields[name] === 'string') fields[name] = Date.parse(fields[name] as string);
  }
  // A record without the fields a date check needs (an audit of another shape) leaves it unknown.
  if (!Array.isArray(fields.excluded) || !Array.isArray(fields.workingDays)) return after;
  return { included: [], ...fields } as unknown as Calendar;
}
