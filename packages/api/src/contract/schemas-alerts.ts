/**
 * The shapes of alert channels, silences and the alert history. A channel's and a silence's body are
 * checked by their use-case (every problem at once); the schemas document them and type the client.
 */
import { type SchemaOptions, Type } from '@sinclair/typebox';
import {
  ALERT_CHANNEL_KINDS,
  ALERT_CHANNEL_LIMITS,
  ALERT_STATES,
  DELIVERY_STATES,
} from '@tickring/core/alerts';
import { ALARM_KINDS } from '@tickring/core/runs';
import { named, StringEnum } from './kit.js';
import { Cursor, Instant, iso, Limit, NextCursor } from './schemas-common.js';

export const AlertIdParam = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The id.',
  examples: ['3f0c…'],
});

export const AlertChannelCreate = named(
  'AlertChannelCreate',
  Type.Object(
    {
      name: Type.String({
        maxLength: ALERT_CHANNEL_LIMITS.name,
        description: 'Its name, for people.',
        examples: ['ops webhook'],
      }),
      kind: StringEnum(ALERT_CHANNEL_KINDS, {
        description: 'webhook, slack (incoming-webhook JSON) or email (the alarm topic).',
        examples: ['webhook'],
      }),
      url: Type.Optional(
        Type.String({
          maxLength: ALERT_CHANNEL_LIMITS.url,
          description: 'webhook and slack: where to POST.',
          examples: ['https://hooks.example.com/tickring'],
        }),
      ),
      bodyTemplate: Type.Optional(
        Type.String({
          maxLength: ALERT_CHANNEL_LIMITS.bodyTemplate,
          description:
            'webhook: the body, with `{{ path }}` placeholders over the alert’s fields (`text`, `alert.kind`, `alert.count`, `alert.firstAt`, `job.id`, `job.name`, `job.appName`, `workflow.name`, `workflow.runId` (`workflow` is null on a job’s alert), …); absent: the alert as JSON.',
          examples: ['{"job":{{ job.id }},"text":"{{ text }}"}'],
        }),
      ),
      secret: Type.Optional(
        Type.String({
          minLength: ALERT_CHANNEL_LIMITS.secretMin,
          maxLength: ALERT_CHANNEL_LIMITS.secretMax,
          description:
            'webhook: signs each body (`X-Tickring-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "<t>.<body>">`); stored sealed, never answered.',
          examples: ['a-long-random-shared-secret'],
        }),
      ),
    },
    { additionalProperties: false, description: 'A new alert channel.' },
  ),
);

const nullable = (schema: ReturnType<typeof Type.String>, description: string, example: unknown) =>
  Type.Optional(Type.Union([schema, Type.Null()], { description, examples: [example] }));

export const AlertChannelUpdate = named(
  'AlertChannelUpdate',
  Type.Object(
    {
      name: Type.Optional(
        Type.String({ maxLength: ALERT_CHANNEL_LIMITS.name, description: 'Its name.', examples: ['ops'] }),
      ),
      kind: Type.Optional(
        StringEnum(ALERT_CHANNEL_KINDS, {
          description: 'Cannot change: sent back as read, it must be the channel’s kind.',
          examples: ['webhook'],
        }),
      ),
      url: nullable(
        Type.String({ maxLength: ALERT_CHANNEL_LIMITS.url }),
        'webhook and slack: where to POST (a webhook and a slack channel need one).',
        'https://hooks.example.com/tickring-v2',
      ),
      bodyTemplate: nullable(
        Type.String({ maxLength: ALERT_CHANNEL_LIMITS.bodyTemplate }),
        'webhook: the body template; null: the alert as JSON.',
        '{"text":"{{ text }}"}',
      ),
      secret: nullable(
        Type.String({ minLength: ALERT_CHANNEL_LIMITS.secretMin, maxLength: ALERT_CHANNEL_LIMITS.secretMax }),
        'webhook: a new HMAC secret (sealed, never answered); absent: the secret is kept; null: bodies are no longer signed.',
        'another-long-random-shared-secret',
      ),
      revision: Type.Optional(
        Type.Integer({
          minimum: 1,
          description: 'The revision read: the change is refused (409) when the channel moved on since.',
          examples: [1],
        }),
      ),
    },
    {
      additionalProperties: false,
      description:
        'The fields to change, laid over the channel and checked as a whole. A channel’s kind cannot change.',
    },
  ),
);

/** A field's schema options: what it is, with an example. */
const about = (description: string, example: unknown): SchemaOptions => ({
  description,
  examples: [example],
});
const CHANNEL_ID = '5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11';
const SILENCE_ID = '0f6a1d2e-4c3b-4a59-8e7d-6b5a4c3d2e1f';

export const AlertChannel = named(
  'AlertChannel',
  Type.Object(
    {
      id: Type.String(about('The channel’s id.', CHANNEL_ID)),
      name: Type.String(about('Its name.', 'ops webhook')),
      kind: StringEnum(ALERT_CHANNEL_KINDS, about('webhook, slack or email.', 'webhook')),
      url: Type.Optional(Type.String(about('Where it POSTs.', 'https://hooks.example.com/tickring'))),
      bodyTemplate: Type.Optional(Type.String(about('Its body template.', '{"text":"{{ text }}"}'))),
      signed: Type.Boolean(about('Whether it signs its bodies (its secret is never shown).', true)),
      revision: Type.Integer(about('Moves with each change.', 1)),
      createdAt: Instant(iso('When it was created')),
      createdBy: Type.String(about('Who created it.', 'ana')),
      updatedAt: Instant(iso('When it last changed')),
    },
    { additionalProperties: false },
  ),
);

export const AlertChannelList = named(
  'AlertChannelList',
  Type.Object(
    { items: Type.Array(AlertChannel, { description: 'Every channel, by id.', examples: [[]] }) },
    { additionalProperties: false },
  ),
);

export const AlertChannelTestResult = named(
  'AlertChannelTestResult',
  Type.Object(
    {
      channelId: Type.String(about('The channel.', CHANNEL_ID)),
      kind: StringEnum(ALERT_CHANNEL_KINDS, about('Its kind.', 'webhook')),
      delivered: Type.Boolean(
        about('Whether the receiver took it (a 2xx answer; email: published to the topic).', true),
      ),
      at: Instant(iso('When it was sent')),
      status: Type.Optional(Type.Integer(about('The HTTP status the receiver answered.', 200))),
      error: Type.Optional(Type.String(about('Why it was not delivered.', 'HTTP 401'))),
    },
    {
      additionalProperties: false,
      description: 'What one test message through the channel met.',
    },
  ),
);

const MATCH = {
  jobId: Type.Optional(Type.Integer({ minimum: 1, ...about('Matches this job’s alerts.', 7) })),
  appName: Type.Optional(Type.String(about('Matches the alerts of this group’s jobs.', 'orders'))),
  kind: Type.Optional(StringEnum(ALARM_KINDS, about('Matches alerts of this kind.', 'runFailed'))),
};

export const AlertSilenceCreate = named(
  'AlertSilenceCreate',
  Type.Object(
    {
      ...MATCH,
      from: Type.Optional(Instant(iso('When it starts; absent: now'))),
      to: Instant(iso('When it ends')),
      reason: Type.String({ maxLength: 500, ...about('Why.', 'database maintenance') }),
    },
    {
      additionalProperties: false,
      description:
        'Alerts matching every field given (at least one of jobId, appName, kind) are recorded, not sent, between from and to.',
    },
  ),
);

export const AlertSilence = named(
  'AlertSilence',
  Type.Object(
    {
      id: Type.String(about('The silence’s id.', SILENCE_ID)),
      ...MATCH,
      from: Instant(iso('When it starts')),
      to: Instant(iso('When it ends')),
      reason: Type.String(about('Why.', 'database maintenance')),
      createdBy: Type.String(about('Who created it.', 'ana')),
      createdAt: Instant(iso('When it was created')),
    },
    { additionalProperties: false },
  ),
);

export const AlertSilenceList = named(
  'AlertSilenceList',
  Type.Object(
    { items: Type.Array(AlertSilence, { description: 'Every silence, by id.', examples: [[]] }) },
    { additionalProperties: false },
  ),
);

const Attempt = Type.Object(
  {
    at: Instant(iso('When it was made')),
    ok: Type.Boolean(about('Whether the receiver took it (a 2xx answer; email: published).', true)),
    status: Type.Optional(Type.Integer(about('The HTTP status answered.', 200))),
    error: Type.Optional(Type.String(about('Why it failed.', 'HTTP 502'))),
  },
  { additionalProperties: false, description: 'One delivery attempt.' },
);

const MESSAGE_PROGRESS = {
  message: StringEnum(
    ['first', 'summary'] as const,
    about('The first alarm, or the window’s count.', 'first'),
  ),
  count: Type.Integer(about('Alarms counted in the message.', 1)),
  state: StringEnum(
    DELIVERY_STATES,
    about('pending, delivered, or failed after its last attempt.', 'delivered'),
  ),
  attempts: Type.Array(Attempt, {
    description: 'Its attempts, oldest first (at most 3).',
    examples: [[{ at: '2030-01-01T10:02:00.000Z', ok: true, status: 200 }]],
  }),
  nextAttemptAt: Type.Optional(Instant(iso('The next attempt, while pending'))),
};

const Delivery = Type.Object(
  { channelId: Type.String(about('The channel.', CHANNEL_ID)), ...MESSAGE_PROGRESS },
  { additionalProperties: false, description: 'One message of the alert to one channel.' },
);

const Legacy = Type.Object(
  {
    first: Type.Object(MESSAGE_PROGRESS, {
      additionalProperties: false,
      description: 'The window’s first alarm on the job’s own path.',
      examples: [{ message: 'first', count: 1, state: 'delivered', attempts: [] }],
    }),
    summary: Type.Optional(
      Type.Object(MESSAGE_PROGRESS, {
        additionalProperties: false,
        description: 'The window’s count on the job’s own path, once the window closed.',
        examples: [{ message: 'summary', count: 3, state: 'pending', attempts: [] }],
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'The job’s own alarm path (alarmEmail / alarmWebhook: the alarm topic or log, and its webhook), grouped too: the window’s first alarm at once (made by the alarm itself; a failed one again by the window’s next alarm, at most 3 attempts), then the window’s count once it closed, when it counted more than one.',
    examples: [
      {
        first: {
          message: 'first',
          count: 1,
          state: 'delivered',
          attempts: [{ at: '2030-01-01T10:02:00.000Z', ok: true }],
        },
      },
    ],
  },
);

const STATE_WORDS =
  'sent: routed to its channels; silenced: a silence matched (nothing sent, on the job’s own alarm path neither); unrouted: neither the job nor its group names a channel.';

const AlertWorkflow = Type.Object(
  {
    id: Type.Integer(about('The workflow.', 3)),
    name: Type.String(about('Its name.', 'nightly-etl')),
    runId: Type.Optional(
      Type.String(
        about(
          'The workflow run that failed; absent for an alert about the workflow itself (a missed deadline, a fire its schedule owed).',
          'wr-m5x8k2a1-3f9c1d2e6b8a',
        ),
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'A workflow’s alert: a failed run’s (the job is its first failed node’s), or the workflow’s own (its schedule job’s).',
    examples: [{ id: 3, name: 'nightly-etl', runId: 'wr-m5x8k2a1-3f9c1d2e6b8a' }],
  },
);

export const AlertRecord = named(
  'Alert',
  Type.Object(
    {
      id: Type.String(about('The job, kind and window.', '7#runFailed#1893492000000')),
      jobId: Type.Integer(about('The job.', 7)),
      jobName: Type.String(about('The job’s name.', 'nightly')),
      appName: Type.String(about('The job’s group.', 'orders')),
      kind: StringEnum(ALARM_KINDS, about('What the alarms are about.', 'runFailed')),
      state: StringEnum(ALERT_STATES, about(STATE_WORDS, 'sent')),
      silenceId: Type.Optional(Type.String(about('The silence that matched.', SILENCE_ID))),
      count: Type.Integer(about('Alarms of the condition in its window.', 3)),
      summary: Type.String(about('The first alarm’s line.', 'job 7 (nightly) failed: exit 1')),
      logId: Type.Optional(Type.Integer(about('The first alarm’s run.', 30064771073))),
      workflow: Type.Optional(AlertWorkflow),
      firstAt: Instant(iso('The first alarm')),
      lastAt: Instant(iso('The last alarm')),
      windowEnd: Instant(iso('When its window closes')),
      deliveries: Type.Array(Delivery, { description: 'Its messages to its channels.', examples: [[]] }),
      legacy: Type.Optional(Legacy),
    },
    { additionalProperties: false },
  ),
);

export const AlertPage = named(
  'AlertPage',
  Type.Object(
    {
      items: Type.Array(AlertRecord, { description: 'Alerts, newest first.', examples: [[]] }),
      nextCursor: NextCursor,
    },
    { additionalProperties: false },
  ),
);

export const AlertListQuery = Type.Object(
  {
    jobId: Type.Optional(Type.Integer({ minimum: 1, ...about('Only this job’s.', 7) })),
    kind: Type.Optional(StringEnum(ALARM_KINDS, about('Only this kind.', 'runFailed'))),
    state: Type.Optional(StringEnum(ALERT_STATES, about(`Only this state. ${STATE_WORDS}`, 'silenced'))),
    from: Type.Optional(Instant(iso('Alerts first raised at or after'))),
    to: Type.Optional(Instant(iso('…and before'))),
    limit: Limit,
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);
