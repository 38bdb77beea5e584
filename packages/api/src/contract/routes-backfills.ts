/** The routes of backfills: preview, start, list a job's, read one, cancel. */
import { Type } from '@sinclair/typebox';
import { BACKFILL_LIMITS } from '@tickring/core/backfills';
import { defineRoute } from './define.js';
import {
  Backfill,
  BackfillIdParam,
  BackfillListQuery,
  BackfillPage,
  BackfillPreview,
  BackfillPreviewRequest,
  BackfillRequest,
} from './schemas-backfills.js';
import { JobIdParam } from './schemas-jobs.js';
import { WorkflowIdParam } from './schemas-workflows.js';

const jobIdParams = Type.Object({ id: JobIdParam });
const workflowIdParams = Type.Object({ id: WorkflowIdParam });
const backfillIdParams = Type.Object({ id: BackfillIdParam });

// Examples, shown by the document (a test checks each against its schema).
const exampleBackfill = {
  id: 'bf-7-mfx3k2a1-9c1e',
  jobId: 7,
  workflowId: null,
  appName: 'orders',
  from: '2030-01-01T00:00:00.000Z',
  to: '2030-01-02T00:00:00.000Z',
  parallelism: 2,
  ratePerMinute: 30,
  scheduleType: 'CRON',
  scheduleConf: '0 0 * * * ?',
  timeZone: 'Europe/Berlin',
  state: 'RUNNING',
  total: 24,
  dispatched: 10,
  succeeded: 7,
  failed: 1,
  running: 2,
  runningFires: [
    { scheduledTime: '2030-01-01T08:00:00.000Z', logId: 30064771073 + 2 ** 31 + 8 },
    { scheduledTime: '2030-01-01T09:00:00.000Z', logId: 30064771073 + 2 ** 31 + 9 },
  ],
  failures: ['2030-01-01T03:00:00.000Z'],
  nextFireTime: '2030-01-01T10:00:00.000Z',
  createdAt: '2030-01-03T10:00:00.000Z',
  createdBy: 'ana',
  cancelledAt: null,
  cancelledBy: null,
  stopReason: null,
  endedAt: null,
};

const PROBLEMS = `Every problem at once: from or to not an instant, to not after from or in the future, a parallelism or rate out of range, a job whose schedule is not CRON or FIX_RATE (a workflow’s starter job: backfill the workflow), a range of more than ${BACKFILL_LIMITS.fires} fires (the message names where the first ${BACKFILL_LIMITS.fires} end).`;

const WORKFLOW_PROBLEMS = `Every problem at once: from or to not an instant, to not after from or in the future, a parallelism or rate out of range, a workflow without a CRON or FIX_RATE schedule, a range of more than ${BACKFILL_LIMITS.fires} fires.`;

export const BACKFILL_ROUTES = {
  previewBackfill: defineRoute({
    operationId: 'previewBackfill',
    method: 'POST',
    path: '/v1/jobs/{id}/backfill/preview',
    tags: ['backfills'],
    access: { kind: 'read', target: 'jobPath' },
    params: jobIdParams,
    summary: 'How many fires a backfill of a range makes',
    description: `Counts the fires the job’s schedule would have made in [from, to) (within its startAt / endAt), without starting anything. ${PROBLEMS.replace(/, a range of more.*$/, '.')}`,
    body: {
      schema: BackfillPreviewRequest,
      required: true,
      description: 'The range.',
      examples: {
        day: { summary: 'One day', value: { from: exampleBackfill.from, to: exampleBackfill.to } },
      },
    },
    responses: {
      200: {
        description: 'The count, and the first and last fire.',
        schema: BackfillPreview,
        example: {
          jobId: 7,
          workflowId: null,
          from: exampleBackfill.from,
          to: exampleBackfill.to,
          total: 24,
          tooMany: false,
          limit: BACKFILL_LIMITS.fires,
          first: '2030-01-01T00:00:00.000Z',
          last: '2030-01-01T23:00:00.000Z',
        },
      },
    },
    errors: { 404: 'No job has this id.' },
  }),
  startBackfill: defineRoute({
    operationId: 'startBackfill',
    method: 'POST',
    path: '/v1/jobs/{id}/backfill',
    tags: ['backfills'],
    access: { kind: 'operate', target: 'jobPath' },
    audit: { action: 'job.backfill', target: 'job' },
    params: jobIdParams,
    summary: 'Run the fires of a past range',
    description:
      'Runs the fires the job’s schedule (CRON or FIX_RATE) would have made in [from, to), within its startAt / endAt, each as a BACKFILL run with its own scheduled time (the handler’s logDateTime), oldest first, at most `parallelism` at once and `ratePerMinute` a minute. The live schedule is not touched: a backfill fire is never a misfire, nor overtakes the live fires. The first fires start before the answer; the monitors move the rest on (about once a second while one runs). A job has at most one active backfill.',
    body: {
      schema: BackfillRequest,
      required: true,
      description: 'The range, the parallelism and the rate.',
      examples: {
        day: {
          summary: 'A day of an hourly job, two at a time',
          value: { from: exampleBackfill.from, to: exampleBackfill.to, parallelism: 2, ratePerMinute: 30 },
        },
      },
    },
    responses: {
      202: {
        description: 'Started: the backfill, with its first fires running.',
        schema: Backfill,
        example: { ...exampleBackfill, dispatched: 2, succeeded: 0, failed: 0, failures: [] },
      },
    },
    errors: {
      400: PROBLEMS,
      404: 'No job has this id.',
      409: 'The job has an active backfill (named): cancel it or wait for it to end.',
    },
  }),
  listJobBackfills: defineRoute({
    operationId: 'listJobBackfills',
    method: 'GET',
    path: '/v1/jobs/{id}/backfills',
    tags: ['backfills'],
    access: { kind: 'read', target: 'jobPath' },
    params: jobIdParams,
    query: BackfillListQuery,
    summary: 'A job’s backfills',
    description: 'Newest first, page by page.',
    responses: {
      200: {
        description: 'A page of backfills.',
        schema: BackfillPage,
        example: { items: [exampleBackfill], nextCursor: null },
      },
    },
    errors: { 404: 'No job has this id.' },
  }),
  getBackfill: defineRoute({
    operationId: 'getBackfill',
    method: 'GET',
    path: '/v1/backfills/{id}',
    tags: ['backfills'],
    access: { kind: 'read', target: 'backfillPath' },
    params: backfillIdParams,
    summary: 'A backfill and its progress',
    description: 'Its counts (total, dispatched, succeeded, failed, running), state, failed fires and times.',
    responses: { 200: { description: 'The backfill.', schema: Backfill, example: exampleBackfill } },
    errors: { 404: 'No backfill has this id (or its job was deleted).' },
  }),
  cancelBackfill: defineRoute({
    operationId: 'cancelBackfill',
    method: 'POST',
    path: '/v1/backfills/{id}/cancel',
    tags: ['backfills'],
    access: { kind: 'operate', target: 'backfillPath' },
    audit: { action: 'backfill.cancel', target: 'backfill' },
    params: backfillIdParams,
    summary: 'Cancel a backfill',
    description: 'No fire starts after it; the fires running finish and are counted, then `endedAt` is set.',
    responses: {
      200: {
        description: 'The backfill, CANCELLED.',
        schema: Backfill,
        example: {
          ...exampleBackfill,
          state: 'CANCELLED',
          nextFireTime: null,
          cancelledAt: '2030-01-03T10:05:00.000Z',
          cancelledBy: 'ana',
        },
      },
    },
    errors: { 404: 'No backfill has this id.', 409: 'It is not RUNNING (it ended or was cancelled).' },
  }),
  previewWorkflowBackfill: defineRoute({
    operationId: 'previewWorkflowBackfill',
    method: 'POST',
    path: '/v1/workflows/{id}/backfill/preview',
    tags: ['backfills', 'workflows'],
    access: { kind: 'read', target: 'workflowPath' },
    params: workflowIdParams,
    summary: 'How many workflow runs a backfill of a range starts',
    description:
      'Counts the fires the workflow’s schedule would have made in [from, to) (within its startAt / endAt and its calendars), without starting anything.',
    body: {
      schema: BackfillPreviewRequest,
      required: true,
      description: 'The range.',
      examples: {
        day: { summary: 'One day', value: { from: exampleBackfill.from, to: exampleBackfill.to } },
      },
    },
    responses: {
      200: {
        description: 'The count, and the first and last fire.',
        schema: BackfillPreview,
        example: {
          jobId: 12,
          workflowId: 3,
          from: exampleBackfill.from,
          to: exampleBackfill.to,
          total: 1,
          tooMany: false,
          limit: BACKFILL_LIMITS.fires,
          first: '2030-01-01T02:00:00.000Z',
          last: '2030-01-01T02:00:00.000Z',
        },
      },
    },
    errors: { 400: WORKFLOW_PROBLEMS, 404: 'No workflow has this id.' },
  }),
  startWorkflowBackfill: defineRoute({
    operationId: 'startWorkflowBackfill',
    method: 'POST',
    path: '/v1/workflows/{id}/backfill',
    tags: ['backfills', 'workflows'],
    access: { kind: 'operate', target: 'workflowPath' },
    audit: { action: 'workflow.backfill', target: 'workflow' },
    params: workflowIdParams,
    summary: 'Start the workflow runs of a past range',
    description:
      'Starts a workflow run for each fire the workflow’s schedule (CRON or FIX_RATE) would have made in [from, to) (within its startAt / endAt and its calendars), oldest first: trigger BACKFILL, its scheduled time in the run’s `trigger.scheduledTime` and in its input (`{"scheduledTime": "…"}`, so nodes can use `{{input.scheduledTime}}`). At most `parallelism` of its runs run at once (a fire counts until its workflow run ends) and `ratePerMinute` start a minute; the overlap policy does not hold them back, but they count as running runs for the live schedule’s. Progress counts the workflow runs’ results. A workflow has at most one active backfill.',
    body: {
      schema: BackfillRequest,
      required: true,
      description: 'The range, the parallelism and the rate.',
      examples: {
        week: {
          summary: 'A week of a nightly workflow, one at a time',
          value: { from: '2030-01-01T00:00:00.000Z', to: '2030-01-08T00:00:00.000Z', parallelism: 1 },
        },
      },
    },
    responses: {
      202: {
        description: 'Started: the backfill, with its first runs started.',
        schema: Backfill,
        example: { ...exampleBackfill, jobId: 12, workflowId: 3, id: 'bf-12-mfx3k2a1-9c1e' },
      },
    },
    errors: {
      400: WORKFLOW_PROBLEMS,
      404: 'No workflow has this id.',
      409: 'The workflow has an active backfill (named): cancel it or wait for it to end.',
    },
  }),
  listWorkflowBackfills: defineRoute({
    operationId: 'listWorkflowBackfills',
    method: 'GET',
    path: '/v1/workflows/{id}/backfills',
    tags: ['backfills', 'workflows'],
    access: { kind: 'read', target: 'workflowPath' },
    params: workflowIdParams,
    query: BackfillListQuery,
    summary: 'A workflow’s backfills',
    description: 'Newest first, page by page (none for a workflow without a schedule).',
    responses: {
      200: {
        description: 'A page of backfills.',
        schema: BackfillPage,
        example: { items: [{ ...exampleBackfill, jobId: 12, workflowId: 3 }], nextCursor: null },
      },
    },
    errors: { 404: 'No workflow has this id.' },
  }),
} as const;
