import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../http/validation.js';
import { API } from './routes.js';

/** The fields a createJob body is refused for (none when it passes). */
function refusedFields(body: unknown): (string | undefined)[] {
  try {
    API.createJob.validate({ params: {}, query: {}, body } as never);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(RequestValidationError);
    return (err as RequestValidationError).problems.map((p) => p.field);
  }
}

const job = { appName: 'my-app', name: 'report', author: 'ops', executorHandler: 'h' };

describe('a job body’s failure policy and deadline', () => {
  it('takes both rules, a cooling-off period, a deadline with its days, and null to clear', () => {
    expect(refusedFields({ ...job, failurePolicy: { pauseAfter: { consecutive: 3 } } })).toEqual([]);
    expect(
      refusedFields({
        ...job,
        failurePolicy: { pauseAfter: { failures: 3, ofLast: 5 }, resumeAfterSeconds: 600 },
        deadline: { time: '06:00', timeZone: 'Europe/Berlin', days: 'weekdays' },
      }),
    ).toEqual([]);
    expect(refusedFields({ ...job, failurePolicy: null, deadline: null })).toEqual([]);
  });

  it('names every problem at once: N above M, an unknown zone, a bad HH:MM, beside the others', () => {
    const fields = refusedFields({
      ...job,
      executorTimeout: -1,
      failurePolicy: { pauseAfter: { failures: 6, ofLast: 5 } },
      deadline: { time: '6:00', timeZone: 'Mars/Olympus' },
    });
    expect(fields).toEqual(
      expect.arrayContaining([
        'executorTimeout',
        'failurePolicy.pauseAfter.failures',
        'deadline.timeZone',
        'deadline.time',
      ]),
    );
  });
});
