import { FakeClock, MemoryCalendarStore, MemoryGroupStore, MemoryJobStore } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, RequestValidationError } from '../common/errors.js';
import { silentLogger } from '../common/logger.js';
import {
  type AdminCalendarsDeps,
  calendarImportOf,
  createCalendar,
  deleteCalendar,
  importCalendar,
  listCalendarDays,
  updateCalendar,
} from './admin-calendars.js';

const NOW = Date.parse('2030-06-01T00:00:00Z');

function deps(): AdminCalendarsDeps & { calendars: MemoryCalendarStore } {
  const calendars = new MemoryCalendarStore();
  const clock = new FakeClock(NOW);
  const jobs = {
    jobs: new MemoryJobStore(),
    groups: new MemoryGroupStore(),
    calendars,
    clock,
    logger: silentLogger,
  };
  return { calendars, jobs, clock, logger: silentLogger };
}

async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a refusal');
}

describe('calendar use-cases', () => {
  it('creates version 1 by the caller, and changes it only at the version read', async () => {
    const d = deps();
    const created = await createCalendar(d, { id: 'ops', name: 'Ops' }, 'ana');
    expect(created).toMatchObject({
      id: 'ops',
      version: 1,
      updatedBy: 'ana',
      createdAt: NOW,
      timeZone: 'UTC',
    });
    expect(await refusal(createCalendar(d, { id: 'ops', name: 'Again' }, 'ana'))).toBeInstanceOf(
      ConflictError,
    );

    const v2 = await updateCalendar(d, 'ops', { name: 'Ops v2', workingDays: ['SAT'] }, 1, 'bo');
    expect(v2).toMatchObject({
      version: 2,
      name: 'Ops v2',
      workingDays: ['SAT'],
      updatedBy: 'bo',
      createdAt: NOW,
    });
    const stale = await refusal(updateCalendar(d, 'ops', { name: 'lost' }, 1, 'cy'));
    expect(stale).toBeInstanceOf(ConflictError);
    expect(stale.message).toBe(
      'calendar ops is at version 2, not 1: it was changed meanwhile; read it again and retry',
    );
    expect(await refusal(updateCalendar(d, 'nope', { name: 'x' }, 1, 'cy'))).toBeInstanceOf(NotFoundError);
    expect((await d.calendars.get('ops'))?.name).toBe('Ops v2');
  });

  it('reports a missing version together with the body’s problems', async () => {
    const err = await refusal(updateCalendar(deps(), 'ops', { name: '' }, undefined, 'ana'));
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).problems.map((p) => p.field)).toEqual(['expectedVersion', 'name']);
  });

  it('deletes at the version named, or at the one read when none is', async () => {
    const d = deps();
    await createCalendar(d, { id: 'ops', name: 'Ops' }, 'ana');
    expect(await refusal(deleteCalendar(d, 'ops', 7))).toBeInstanceOf(ConflictError);
    await deleteCalendar(d, 'ops', undefined);
    expect(await d.calendars.get('ops')).toBeUndefined();
  });

  it('checks a days range before reading the calendar', async () => {
    const err = await refusal(listCalendarDays(deps(), 'missing', '2030-13-01', 'soon'));
    expect((err as RequestValidationError).problems).toEqual([
      { field: 'from', message: 'from must be a date written YYYY-MM-DD; got "2030-13-01"' },
      { field: 'to', message: 'to must be a date written YYYY-MM-DD; got "soon"' },
    ]);
    expect(await refusal(listCalendarDays(deps(), 'missing', '2030-01-01', '2030-01-02'))).toBeInstanceOf(
      NotFoundError,
    );
  });

  it('imports with the request’s fields over the text’s, and stores nothing when the text breaks a limit', async () => {
    const d = deps();
    const ics = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//t//EN',
      'X-WR-CALNAME:From the file',
      'X-WR-TIMEZONE:Europe/Berlin',
      'BEGIN:VEVENT',
      'UID:1',
      'DTSTAMP:20300101T000000Z',
      'DTSTART;VALUE=DATE:20301003',
      'SUMMARY:Unity Day',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const { calendar, notes } = await importCalendar(
      d,
      calendarImportOf(ics, { id: 'de', timeZone: 'Europe/Vienna' }),
      'ana',
    );
    expect(calendar).toMatchObject({
      id: 'de',
      name: 'From the file',
      timeZone: 'Europe/Vienna',
      excluded: [{ from: '2030-10-03', label: 'Unity Day' }],
    });
    expect(notes).toEqual([]);

    const err = await refusal(importCalendar(d, { id: 'de2', ics, timeZone: 'Mars/Base' }, 'ana'));
    expect((err as RequestValidationError).problems.map((p) => p.field)).toEqual(['timeZone']);
    expect(await d.calendars.get('de2')).toBeUndefined();
    expect(() => calendarImportOf({ id: 'x', ics, colour: 'red' }, {})).toThrow(
      'colour is not a field of an import (use ics, id, name, description, timeZone, workingDays)',
    );
  });
});
