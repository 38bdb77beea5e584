/** The routes of business calendars: CRUD with versions, their days, iCalendar in and out. */
import { Type } from '@sinclair/typebox';
import { ICS_LIMITS } from '@tickring/core/calendars';
import { defineRoute } from './define.js';
import {
  Calendar,
  CalendarCreate,
  CalendarDays,
  CalendarDaysQuery,
  CalendarDeleteQuery,
  CalendarIcs,
  CalendarIdParam,
  CalendarImported,
  CalendarImportQuery,
  CalendarImportRequest,
  CalendarListQuery,
  CalendarPage,
  CalendarUpdate,
} from './schemas-calendars.js';

const idParams = Type.Object({ id: CalendarIdParam });

// Examples, shown by the document (a test checks each against its schema).
const T0 = '2030-01-01T02:00:00.000Z';
const spec = {
  name: 'China workdays',
  description: 'Public holidays and make-up days',
  timeZone: 'Asia/Shanghai',
  workingDays: ['MON', 'TUE', 'WED', 'THU', 'FRI'],
  excluded: [
    { from: '2030-01-01', label: 'New Year' },
    { from: '2030-10-01', to: '2030-10-07', label: 'National Day' },
  ],
  included: [{ date: '2030-09-28', label: 'Make-up for National Day' }],
};
const exampleCalendar = {
  id: 'cn-workdays',
  ...spec,
  version: 3,
  createdAt: T0,
  updatedAt: T0,
  updatedBy: 'ana',
};
const exampleIcs = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//tickring//calendars//EN',
  'X-WR-CALNAME:China workdays',
  'X-WR-TIMEZONE:Asia/Shanghai',
  'BEGIN:VEVENT',
  'UID:cn-workdays-excluded-2030-10-01@tickring',
  'DTSTAMP:20300101T020000Z',
  'DTSTART;VALUE=DATE:20301001',
  'DTEND;VALUE=DATE:20301008',
  'SUMMARY:National Day',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

const NOT_FOUND = 'No calendar has this id.';
const STALE = 'The calendar is not at the expected version: read it again and retry.';
const VERSION_WORDS =
  'The version read must be named, as `expectedVersion` in the body or as `If-Match: "<version>"` (the ETag a read answers): a calendar changed meanwhile is not overwritten (409).';

export const CALENDAR_ROUTES = {
  listCalendars: defineRoute({
    operationId: 'listCalendars',
    method: 'GET',
    path: '/v1/calendars',
    tags: ['calendars'],
    access: { kind: 'signedIn' },
    query: CalendarListQuery,
    summary: 'List calendars',
    description:
      'Every calendar, by id, page by page. Calendars belong to no group: every signed-in role reads them.',
    responses: {
      200: {
        description: 'A page of calendars.',
        schema: CalendarPage,
        example: { items: [exampleCalendar], nextCursor: null },
      },
    },
  }),
  createCalendar: defineRoute({
    operationId: 'createCalendar',
    method: 'POST',
    path: '/v1/calendars',
    tags: ['calendars'],
    access: { kind: 'operate', target: 'none' },
    audit: { action: 'calendar.create', target: 'calendar', idFrom: 'result' },
    summary: 'Create a calendar',
    description:
      'A calendar under the body’s id, version 1. Checked as a whole, every problem answered at once (400): dates that are not real dates or out of range, a range ending before it starts or longer than a year, overlapping exclusions, a date included twice, an unknown zone or weekday, the sizes.',
    body: {
      schema: CalendarCreate,
      required: true,
      checkedBy: 'use-case',
      description: 'The calendar.',
      examples: {
        china: {
          summary: 'Holidays and a make-up Saturday, Shanghai time',
          value: { id: 'cn-workdays', ...spec },
        },
      },
    },
    responses: {
      201: { description: 'Created.', schema: Calendar, example: { ...exampleCalendar, version: 1 } },
    },
    errors: { 409: 'A calendar has this id.' },
  }),
  // Before /v1/calendars/{id}: the document's paths are matched in order.
  importCalendar: defineRoute({
    operationId: 'importCalendar',
    method: 'POST',
    path: '/v1/calendars/import',
    tags: ['calendars'],
    access: { kind: 'operate', target: 'none' },
    audit: { action: 'calendar.import', target: 'calendar', idFrom: 'result' },
    query: CalendarImportQuery,
    summary: 'Import a calendar from iCalendar (.ics)',
    description: `A new calendar from an iCalendar text, sent as JSON (\`{id, ics, ...}\`) or as the text itself (\`Content-Type: text/calendar\`, the id in the query). Each all-day VEVENT is an excluded date or range labelled with its SUMMARY; one with CATEGORIES:WORKDAY is a make-up day; a recurring one (a yearly holiday’s RRULE) is expanded into dates from January 1 of last year to December 31 ${ICS_LIMITS.horizonYearsAhead} years ahead (import again to move the horizon on). Timed events and exceptions of a series are left out, overlapping events merged; \`notes\` says which. At most ${ICS_LIMITS.bytes} bytes and ${ICS_LIMITS.events} events; a text that cannot be read, or a calendar that would break a limit, is refused (400) and nothing is stored.`,
    body: {
      schema: CalendarImportRequest,
      required: true,
      checkedBy: 'use-case',
      textType: 'text/calendar',
      description: 'The import, as JSON; or the iCalendar text itself as text/calendar.',
      examples: {
        china: { summary: 'An .ics file of holidays', value: { id: 'cn-workdays', ics: exampleIcs } },
      },
    },
    responses: {
      201: {
        description: 'Created.',
        schema: CalendarImported,
        example: {
          calendar: { ...exampleCalendar, version: 1, included: [], excluded: spec.excluded.slice(1) },
          notes: ['event 2 (Standup): not an all-day event (DTSTART has a time), left out'],
        },
      },
    },
    errors: { 409: 'A calendar has this id.' },
  }),
  getCalendar: defineRoute({
    operationId: 'getCalendar',
    method: 'GET',
    path: '/v1/calendars/{id}',
    tags: ['calendars'],
    access: { kind: 'signedIn' },
    params: idParams,
    summary: 'Read a calendar',
    description: 'One calendar; its version is also the answer’s ETag (`"3"`), for If-Match.',
    responses: { 200: { description: 'The calendar.', schema: Calendar, example: exampleCalendar } },
    errors: { 404: NOT_FOUND },
  }),
  updateCalendar: defineRoute({
    operationId: 'updateCalendar',
    method: 'PUT',
    path: '/v1/calendars/{id}',
    tags: ['calendars'],
    access: { kind: 'operate', target: 'none' },
    audit: { action: 'calendar.update', target: 'calendar' },
    params: idParams,
    summary: 'Change a calendar',
    description: `Replaces the calendar with the body’s, as a new version. ${VERSION_WORDS} Checked as on create.`,
    body: {
      schema: CalendarUpdate,
      required: true,
      checkedBy: 'use-case',
      description:
        'The whole calendar (a calendar read with GET, changed, with its version as expectedVersion).',
      examples: { edit: { summary: 'A new holiday', value: { ...spec, expectedVersion: 3 } } },
    },
    responses: {
      200: {
        description: 'The calendar as changed.',
        schema: Calendar,
        example: { ...exampleCalendar, version: 4 },
      },
    },
    errors: { 404: NOT_FOUND, 409: STALE },
  }),
  deleteCalendar: defineRoute({
    operationId: 'deleteCalendar',
    method: 'DELETE',
    path: '/v1/calendars/{id}',
    tags: ['calendars'],
    access: { kind: 'operate', target: 'none' },
    audit: { action: 'calendar.delete', target: 'calendar' },
    params: idParams,
    query: CalendarDeleteQuery,
    summary: 'Delete a calendar',
    description:
      'Deletes the calendar, at the version named (`expectedVersion` or If-Match) if one is. No schedule refers to calendars yet.',
    responses: { 204: { description: 'Deleted.' } },
    errors: { 404: NOT_FOUND, 409: STALE },
  }),
  listCalendarDays: defineRoute({
    operationId: 'listCalendarDays',
    method: 'GET',
    path: '/v1/calendars/{id}/days',
    tags: ['calendars'],
    access: { kind: 'signedIn' },
    params: idParams,
    query: CalendarDaysQuery,
    summary: 'The days of a calendar',
    description:
      'Every day from `from` to `to` (at most a leap year’s), allowed or not and why: WORKDAY, WEEKEND, HOLIDAY (with its label) or MAKEUP_DAY. A make-up day wins over an exclusion, an exclusion over the weekly pattern.',
    responses: {
      200: {
        description: 'The days.',
        schema: CalendarDays,
        example: {
          calendarId: 'cn-workdays',
          version: 3,
          timeZone: 'Asia/Shanghai',
          days: [
            {
              date: '2030-09-28',
              weekday: 'SAT',
              allowed: true,
              reason: 'MAKEUP_DAY',
              label: 'Make-up for National Day',
            },
            { date: '2030-09-29', weekday: 'SUN', allowed: false, reason: 'WEEKEND', label: null },
            { date: '2030-09-30', weekday: 'MON', allowed: true, reason: 'WORKDAY', label: null },
            { date: '2030-10-01', weekday: 'TUE', allowed: false, reason: 'HOLIDAY', label: 'National Day' },
          ],
        },
      },
    },
    errors: { 404: NOT_FOUND },
  }),
  exportCalendar: defineRoute({
    operationId: 'exportCalendar',
    method: 'GET',
    path: '/v1/calendars/{id}/export',
    tags: ['calendars'],
    access: { kind: 'signedIn' },
    params: idParams,
    summary: 'Export a calendar as iCalendar (.ics)',
    description:
      'The calendar as an iCalendar text: each exclusion an all-day event (CATEGORIES:HOLIDAY), each make-up day one with CATEGORIES:WORKDAY, the weekly pattern as X-TICKRING-WORKING-DAYS; an import reads it back as it was.',
    responses: {
      200: {
        description: 'The text.',
        schema: CalendarIcs,
        contentType: 'text/calendar',
        example: exampleIcs,
      },
    },
    errors: { 404: NOT_FOUND },
  }),
} as const;
