import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../common/errors.js';
import { CALENDAR_LIMITS } from './calendar.js';
import { parseCalendarSpec } from './calendar-validation.js';

function problems(input: unknown): string[] {
  try {
    parseCalendarSpec(input);
  } catch (err) {
    if (err instanceof RequestValidationError) return err.problems.map((p) => `${p.field}: ${p.message}`);
    throw err;
  }
  throw new Error('expected the input to be refused');
}

describe('calendar validation', () => {
  it('normalises: defaults filled, lists sorted, single-day ranges without `to`, labels trimmed', () => {
    expect(
      parseCalendarSpec({
        name: ' Ops ',
        excluded: [
          { from: '2030-05-01', to: '2030-05-01', label: ' Labour Day ' },
          { from: '2030-01-01', label: '' },
        ],
        included: [{ date: '2030-05-11' }, { date: '2030-04-27' }],
      }),
    ).toEqual({
      name: 'Ops',
      description: '',
      timeZone: 'UTC',
      workingDays: ['MON', 'TUE', 'WED', 'THU', 'FRI'],
      excluded: [{ from: '2030-01-01' }, { from: '2030-05-01', label: 'Labour Day' }],
      included: [{ date: '2030-04-27' }, { date: '2030-05-11' }],
    });
  });

  it('names every problem at once', () => {
    expect(
      problems({
        name: '',
        timeZone: 'Mars/Olympus',
        workingDays: ['MON', 'MON', 'Funday'],
        excluded: [
          { from: '2030-02-30' },
          { from: '2030-01-10', to: '2030-01-05' },
          { from: '2030-03-01', to: '2030-03-10', label: 'a' },
          { from: '2030-03-05', label: 'b' },
          { from: '2030-06-01', to: '2031-06-02' },
          { from: '1969-12-31' },
          { date: '2030-01-01' },
        ],
        included: [{ date: '2030-04-01' }, { date: '2030-04-01' }, { date: 'tomorrow' }],
        colour: 'red',
      }),
    ).toEqual([
      'colour: colour is not a field of a calendar',
      'name: name must be a non-blank text of at most 200 characters; got ""',
      "timeZone: timeZone must be an IANA time zone such as 'UTC' or 'Asia/Shanghai'; got \"Mars/Olympus\"",
      'workingDays: workingDays[1]: MON is listed twice',
      'workingDays: workingDays[2] must be one of MON, TUE, WED, THU, FRI, SAT, SUN; got "Funday"',
      'excluded: excluded[0].from must be a date written YYYY-MM-DD; got "2030-02-30"',
      'excluded: excluded[1]: to 2030-01-05 is before from 2030-01-10',
      'excluded: excluded[4]: 2030-06-01..2031-06-02 spans 367 days; a range spans at most 366',
      'excluded: excluded[5].from must be between 1970-01-01 and 2199-12-31; got 1969-12-31',
      'excluded: excluded[6].date is not a field (use from, to, label)',
      'excluded: excluded[6].from must be a date written YYYY-MM-DD; got nothing',
      'excluded: excluded[3] (2030-03-05) overlaps excluded[2] (2030-03-01..2030-03-10): a day is excluded once',
      'included: included[1]: 2030-04-01 is included already by included[0]',
      'included: included[2].date must be a date written YYYY-MM-DD; got "tomorrow"',
    ]);
  });

  it('refuses more entries than a calendar holds, and labels over the limit', () => {
    const excluded = Array.from({ length: CALENDAR_LIMITS.excluded + 1 }, () => ({ from: '2030-01-01' }));
    expect(
      problems({ name: 'x', excluded, included: [{ date: '2030-01-01', label: 'x'.repeat(101) }] }),
    ).toEqual([
      `excluded: excluded has ${CALENDAR_LIMITS.excluded + 1} entries; a calendar holds at most ${CALENDAR_LIMITS.excluded}`,
      `included: included[0].label must be a text of at most ${CALENDAR_LIMITS.label} characters; got "${'x'.repeat(56)}...`,
    ]);
  });

  it('refuses a body that is not an object', () => {
    expect(problems(['a'])).toEqual(['body: body must be a JSON object describing the calendar']);
  });
});
