import { describe, expect, it } from 'vitest';
import { RequestValidationError, ValidationError } from '../common/errors.js';
import type { Calendar } from './calendar.js';
import { calendarToIcs, ICS_LIMITS, parseIcs } from './ics.js';

const NOW = Date.parse('2030-06-01T00:00:00Z');

function ics(...lines: string[]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
}

function event(...lines: string[]): string[] {
  return ['BEGIN:VEVENT', `UID:${Math.random()}`, 'DTSTAMP:20300101T000000Z', ...lines, 'END:VEVENT'];
}

function refusal(text: string): string[] {
  try {
    parseIcs(text, NOW);
  } catch (err) {
    if (err instanceof RequestValidationError) return err.problems.map((p) => p.message);
    if (err instanceof ValidationError) return [err.message];
    throw err;
  }
  throw new Error('expected the text to be refused');
}

describe('iCalendar import', () => {
  it('reads all-day events as exclusions with their SUMMARY, a WORKDAY event as a make-up day', () => {
    const content = parseIcs(
      ics(
        'X-WR-CALNAME:China 2030',
        'X-WR-TIMEZONE:Asia/Shanghai',
        ...event('DTSTART;VALUE=DATE:20301001', 'DTEND;VALUE=DATE:20301008', 'SUMMARY:National Day'),
        ...event('DTSTART;VALUE=DATE:20300928', 'SUMMARY:Make-up day', 'CATEGORIES:WORKDAY'),
        ...event('DTSTART;VALUE=DATE:20300501', 'SUMMARY:Labour Day'),
        ...event('DTSTART:20300915T090000Z', 'DTEND:20300915T100000Z', 'SUMMARY:Standup'),
      ),
      NOW,
    );
    expect(content).toEqual({
      name: 'China 2030',
      timeZone: 'Asia/Shanghai',
      excluded: [
        { from: '2030-05-01', label: 'Labour Day' },
        { from: '2030-10-01', to: '2030-10-07', label: 'National Day' },
      ],
      included: [{ date: '2030-09-28', label: 'Make-up day' }],
      notes: ['event 4 (Standup): not an all-day event (DTSTART has a time), left out'],
    });
  });

  it('expands a yearly RRULE from January 1 of last year to December 31 five years ahead', () => {
    const content = parseIcs(
      ics(...event('DTSTART;VALUE=DATE:19991225', 'RRULE:FREQ=YEARLY', 'SUMMARY:Christmas')),
      NOW,
    );
    expect(content.excluded.map((e) => e.from)).toEqual([
      '2029-12-25',
      '2030-12-25',
      '2031-12-25',
      '2032-12-25',
      '2033-12-25',
      '2034-12-25',
      '2035-12-25',
    ]);
  });

  it('merges overlapping events into the first and says so', () => {
    const content = parseIcs(
      ics(
        ...event('DTSTART;VALUE=DATE:20301001', 'DTEND;VALUE=DATE:20301004', 'SUMMARY:Golden week'),
        ...event('DTSTART;VALUE=DATE:20301003', 'DTEND;VALUE=DATE:20301008', 'SUMMARY:National Day'),
      ),
      NOW,
    );
    expect(content.excluded).toEqual([{ from: '2030-10-01', to: '2030-10-07', label: 'Golden week' }]);
    expect(content.notes).toEqual([
      '2030-10-03..2030-10-07 (National Day) overlaps 2030-10-01..2030-10-03: merged into it',
    ]);
  });

  it('refuses what it cannot use with a message saying why', () => {
    expect(refusal('')).toEqual(['ics is empty: give an iCalendar (.ics) text']);
    expect(refusal('BEGIN:VCALENDAR\r\nthis is not ics\r\n')[0]).toMatch(
      /^ics cannot be read as iCalendar: /,
    );
    expect(refusal('BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20300101\r\nEND:VEVENT\r\n')).toEqual([
      'ics must be a VCALENDAR; it is a VEVENT',
    ]);
    expect(refusal('x'.repeat(ICS_LIMITS.bytes + 1))).toEqual([
      `ics is ${ICS_LIMITS.bytes + 1} bytes; an import takes at most ${ICS_LIMITS.bytes} bytes`,
    ]);
    const many = Array.from({ length: ICS_LIMITS.events + 1 }, () =>
      event('DTSTART;VALUE=DATE:20300101'),
    ).flat();
    expect(refusal(ics(...many))).toEqual([
      `ics has ${ICS_LIMITS.events + 1} events; an import takes at most ${ICS_LIMITS.events}`,
    ]);
    expect(
      refusal(ics(...event('DTSTART;VALUE=DATE:20300101', 'RRULE:FREQ=DAILY', 'SUMMARY:Every day'))),
    ).toEqual([
      `event 1 (Every day): its RRULE makes more than ${ICS_LIMITS.occurrencesPerEvent} dates; a calendar holds dates, at most 1000`,
    ]);
    expect(refusal(ics('X-TICKRING-WORKING-DAYS:MO,XX', ...event('SUMMARY:No start')))).toEqual([
      'event 1 (No start) has no DTSTART',
      'X-TICKRING-WORKING-DAYS must list MO,TU,WE,TH,FR,SA,SU codes; got XX',
    ]);
  });
});

describe('iCalendar export', () => {
  const calendar: Calendar = {
    id: 'cn-2030',
    name: 'China 2030',
    description: 'Public holidays',
    timeZone: 'Asia/Shanghai',
    workingDays: ['MON', 'TUE', 'WED', 'THU', 'FRI'],
    excluded: [{ from: '2030-10-01', to: '2030-10-07', label: 'National Day' }, { from: '2030-12-31' }],
    included: [{ date: '2030-09-28', label: 'Make-up day' }],
    version: 3,
    createdAt: NOW,
    updatedAt: NOW,
    updatedBy: 'ana',
  };

  it('writes all-day events with CRLF lines, an exclusive DTEND, and the weekly pattern', () => {
    const text = calendarToIcs(calendar);
    expect(text.split('\r\n').every((line) => !line.includes('\n'))).toBe(true);
    expect(text).toContain('\r\nX-TICKRING-WORKING-DAYS:MO,TU,WE,TH,FR\r\n');
    expect(text).toContain('\r\nDTSTART;VALUE=DATE:20301001\r\nDTEND;VALUE=DATE:20301008\r\n');
    expect(text).toContain('\r\nSUMMARY:Excluded\r\n');
  });

  it('reads back what it writes', () => {
    const back = parseIcs(calendarToIcs(calendar), NOW);
    expect(back).toEqual({
      name: calendar.name,
      description: calendar.description,
      timeZone: calendar.timeZone,
      workingDays: calendar.workingDays,
      excluded: [...calendar.excluded.slice(0, 1), { from: '2030-12-31', label: 'Excluded' }],
      included: calendar.included,
      notes: [],
    });
  });
});
