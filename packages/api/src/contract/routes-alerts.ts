/** The routes of alerting: channels, silences (admin only) and the alert history. */
import { Type } from '@sinclair/typebox';
import { defineRoute } from './define.js';
import {
  AlertChannel,
  AlertChannelCreate,
  AlertChannelList,
  AlertChannelTestResult,
  AlertChannelUpdate,
  AlertIdParam,
  AlertListQuery,
  AlertPage,
  AlertSilence,
  AlertSilenceCreate,
  AlertSilenceList,
} from './schemas-alerts.js';

const idParams = Type.Object({ id: AlertIdParam });
const T0 = '2030-01-01T10:02:00.000Z';
const exampleChannel = {
  id: '5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11',
  name: 'ops webhook',
  kind: 'webhook',
  url: 'https://hooks.example.com/tickring',
  signed: true,
  revision: 1,
  createdAt: T0,
  createdBy: 'ana',
  updatedAt: T0,
};
const exampleSilence = {
  id: '0f6a1d2e-4c3b-4a59-8e7d-6b5a4c3d2e1f',
  jobId: 7,
  kind: 'runFailed',
  from: T0,
  to: '2030-01-01T12:00:00.000Z',
  reason: 'database maintenance',
  createdBy: 'ana',
  createdAt: T0,
};
const exampleAlert = {
  id: '7#runFailed#1893492000000',
  jobId: 7,
  jobName: 'nightly',
  appName: 'orders',
  kind: 'runFailed',
  state: 'sent',
  count: 3,
  summary: 'job 7 (nightly) failed: exit 1',
  logId: 30064771073,
  firstAt: T0,
  lastAt: '2030-01-01T10:09:00.000Z',
  windowEnd: '2030-01-01T10:10:00.000Z',
  deliveries: [
    {
      channelId: exampleChannel.id,
      message: 'first',
      count: 1,
      state: 'delivered',
      attempts: [
        { at: T0, ok: false, status: 502, error: 'HTTP 502' },
        { at: '2030-01-01T10:02:10.000Z', ok: true, status: 200 },
      ],
    },
  ],
  legacy: {
    first: { message: 'first', count: 1, state: 'delivered', attempts: [{ at: T0, ok: true }] },
  },
};

export const ALERT_ROUTES = {
  listAlertChannels: defineRoute({
    operationId: 'listAlertChannels',
    method: 'GET',
    path: '/v1/alert-channels',
    tags: ['alerts'],
    access: { kind: 'admin' },
    summary: 'List alert channels',
    description: 'Every channel, by id; a webhook’s secret only as `signed`.',
    responses: {
      200: { description: 'The channels.', schema: AlertChannelList, example: { items: [exampleChannel] } },
    },
  }),
  createAlertChannel: defineRoute({
    operationId: 'createAlertChannel',
    method: 'POST',
    path: '/v1/alert-channels',
    tags: ['alerts'],
    access: { kind: 'admin' },
    audit: { action: 'alertChannel.create', target: 'alertChannel', idFrom: 'result' },
    summary: 'Create an alert channel',
    description:
      'A webhook (optionally templated and HMAC-signed), a Slack-compatible incoming webhook, or email through the alarm topic. Every problem is answered at once (400). A webhook’s secret is sealed and never shown again.',
    body: {
      schema: AlertChannelCreate,
      required: true,
      checkedBy: 'use-case',
      description: 'The channel.',
      examples: {
        webhook: {
          summary: 'A signed webhook with its own body',
          value: {
            name: 'ops webhook',
            kind: 'webhook',
            url: 'https://hooks.example.com/tickring',
            bodyTemplate: '{"job":{{ job.id }},"text":"{{ text }}"}',
            secret: 'a-long-random-shared-secret',
          },
        },
        slack: {
          summary: 'Slack',
          value: { name: 'chat', kind: 'slack', url: 'https://hooks.slack.com/services/T/B/X' },
        },
      },
    },
    responses: { 201: { description: 'Created.', schema: AlertChannel, example: exampleChannel } },
  }),
  updateAlertChannel: defineRoute({
    operationId: 'updateAlertChannel',
    method: 'PATCH',
    path: '/v1/alert-channels/{id}',
    tags: ['alerts'],
    access: { kind: 'admin' },
    audit: { action: 'alertChannel.update', target: 'alertChannel' },
    params: idParams,
    summary: 'Change an alert channel',
    description:
      'Lays the fields given over the channel and checks the result as a whole, every problem at once (400). Its secret is kept unless a new one is given (sealed, never answered) or null (no longer signed); its kind cannot change. Alerts not yet delivered go out as the channel now is.',
    body: {
      schema: AlertChannelUpdate,
      required: true,
      checkedBy: 'use-case',
      description: 'The fields to change.',
      examples: {
        url: { summary: 'A new address', value: { url: 'https://hooks.example.com/tickring-v2' } },
        rotate: {
          summary: 'A new secret, only if nobody changed it since revision 1',
          value: { secret: 'another-long-random-shared-secret', revision: 1 },
        },
      },
    },
    responses: {
      200: {
        description: 'The channel as changed.',
        schema: AlertChannel,
        example: { ...exampleChannel, url: 'https://hooks.example.com/tickring-v2', revision: 2 },
      },
    },
    errors: {
      404: 'No channel has this id.',
      409: 'The body’s revision is not the channel’s, or the channel changed meanwhile: read it again.',
    },
  }),
  testAlertChannel: defineRoute({
    operationId: 'testAlertChannel',
    method: 'POST',
    path: '/v1/alert-channels/{id}/test',
    tags: ['alerts'],
    access: { kind: 'admin' },
    params: idParams,
    summary: 'Send a test message through an alert channel',
    description:
      'One message at once, made and sent by the delivery code itself (the body template rendered over a test alert — `alert.kind` and `alert.message` "test", job 0 —, signed with the secret, as Slack JSON, or published to the alarm topic), and what happened: delivered, or the receiver’s HTTP status and the error (still a 200: the test ran). Not retried; no alert is recorded.',
    responses: {
      200: {
        description: 'What the message met.',
        schema: AlertChannelTestResult,
        example: { channelId: exampleChannel.id, kind: 'webhook', delivered: true, at: T0, status: 200 },
      },
    },
    errors: { 404: 'No channel has this id.' },
  }),
  deleteAlertChannel: defineRoute({
    operationId: 'deleteAlertChannel',
    method: 'DELETE',
    path: '/v1/alert-channels/{id}',
    tags: ['alerts'],
    access: { kind: 'admin' },
    audit: { action: 'alertChannel.delete', target: 'alertChannel' },
    params: idParams,
    summary: 'Delete an alert channel',
    description:
      'Refused (409) while a job or a group names it in its alertChannels, naming them (a check that reads every job and group).',
    responses: { 204: { description: 'Deleted.' } },
    errors: {
      404: 'No channel has this id.',
      409: 'A job or a group names it: take it out of their alertChannels first.',
    },
  }),
  listAlertSilences: defineRoute({
    operationId: 'listAlertSilences',
    method: 'GET',
    path: '/v1/alert-silences',
    tags: ['alerts'],
    access: { kind: 'admin' },
    summary: 'List silences',
    description: 'Every silence, past ones included until deleted.',
    responses: {
      200: { description: 'The silences.', schema: AlertSilenceList, example: { items: [exampleSilence] } },
    },
  }),
  createAlertSilence: defineRoute({
    operationId: 'createAlertSilence',
    method: 'POST',
    path: '/v1/alert-silences',
    tags: ['alerts'],
    access: { kind: 'admin' },
    audit: { action: 'alertSilence.create', target: 'alertSilence', idFrom: 'result' },
    summary: 'Silence alerts for a while',
    description:
      'Alerts matching it between from and to are recorded (state `silenced`) and sent nowhere: not to channels, not on the job’s own alarm path (alarmEmail / alarmWebhook). Every problem is answered at once (400).',
    body: {
      schema: AlertSilenceCreate,
      required: true,
      checkedBy: 'use-case',
      description: 'The silence.',
      examples: {
        job: {
          summary: 'A job’s failures during maintenance',
          value: {
            jobId: 7,
            kind: 'runFailed',
            to: '2030-01-01T12:00:00.000Z',
            reason: 'database maintenance',
          },
        },
      },
    },
    responses: { 201: { description: 'Created.', schema: AlertSilence, example: exampleSilence } },
  }),
  deleteAlertSilence: defineRoute({
    operationId: 'deleteAlertSilence',
    method: 'DELETE',
    path: '/v1/alert-silences/{id}',
    tags: ['alerts'],
    access: { kind: 'admin' },
    audit: { action: 'alertSilence.delete', target: 'alertSilence' },
    params: idParams,
    summary: 'End a silence',
    description: 'Deletes it: alerts from now on are sent.',
    responses: { 204: { description: 'Deleted.' } },
    errors: { 404: 'No silence has this id.' },
  }),
  listAlerts: defineRoute({
    operationId: 'listAlerts',
    method: 'GET',
    path: '/v1/alerts',
    tags: ['alerts'],
    access: { kind: 'admin' },
    query: AlertListQuery,
    summary: 'The alert history',
    description:
      'Alerts newest first: one per (job, kind) condition and 10-minute window with its count, sent / silenced / unrouted, each delivery with its attempts, and a failed workflow run’s workflow. Filtered by job, kind, state and time; a page may hold fewer alerts than `limit` (even none) while `nextCursor` says more may follow.',
    responses: {
      200: {
        description: 'A page of alerts.',
        schema: AlertPage,
        example: { items: [exampleAlert], nextCursor: null },
      },
    },
  }),
} as const;
