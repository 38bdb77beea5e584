/**
 * The admin API's shapes: request bodies, parameters and answers, each field with its description
 * and examples. Limits and value lists come from the domain's constants (JOB_LIMITS, GROUP_LIMITS,
 * the enum arrays), so a structural rule and the domain's rule are one definition. Checks that need
 * more than the shape (a cron that parses, a time zone that exists, a group that exists, e-mail and
 * URL formats, child cycles) stay in the domain and come back as 400s with one problem.
 */
import { type Static, type TOptional, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import {
  ACTIVITY_LAST_FAILURES,
  ACTIVITY_WINDOW_NAMES,
  DEFAULT_ACTIVITY_WINDOW,
} from '@tickring/core/activity';
import {
  ACTIVITY_FAILURE_MSG_MAX,
  ACTIVITY_MAX_RUNS,
  DASHBOARD_DAYS,
} from '@tickring/core/activity/use-cases';
import { ROUTE_STRATEGIES, TRIGGER_TYPES } from '@tickring/core/dispatch';
import { GROUP_TOKEN_LIMITS } from '@tickring/core/executors/use-cases';
import {
  ADDRESS_TYPES,
  BLOCK_STRATEGIES,
  GLUE_TYPES,
  type GROUP_EDITABLE_FIELDS,
  GROUP_LIMITS,
  type GROUP_READ_ONLY_FIELDS,
  JOB_DEFAULTS,
  type JOB_EDITABLE_FIELDS,
  JOB_FIELD_ALIASES,
  JOB_LIMITS,
  type JOB_READ_ONLY_FIELDS,
  TRIGGER_STATUSES,
} from '@tickring/core/jobs';
import { RUN_STATUSES } from '@tickring/core/runs';
import { MISFIRE_STRATEGIES, SCHEDULE_TYPES } from '@tickring/core/schedule';
import { annotate, defaulted, Expect, Noun, named, StringEnum } from './kit.js';

type JobField = (typeof JOB_EDITABLE_FIELDS)[number];
type GroupField = (typeof GROUP_EDITABLE_FIELDS)[number];

const ADDRESS_WORDS = 'http(s) URLs or lambda:<function>';

// ---------------------------------------------------------------------------------------------
// Common

export const Instant = (description: string, example = '2030-01-01T02:00:00.000Z') =>
  Type.String({ format: 'date-time', description, examples: [example] });
export const InstantOrNull = (description: string, example = '2030-01-01T02:00:00.000Z') =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description, examples: [example, null] });

export const Cursor = Type.String({
  description: 'Where the next page starts: the `nextCursor` of the previous page, as it was given.',
  examples: ['eyJpZCI6NDJ9'],
});
export const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description:
    'Pass it as `cursor` for the next page; null at the end. A page may come back short (even empty) with a cursor.',
  examples: ['eyJpZCI6NDJ9', null],
});

/** Page sizes of the list routes. */
export const PAGE_LIMIT = { min: 1, max: 100, default: 20 } as const;
export const Limit = defaulted(
  Type.Integer({
    minimum: PAGE_LIMIT.min,
    maximum: PAGE_LIMIT.max,
    description: 'Most items on one page.',
    examples: [20],
  }),
  PAGE_LIMIT.default,
);

// ---------------------------------------------------------------------------------------------
// Errors

export const Problem = named(
  'Problem',
  Type.Object(
    {
      field: Type.Optional(
        Type.String({
          description:
            'The path or query parameter, or the top-level body field, the problem is about (`body` for the body as a whole).',
          examples: ['scheduleType'],
        }),
      ),
      message: Type.String({
        description: 'What is wrong: names the field, what is expected and what was given.',
        examples: ['scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got "HOURLY"'],
      }),
    },
    { additionalProperties: false, description: 'One problem of a request.' },
  ),
);

export const ErrorBody = named(
  'Error',
  Type.Object(
    {
      error: Type.String({
        description:
          'The kind of error: ValidationError (400), UnauthorizedError (401), ForbiddenError (403), NotFoundError (404), MethodNotAllowedError (405), ConflictError (409), TooManyRequestsError (429, with Retry-After), ExecutorCallError (502), InternalError (500).',
        examples: ['NotFoundError'],
      }),
      message: Type.String({
        description: 'What is wrong, for a person.',
        examples: ['job 7 does not exist'],
      }),
      field: Type.Optional(
        Type.String({ description: 'ValidationError: the first problem’s field.', examples: ['limit'] }),
      ),
      problems: Type.Optional(
        Type.Array(Problem, { description: 'ValidationError: every problem found.', examples: [] }),
      ),
    },
    { additionalProperties: false, description: 'Every error answer of the admin API.' },
  ),
);

export const ValidationErrorBody = named(
  'ValidationError',
  Type.Object(
    {
      error: StringEnum(['ValidationError'], {
        description: 'Always ValidationError.',
        examples: ['ValidationError'],
      }),
      message: Type.String({
        description: 'Every problem’s message, joined by "; ".',
        examples: [
          'limit must be an integer between 1 and 100; got "ten"; status must be one of running, success, fail, skipped; got "done"',
        ],
      }),
      field: Type.Optional(Type.String({ description: 'The first problem’s field.', examples: ['limit'] })),
      problems: Type.Array(Problem, {
        description:
          'Every problem found: all structural ones (types, required fields, value lists, lengths, unknown fields) of the path, query and body together; or the one a later check (a cron that does not parse, a group that does not exist, ...) found.',
        examples: [[{ field: 'limit', message: 'limit must be an integer between 1 and 100; got "ten"' }]],
      }),
    },
    { additionalProperties: false, description: 'A request that is not valid (400).' },
  ),
);

// ---------------------------------------------------------------------------------------------
// Path parameters

export const JobIdParam = Type.Integer({ minimum: 1, description: 'The job’s id.', examples: [7] });
export const LogIdParam = Type.Integer({
  minimum: 1,
  description: 'The run’s logId (jobId × 2^32 + n).',
  examples: [30064771073],
});
export const AppNameParam = Type.String({
  description: 'The executor group’s AppName.',
  examples: ['my-app'],
});

// ---------------------------------------------------------------------------------------------
// Jobs

const nonNegative = (description: string, example: number) =>
  Type.Integer({ minimum: 0, description, examples: [example] });

/** One schema per field an admin sets; the request bodies and the job view are made of them. */
const JOB_FIELDS = {
  appName: Type.String({
    maxLength: JOB_LIMITS.appName,
    description: 'The executor group (its AppName) whose executors run the job; the group must exist.',
    examples: ['my-app'],
  }),
  name: Type.String({
    maxLength: JOB_LIMITS.name,
    description: 'What the job does (XXL-JOB’s jobDesc); not blank.',
    examples: ['Nightly report'],
  }),
  author: Type.String({
    maxLength: JOB_LIMITS.author,
    description: 'Who owns the job; not blank.',
    examples: ['ops'],
  }),
  alarmEmail: Type.String({
    maxLength: JOB_LIMITS.alarmEmail,
    description: 'E-mail addresses to alarm when a run fails for good, separated by commas; empty for none.',
    examples: ['ops@example.com,oncall@example.com'],
  }),
  alarmWebhook: Type.String({
    maxLength: JOB_LIMITS.alarmWebhook,
    description: 'An http(s) URL the failed run is POSTed to when its last retry fails; empty for none.',
    examples: ['https://hooks.example.com/tickring'],
  }),
  scheduleType: StringEnum(SCHEDULE_TYPES, {
    description:
      'NONE: runs only when triggered (manually, by the API, as a child); CRON: scheduleConf is a Quartz cron; FIX_RATE: scheduleConf is seconds between fires; ONCE: scheduleConf is an ISO-8601 instant. Required when scheduleConf is given.',
    examples: ['CRON'],
  }),
  scheduleConf: Type.String({
    maxLength: JOB_LIMITS.scheduleConf,
    description:
      'The schedule, read by scheduleType: a Quartz cron (`0 0 2 * * ?`), whole seconds >= 1 (`30`), or an instant with a zone (`2030-06-01T12:00:00Z`); empty for NONE.',
    examples: ['0 0 2 * * ?'],
  }),
  timeZone: Type.String({
    maxLength: JOB_LIMITS.timeZone,
    description: 'The IANA time zone a cron is read in.',
    examples: ['Europe/Berlin'],
  }),
  misfireStrategy: StringEnum(MISFIRE_STRATEGIES, {
    description:
      'A scheduled fire that comes more than 5 s late: DO_NOTHING records it as a skipped run; FIRE_ONCE_NOW runs one catch-up.',
    examples: ['DO_NOTHING'],
  }),
  executorRouteStrategy: StringEnum(ROUTE_STRATEGIES, {
    description: 'How a run picks its executor among the group’s (XXL-JOB’s strategies).',
    examples: ['ROUND'],
  }),
  executorHandler: Type.String({
    maxLength: JOB_LIMITS.executorHandler,
    description: 'The handler the executor runs; required when glueType is BEAN.',
    examples: ['demoJobHandler'],
  }),
  executorParam: Type.String({
    maxLength: JOB_LIMITS.executorParam,
    description: 'The parameter the handler gets.',
    examples: ['region=eu'],
  }),
  executorBlockStrategy: StringEnum(BLOCK_STRATEGIES, {
    description: 'What an executor does with a run while the job’s previous one is still running.',
    examples: ['SERIAL_EXECUTION'],
  }),
  executorTimeout: nonNegative('Seconds a run may take before the executor stops it; 0 for no timeout.', 0),
  executorFailRetryCount: nonNegative('How often a failed run is tried again.', 2),
  retryBackoffSeconds: nonNegative('Seconds before the first retry; doubled for each further one.', 10),
  glueType: StringEnum(GLUE_TYPES, {
    description: 'BEAN: a handler registered in the executor; GLUE_*: glueSource is the code to run.',
    examples: ['BEAN'],
  }),
  glueSource: Type.String({
    maxLength: JOB_LIMITS.glueSource,
    description: 'The script of a GLUE job.',
    examples: ['echo "hello"'],
  }),
  childJobIds: Type.Array(Type.Integer({ minimum: 1, description: 'A job id.', examples: [8] }), {
    maxItems: JOB_LIMITS.childJobIds,
    description:
      'Jobs triggered when a run of this one succeeds; each must exist, no cycles, not the job itself.',
    examples: [[8, 9]],
  }),
  triggerStatus: StringEnum(TRIGGER_STATUSES, {
    description: 'RUNNING: scheduled; STOPPED: fires only when triggered.',
    examples: ['STOPPED'],
  }),
} satisfies { readonly [K in JobField]: TSchema };

/** XXL-JOB's names for job fields, taken in requests (never shown in answers). */
const JOB_ALIASES = {
  jobDesc: Type.String({
    maxLength: JOB_LIMITS.name,
    description: 'XXL-JOB’s name for `name`; give one of the two (or both, equal).',
    examples: ['Nightly report'],
  }),
  jobGroup: annotate(
    Type.String({
      maxLength: JOB_LIMITS.appName,
      description:
        'XXL-JOB’s name for `appName`: the group’s AppName (XXL-JOB’s numeric group id means nothing here); give one of the two (or both, equal).',
      examples: ['my-app'],
    }),
    {
      [Expect]: `the group’s appName, a string of at most ${JOB_LIMITS.appName} characters (XXL-JOB’s numeric group id has no meaning here)`,
    },
  ),
  childJobId: annotate(
    Type.Union(
      [
        Type.String({ description: 'Job ids separated by commas.', examples: ['8,9'] }),
        Type.Array(Type.Integer({ minimum: 1 })),
      ],
      {
        description: 'XXL-JOB’s name for `childJobIds`: job ids separated by commas (an array is taken too).',
        examples: ['8,9'],
      },
    ),
    { [Expect]: 'job ids separated by commas (e.g. "8,9") or an array of them' },
  ),
} satisfies { readonly [K in keyof typeof JOB_FIELD_ALIASES]: TSchema };

/** Read-only fields a body may carry (a job read with GET sent back with PUT): ignored, but `id` and `version` are checked. */
const JOB_READ_ONLY = {
  id: Type.Unknown({
    readOnly: true,
    description: 'Read-only. On PUT, when given, it must be the id in the path.',
    examples: [7],
  }),
  version: Type.Unknown({
    readOnly: true,
    description:
      'Read-only. On PUT, when given, it must be the job’s current version, or the answer is 409 (optimistic concurrency).',
    examples: [3],
  }),
  triggerNextTime: readOnlyEcho(),
  triggerLastTime: readOnlyEcho(),
  glueUpdatetime: readOnlyEcho(),
  scheduleRevision: readOnlyEcho(1),
  createdAt: readOnlyEcho(),
  updatedAt: readOnlyEcho(),
  workflowId: readOnlyEcho(null),
} satisfies { readonly [K in (typeof JOB_READ_ONLY_FIELDS)[number]]: TSchema };

function readOnlyEcho(example: unknown = '2030-01-01T02:00:00.000Z'): TSchema {
  return Type.Unknown({
    readOnly: true,
    description: 'Read-only: shown in answers; a body may carry it (as read) and it is ignored.',
    examples: [example],
  });
}

/** Each property optional (with a default, for the document, where one is given). */
function optional<P extends TProperties>(
  properties: P,
  defaults: { readonly [K in keyof P]?: unknown } = {},
): { [K in keyof P]: TOptional<P[K]> } {
  const out: Record<string, TSchema> = {};
  for (const [key, schema] of Object.entries(properties)) {
    const value = defaults[key as keyof P];
    out[key] = Type.Optional(value === undefined ? schema : { ...schema, default: value });
  }
  return out as { [K in keyof P]: TOptional<P[K]> };
}

/** On create, each of these (or its XXL-JOB alias) must be given. */
const JOB_REQUIRED_ON_CREATE = ['appName', 'name', 'author'] as const satisfies readonly JobField[];

const aliasesOf = (field: JobField): string[] =>
  Object.entries(JOB_FIELD_ALIASES)
    .filter(([, f]) => f === field)
    .map(([alias]) => alias);

export const JobCreate = named(
  'JobCreate',
  annotate(
    Type.Object(
      {
        ...optional(JOB_FIELDS, JOB_DEFAULTS),
        // The one required field without an alias; the others: see allOf.
        author: JOB_FIELDS.author,
        ...optional(JOB_ALIASES),
        ...optional(JOB_READ_ONLY),
      },
      {
        additionalProperties: false,
        description:
          'A new job: appName (or jobGroup), name (or jobDesc) and author are required; the rest has XXL-JOB’s defaults. Unknown fields are refused.',
        // A field or its alias: the validator reads this too (see `missingAlternatives`).
        allOf: JOB_REQUIRED_ON_CREATE.filter((field) => aliasesOf(field).length > 0).map((field) => ({
          anyOf: [field, ...aliasesOf(field)].map((name) => ({ required: [name] })),
        })),
      },
    ),
    { [Noun]: 'job' },
  ),
);

export const JobUpdate = named(
  'JobUpdate',
  annotate(
    Type.Object(
      { ...optional(JOB_FIELDS), ...optional(JOB_ALIASES), ...optional(JOB_READ_ONLY) },
      {
        additionalProperties: false,
        description:
          'The fields to change, laid over the job (a job read with GET may be sent back whole: read-only fields are ignored). The result is checked as a whole. Unknown fields are refused.',
      },
    ),
    { [Noun]: 'job' },
  ),
);

/** A time field's description: what it is, and that it is ISO-8601 UTC. */
export const iso = (field: string) => `${field}, ISO-8601 UTC.`;

export const Job = named(
  'Job',
  Type.Object(
    {
      id: Type.Integer({ minimum: 1, description: 'The job’s id.', examples: [7] }),
      ...JOB_FIELDS,
      triggerNextTime: InstantOrNull(
        'The next scheduled fire while RUNNING, ISO-8601 UTC; null when stopped.',
      ),
      triggerLastTime: InstantOrNull(
        'The last fire handed to the ring, ISO-8601 UTC; null before the first.',
      ),
      glueUpdatetime: Instant(iso('When the glue (type or source) last changed')),
      scheduleRevision: Type.Integer({
        minimum: 1,
        description: 'Moves on with every change of the schedule or the trigger status.',
        examples: [1],
      }),
      version: Type.Integer({
        minimum: 1,
        description: 'Moves on with every write; send it back in a PUT to refuse (409) a lost update.',
        examples: [1],
      }),
      workflowId: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
        description:
          'Set on the job whose schedule starts a workflow (its schedule job, managed by the workflow): the job routes refuse to change, start, stop or delete it (409); change the workflow instead. null for any other job.',
        examples: [null, 3],
      }),
      createdAt: Instant(iso('When the job was created')),
      updatedAt: Instant(iso('When the job last changed')),
    },
    { additionalProperties: false, description: 'A job, with XXL-JOB’s field names.' },
  ),
);

export const JobPage = named(
  'JobPage',
  Type.Object(
    {
      items: Type.Array(Job, { description: 'Jobs in id order.', examples: [] }),
      nextCursor: NextCursor,
    },
    { additionalProperties: false, description: 'A page of jobs.' },
  ),
);

export const JobListQuery = Type.Object({
  appName: Type.Optional(
    Type.String({ description: 'Only the jobs of this executor group.', examples: ['my-app'] }),
  ),
  triggerStatus: Type.Optional(
    StringEnum(TRIGGER_STATUSES, {
      description: 'Only running or only stopped jobs.',
      examples: ['RUNNING'],
    }),
  ),
  limit: Limit,
  cursor: Type.Optional(Cursor),
});

export const TriggerBody = named(
  'TriggerRequest',
  annotate(
    Type.Object(
      {
        executorParam: Type.Optional(
          Type.Union([Type.String({ maxLength: JOB_LIMITS.executorParam }), Type.Null()], {
            description:
              'Replaces the job’s executorParam for this run only (also when empty); null: the job’s.',
            examples: ['region=us'],
          }),
        ),
        addressList: Type.Optional(
          annotate(
            Type.Union(
              [
                Type.Array(Type.String({ maxLength: GROUP_LIMITS.address })),
                Type.String({ description: 'Addresses separated by commas (XXL-JOB’s form).' }),
                Type.Null(),
              ],
              {
                description: `Sends this run to these executors instead of the group’s (${ADDRESS_WORDS}); empty or null: the group’s.`,
                examples: [['http://10.0.0.5:9999/'], 'http://10.0.0.5:9999,http://10.0.0.6:9999'],
              },
            ),
            {
              [Expect]: `an array of executor addresses (${ADDRESS_WORDS}) or a comma-separated string of them`,
            },
          ),
        ),
      },
      {
        additionalProperties: false,
        description:
          'The overrides of one manual trigger (XXL-JOB’s JobTriggerRequest); the body may be absent.',
      },
    ),
    { [Noun]: 'trigger', [Expect]: 'a JSON object (or empty)' },
  ),
);

export const TriggerAccepted = named(
  'TriggerAccepted',
  Type.Object(
    {
      jobId: Type.Integer({ minimum: 1, description: 'The job fired.', examples: [7] }),
      dedupKey: Type.String({
        description: 'The fire’s key; its run(s) carry it as dedupKey (GET /v1/logs?jobId= shows them).',
        examples: ['manual#1b4e28ba-2fa1-11d2-883f-0016d3cca427'],
      }),
      scheduledTime: Instant('When the run is due: now, ISO-8601 UTC.'),
      logId: Type.Integer({
        minimum: 1,
        description:
          'The run’s logId: GET /v1/logs/{logId} reads it once the dispatcher has recorded it (at once, unless the ring is backed up), and /v1/logs/{logId}/output follows its log. For a SHARDING_BROADCAST job, the first shard’s.',
        examples: [30064771073],
      }),
      logIds: Type.Array(Type.Integer({ minimum: 1 }), {
        minItems: 1,
        description:
          'One logId per run, in shard order: one, or one per executor of a SHARDING_BROADCAST job (its executors are fixed when it is triggered: the trigger’s addressList, else the group’s online executors; with none, one run that fails for want of an executor).',
        examples: [[30064771073]],
      }),
    },
    { additionalProperties: false, description: 'A manual fire, accepted: it runs at once, asynchronously.' },
  ),
);

export const PreviewQuery = Type.Object({
  scheduleType: StringEnum(SCHEDULE_TYPES, { description: 'How scheduleConf is read.', examples: ['CRON'] }),
  scheduleConf: Type.Optional(
    Type.String({
      maxLength: JOB_LIMITS.scheduleConf,
      description: 'The schedule, as on a job; empty for NONE.',
      examples: ['0 0/15 10 ? * 6L'],
    }),
  ),
  timeZone: Type.Optional(
    Type.String({
      maxLength: JOB_LIMITS.timeZone,
      description: 'The IANA time zone the cron is read in; UTC when absent.',
      examples: ['Europe/Berlin'],
    }),
  ),
  from: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Fires after this instant (ISO-8601 with Z or an offset); now when absent.',
      examples: ['2030-01-01T00:00:00Z'],
    }),
  ),
  count: defaulted(
    Type.Integer({ minimum: 1, maximum: 100, description: 'How many fire times at most.', examples: [3] }),
    5,
  ),
});

export const Preview = named(
  'SchedulePreview',
  Type.Object(
    {
      times: Type.Array(Type.String({ format: 'date-time' }), {
        description:
          'The next fire times, ISO-8601 UTC, oldest first; fewer than count when the schedule ends.',
        examples: [['2030-01-04T09:00:00.000Z', '2030-01-04T09:15:00.000Z']],
      }),
    },
    { additionalProperties: false, description: 'The next fire times of a schedule.' },
  ),
);

// ---------------------------------------------------------------------------------------------
// Groups

const GROUP_FIELDS = {
  appName: annotate(
    Type.String({
      minLength: GROUP_LIMITS.appNameMin,
      maxLength: GROUP_LIMITS.appName,
      description: `The executors’ AppName: ${GROUP_LIMITS.appNameMin}-${GROUP_LIMITS.appName} letters, digits, '_', '.' and '-'; cannot be changed.`,
      examples: ['my-app'],
    }),
    {
      [Expect]: `${GROUP_LIMITS.appNameMin}-${GROUP_LIMITS.appName} characters of letters, digits, '_', '.' and '-'`,
    },
  ),
  title: Type.String({
    maxLength: GROUP_LIMITS.title,
    description: 'A name for people; not blank.',
    examples: ['My application'],
  }),
  addressType: StringEnum(ADDRESS_TYPES, {
    description: 'AUTO: the executors that register under the AppName; MANUAL: the addressList given.',
    examples: ['AUTO'],
  }),
  addressList: Type.Array(Type.String({ maxLength: GROUP_LIMITS.address }), {
    maxItems: GROUP_LIMITS.addressList,
    description: `MANUAL: the executors’ addresses (${ADDRESS_WORDS}; http(s) ones end with /). AUTO: the executors online now, from their registrations (read-only).`,
    examples: [['http://10.0.0.5:9999/', 'lambda:executor-runner']],
  }),
} satisfies { readonly [K in GroupField]: TSchema };

/** In a request, addressList may also be XXL-JOB's comma-separated string. */
const AddressListInput = annotate(
  Type.Union(
    [
      GROUP_FIELDS.addressList,
      Type.String({ description: 'Addresses separated by commas (XXL-JOB’s form).' }),
    ],
    {
      description: `MANUAL: at least one executor address (${ADDRESS_WORDS}), as an array or separated by commas. AUTO: empty, or the list as read (it is ignored).`,
      examples: [['http://10.0.0.5:9999'], 'http://10.0.0.5:9999,http://10.0.0.6:9999'],
    },
  ),
  { [Expect]: `an array of executor addresses (${ADDRESS_WORDS}) or a comma-separated string of them` },
);

const GROUP_READ_ONLY = {
  accessTokenSetAt: readOnlyEcho(),
  createdAt: readOnlyEcho(),
  updatedAt: readOnlyEcho(),
} satisfies { readonly [K in (typeof GROUP_READ_ONLY_FIELDS)[number]]: TSchema };

const GROUP_INPUT = { ...GROUP_FIELDS, addressList: AddressListInput };

export const GroupCreate = named(
  'GroupCreate',
  annotate(
    Type.Object(
      {
        appName: GROUP_INPUT.appName,
        title: GROUP_INPUT.title,
        addressType: GROUP_INPUT.addressType,
        addressList: Type.Optional(GROUP_INPUT.addressList),
        ...optional(GROUP_READ_ONLY),
      },
      { additionalProperties: false, description: 'A new executor group. Unknown fields are refused.' },
    ),
    { [Noun]: 'group' },
  ),
);

export const GroupUpdate = named(
  'GroupUpdate',
  annotate(
    Type.Object(
      { ...optional(GROUP_INPUT), ...optional(GROUP_READ_ONLY) },
      {
        additionalProperties: false,
        description:
          'The fields to change (a group read with GET may be sent back whole: read-only fields, and an AUTO group’s addressList, are ignored). appName cannot change.',
      },
    ),
    { [Noun]: 'group' },
  ),
);

export const Group = named(
  'Group',
  Type.Object(
    {
      ...GROUP_FIELDS,
      accessTokenSetAt: InstantOrNull(
        'When the group got its own access token (ISO-8601 UTC); null: its executors use the global token.',
      ),
      createdAt: Instant(iso('When the group was created')),
      updatedAt: Instant(iso('When the group last changed')),
    },
    { additionalProperties: false, description: 'An executor group (XXL-JOB’s xxl_job_group).' },
  ),
);

export const GroupList = named(
  'GroupList',
  Type.Object(
    { items: Type.Array(Group, { description: 'Every group.', examples: [] }) },
    { additionalProperties: false, description: 'Every executor group.' },
  ),
);

export const GroupTokenBody = named(
  'GroupTokenRequest',
  annotate(
    Type.Object(
      {
        accessToken: Type.Optional(
          Type.String({
            minLength: GROUP_TOKEN_LIMITS.min,
            maxLength: GROUP_TOKEN_LIMITS.max,
            description: `The token to use (${GROUP_TOKEN_LIMITS.min}-${GROUP_TOKEN_LIMITS.max} printable ASCII characters, no spaces); absent: a new random one.`,
            examples: ['s3cret-token-of-my-app'],
          }),
        ),
      },
      {
        additionalProperties: false,
        description:
          '{} (or no body) for a new random token, or the token the group’s executors are configured with.',
      },
    ),
    { [Noun]: 'token', [Expect]: 'a JSON object: {} for a new token, or {"accessToken": "..."}' },
  ),
);

export const GroupToken = named(
  'GroupToken',
  Type.Object(
    {
      appName: Type.String({ description: 'The group.', examples: ['my-app'] }),
      accessToken: Type.String({
        description: 'The group’s own token: shown in this answer only.',
        examples: ['q9V2k1bY0cXh3Lr8TQm7WnJpZsE4aGfD6uHoRtKyNiB'],
      }),
      accessTokenSetAt: Instant(iso('When it was set')),
      note: Type.String({
        description: 'What to do with it.',
        examples: ['This token is shown once. Configure it on the group’s executors (XXL-JOB-ACCESS-TOKEN).'],
      }),
    },
    { additionalProperties: false, description: 'A group’s own access token, as it was set.' },
  ),
);

// ---------------------------------------------------------------------------------------------
// Runs

export const Run = named(
  'Run',
  Type.Object(
    {
      logId: Type.Integer({
        minimum: 1,
        description: 'The run’s id: jobId × 2^32 + n.',
        examples: [30064771073],
      }),
      jobId: Type.Integer({ minimum: 1, description: 'Its job.', examples: [7] }),
      jobName: Type.String({
        description: 'Its job’s name when it was triggered.',
        examples: ['Nightly report'],
      }),
      appName: Type.String({ description: 'Its job’s group.', examples: ['my-app'] }),
      status: StringEnum(RUN_STATUSES, {
        description:
          'running: sent, no result yet; success: handled with 200; fail: refused, failed or timed out; skipped: a misfire, never sent.',
        examples: ['success'],
      }),
      triggerType: StringEnum(TRIGGER_TYPES, { description: 'What fired it.', examples: ['CRON'] }),
      dedupKey: Type.String({ description: 'The fire it belongs to.', examples: ['7#1893470400000'] }),
      scheduledTime: Instant(iso('When it was due (XXL-JOB’s logDateTime)')),
      triggerTime: Instant(iso('When its record was made')),
      executorAddress: Type.Union([Type.String(), Type.Null()], {
        description: 'The executor it was sent to; null when none was.',
        examples: ['http://10.0.0.5:9999/', null],
      }),
      executorHandler: Type.String({ description: 'The handler run.', examples: ['demoJobHandler'] }),
      executorParam: Type.String({ description: 'The parameter it got.', examples: ['region=eu'] }),
      executorRouteStrategy: Type.String({
        description: 'How its executor was picked.',
        examples: ['ROUND'],
      }),
      executorTimeout: Type.Integer({
        minimum: 0,
        description: 'Its timeout in seconds; 0: none.',
        examples: [0],
      }),
      shard: Type.String({
        pattern: '^\\d+/\\d+$',
        description: 'Its shard as index/total (0/1 unless broadcast).',
        examples: ['0/1'],
      }),
      attempt: Type.Integer({
        minimum: 1,
        description: '1 for the first try, 2 for the first retry, ...',
        examples: [1],
      }),
      retriesLeft: Type.Integer({
        minimum: 0,
        description: 'Retries still allowed after it.',
        examples: [2],
      }),
      parentLogId: Type.Union([Type.Integer(), Type.Null()], {
        description: 'The run whose success fired it (a child job’s run); null otherwise.',
        examples: [null],
      }),
      workflow: Type.Union(
        [
          Type.Object(
            {
              runId: Type.String({
                description: 'The workflow run (GET /v1/workflow-runs/{runId}).',
                examples: ['wr-s30064771073'],
              }),
              node: Type.String({ description: 'The node’s key.', examples: ['extract'] }),
              attempt: Type.Integer({
                minimum: 1,
                description: 'The node’s attempt it belongs to.',
                examples: [1],
              }),
            },
            { additionalProperties: false },
          ),
          Type.Null(),
        ],
        {
          description:
            'The workflow node it is a run of (its first try or a retry); null for a run outside workflows.',
          examples: [null],
        },
      ),
      triggerCode: Type.Integer({
        description: '0 not sent yet, 200 accepted by the executor, 500 refused or no executor, 600 skipped.',
        examples: [200],
      }),
      triggerMsg: Type.String({
        description: 'How the trigger went.',
        examples: ['executor accepted the run'],
      }),
      dispatchedAt: InstantOrNull('When the executor accepted or refused it (ISO-8601 UTC); null before.'),
      handleCode: Type.Integer({
        description: '0 no result yet, 200 success, 500 fail, 502 timeout.',
        examples: [200],
      }),
      handleMsg: Type.String({ description: 'The result message.', examples: ['done'] }),
      handleTime: InstantOrNull('When the result came (ISO-8601 UTC); null before.'),
      alarmStatus: Type.String({
        description: 'DEFAULT, NOT_NEEDED, SENT or FAILED (XXL-JOB’s alarm_status).',
        examples: ['NOT_NEEDED'],
      }),
    },
    {
      additionalProperties: false,
      description: 'A run: one execution of a job on one executor (XXL-JOB’s log row).',
    },
  ),
);

export const KilledRun = named(
  'KilledRun',
  Type.Object(
    {
      ...Run.properties,
      executorMsg: Type.String({ description: 'The executor’s answer to /kill.', examples: [''] }),
    },
    {
      additionalProperties: false,
      description: 'The run as recorded after the kill (failed, "killed by user").',
    },
  ),
);

export const RunPage = named(
  'RunPage',
  Type.Object(
    {
      items: Type.Array(Run, { description: 'Runs, newest first.', examples: [] }),
      nextCursor: NextCursor,
    },
    { additionalProperties: false, description: 'A page of runs.' },
  ),
);

export const RunListQuery = Type.Object({
  jobId: Type.Optional(Type.Integer({ minimum: 1, description: 'Only this job’s runs.', examples: [7] })),
  appName: Type.Optional(
    Type.String({ description: 'Only the runs of this group’s jobs.', examples: ['my-app'] }),
  ),
  status: Type.Optional(
    StringEnum(RUN_STATUSES, {
      description: 'Only runs in this status (skipped runs are listed under their job only).',
      examples: ['fail'],
    }),
  ),
  from: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Runs triggered at or after this instant (ISO-8601 with Z or an offset).',
      examples: ['2030-01-01T00:00:00Z'],
    }),
  ),
  to: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'Runs triggered at or before this instant; not before from.',
      examples: ['2030-01-02T00:00:00Z'],
    }),
  ),
  limit: Limit,
  cursor: Type.Optional(Cursor),
});

export const RunOutputQuery = Type.Object({
  fromLineNum: defaulted(
    Type.Integer({ minimum: 1, description: 'The first line to read (1-based).', examples: [1] }),
    1,
  ),
});

export const RunOutput = named(
  'RunOutput',
  Type.Object(
    {
      fromLineNum: Type.Integer({ description: 'The first line read.', examples: [1] }),
      toLineNum: Type.Integer({
        description: 'The last line read (fromLineNum - 1 when none).',
        examples: [2],
      }),
      logContent: Type.String({
        description: 'The lines, each ending with a newline.',
        examples: ['start\ndone\n'],
      }),
      isEnd: Type.Boolean({
        description: 'True once the run has its result and every line was read: stop polling.',
        examples: [true],
      }),
    },
    { additionalProperties: false, description: 'A slice of a run’s log, read from its executor.' },
  ),
);

// ---------------------------------------------------------------------------------------------
// Executors and dashboard

export const ExecutorsQuery = Type.Object({
  appName: Type.Optional(
    Type.String({ description: 'Only this group (404 when it does not exist).', examples: ['my-app'] }),
  ),
});

export const Executors = named(
  'Executors',
  Type.Object(
    {
      items: Type.Array(
        Type.Object(
          {
            appName: GROUP_FIELDS.appName,
            title: GROUP_FIELDS.title,
            addressType: GROUP_FIELDS.addressType,
            executors: Type.Array(
              Type.Object(
                {
                  address: Type.String({
                    description: 'The executor’s address.',
                    examples: ['http://10.0.0.5:9999/'],
                  }),
                  online: Type.Union([Type.Boolean(), Type.Null()], {
                    description:
                      'Seen within the registry’s dead timeout (90 s); null: not known (a MANUAL address that does not register).',
                    examples: [true],
                  }),
                  lastHeartbeat: InstantOrNull(
                    'Its last registration (ISO-8601 UTC); null when none is kept.',
                  ),
                },
                { additionalProperties: false },
              ),
              { description: 'AUTO: its registrations; MANUAL: its configured addresses.', examples: [] },
            ),
          },
          { additionalProperties: false, description: 'A group and its executors.' },
        ),
        { description: 'Groups by appName.', examples: [] },
      ),
    },
    { additionalProperties: false, description: 'Executors with their last heartbeat, by group.' },
  ),
);

export const DashboardQuery = Type.Object({
  days: defaulted(
    Type.Integer({
      minimum: DASHBOARD_DAYS.min,
      maximum: DASHBOARD_DAYS.max,
      description: 'The period: this many days up to today (UTC).',
      examples: [7],
    }),
    DASHBOARD_DAYS.default,
  ),
});

const count = (description: string, example: number) =>
  Type.Integer({ minimum: 0, description, examples: [example] });
const Day = (description: string) => Type.String({ format: 'date', description, examples: ['2030-01-07'] });

export const Dashboard = named(
  'Dashboard',
  Type.Object(
    {
      days: Type.Integer({
        minimum: DASHBOARD_DAYS.min,
        maximum: DASHBOARD_DAYS.max,
        description: 'The period’s days.',
        examples: [7],
      }),
      fromDay: Day('The first day of the period (UTC).'),
      toDay: Day('The last day of the period: today (UTC).'),
      totals: Type.Object(
        {
          jobs: count('Jobs.', 12),
          runningJobs: count('Jobs whose schedule is on.', 9),
          runs: count('Runs triggered in the period (running + success + fail; skipped fires apart).', 1340),
          running: count('Of those, running.', 2),
          success: count('Of those, succeeded.', 1330),
          fail: count('Of those, failed.', 8),
          skipped: count(
            'Fires of the period recorded as skipped (misfires: late or overtaken fires, never sent); not among runs.',
            4,
          ),
          onlineExecutors: count('Distinct executor addresses online now.', 3),
        },
        {
          additionalProperties: false,
          description: 'Counts.',
          examples: [
            {
              jobs: 12,
              runningJobs: 9,
              runs: 1340,
              running: 2,
              success: 1330,
              fail: 8,
              skipped: 4,
              onlineExecutors: 3,
            },
          ],
        },
      ),
      series: Type.Array(
        Type.Object(
          {
            day: Day('The day (UTC).'),
            running: count('Runs of the day still running.', 0),
            success: count('Runs of the day that succeeded.', 190),
            fail: count('Runs of the day that failed.', 1),
            skipped: count('Fires of the day recorded as skipped (misfires, never sent).', 0),
          },
          { additionalProperties: false },
        ),
        { description: 'One entry per day, oldest first.', examples: [] },
      ),
    },
    {
      additionalProperties: false,
      description: 'Totals and daily runs (XXL-JOB’s dashboard), with the daily skipped fires.',
    },
  ),
);

export const ActivityQuery = Type.Object({
  window: defaulted(
    StringEnum(ACTIVITY_WINDOW_NAMES, {
      description:
        'The period up to now: 1h (60 buckets of 1 minute), 6h (72 of 5 minutes) or 24h (96 of 15 minutes).',
      examples: ['1h'],
    }),
    DEFAULT_ACTIVITY_WINDOW,
  ),
  appName: Type.Optional(
    Type.String({
      description: 'Only the runs of this group’s jobs (none for a group the caller does not see).',
      examples: ['my-app'],
    }),
  ),
});

const LatenessMs = (description: string, example: number) =>
  Type.Union([Type.Integer(), Type.Null()], { description, examples: [example, null] });

export const Activity = named(
  'Activity',
  Type.Object(
    {
      window: StringEnum(ACTIVITY_WINDOW_NAMES, { description: 'The period read.', examples: ['1h'] }),
      bucketMs: Type.Integer({
        minimum: 1,
        description: 'The length of a bucket in milliseconds.',
        examples: [60_000],
      }),
      from: Instant(iso('The first bucket’s start (buckets are aligned on their length)')),
      to: Instant(
        iso('The last bucket’s end: the end of the bucket now falls in (the last bucket is still filling)'),
      ),
      buckets: Type.Array(
        Type.Object(
          {
            start: Instant(iso('The bucket’s start; it holds the runs scheduled from then for bucketMs')),
            success: count('Runs of the bucket that succeeded.', 58),
            fail: count('Runs of the bucket that failed (refused, failed, timed out, lost, killed).', 1),
            running: count('Runs of the bucket still running.', 1),
            latenessP50Ms: LatenessMs(
              'The median lateness of the bucket’s dispatched runs (dispatchedAt − scheduledTime, ms); null when none was dispatched.',
              3,
            ),
            latenessP99Ms: LatenessMs(
              'The 99th percentile (nearest rank) of the same lateness; null when none was dispatched.',
              41,
            ),
          },
          { additionalProperties: false },
        ),
        {
          description:
            'The runs of each bucket by their scheduled time, oldest first, one entry per bucket (zeros when none). Skipped runs (misfires) are not counted: see the dashboard’s skipped.',
          examples: [],
        },
      ),
      inProgress: count('Runs of the period still running.', 1),
      lastFailures: Type.Array(
        Type.Object(
          {
            logId: Run.properties.logId,
            jobId: Run.properties.jobId,
            jobName: Run.properties.jobName,
            appName: Run.properties.appName,
            handleMsg: Type.String({
              description: `The result message, cut after ${ACTIVITY_FAILURE_MSG_MAX} characters (then ending in ...; the run has all of it); empty for a trigger no executor accepted (its triggerMsg says why).`,
              examples: ['java.lang.IllegalStateException: report source unavailable'],
            }),
            handleTime: InstantOrNull('When the result came (ISO-8601 UTC); null for a refused trigger.'),
            scheduledTime: Run.properties.scheduledTime,
          },
          { additionalProperties: false },
        ),
        {
          description: `The period’s failed runs, newest (by scheduled time) first, at most ${ACTIVITY_LAST_FAILURES}.`,
          examples: [],
        },
      ),
      sampled: count(`Runs of the period read and counted (at most ${ACTIVITY_MAX_RUNS}).`, 60),
      truncated: Type.Boolean({
        description: `true when the period had more runs than were read (over ${ACTIVITY_MAX_RUNS}, newest first, or more than one answer reads): the oldest buckets count short.`,
        examples: [false],
      }),
    },
    {
      additionalProperties: false,
      description:
        'The runs of the recent past per bucket of their scheduled time, for a live chart: counts, lateness, runs in progress and the last failures, of the groups the caller sees.',
    },
  ),
);

/** The document itself (`GET /v1/openapi.json`). */
export const OpenApiDocumentSchema = Type.Object(
  {
    openapi: Type.String({ description: 'The OpenAPI version.', examples: ['3.1.0'] }),
  },
  { description: 'This OpenAPI 3.1 document.' },
);

export type JobView = Static<typeof Job>;
export type GroupView = Static<typeof Group>;
export type RunView = Static<typeof Run>;
export type TriggerAcceptedView = Static<typeof TriggerAccepted>;
export type JobCreateRequest = Static<typeof JobCreate>;
export type JobUpdateRequest = Static<typeof JobUpdate>;
export type GroupCreateRequest = Static<typeof GroupCreate>;
export type GroupUpdateRequest = Static<typeof GroupUpdate>;
export type TriggerRequest = Static<typeof TriggerBody>;
export type ErrorView = Static<typeof ErrorBody>;
