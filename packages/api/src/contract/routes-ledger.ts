/** The fire ledger of a job: every fire its schedule owed in a window and what became of it. */
import { Type } from '@sinclair/typebox';
import { MAX_LEDGER_FIRES } from '@tickring/core/runs';
import { defineRoute } from './define.js';
import { JobIdParam } from './schemas-jobs.js';
import { FireLedger, LedgerQuery } from './schemas-ledger.js';

const none = {
  until: null,
  logId: null,
  status: null,
  rule: null,
  fireAt: null,
  calendar: null,
  exception: null,
  stoppedBy: null,
};

export const LEDGER_ROUTES = {
  getJobLedger: defineRoute({
    operationId: 'getJobLedger',
    method: 'GET',
    path: '/v1/jobs/{id}/ledger',
    tags: ['jobs'],
    access: { kind: 'read', target: 'jobPath' },
    params: Type.Object({ id: JobIdParam }),
    query: LedgerQuery,
    summary: 'Every fire a job’s schedule owed in a window, and what became of it',
    description: `The fires of [from, to) as the schedule made them (CRON, FIX_RATE or ONCE in its zone, within startAt / endAt, its calendars, one-off exceptions), each matched to its run by scheduled time: ran (logId, status), skipped (the rule), not owed (a calendar, an exception, the job stopped), not yet due, or unexplained. The schedule's history in the window (edits, stops, starts, pauses by the failure policy, a schedule's end) is rebuilt from the audit log; calendars are read as they are now. Runs of the same fate in a row are one entry with a count. At most ${MAX_LEDGER_FIRES} fires (400 naming the limit).`,
    responses: {
      200: {
        description: 'The ledger.',
        schema: FireLedger,
        example: {
          jobId: 7,
          from: '2030-01-02T09:00:00.000Z',
          to: '2030-01-02T09:05:00.000Z',
          summary: {
            ran: 2,
            skipped: 2,
            calendar: 0,
            exception: 1,
            paused: 0,
            notYetDue: 0,
            unexplained: 0,
            skippedBy: { misfire: 2, overload: 0, overlap: 0, block: 0 },
          },
          entries: [
            {
              ...none,
              scheduledTime: '2030-01-02T09:00:00.000Z',
              count: 1,
              outcome: 'ran',
              logId: 30064771072,
              status: 'success',
            },
            {
              ...none,
              scheduledTime: '2030-01-02T09:01:00.000Z',
              until: '2030-01-02T09:02:00.000Z',
              count: 2,
              outcome: 'skipped',
              logId: 30064771073,
              rule: 'misfire',
            },
            {
              ...none,
              scheduledTime: '2030-01-02T09:03:00.000Z',
              count: 1,
              outcome: 'exception',
              exception: { action: 'skip', to: null, by: 'ana', reason: 'deploy' },
            },
            {
              ...none,
              scheduledTime: '2030-01-02T09:04:00.000Z',
              count: 1,
              outcome: 'ran',
              logId: 30064771076,
              status: 'fail',
            },
          ],
          definitionChangedInWindow: false,
          history: 'audit',
          calendars: [],
          calendarsChangedInWindow: [],
          runsRead: 4,
        },
      },
    },
    errors: { 404: 'No job has this id.' },
  }),
} as const;
