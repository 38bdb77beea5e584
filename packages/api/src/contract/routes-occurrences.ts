/** The routes of one-off exceptions: skip or move one occurrence of a job's schedule, take it back, list them. */
import { Type } from '@sinclair/typebox';
import { defineRoute } from './define.js';
import { Job, JobIdParam } from './schemas-jobs.js';
import {
  OccurrenceList,
  OccurrenceListQuery,
  OccurrenceMoveBody,
  OccurrenceSkipBody,
  OccurrenceTimeParam,
} from './schemas-occurrences.js';

const occurrenceParams = Type.Object({ id: JobIdParam, time: OccurrenceTimeParam });
const T1 = '2030-01-02T09:00:00.000Z';
const by = { by: 'ana', createdAt: '2030-01-01T12:00:00.000Z' };
const skipped = { at: T1, action: 'skip', to: null, reason: 'public holiday', ...by };
const moved = { at: T1, action: 'move', to: '2030-01-02T09:30:00.000Z', reason: 'deploy window', ...by };

const TIME_RULES =
  '`{time}` is the occurrence’s scheduled time (ISO-8601 with a zone, or epoch ms); it must be a future fire of the job’s schedule (400 naming the nearest fires before and after otherwise). One planned already, or within 15 s (the tick plans that far ahead), answers 409: too late. A job holds at most 100 exceptions ahead. The answer is the job, with its `occurrenceExceptions`; the change is audited with who and why.';
const ERRORS = {
  404: 'No job has this id.',
  409: 'Too late: the occurrence is planned already (or within 15 s); or the job changed meanwhile too often; or it is a workflow’s schedule job.',
} as const;

export const OCCURRENCE_ROUTES = {
  listOccurrences: defineRoute({
    operationId: 'listOccurrences',
    method: 'GET',
    path: '/v1/jobs/{id}/occurrences',
    tags: ['jobs'],
    access: { kind: 'read', target: 'jobPath' },
    params: Type.Object({ id: JobIdParam }),
    query: OccurrenceListQuery,
    summary: 'List a job’s upcoming occurrences',
    description:
      'The schedule’s next occurrences (within its bounds) with their one-off exceptions: a skipped one without a fire time, a moved one at its new time beside its scheduled one; `changeable` false for those too close to change. `exceptions` lists every exception the job holds.',
    responses: {
      200: {
        description: 'The occurrences and the exceptions.',
        schema: OccurrenceList,
        example: {
          jobId: 7,
          occurrences: [
            { time: T1, fireAt: null, exception: skipped, changeable: true },
            {
              time: '2030-01-03T09:00:00.000Z',
              fireAt: '2030-01-03T09:00:00.000Z',
              exception: null,
              changeable: true,
            },
          ],
          exceptions: [skipped],
        },
      },
    },
    errors: { 404: 'No job has this id.' },
  }),
  skipOccurrence: defineRoute({
    operationId: 'skipOccurrence',
    method: 'POST',
    path: '/v1/jobs/{id}/occurrences/{time}/skip',
    tags: ['jobs'],
    access: { kind: 'operate', target: 'jobPath' },
    audit: { action: 'job.occurrence.skip', target: 'job' },
    params: occurrenceParams,
    summary: 'Skip one occurrence',
    description: `The occurrence does not fire; the schedule goes on (no pause). An earlier skip or move of it is replaced. ${TIME_RULES}`,
    body: {
      schema: OccurrenceSkipBody,
      required: false,
      description: 'Why (optional).',
      examples: { holiday: { summary: 'A holiday', value: { reason: 'public holiday' } } },
    },
    responses: { 200: { description: 'The job as changed.', schema: Job } },
    errors: ERRORS,
  }),
  moveOccurrence: defineRoute({
    operationId: 'moveOccurrence',
    method: 'POST',
    path: '/v1/jobs/{id}/occurrences/{time}/move',
    tags: ['jobs'],
    access: { kind: 'operate', target: 'jobPath' },
    audit: { action: 'job.occurrence.move', target: 'job' },
    params: occurrenceParams,
    summary: 'Move one occurrence',
    description: `The occurrence fires at \`to\` instead (not jittered), keeping its scheduled time as its identity: the run’s scheduledTime, which the handler sees, is the original one. \`to\` must be in the future and strictly between the fires before and after it (400 naming that window), so the job’s fires stay in order. ${TIME_RULES}`,
    body: {
      schema: OccurrenceMoveBody,
      required: true,
      description: 'The new time, and why.',
      examples: { later: { summary: 'Half an hour later', value: { to: moved.to, reason: moved.reason } } },
    },
    responses: { 200: { description: 'The job as changed.', schema: Job } },
    errors: ERRORS,
  }),
  restoreOccurrence: defineRoute({
    operationId: 'restoreOccurrence',
    method: 'DELETE',
    path: '/v1/jobs/{id}/occurrences/{time}',
    tags: ['jobs'],
    access: { kind: 'operate', target: 'jobPath' },
    audit: { action: 'job.occurrence.restore', target: 'job' },
    params: occurrenceParams,
    summary: 'Take an occurrence’s skip or move back',
    description:
      'The occurrence fires at its own time again. 400 when it has no exception; 409 when it (or its move’s time) is planned already or within 15 s.',
    responses: { 200: { description: 'The job as changed.', schema: Job } },
    errors: ERRORS,
  }),
} as const;
