/**
 * The admin API's route table: every `/v1` route, once. `functions/api/routes.ts` binds each to
 * its use-case (`router.route(API.getJob, handler)`), the router validates requests with it, and
 * `openapi.ts` writes the document from it.
 */
import { Type } from '@sinclair/typebox';
import { REFUSAL_HINTS } from '@tickring/core/executors';
import { type AnyApiRoute, defineRoute } from './define.js';
import { ALERT_ROUTES } from './routes-alerts.js';
import { AUDIT_ROUTES } from './routes-audit.js';
import { BACKFILL_ROUTES } from './routes-backfills.js';
import { CALENDAR_ROUTES } from './routes-calendars.js';
import { IDENTITY_ROUTES } from './routes-identity.js';
import { LEDGER_ROUTES } from './routes-ledger.js';
import { OCCURRENCE_ROUTES } from './routes-occurrences.js';
import { WORKFLOW_ROUTES } from './routes-workflows.js';
import { Activity, ActivityQuery, Dashboard, DashboardQuery } from './schemas-activity.js';
import { OpenApiDocumentSchema } from './schemas-common.js';
import { Executors, ExecutorsQuery } from './schemas-executors.js';
import {
  AppNameParam,
  Group,
  GroupCreate,
  GroupList,
  GroupToken,
  GroupTokenBody,
  GroupUpdate,
} from './schemas-groups.js';
import {
  Job,
  JobCreate,
  JobIdParam,
  JobListQuery,
  JobPage,
  JobUpdate,
  Preview,
  PreviewQuery,
} from './schemas-jobs.js';
import {
  KilledRun,
  LogIdParam,
  Run,
  RunListQuery,
  RunOutput,
  RunOutputQuery,
  RunPage,
} from './schemas-runs.js';
import { TriggerAccepted, TriggerBody } from './schemas-triggers.js';

const appNameParams = Type.Object({ appName: AppNameParam });
const jobIdParams = Type.Object({ id: JobIdParam });
const logIdParams = Type.Object({ logId: LogIdParam });

// Examples, shown by the document (a test checks each against its schema).
const T0 = '2030-01-01T02:00:00.000Z';
const exampleGroup = {
  appName: 'my-app',
  title: 'My application',
  addressType: 'AUTO',
  addressList: ['http://10.0.0.5:9999/'],
  accessTokenSetAt: null,
  alertChannels: [],
  createdAt: T0,
  updatedAt: T0,
};
export const exampleJob = {
  id: 7,
  appName: 'my-app',
  name: 'Nightly report',
  author: 'ops',
  alarmEmail: 'ops@example.com',
  alarmWebhook: '',
  scheduleType: 'CRON',
  scheduleConf: '0 0 2 * * ?',
  timeZone: 'Europe/Berlin',
  misfireStrategy: 'DO_NOTHING',
  startAt: null,
  endAt: '2030-12-31T23:00:00.000Z',
  maxRuns: 300,
  jitterSeconds: 30,
  calendars: { only: [], exclude: ['de-holidays'] },
  logRetentionDays: 90,
  keepSuccessfulRuns: 0.1,
  runsRemaining: 299,
  scheduleEnded: null,
  failurePolicy: { pauseAfter: { failures: 3, ofLast: 5 }, resumeAfterSeconds: 600 },
  deadline: { time: '06:00', timeZone: 'Europe/Berlin' },
  pausedBy: null,
  occurrenceExceptions: [],
  executorRouteStrategy: 'ROUND',
  executorHandler: 'reportHandler',
  executorParam: 'region=eu',
  executorBlockStrategy: 'SERIAL_EXECUTION',
  executorTimeout: 600,
  executorFailRetryCount: 2,
  retryBackoffSeconds: 10,
  glueType: 'BEAN',
  glueSource: '',
  childJobIds: [],
  triggerStatus: 'RUNNING',
  triggerNextTime: '2030-01-02T01:00:00.000Z',
  triggerLastTime: '2030-01-01T01:00:00.000Z',
  glueUpdatetime: T0,
  scheduleRevision: 2,
  version: 3,
  workflowId: null,
  createdAt: T0,
  updatedAt: T0,
};
const exampleRun = {
  logId: 30064771073,
  jobId: 7,
  jobName: 'Nightly report',
  appName: 'my-app',
  status: 'success',
  triggerType: 'CRON',
  dedupKey: '7#1893546000000',
  scheduledTime: '2030-01-02T01:00:00.000Z',
  triggerTime: '2030-01-02T00:59:59.750Z',
  executorAddress: 'http://10.0.0.5:9999/',
  executorHandler: 'reportHandler',
  executorParam: 'region=eu',
  executorRouteStrategy: 'ROUND',
  executorTimeout: 600,
  shard: '0/1',
  attempt: 1,
  retriesLeft: 2,
  parentLogId: null,
  workflow: null,
  triggerCode: 200,
  triggerMsg: 'executor accepted the run',
  dispatchedAt: '2030-01-02T01:00:00.004Z',
  handleCode: 200,
  handleMsg: 'report sent',
  handleTime: '2030-01-02T01:00:41.200Z',
  alarmStatus: 'NOT_NEEDED',
  skippedCount: null,
  skippedUntil: null,
};
/** Twelve fires of an every-second job that reached the dispatcher too late, recorded as one run. */
const exampleSkippedRun = {
  ...exampleRun,
  logId: 30064771201,
  status: 'skipped',
  dedupKey: '7#1893546120000',
  scheduledTime: '2030-01-02T01:02:00.000Z',
  triggerTime: '2030-01-02T01:02:09.120Z',
  executorAddress: null,
  triggerCode: 600,
  triggerMsg:
    'Trigger type: CRON\nMisfire strategy: DO_NOTHING\nSkipped, never sent: reached the dispatcher 9.1 s after its time (threshold 5 s); DO_NOTHING skips it',
  dispatchedAt: null,
  handleCode: 0,
  handleMsg: '',
  handleTime: null,
  skippedCount: 12,
  skippedUntil: '2030-01-02T01:02:11.000Z',
};

const SCHEDULING_ROUTES = {
  // ------------------------------------------------------------------------------------------
  // Groups
  listGroups: defineRoute({
    operationId: 'listGroups',
    method: 'GET',
    path: '/v1/groups',
    tags: ['groups'],
    access: { kind: 'read', target: 'list' },
    summary: 'List executor groups',
    description: 'Every executor group; an AUTO group’s addressList lists its executors online now.',
    responses: { 200: { description: 'The groups.', schema: GroupList, example: { items: [exampleGroup] } } },
  }),
  createGroup: defineRoute({
    operationId: 'createGroup',
    method: 'POST',
    path: '/v1/groups',
    tags: ['groups'],
    access: { kind: 'admin' },
    audit: { action: 'group.create', target: 'group', idFrom: 'result' },
    summary: 'Create an executor group',
    description:
      'AUTO groups take their executors from registration (XXL-JOB’s executors register under the AppName); MANUAL groups list them.',
    body: {
      schema: GroupCreate,
      required: true,
      description: 'The group.',
      examples: {
        auto: {
          summary: 'Executors register themselves',
          value: { appName: 'my-app', title: 'My application', addressType: 'AUTO' },
        },
        manual: {
          summary: 'Fixed addresses (XXL-JOB’s comma-separated form is taken too)',
          value: {
            appName: 'batch',
            title: 'Batch workers',
            addressType: 'MANUAL',
            addressList: ['http://10.0.0.7:9999', 'lambda:executor-runner'],
          },
        },
      },
    },
    responses: {
      201: {
        description: 'Created.',
        schema: Group,
        example: { ...exampleGroup, addressList: [] },
      },
    },
    errors: { 409: 'A group with this appName exists.' },
  }),
  getGroup: defineRoute({
    operationId: 'getGroup',
    method: 'GET',
    path: '/v1/groups/{appName}',
    tags: ['groups'],
    access: { kind: 'read', target: 'groupPath' },
    params: appNameParams,
    summary: 'Read an executor group',
    description: 'One group; an AUTO group’s addressList lists its executors online now.',
    responses: { 200: { description: 'The group.', schema: Group, example: exampleGroup } },
    errors: { 404: 'No group has this appName.' },
  }),
  updateGroup: defineRoute({
    operationId: 'updateGroup',
    method: 'PUT',
    path: '/v1/groups/{appName}',
    tags: ['groups'],
    access: { kind: 'admin' },
    audit: { action: 'group.update', target: 'group' },
    params: appNameParams,
    summary: 'Change an executor group',
    description:
      'Lays the given fields over the group. Switching a MANUAL group to AUTO without a list clears its list; its appName cannot change.',
    body: {
      schema: GroupUpdate,
      required: true,
      description: 'The fields to change.',
      examples: { title: { summary: 'A new title', value: { title: 'My application (EU)' } } },
    },
    responses: { 200: { description: 'The group as changed.', schema: Group, example: exampleGroup } },
    errors: { 404: 'No group has this appName.' },
  }),
  deleteGroup: defineRoute({
    operationId: 'deleteGroup',
    method: 'DELETE',
    path: '/v1/groups/{appName}',
    tags: ['groups'],
    access: { kind: 'admin' },
    audit: { action: 'group.delete', target: 'group' },
    params: appNameParams,
    summary: 'Delete an executor group',
    description: 'Refused while jobs use the group, as XXL-JOB refuses it.',
    responses: { 204: { description: 'Deleted.' } },
    errors: { 404: 'No group has this appName.', 409: 'Jobs still use the group.' },
  }),
  setGroupAccessToken: defineRoute({
    operationId: 'setGroupAccessToken',
    method: 'PUT',
    path: '/v1/groups/{appName}/access-token',
    tags: ['groups'],
    access: { kind: 'admin' },
    audit: { action: 'group.accessToken.set', target: 'group' },
    params: appNameParams,
    summary: 'Give a group its own executor access token',
    description:
      'XXL-JOB 3.5’s per-group token: the group’s executors must then present it (XXL-JOB-ACCESS-TOKEN) and the dispatcher sends it to them, instead of the global token. The token is stored sealed and shown in this answer only.',
    body: {
      schema: GroupTokenBody,
      required: false,
      description: '{} or no body for a new random token, or the token to use.',
      examples: {
        random: { summary: 'A new random token', value: {} },
        given: {
          summary: 'The token a 3.5 group already has',
          value: { accessToken: 's3cret-token-of-my-app' },
        },
      },
    },
    responses: {
      200: {
        description: 'The token, this once.',
        schema: GroupToken,
        example: {
          appName: 'my-app',
          accessToken: 'q9V2k1bY0cXh3Lr8TQm7WnJpZsE4aGfD6uHoRtKyNiB',
          accessTokenSetAt: T0,
          note: 'This token is shown once. Configure it on the group’s executors (XXL-JOB-ACCESS-TOKEN); the global token no longer works for them.',
        },
      },
    },
    errors: { 404: 'No group has this appName.' },
  }),
  clearGroupAccessToken: defineRoute({
    operationId: 'clearGroupAccessToken',
    method: 'DELETE',
    path: '/v1/groups/{appName}/access-token',
    tags: ['groups'],
    access: { kind: 'admin' },
    audit: { action: 'group.accessToken.clear', target: 'group' },
    params: appNameParams,
    summary: 'Drop a group’s own access token',
    description: 'The group’s executors and the dispatcher go back to the global access token.',
    responses: { 204: { description: 'Dropped.' } },
    errors: { 404: 'No group has this appName.' },
  }),

  // ------------------------------------------------------------------------------------------
  // Jobs
  listJobs: defineRoute({
    operationId: 'listJobs',
    method: 'GET',
    path: '/v1/jobs',
    tags: ['jobs'],
    access: { kind: 'read', target: 'list' },
    query: JobListQuery,
    summary: 'List jobs',
    description: 'Jobs page by page, optionally of one group or in one trigger status.',
    responses: {
      200: {
        description: 'A page of jobs.',
        schema: JobPage,
        example: { items: [exampleJob], nextCursor: null },
      },
    },
  }),
  createJob: defineRoute({
    operationId: 'createJob',
    method: 'POST',
    path: '/v1/jobs',
    tags: ['jobs'],
    access: { kind: 'operate', target: 'bodyGroup' },
    audit: { action: 'job.create', target: 'job', idFrom: 'result' },
    summary: 'Create a job',
    description:
      'A job with a new id. Created RUNNING, it is scheduled at once (its first fire is the first after now + 5 s). XXL-JOB’s field names jobDesc, jobGroup (an AppName) and childJobId (ids separated by commas) are taken too.',
    body: {
      schema: JobCreate,
      required: true,
      description: 'The job.',
      examples: {
        cron: {
          summary: 'Every night at 02:00, Berlin time',
          value: {
            appName: 'my-app',
            name: 'Nightly report',
            author: 'ops',
            scheduleType: 'CRON',
            scheduleConf: '0 0 2 * * ?',
            timeZone: 'Europe/Berlin',
            executorHandler: 'reportHandler',
            executorFailRetryCount: 2,
            triggerStatus: 'RUNNING',
          },
        },
        xxlJob: {
          summary: 'With XXL-JOB’s field names',
          value: {
            jobGroup: 'my-app',
            jobDesc: 'Clean up',
            author: 'ops',
            scheduleType: 'FIX_RATE',
            scheduleConf: '300',
            executorHandler: 'cleanupHandler',
            childJobId: '8,9',
          },
        },
      },
    },
    responses: { 201: { description: 'Created.', schema: Job, example: exampleJob } },
  }),
  getJob: defineRoute({
    operationId: 'getJob',
    method: 'GET',
    path: '/v1/jobs/{id}',
    tags: ['jobs'],
    access: { kind: 'read', target: 'jobPath' },
    params: jobIdParams,
    summary: 'Read a job',
    description:
      'One job, with where it stands against its deadline and how long its runs are kept with an estimate of what that costs (retention).',
    responses: {
      200: {
        description: 'The job.',
        schema: Job,
        example: {
          ...exampleJob,
          deadlineStatus: null,
          // Daily, 90 days, 10 % of successes kept: 1 × (0.1 × 90 + 0.9 × 1) ≈ 10 records.
          retention: {
            days: 90,
            successSample: 0.1,
            estimatedRecords: 10,
            estimatedBytes: 11_500,
            estimatedMonthlyCostUsd: 0.000002678,
          },
        },
      },
    },
    errors: { 404: 'No job has this id.' },
  }),
  updateJob: defineRoute({
    operationId: 'updateJob',
    method: 'PUT',
    path: '/v1/jobs/{id}',
    tags: ['jobs'],
    access: { kind: 'operate', target: 'jobPath' },
    audit: { action: 'job.update', target: 'job' },
    params: jobIdParams,
    summary: 'Change a job',
    description:
      'Lays the given fields over the job and checks the result as a whole. A running job whose schedule changes is re-planned from now; other edits keep its next fire. A `version` in the body must be the job’s (409 otherwise).',
    body: {
      schema: JobUpdate,
      required: true,
      description: 'The fields to change (or the job as read, changed).',
      examples: {
        param: { summary: 'A new parameter', value: { executorParam: 'region=us' } },
        guarded: {
          summary: 'Only if nobody changed it since version 3',
          value: { scheduleConf: '0 30 2 * * ?', version: 3 },
        },
      },
    },
    responses: { 200: { description: 'The job as changed.', schema: Job, example: exampleJob } },
    errors: {
      404: 'No job has this id.',
      409: 'The body’s version is not the job’s (read it again and retry), or the job is a workflow’s schedule job (change the workflow).',
    },
  }),
  deleteJob: defineRoute({
    operationId: 'deleteJob',
    method: 'DELETE',
    path: '/v1/jobs/{id}',
    tags: ['jobs'],
    access: { kind: 'operate', target: 'jobPath' },
    audit: { action: 'job.delete', target: 'job' },
    params: jobIdParams,
    summary: 'Delete a job',
    description: 'Fires already on their way find no job and are dropped; jobs naming it as a child skip it.',
    responses: { 204: { description: 'Deleted.' } },
    errors: {
      404: 'No job has this id.',
      409: 'The job is a workflow’s schedule job (workflowId): change the workflow instead.',
    },
  }),
  startJob: defineRoute({
    operationId: 'startJob',
    method: 'POST',
    path: '/v1/jobs/{id}/start',
    tags: ['jobs'],
    access: { kind: 'operate', target: 'jobPath' },
    audit: { action: 'job.start', target: 'job' },
    params: jobIdParams,
    summary: 'Start scheduling a job',
    description:
      'Schedules the job from now (its first fire after now + 5 s); a running job is left as it is. A NONE schedule, or one that never fires again, cannot be started (400).',
    responses: { 200: { description: 'The job, RUNNING.', schema: Job, example: exampleJob } },
    errors: {
      404: 'No job has this id.',
      409: 'The job is a workflow’s schedule job (workflowId): change the workflow instead.',
    },
  }),
  stopJob: defineRoute({
    operationId: 'stopJob',
    method: 'POST',
    path: '/v1/jobs/{id}/stop',
    tags: ['jobs'],
    access: { kind: 'operate', target: 'jobPath' },
    audit: { action: 'job.stop', target: 'job' },
    params: jobIdParams,
    summary: 'Stop scheduling a job',
    description:
      'Takes effect from the next fire (fires already planned are dropped); a stopped job is left as it is.',
    responses: {
      200: {
        description: 'The job, STOPPED.',
        schema: Job,
        example: { ...exampleJob, triggerStatus: 'STOPPED', triggerNextTime: null },
      },
    },
    errors: {
      404: 'No job has this id.',
      409: 'The job is a workflow’s schedule job (workflowId): change the workflow instead.',
    },
  }),
  triggerJob: defineRoute({
    operationId: 'triggerJob',
    method: 'POST',
    path: '/v1/jobs/{id}/trigger',
    tags: ['jobs'],
    access: { kind: 'operate', target: 'jobPath' },
    audit: { action: 'job.trigger', target: 'job' },
    params: jobIdParams,
    summary: 'Fire a job once, now',
    description:
      'XXL-JOB’s "execute once": a MANUAL fire, whatever the job’s schedule and status; the overrides apply to this run only.',
    body: {
      schema: TriggerBody,
      required: false,
      description: 'Overrides for this run; no body for none.',
      examples: {
        plain: { summary: 'As the job is', value: {} },
        override: {
          summary: 'Another parameter, on one executor',
          value: { executorParam: 'date=2030-01-01', addressList: ['http://10.0.0.5:9999/'] },
        },
      },
    },
    responses: {
      202: {
        description: 'Accepted: the run is dispatched at once, asynchronously.',
        schema: TriggerAccepted,
        example: {
          jobId: 7,
          dedupKey: 'manual#1b4e28ba-2fa1-11d2-883f-0016d3cca427',
          scheduledTime: T0,
          logId: 30064771073 + 2 ** 31,
          logIds: [30064771073 + 2 ** 31],
        },
      },
    },
    errors: { 404: 'No job has this id.' },
  }),

  // ------------------------------------------------------------------------------------------
  // Schedules
  previewSchedule: defineRoute({
    operationId: 'previewSchedule',
    method: 'GET',
    path: '/v1/schedule/preview',
    tags: ['jobs'],
    access: { kind: 'read', target: 'none' },
    query: PreviewQuery,
    summary: 'Preview a schedule',
    description:
      'The next fire times of a schedule, as a job with it would fire: within its bounds (startAt, endAt, maxRuns; `ends` says why it stops), each with its real time under jitterSeconds (give jobId), and the clock changes it meets (DST) with what the job does there: Quartz’s policy (a skipped local time does not fire that day; a repeated one fires once, at the second pass).',
    responses: {
      200: {
        description: 'The fire times.',
        schema: Preview,
        example: {
          times: ['2030-03-30T01:30:00.000Z', '2030-04-01T00:30:00.000Z'],
          fires: [
            {
              time: '2030-03-30T01:30:00.000Z',
              fireAt: '2030-03-30T01:30:12.345Z',
              exception: null,
              dst: null,
            },
            {
              time: '2030-04-01T00:30:00.000Z',
              fireAt: '2030-04-01T00:30:07.021Z',
              exception: null,
              dst: null,
            },
          ],
          skipped: [
            {
              time: '2030-03-31T00:30:00.000Z',
              calendarId: 'de-workdays',
              list: 'only',
              date: '2030-03-31',
              reason: 'WEEKEND',
              label: null,
            },
          ],
          ends: 'maxRuns',
          dst: {
            policy:
              'Quartz: a local time that does not exist (clocks spring forward) is skipped, no fire that day; a local time that exists twice (clocks fall back) fires once, at the second (standard-time) pass.',
            transitions: [
              {
                kind: 'skippedHour',
                at: '2030-03-31T01:00:00.000Z',
                localFrom: '2030-03-31T02:00:00',
                localTo: '2030-03-31T03:00:00',
                offsetBefore: '+01:00',
                offsetAfter: '+02:00',
                matches: 1,
                firstMatches: ['2030-03-31T02:30:00'],
                note: 'The schedule names 1 time in the skipped hour: no fire for it that day (the clocks jump from 2030-03-31T02:00:00 to 2030-03-31T03:00:00).',
              },
            ],
          },
        },
      },
    },
  }),

  // ------------------------------------------------------------------------------------------
  // Runs
  listRuns: defineRoute({
    operationId: 'listRuns',
    method: 'GET',
    path: '/v1/logs',
    tags: ['runs'],
    access: { kind: 'read', target: 'list' },
    query: RunListQuery,
    summary: 'List runs',
    description:
      'Runs (XXL-JOB’s trigger log), newest first, page by page; a page may come back short, with a cursor. Skipped runs (misfires) are listed under their job only; one skipped run may stand for a range of its job’s fires (skippedCount fires, from scheduledTime to skippedUntil).',
    responses: {
      200: {
        description: 'A page of runs.',
        schema: RunPage,
        example: { items: [exampleSkippedRun, exampleRun], nextCursor: null },
      },
    },
  }),
  getRun: defineRoute({
    operationId: 'getRun',
    method: 'GET',
    path: '/v1/logs/{logId}',
    tags: ['runs'],
    access: { kind: 'read', target: 'runPath' },
    params: logIdParams,
    summary: 'Read a run',
    description: 'One run.',
    responses: { 200: { description: 'The run.', schema: Run, example: exampleRun } },
    errors: { 404: 'No run has this logId (or its record expired).' },
  }),
  getRunOutput: defineRoute({
    operationId: 'getRunOutput',
    method: 'GET',
    path: '/v1/logs/{logId}/output',
    tags: ['runs'],
    access: { kind: 'read', target: 'runPath' },
    params: logIdParams,
    query: RunOutputQuery,
    summary: 'Read a run’s log',
    description:
      'Lines of the run’s log from fromLineNum on, read from the executor that ran it (its /log); read on from toLineNum + 1 until isEnd.',
    responses: {
      200: {
        description: 'The lines.',
        schema: RunOutput,
        example: { fromLineNum: 1, toLineNum: 2, logContent: 'start\nreport sent\n', isEnd: true },
      },
    },
    errors: {
      404: 'No run has this logId (or its record expired).',
      409: 'The run has no executor to ask (never sent, refused, skipped) or ran on a Lambda executor (see CloudWatch).',
      502: 'The executor did not answer, or not with a log.',
    },
  }),
  killRun: defineRoute({
    operationId: 'killRun',
    method: 'POST',
    path: '/v1/logs/{logId}/kill',
    tags: ['runs'],
    access: { kind: 'operate', target: 'runPath' },
    audit: { action: 'run.kill', target: 'run' },
    params: logIdParams,
    summary: 'Stop a running run',
    description:
      'Records the run as failed ("killed by user"; not retried, no alarm), then tells its executor (/kill).',
    responses: {
      200: {
        description: 'Killed.',
        schema: KilledRun,
        example: {
          ...exampleRun,
          status: 'fail',
          handleCode: 500,
          handleMsg: 'killed by user',
          executorMsg: '',
        },
      },
    },
    errors: {
      404: 'No run has this logId (or its record expired).',
      409: 'The run has finished, was never accepted by an executor, or ran on a Lambda executor.',
      502: 'The run is recorded as killed, but its executor did not confirm it.',
    },
  }),

  // ------------------------------------------------------------------------------------------
  // Executors and dashboard
  listExecutors: defineRoute({
    operationId: 'listExecutors',
    method: 'GET',
    path: '/v1/executors',
    tags: ['executors'],
    access: { kind: 'read', target: 'list' },
    query: ExecutorsQuery,
    summary: 'List executors',
    description:
      'Each group’s executors with their last heartbeat (an AUTO group’s registrations, a MANUAL group’s addresses), and the executor requests refused in the last day (a wrong or missing token, an app name no group has, a body it cannot read), counted per app name, address and reason.',
    responses: {
      200: {
        description: 'Executors by group, and refused executor requests.',
        schema: Executors,
        example: {
          items: [
            {
              appName: 'my-app',
              title: 'My application',
              addressType: 'AUTO',
              executors: [{ address: 'http://10.0.0.5:9999/', online: true, lastHeartbeat: T0 }],
              refusedRegistrations: 1,
            },
          ],
          refused: [
            {
              appName: 'my-app',
              address: 'http://10.0.0.6:9999/',
              reason: 'wrong-token',
              hint: REFUSAL_HINTS['wrong-token'],
              request: 'registry',
              detail: 'The access token is wrong.',
              count: 42,
              firstSeen: T0,
              lastSeen: T0,
            },
          ],
        },
      },
    },
    errors: { 404: 'No group has the appName asked for.' },
  }),
  dashboard: defineRoute({
    operationId: 'dashboard',
    method: 'GET',
    path: '/v1/dashboard',
    tags: ['executors'],
    access: { kind: 'read', target: 'list' },
    query: DashboardQuery,
    summary: 'Dashboard',
    description:
      'Job and executor counts, and runs per day (running, success, fail) over the last days, with the fires recorded as skipped (misfires and overtaken fires, never sent).',
    responses: {
      200: {
        description: 'The dashboard.',
        schema: Dashboard,
        example: {
          days: 1,
          fromDay: '2030-01-07',
          toDay: '2030-01-07',
          totals: {
            jobs: 12,
            runningJobs: 9,
            runs: 191,
            running: 0,
            success: 190,
            fail: 1,
            skipped: 2,
            onlineExecutors: 3,
          },
          series: [{ day: '2030-01-07', running: 0, success: 190, fail: 1, skipped: 2 }],
        },
      },
    },
  }),

  getActivity: defineRoute({
    operationId: 'getActivity',
    method: 'GET',
    path: '/v1/activity',
    tags: ['executors'],
    access: { kind: 'read', target: 'list' },
    query: ActivityQuery,
    summary: 'Recent activity',
    description:
      'The runs of the last hour (or 6 or 24 hours) per bucket of their scheduled time: how many succeeded, failed and are running, how late they were dispatched (p50, p99), the runs in progress and the last failures; for a live chart. Read from the runs (as GET /v1/logs lists them, skipped runs not among them), at most 5,000, newest first: `truncated` says when there were more. Only the groups the caller sees.',
    responses: {
      200: {
        description: 'The activity.',
        schema: Activity,
        example: {
          window: '1h',
          bucketMs: 60_000,
          from: '2030-01-07T09:01:00.000Z',
          to: '2030-01-07T10:01:00.000Z',
          buckets: [
            {
              start: '2030-01-07T09:01:00.000Z',
              success: 58,
              fail: 1,
              running: 0,
              latenessP50Ms: 3,
              latenessP99Ms: 41,
            },
            {
              start: '2030-01-07T09:02:00.000Z',
              success: 0,
              fail: 0,
              running: 0,
              latenessP50Ms: null,
              latenessP99Ms: null,
            },
          ],
          inProgress: 1,
          lastFailures: [
            {
              logId: 30064771073,
              jobId: 7,
              jobName: 'Nightly report',
              appName: 'my-app',
              handleMsg: 'java.lang.IllegalStateException: report source unavailable',
              handleTime: '2030-01-07T09:01:42.310Z',
              scheduledTime: '2030-01-07T09:01:00.000Z',
            },
          ],
          sampled: 60,
          truncated: false,
        },
      },
    },
  }),

  // ------------------------------------------------------------------------------------------
  // The contract itself
  openApi: defineRoute({
    operationId: 'getOpenApiDocument',
    method: 'GET',
    path: '/v1/openapi.json',
    tags: ['meta'],
    access: { kind: 'public' },
    summary: 'This document',
    description:
      'The OpenAPI 3.1 description of the admin API and the executor-facing XXL-JOB API; no token needed.',
    responses: { 200: { description: 'The document.', schema: OpenApiDocumentSchema } },
  }),
} as const;

/**
 * The admin API's routes: scheduling (groups, jobs, runs, ...), workflows, calendars, people and
 * credentials, the audit log.
 */
export const API = {
  ...SCHEDULING_ROUTES,
  ...OCCURRENCE_ROUTES,
  ...LEDGER_ROUTES,
  ...WORKFLOW_ROUTES,
  ...CALENDAR_ROUTES,
  ...BACKFILL_ROUTES,
  ...ALERT_ROUTES,
  ...IDENTITY_ROUTES,
  ...AUDIT_ROUTES,
} as const;

/** Every route of the table, in its order. */
export const API_ROUTES: readonly AnyApiRoute[] = Object.values(API);
