/**
 * The shapes of calendars: the calendar as written and as shown, its days, the iCalendar import.
 * Limits and value lists come from the domain (CALENDAR_LIMITS, WEEKDAYS, DAY_REASONS, ICS_LIMITS).
 *
 * The calendar bodies are checked by the use-case (their routes say `checkedBy: 'use-case'`):
 * `parseCalendarSpec` reports every problem at once, those no schema can express (a real date, a
 * range's end before its start, overlapping exclusions, an IANA zone) with the structural ones.
 */
import { Type } from '@sinclair/typebox';
import { CALENDAR_ID, CALENDAR_LIMITS, DAY_REASONS, ICS_LIMITS, WEEKDAYS } from '@tickring/core/calendars';
import { named, StringEnum } from './kit.js';
import { Cursor, Instant, iso, Limit, NextCursor } from './schemas-common.js';

const DATE = Type.String({
  format: 'date',
  description: `A local date of the calendar’s zone, YYYY-MM-DD, from ${CALENDAR_LIMITS.firstDate} to ${CALENDAR_LIMITS.lastDate}.`,
  examples: ['2030-10-01'],
});

export const CalendarIdParam = Type.String({
  pattern: CALENDAR_ID.source,
  description: 'The calendar’s id.',
  examples: ['cn-workdays'],
});

const Label = Type.String({
  maxLength: CALENDAR_LIMITS.label,
  description: 'What the days are (a holiday’s name).',
  examples: ['National Day'],
});

export const CalendarExclusion = named(
  'CalendarExclusion',
  Type.Object(
    {
      from: DATE,
      to: Type.Optional({
        ...DATE,
        description: `The range’s last day (included); absent for one day. At most ${CALENDAR_LIMITS.rangeDays} days.`,
      }),
      label: Type.Optional(Label),
    },
    { additionalProperties: false, description: 'Days taken out: one date or a range.' },
  ),
);

export const CalendarInclusion = named(
  'CalendarInclusion',
  Type.Object(
    { date: DATE, label: Type.Optional(Label) },
    {
      additionalProperties: false,
      description: 'A make-up workday: allowed whatever the weekly pattern and the exclusions say.',
    },
  ),
);

const SPEC_FIELDS = {
  name: Type.String({
    minLength: 1,
    maxLength: CALENDAR_LIMITS.name,
    description: 'What the calendar is; not blank.',
    examples: ['China workdays'],
  }),
  description: Type.Optional(
    Type.String({
      maxLength: CALENDAR_LIMITS.description,
      description: 'Notes; empty by default.',
      examples: ['Public holidays and make-up days'],
    }),
  ),
  timeZone: Type.Optional(
    Type.String({
      description:
        'The IANA zone its dates are local to (default UTC): an instant is judged by its date there.',
      examples: ['Asia/Shanghai'],
    }),
  ),
  workingDays: Type.Optional(
    Type.Array(StringEnum(WEEKDAYS), {
      uniqueItems: true,
      maxItems: WEEKDAYS.length,
      description: 'The weekly pattern: the working weekdays. Default MON to FRI; [] for none.',
      examples: [['MON', 'TUE', 'WED', 'THU', 'FRI']],
    }),
  ),
  excluded: Type.Optional(
    Type.Array(CalendarExclusion, {
      maxItems: CALENDAR_LIMITS.excluded,
      description: `Excluded dates and ranges (holidays), at most ${CALENDAR_LIMITS.excluded}, none overlapping; stored sorted.`,
      examples: [[{ from: '2030-10-01', to: '2030-10-07', label: 'National Day' }]],
    }),
  ),
  included: Type.Optional(
    Type.Array(CalendarInclusion, {
      maxItems: CALENDAR_LIMITS.included,
      description: `Make-up workdays, at most ${CALENDAR_LIMITS.included}, each date once; they win over the pattern and the exclusions.`,
      examples: [[{ date: '2030-09-28', label: 'Make-up for National Day' }]],
    }),
  ),
};

export const CalendarCreate = named(
  'CalendarCreate',
  Type.Object(
    {
      id: { ...CalendarIdParam, description: 'The new calendar’s id: schedules will name it.' },
      ...SPEC_FIELDS,
    },
    { additionalProperties: false, description: 'A new calendar.' },
  ),
);

export const CalendarUpdate = named(
  'CalendarUpdate',
  Type.Object(
    {
      ...SPEC_FIELDS,
      expectedVersion: Type.Optional(
        Type.Integer({
          minimum: 1,
          description: 'The version read; or send it as `If-Match: "3"`. One of the two is required.',
          examples: [3],
        }),
      ),
    },
    { additionalProperties: false, description: 'The whole calendar, replacing the stored one.' },
  ),
);

export const Calendar = named(
  'Calendar',
  Type.Object(
    {
      id: CalendarIdParam,
      name: SPEC_FIELDS.name,
      description: Type.String({ description: 'Notes (may be empty).', examples: ['Public holidays'] }),
      timeZone: Type.String({
        description: 'The IANA zone its dates are local to.',
        examples: ['Asia/Shanghai'],
      }),
      workingDays: Type.Array(StringEnum(WEEKDAYS), {
        description: 'The working weekdays, Monday first.',
        examples: [['MON', 'TUE', 'WED', 'THU', 'FRI']],
      }),
      excluded: Type.Array(CalendarExclusion, {
        description: 'Excluded dates and ranges, sorted by `from`.',
        examples: [[{ from: '2030-10-01', to: '2030-10-07', label: 'National Day' }]],
      }),
      included: Type.Array(CalendarInclusion, {
        description: 'Make-up workdays, sorted by date.',
        examples: [[{ date: '2030-09-28', label: 'Make-up for National Day' }]],
      }),
      version: Type.Integer({
        minimum: 1,
        description: '1 on create, +1 on every change (also the ETag).',
        examples: [3],
      }),
      createdAt: Instant(iso('When it was created')),
      updatedAt: Instant(iso('When it last changed')),
      updatedBy: Type.String({ description: 'Who changed it last.', examples: ['ana'] }),
    },
    { additionalProperties: false, description: 'A business calendar.' },
  ),
);

export const CalendarPage = named(
  'CalendarPage',
  Type.Object(
    {
      items: Type.Array(Calendar, { description: 'Calendars, by id.', examples: [[]] }),
      nextCursor: NextCursor,
    },
    { additionalProperties: false },
  ),
);

export const CalendarListQuery = Type.Object({ limit: Limit, cursor: Type.Optional(Cursor) });

export const CalendarDeleteQuery = Type.Object({
  expectedVersion: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: 'Delete only at this version (or send `If-Match`); absent: whatever version it is at.',
      examples: [3],
    }),
  ),
});

export const CalendarDaysQuery = Type.Object({
  from: { ...DATE, description: 'The first day listed.', examples: ['2030-01-01'] },
  to: {
    ...DATE,
    description: `The last day listed (included): at most ${CALENDAR_LIMITS.daysPerRequest} days from \`from\`.`,
    examples: ['2030-12-31'],
  },
});

export const CalendarDay = named(
  'CalendarDay',
  Type.Object(
    {
      date: DATE,
      weekday: StringEnum(WEEKDAYS, { description: 'The day of the week.', examples: ['TUE'] }),
      allowed: Type.Boolean({
        description: 'Whether a schedule limited to the calendar may fire that day.',
        examples: [false],
      }),
      reason: StringEnum(DAY_REASONS, {
        description:
          'WORKDAY: a working weekday; WEEKEND: a weekday the pattern leaves out; HOLIDAY: excluded; MAKEUP_DAY: a make-up workday.',
        examples: ['HOLIDAY'],
      }),
      label: Type.Union([Type.String(), Type.Null()], {
        description: 'The exclusion’s or make-up day’s label.',
        examples: ['National Day', null],
      }),
    },
    { additionalProperties: false },
  ),
);

export const CalendarDays = named(
  'CalendarDays',
  Type.Object(
    {
      calendarId: CalendarIdParam,
      version: Type.Integer({
        minimum: 1,
        description: 'The version the days were read from.',
        examples: [3],
      }),
      timeZone: Type.String({ description: 'The zone the dates are local to.', examples: ['Asia/Shanghai'] }),
      days: Type.Array(CalendarDay, { description: 'Every day of the range, in order.', examples: [[]] }),
    },
    { additionalProperties: false },
  ),
);

export const CalendarImportQuery = Type.Object({
  id: Type.Optional({
    ...CalendarIdParam,
    description: 'With a text/calendar body: the new calendar’s id (with JSON, the body’s `id`).',
  }),
  name: Type.Optional(
    Type.String({
      description: 'With a text/calendar body: its name (else X-WR-CALNAME).',
      examples: ['China workdays'],
    }),
  ),
  timeZone: Type.Optional(
    Type.String({
      description: 'With a text/calendar body: its zone (else X-WR-TIMEZONE, else UTC).',
      examples: ['Asia/Shanghai'],
    }),
  ),
});

export const CalendarImportRequest = named(
  'CalendarImportRequest',
  Type.Object(
    {
      id: CalendarIdParam,
      ics: Type.String({
        maxLength: ICS_LIMITS.bytes,
        description: `The iCalendar (.ics) text: at most ${ICS_LIMITS.bytes} bytes and ${ICS_LIMITS.events} events.`,
        examples: ['BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//example//EN\r\nEND:VCALENDAR\r\n'],
      }),
      name: Type.Optional(SPEC_FIELDS.name),
      description: SPEC_FIELDS.description,
      timeZone: SPEC_FIELDS.timeZone,
      workingDays: SPEC_FIELDS.workingDays,
    },
    {
      additionalProperties: false,
      description:
        'A new calendar from an iCalendar text; the fields given win over the text’s (X-WR-CALNAME, X-WR-TIMEZONE, X-TICKRING-WORKING-DAYS).',
    },
  ),
);

export const CalendarImported = named(
  'CalendarImported',
  Type.Object(
    {
      calendar: Calendar,
      notes: Type.Array(Type.String(), {
        description: 'What was left out or merged: timed events, exceptions of a series, overlapping events.',
        examples: [['event 2 (Standup): not an all-day event (DTSTART has a time), left out']],
      }),
    },
    { additionalProperties: false },
  ),
);

export const CalendarIcs = Type.String({ description: 'The calendar as an iCalendar (RFC 5545) text.' });
