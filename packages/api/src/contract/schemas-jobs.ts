/** Jobs: the fields an admin sets, the job as read, its list, and the preview of a schedule. */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { CALENDAR_ID, DAY_REASONS, MAX_CALENDARS_PER_LIST } from '@tickring/core/calendars';
import { ROUTE_STRATEGIES } from '@tickring/core/dispatch';
import {
  BLOCK_STRATEGIES,
  BYTES_PER_RUN_RECORD,
  bodyBoundsProblems,
  DEADLINE_DAYS,
  DEADLINE_STATES,
  DYNAMODB_STORAGE_USD_PER_GB_MONTH,
  deadlineProblems,
  failurePolicyProblems,
  GLUE_TYPES,
  JOB_DEFAULTS,
  type JOB_EDITABLE_FIELDS,
  JOB_FIELD_ALIASES,
  JOB_LIMITS,
  type JOB_READ_ONLY_FIELDS,
  MAX_LOG_RETENTION_DAYS,
  MAX_POLICY_WINDOW,
  MAX_RESUME_AFTER_SECONDS,
  MIN_LOG_RETENTION_DAYS,
  SAMPLED_OUT_KEEP_DAYS,
  TRIGGER_STATUSES,
} from '@tickring/core/jobs';
import {
  DST_POLICY_TEXT,
  MAX_JITTER_SECONDS,
  MISFIRE_STRATEGIES,
  SCHEDULE_END_REASONS,
  SCHEDULE_TYPES,
} from '@tickring/core/schedule';
import { annotate, defaulted, Expect, Noun, named, Refine, StringEnum } from './kit.js';
import {
  Cursor,
  Instant,
  InstantOrNull,
  iso,
  Limit,
  NextCursor,
  optional,
  readOnlyEcho,
} from './schemas-common.js';
import { OccurrenceException } from './schemas-occurrences.js';

type JobField = (typeof JOB_EDITABLE_FIELDS)[number];

export const JobIdParam = Type.Integer({ minimum: 1, description: 'The job’s id.', examples: [7] });

const nonNegative = (description: string, example: number) =>
  Type.Integer({ minimum: 0, description, examples: [example] });

/** A schedule's bounds and jitter: a job's fields, and a scheduled workflow's (its starter job's). */
export const SCHEDULE_BOUND_FIELDS = {
  startAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description:
      'No scheduled fire before this instant (ISO-8601 with Z or an offset); null or absent: none. A cron fires at its first time from here; a FIX_RATE schedule counts its rate from here.',
    examples: ['2030-01-01T00:00:00Z'],
  }),
  endAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description:
      'No scheduled fire after this instant (a fire’s scheduled time, before its jitter); must be after startAt. When it has passed, the job stops itself (scheduleEnded.reason endAt). null or absent: none.',
    examples: ['2030-12-31T23:59:59Z'],
  }),
  maxRuns: Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.Null()], {
    description:
      'At most this many scheduled fires, counted from when the limit is set (a fire counts when the scheduler plans it; manual, API, parent and retry runs do not count); then the job stops itself (scheduleEnded.reason maxRuns). Raising it keeps the count (runsRemaining grows); null removes the limit and its count.',
    examples: [3],
  }),
  jitterSeconds: Type.Integer({
    minimum: 0,
    maximum: MAX_JITTER_SECONDS,
    description: `Delays each scheduled fire by an offset in [0, jitterSeconds) s, the same for every copy of the fire (a hash of the job and its scheduled time); the fire keeps its scheduled time as its identity. At most ${MAX_JITTER_SECONDS}, and less than the schedule’s smallest interval between fires. 0: none.`,
    examples: [30],
  }),
};

const windowCount = (description: string, example: number) =>
  Type.Integer({ minimum: 1, maximum: MAX_POLICY_WINDOW, description, examples: [example] });

export const FailurePolicy = named(
  'FailurePolicy',
  Type.Object(
    {
      pauseAfter: Type.Union(
        [
          Type.Object(
            { consecutive: windowCount('Pause after this many final failures in a row.', 3) },
            { additionalProperties: false },
          ),
          Type.Object(
            {
              failures: windowCount('Pause when this many of the last `ofLast` final outcomes failed…', 3),
              ofLast: windowCount('…among this many of the newest final outcomes (failures ≤ ofLast).', 5),
            },
            { additionalProperties: false },
          ),
        ],
        {
          examples: [{ consecutive: 3 }, { failures: 3, ofLast: 5 }],
          description:
            'The rule: {consecutive: N} or {failures: N, ofLast: M}. A run counts when its outcome is final: a success, or a failure with its retries used up (a failure followed by a retry does not count; the retry’s outcome does). Killed, skipped and workflow-node runs do not count.',
        },
      ),
      resumeAfterSeconds: Type.Optional(
        Type.Integer({
          minimum: 60,
          maximum: MAX_RESUME_AFTER_SECONDS,
          description:
            'Start the job again this long after the pause (within a minute: the monitors do it). Absent: it stays stopped until a user starts it.',
          examples: [600],
        }),
      ),
    },
    {
      additionalProperties: false,
      description:
        'Pause the job (triggerStatus STOPPED, pausedBy set, an alarm sent to its alarm channels) when the rule is met; a success right after a final failure sends a recovery notice.',
    },
  ),
);

export const Deadline = named(
  'Deadline',
  Type.Object(
    {
      time: Type.String({
        pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
        description: 'Local time HH:MM (24 h) a run must have succeeded by.',
        examples: ['06:00'],
      }),
      timeZone: Type.String({
        description: 'The IANA zone the time is read in.',
        examples: ['Europe/Berlin'],
      }),
      days: Type.Optional(
        StringEnum(DEADLINE_DAYS, {
          description: 'The days it applies to: daily (default) or weekdays (Monday to Friday in the zone).',
          examples: ['weekdays'],
        }),
      ),
    },
    {
      additionalProperties: false,
      description:
        'Must have succeeded by this local time: each deadline closes a window that began at the one before; a window with no successful final outcome raises one deadlineMissed alarm.',
    },
  ),
);

export const DeadlineStatus = named(
  'DeadlineStatus',
  Type.Object(
    {
      window: Type.Object(
        {
          from: Instant(iso('The window’s start (the deadline before)')),
          to: Instant(iso('The window’s deadline')),
        },
        {
          additionalProperties: false,
          description: 'The window shown: from the deadline before (exclusive) to its deadline.',
          examples: [{ from: '2030-03-29T05:00:00.000Z', to: '2030-03-30T04:00:00.000Z' }],
        },
      ),
      state: StringEnum(DEADLINE_STATES, {
        description:
          'met: a run succeeded in the current window; missed: the last window closed without one (shown until a success); pending: the current window, no success yet.',
        examples: ['met'],
      }),
      at: InstantOrNull('met: when the success was recorded; missed: the deadline; pending: null.'),
    },
    { additionalProperties: false, description: 'Where the job stands against its deadline.' },
  ),
);

export const PausedBy = named(
  'PausedBy',
  Type.Object(
    {
      reason: StringEnum(['failurePolicy'] as const, {
        description: 'failurePolicy: its failure policy’s rule was met.',
        examples: ['failurePolicy'],
      }),
      at: Instant(iso('When the job was paused')),
      failures: Type.Integer({
        minimum: 1,
        description: 'Final failures among the last ofLast.',
        examples: [3],
      }),
      ofLast: Type.Integer({ minimum: 1, description: 'Final outcomes the rule looked at.', examples: [3] }),
      resumeAt: InstantOrNull('When the monitors start it again; null: a user starts it.'),
    },
    { additionalProperties: false, description: 'A job its failure policy stopped.' },
  ),
);

const calendarIdList = (description: string, example: string) =>
  Type.Array(
    annotate(
      Type.String({ pattern: CALENDAR_ID.source, description: 'A calendar’s id.', examples: [example] }),
      {
        [Expect]: 'a calendar id: lower-case letters, digits and -, starting with a letter or digit',
      },
    ),
    { maxItems: MAX_CALENDARS_PER_LIST, description, examples: [[example]] },
  );

/** What a schedule's calendars mean, said once for the job, the workflow and the preview. */
export const SCHEDULE_CALENDARS_TEXT =
  'A calendar marks each local date of its zone as a working day or not (weekly pattern, minus its excluded dates and ranges, plus its make-up days). only: a fire is made only on a date that is a working day of every calendar listed (a make-up Saturday fires, a holiday Monday does not). exclude: no fire on a date a calendar listed excludes (its holidays and ranges), whatever its weekly pattern and make-up days say. A fire’s date is taken in each calendar’s own zone; with both lists a fire must pass both. Fires removed are not made (they do not count towards maxRuns); triggerNextTime is the next one allowed, and a schedule with none in the next 5 years stops itself (scheduleEnded.reason calendar). A calendar change re-plans every RUNNING job that names it from the save: its next fire is the first allowed after now + 5 s, and the fires already planned under the old calendar are dropped. Each calendar must exist; one a job names cannot be deleted.';

export const ScheduleCalendarsSchema = Type.Object(
  {
    only: Type.Optional(
      calendarIdList(
        `Fire only on working days of every one of these (at most ${MAX_CALENDARS_PER_LIST}).`,
        'cn-workdays',
      ),
    ),
    exclude: Type.Optional(
      calendarIdList(
        `Never fire on a date one of these excludes (at most ${MAX_CALENDARS_PER_LIST}).`,
        'cn-holidays',
      ),
    ),
  },
  { additionalProperties: false },
);

/** A schedule's calendars as read: both lists, empty when none. */
export const ScheduleCalendarsView = Type.Object(
  {
    only: calendarIdList('Fires only on working days of every one of these.', 'cn-workdays'),
    exclude: calendarIdList('Never fires on a date one of these excludes.', 'cn-holidays'),
  },
  {
    additionalProperties: false,
    description: `The calendars the schedule follows, by id (empty lists: none). ${SCHEDULE_CALENDARS_TEXT}`,
    examples: [{ only: ['cn-workdays'], exclude: [] }],
  },
);

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
  ...SCHEDULE_BOUND_FIELDS,
  failurePolicy: annotate(
    Type.Union([FailurePolicy, Type.Null()], {
      description:
        'Pause the job after too many final failures; null or absent: never (a failed run alarms as before).',
      examples: [{ pauseAfter: { failures: 3, ofLast: 5 }, resumeAfterSeconds: 600 }],
    }),
    { [Expect]: '{pauseAfter: {consecutive: N} | {failures: N, ofLast: M}, resumeAfterSeconds?} or null' },
  ),
  deadline: annotate(
    Type.Union([Deadline, Type.Null()], {
      description: 'Must have succeeded by a local time each day; null or absent: none.',
      examples: [{ time: '06:00', timeZone: 'Europe/Berlin' }],
    }),
    { [Expect]: '{time: "HH:MM", timeZone, days?: daily | weekdays} or null' },
  ),
  calendars: Type.Union([ScheduleCalendarsSchema, Type.Null()], {
    description: `The calendars the schedule follows, by id; null, {} or empty lists: none (a job read shows empty lists). ${SCHEDULE_CALENDARS_TEXT}`,
    examples: [{ only: ['cn-workdays'], exclude: [] }],
  }),
  logRetentionDays: Type.Union(
    [Type.Integer({ minimum: MIN_LOG_RETENTION_DAYS, maximum: MAX_LOG_RETENTION_DAYS }), Type.Null()],
    {
      description: `Days the job's run records (and the results and messages they hold) are kept after their trigger, ${MIN_LOG_RETENTION_DAYS} to ${MAX_LOG_RETENTION_DAYS}; null or absent: the deployment's TICKRING_LOG_RETENTION_DAYS (30 by default). Applies to runs claimed from the change on; a run keeps the expiry it was recorded with.`,
      examples: [90],
    },
  ),
  keepSuccessfulRuns: Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 1 }), Type.Null()], {
    description: `The share of successful runs kept for the whole retention, greater than 0 and at most 1; the others (sampled-out successes, chosen by a hash of the logId, so the same runs every time) are kept ${SAMPLED_OUT_KEEP_DAYS} day after their trigger, so the recent lists and the dashboard still see them. Failed, skipped and running runs are always kept for the whole retention. null, absent or 1: every success is kept.`,
    examples: [0.1],
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
  alertChannels: Type.Union(
    [Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 10 }), Type.Null()],
    {
      description:
        'Alert channels (ids) the job’s alarms go to, besides alarmEmail / alarmWebhook; null: its group’s default; []: none.',
      examples: [['5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11']],
    },
  ),
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
  scheduleEnded: readOnlyEcho(null),
  pausedBy: readOnlyEcho(null),
  deadlineSetAt: readOnlyEcho(null),
  occurrenceExceptions: readOnlyEcho([]),
} satisfies { readonly [K in (typeof JOB_READ_ONLY_FIELDS)[number]]: TSchema };

/** Shown in answers beside the fields: a body may carry it back too (ignored). */
const JOB_VIEW_ONLY = {
  runsRemaining: readOnlyEcho(null),
  deadlineStatus: readOnlyEcho(null),
  retention: readOnlyEcho(null),
};

/**
 * The bounds of a body taken together (endAt after startAt, jitter below the interval), and what the
 * schema cannot say of a failure policy (failures ≤ ofLast) or a deadline (a known zone), beside its
 * other problems.
 */
const refineJobBody = {
  [Refine]: (body: Readonly<Record<string, unknown>>) => [
    ...bodyBoundsProblems(body),
    ...(body.failurePolicy === undefined || body.failurePolicy === null
      ? []
      : failurePolicyProblems(body.failurePolicy)),
    ...(body.deadline === undefined || body.deadline === null ? [] : deadlineProblems(body.deadline)),
  ],
};

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
        ...optional(JOB_VIEW_ONLY),
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
    { [Noun]: 'job', ...refineJobBody },
  ),
);

export const JobUpdate = named(
  'JobUpdate',
  annotate(
    Type.Object(
      {
        ...optional(JOB_FIELDS),
        ...optional(JOB_ALIASES),
        ...optional(JOB_READ_ONLY),
        ...optional(JOB_VIEW_ONLY),
      },
      {
        additionalProperties: false,
        description:
          'The fields to change, laid over the job (a job read with GET may be sent back whole: read-only fields are ignored). The result is checked as a whole. Unknown fields are refused.',
      },
    ),
    { [Noun]: 'job', ...refineJobBody },
  ),
);

/** Why a schedule stopped itself. */
export const ScheduleEnded = named(
  'ScheduleEnded',
  Type.Object(
    {
      reason: StringEnum(SCHEDULE_END_REASONS, {
        description:
          'maxRuns: its scheduled fires are used up; endAt: its next fire would be after endAt; noNextFire: the schedule fires no more (a ONCE instant passed, a cron’s last year); calendar: its calendars allow none of its fires in the next 5 years.',
        examples: ['maxRuns'],
      }),
      at: Instant(
        iso('When the scheduler stopped the job (it plans up to 15 s ahead: the last fire may follow)'),
      ),
    },
    { additionalProperties: false, description: 'A schedule that stopped itself: why and when.' },
  ),
);

/** What keeping a job's run history costs: an estimate (see `estimateRetention`). */
export const JobRetention = named(
  'JobRetention',
  Type.Object(
    {
      days: Type.Integer({
        minimum: MIN_LOG_RETENTION_DAYS,
        description: 'Days its run records are kept: logRetentionDays, else the deployment’s default.',
        examples: [30],
      }),
      successSample: Type.Number({
        exclusiveMinimum: 0,
        maximum: 1,
        description:
          'The share of successful runs kept for the whole retention (keepSuccessfulRuns; 1: all).',
        examples: [0.1],
      }),
      estimatedRecords: Type.Integer({
        minimum: 0,
        description:
          'Run records kept at any time, an estimate: the schedule’s fires in the next day (calendars and bounds not applied; manual runs, retries and children not counted) × days, sampled-out successes counted for one day (every fire counted as a success).',
        examples: [4380],
      }),
      estimatedBytes: Type.Integer({
        minimum: 0,
        description: `estimatedRecords × ${BYTES_PER_RUN_RECORD} bytes, the size of a typical run in the runs table with its share of the fire, dispatch and hour-index records (measured on DynamoDB’s item-size rules).`,
        examples: [3942000],
      }),
      estimatedMonthlyCostUsd: Type.Number({
        minimum: 0,
        description: `estimatedBytes at DynamoDB’s Standard storage price, ${DYNAMODB_STORAGE_USD_PER_GB_MONTH} USD per GB-month (us-east-1; the account’s free 25 GB and the request costs left out), four significant digits. An estimate, not a bill.`,
        examples: [0.0009178],
      }),
    },
    {
      additionalProperties: false,
      description:
        'GET /v1/jobs/{id} only: how long the job’s run records are kept and what keeping them costs, an estimate. Not in lists.',
    },
  ),
);

export const Job = named(
  'Job',
  Type.Object(
    {
      id: Type.Integer({ minimum: 1, description: 'The job’s id.', examples: [7] }),
      ...JOB_FIELDS,
      calendars: ScheduleCalendarsView,
      // Optional in the view: documents written before alert channels (exports, imports) have none.
      alertChannels: Type.Optional(JOB_FIELDS.alertChannels),
      triggerNextTime: InstantOrNull(
        'The next scheduled fire while RUNNING, ISO-8601 UTC; null when stopped.',
      ),
      triggerLastTime: InstantOrNull(
        'The last fire handed to the ring, ISO-8601 UTC; null before the first.',
      ),
      runsRemaining: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
        description: 'Scheduled fires left under maxRuns; null without a limit.',
        examples: [2],
      }),
      scheduleEnded: Type.Union([ScheduleEnded, Type.Null()], {
        description:
          'Set when the schedule stopped itself (the job is STOPPED): why and when; cleared when the job is started again. null otherwise.',
        examples: [null, { reason: 'maxRuns', at: '2030-01-03T02:00:00.000Z' }],
      }),
      pausedBy: Type.Union([PausedBy, Type.Null()], {
        description:
          'Set while the job is stopped by its failure policy: when, the failures that met the rule, when it starts again; cleared when it is started (by a user, or by the resume). null otherwise.',
        examples: [null],
      }),
      deadlineStatus: Type.Optional(
        Type.Union([DeadlineStatus, Type.Null()], {
          description:
            'GET /v1/jobs/{id} only: where the job stands against its deadline (null without one). Not in lists.',
          examples: [null],
        }),
      ),
      retention: Type.Optional(JobRetention),
      occurrenceExceptions: Type.Array(OccurrenceException, {
        description:
          'One-off exceptions of the schedule: occurrences skipped or moved (changed through /v1/jobs/{id}/occurrences), by time; [] when none.',
        examples: [[]],
      }),
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

/** Calendar ids separated by commas. */
const CALENDAR_LIST_PATTERN = `^${CALENDAR_ID.source.slice(1, -1)}(,${CALENDAR_ID.source.slice(1, -1)})*$`;

export const PreviewQuery = annotate(
  Type.Object({
    scheduleType: StringEnum(SCHEDULE_TYPES, {
      description: 'How scheduleConf is read.',
      examples: ['CRON'],
    }),
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
    startAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'The schedule’s startAt, as on a job.',
        examples: ['2030-01-01T00:00:00Z'],
      }),
    ),
    endAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'The schedule’s endAt, as on a job.',
        examples: ['2030-12-31T00:00:00Z'],
      }),
    ),
    maxRuns: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'At most this many fires (a new job’s maxRuns, or an existing job’s runsRemaining).',
        examples: [3],
      }),
    ),
    jitterSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_JITTER_SECONDS,
        description: 'The job’s jitterSeconds: each fire’s real time is shown beside its scheduled one.',
        examples: [30],
      }),
    ),
    jobId: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'The job the fires are of: a fire’s jitter depends on it (without it, fireAt is null when there is jitter), and its skipped and moved occurrences are marked (when the caller may read the job).',
        examples: [7],
      }),
    ),
    onlyCalendars: Type.Optional(
      Type.String({
        pattern: CALENDAR_LIST_PATTERN,
        description:
          'The schedule’s calendars.only: calendar ids separated by commas. Fires on other days are listed in skipped, not in fires.',
        examples: ['cn-workdays'],
      }),
    ),
    excludeCalendars: Type.Optional(
      Type.String({
        pattern: CALENDAR_LIST_PATTERN,
        description: 'The schedule’s calendars.exclude: calendar ids separated by commas.',
        examples: ['cn-holidays'],
      }),
    ),
  }),
  { [Refine]: (query: Readonly<Record<string, unknown>>) => bodyBoundsProblems(query) },
);

const dstNote = (example: string) =>
  Type.String({ description: 'What the job does there, in words.', examples: [example] });
const REPEATED_NOTE =
  '2030-10-27T02:30:00 happens twice (+02:00, then +01:00): the job fires once, at the second (+01:00); the first is skipped.';
const SKIPPED_NOTE =
  'The schedule names 1 time in the skipped hour: no fire for it that day (the clocks jump from 2030-03-31T02:00:00 to 2030-03-31T03:00:00).';

export const Preview = named(
  'SchedulePreview',
  Type.Object(
    {
      times: Type.Array(Type.String({ format: 'date-time' }), {
        description:
          'The next scheduled fire times, ISO-8601 UTC, oldest first; fewer than count when the schedule ends (see ends).',
        examples: [['2030-01-04T09:00:00.000Z', '2030-01-04T09:15:00.000Z']],
      }),
      fires: Type.Array(
        Type.Object(
          {
            time: Type.String({
              format: 'date-time',
              description: 'The fire’s scheduled time (its identity).',
              examples: ['2030-01-04T09:00:00.000Z'],
            }),
            fireAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
              description:
                'When it really fires: its scheduled time plus its jitter, or its move’s time; null when skipped, or when there is jitter but no jobId to derive it from.',
              examples: ['2030-01-04T09:00:12.345Z'],
            }),
            exception: Type.Union([OccurrenceException, Type.Null()], {
              description:
                'The job’s one-off exception of this fire (with jobId): skipped (fireAt null) or moved (fireAt its new time); null otherwise.',
              examples: [null],
            }),
            dst: Type.Union(
              [
                Type.Object(
                  {
                    kind: StringEnum(['repeatedHour'] as const, {
                      description: 'repeatedHour: the fire’s local time happens twice (clocks fall back).',
                      examples: ['repeatedHour'],
                    }),
                    note: dstNote(REPEATED_NOTE),
                  },
                  { additionalProperties: false, description: 'The fire’s DST mark.' },
                ),
                Type.Null(),
              ],
              {
                description: 'Set when the fire falls in a local hour that happens twice (clocks fall back).',
                examples: [null, { kind: 'repeatedHour', note: REPEATED_NOTE }],
              },
            ),
          },
          { additionalProperties: false },
        ),
        { description: 'The same fires, each with its real time and its DST mark.', examples: [] },
      ),
      skipped: Type.Array(
        Type.Object(
          {
            time: Type.String({
              format: 'date-time',
              description: 'The fire’s scheduled time: the first fire removed of a run of days removed.',
              examples: ['2030-10-01T01:00:00.000Z'],
            }),
            calendarId: Type.String({
              description: 'The calendar that removed it.',
              examples: ['cn-workdays'],
            }),
            list: StringEnum(['only', 'exclude'] as const, {
              description: 'The list that names the calendar.',
              examples: ['only'],
            }),
            date: Type.String({
              format: 'date',
              description: 'The fire’s date in the calendar’s zone.',
              examples: ['2030-10-01'],
            }),
            reason: StringEnum(DAY_REASONS, {
              description: 'Why the calendar removes the date: WEEKEND or HOLIDAY.',
              examples: ['HOLIDAY'],
            }),
            label: Type.Union([Type.String(), Type.Null()], {
              description: 'The holiday’s label, when it has one.',
              examples: ['National Day'],
            }),
          },
          { additionalProperties: false },
        ),
        {
          description:
            'Fires the calendars removed, between now and the last fire shown: the first of each run of days removed (an every-second schedule lists a removed day once), at most count.',
          examples: [],
        },
      ),
      ends: Type.Union([StringEnum(SCHEDULE_END_REASONS), Type.Null()], {
        description:
          'Why the schedule ends after the last fire shown (maxRuns, endAt, noNextFire, calendar), as the job would stop itself; null when it goes on.',
        examples: [null],
      }),
      dst: Type.Object(
        {
          policy: Type.String({
            description: 'What the job does where the clocks change.',
            examples: [DST_POLICY_TEXT],
          }),
          transitions: Type.Array(
            Type.Object(
              {
                kind: StringEnum(['skippedHour', 'repeatedHour'] as const, {
                  description: 'skippedHour: clocks spring forward; repeatedHour: clocks fall back.',
                  examples: ['skippedHour'],
                }),
                at: Type.String({
                  format: 'date-time',
                  description: 'When the clocks change, ISO-8601 UTC.',
                  examples: ['2030-03-31T01:00:00.000Z'],
                }),
                localFrom: Type.String({
                  description: 'The local times skipped or repeated, from (YYYY-MM-DDTHH:mm:ss) …',
                  examples: ['2030-03-31T02:00:00'],
                }),
                localTo: Type.String({
                  description: '… to (not included).',
                  examples: ['2030-03-31T03:00:00'],
                }),
                offsetBefore: Type.String({
                  description: 'The zone’s offset before the change.',
                  examples: ['+01:00'],
                }),
                offsetAfter: Type.String({
                  description: 'The zone’s offset after it.',
                  examples: ['+02:00'],
                }),
                matches: Type.Integer({
                  minimum: 1,
                  description: 'How many of the schedule’s local times fall there.',
                  examples: [1],
                }),
                firstMatches: Type.Array(Type.String(), {
                  description: 'The first few of them (at most 5), local.',
                  examples: [['2030-03-31T02:30:00']],
                }),
                note: dstNote(SKIPPED_NOTE),
              },
              { additionalProperties: false, description: 'One change of the clocks.' },
            ),
            {
              description:
                'The clock changes between from and the last fire shown where the schedule names a local time that is skipped or repeated (CRON only).',
              examples: [[]],
            },
          ),
        },
        {
          additionalProperties: false,
          description: 'Daylight saving: the policy and the clock changes the fires meet.',
          examples: [{ policy: DST_POLICY_TEXT, transitions: [] }],
        },
      ),
    },
    {
      additionalProperties: false,
      description: 'The next fire times of a schedule, with its bounds, its jitter and its DST marks.',
    },
  ),
);

export type JobView = Static<typeof Job>;
export type JobCreateRequest = Static<typeof JobCreate>;
export type JobUpdateRequest = Static<typeof JobUpdate>;
