import { API } from '@tickring/api/contract';
import { created, noContent, ok, text } from '@tickring/api/http';
import type { Calendar, CalendarDay } from '@tickring/core/calendars';
import {
  type AdminCalendarsDeps,
  calendarImportOf,
  createCalendar,
  deleteCalendar,
  exportCalendar,
  getCalendar,
  importCalendar,
  listCalendarDays,
  listCalendars,
  updateCalendar,
} from '@tickring/core/calendars/use-cases';
import { ValidationError } from '@tickring/core/common';
import type { Caller, GuardedRouter } from './authorize.js';
import { iso } from './views.js';

/**
 * Calendars: each handler calls one use-case and answers its view. A read's ETag is the version
 * (`"3"`); a change names the version it read as `expectedVersion` or `If-Match`.
 */
export function addCalendarRoutes(r: GuardedRouter, deps: AdminCalendarsDeps): void {
  r.route(API.listCalendars, async ({ query }) => {
    const page = await listCalendars(deps, query);
    return ok({ items: page.items.map(calendarView), nextCursor: page.nextCursor ?? null });
  })
    .route(API.createCalendar, async (req, caller) =>
      created(calendarView(await createCalendar(deps, req.body, by(caller)))),
    )
    .route(API.getCalendar, async (req) => {
      const calendar = await getCalendar(deps, req.params.id);
      return { status: 200, body: calendarView(calendar), headers: { etag: etagOf(calendar) } };
    })
    .route(API.updateCalendar, async (req, caller) => {
      const expected = expectedVersion(versionInBody(req.body), req.headers['if-match']);
      const calendar = await updateCalendar(
        deps,
        req.params.id,
        bodyWithoutVersion(req.body),
        expected,
        by(caller),
      );
      return { status: 200, body: calendarView(calendar), headers: { etag: etagOf(calendar) } };
    })
    .route(API.deleteCalendar, async (req) =>
      noContent(
        await deleteCalendar(
          deps,
          req.params.id,
          expectedVersion(req.query.expectedVersion, req.headers['if-match']),
        ),
      ),
    )
    .route(API.listCalendarDays, async (req) => {
      const { calendar, days } = await listCalendarDays(deps, req.params.id, req.query.from, req.query.to);
      return ok({
        calendarId: calendar.id,
        version: calendar.version,
        timeZone: calendar.timeZone,
        days: days.map(dayView),
      });
    })
    .route(API.importCalendar, async (req, caller) => {
      const request = calendarImportOf(req.body, req.query);
      const { calendar, notes } = await importCalendar(deps, request, by(caller));
      return created({ calendar: calendarView(calendar), notes });
    })
    .route(API.exportCalendar, async (req) => {
      const { calendar, ics } = await exportCalendar(deps, req.params.id);
      return text(ics, 'text/calendar; charset=utf-8', {
        etag: etagOf(calendar),
        'content-disposition': `attachment; filename="${calendar.id}.ics"`,
      });
    });
}

/** A calendar as the API shows it: times as ISO-8601 UTC. */
export function calendarView(calendar: Calendar) {
  return {
    id: calendar.id,
    name: calendar.name,
    description: calendar.description,
    timeZone: calendar.timeZone,
    workingDays: [...calendar.workingDays],
    excluded: calendar.excluded.map((e) => ({ ...e })),
    included: calendar.included.map((e) => ({ ...e })),
    version: calendar.version,
    createdAt: iso(calendar.createdAt),
    updatedAt: iso(calendar.updatedAt),
    updatedBy: calendar.updatedBy,
  };
}

function dayView(day: CalendarDay) {
  return {
    date: day.date,
    weekday: day.weekday,
    allowed: day.allowed,
    reason: day.reason,
    label: day.label ?? null,
  };
}

const by = (caller: Caller) => caller.principal?.name ?? 'anonymous';
const etagOf = (calendar: Calendar) => `"${calendar.version}"`;

function versionInBody(body: unknown): unknown {
  return typeof body === 'object' && body !== null
    ? (body as Record<string, unknown>).expectedVersion
    : undefined;
}

function bodyWithoutVersion(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { expectedVersion: _version, ...rest } = body as Record<string, unknown>;
  return rest;
}

/**
 * The version a change names: `expectedVersion` (body or query) or `If-Match: "3"` (a weak `W/"3"`
 * too); both given, they must agree. Undefined when neither is.
 */
function expectedVersion(given: unknown, ifMatch: string | undefined): number | undefined {
  const fromHeader = ifMatch === undefined ? undefined : versionOfEtag(ifMatch);
  if (given !== undefined && !(Number.isSafeInteger(given) && (given as number) >= 1)) {
    throw new ValidationError(
      `expectedVersion must be a version number (1, 2, ...); got ${JSON.stringify(given)}`,
      'expectedVersion',
    );
  }
  if (given !== undefined && fromHeader !== undefined && given !== fromHeader) {
    throw new ValidationError(
      `expectedVersion ${given} and If-Match ${ifMatch} name different versions`,
      'expectedVersion',
    );
  }
  return (given as number | undefined) ?? fromHeader;
}

function versionOfEtag(ifMatch: string): number {
  const match = /^(?:W\/)?"(\d{1,15})"$/.exec(ifMatch.trim());
  if (!match) {
    throw new ValidationError(`If-Match must be a calendar's ETag, such as "3"; got ${ifMatch}`, 'If-Match');
  }
  return Number(match[1]);
}
