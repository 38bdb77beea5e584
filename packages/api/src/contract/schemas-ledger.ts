/** A job's or a workflow's fire ledger: the fires its schedule owed in a window and what became of each. */
import { type TSchema, Type } from '@sinclair/typebox';
import { LEDGER_OUTCOMES, MAX_LEDGER_FIRES, SKIP_RULES } from '@tickring/core/runs';
import { named, StringEnum } from './kit.js';
import { Instant, InstantOrNull, iso } from './schemas-common.js';

const T1 = '2030-01-02T09:00:00.000Z';

const instantText = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 40, description, examples: [example] });

/** A schema or null, described and exemplified as a whole. */
const orNull = (schema: TSchema, description: string, example: unknown) =>
  Type.Union([schema, Type.Null()], { description, examples: [example] });

const text = (description: string, example: string) => Type.String({ description, examples: [example] });
const count = (description: string, example = 0) =>
  Type.Integer({ minimum: 0, description, examples: [example] });

export const LedgerQuery = Type.Object(
  {
    from: instantText(
      'The window’s start (inclusive): ISO-8601 with a zone, or epoch milliseconds.',
      '2030-01-02T09:00:00Z',
    ),
    to: instantText(
      `The window’s end (exclusive): ISO-8601 with a zone, or epoch milliseconds. At most ${MAX_LEDGER_FIRES} fires of the schedule in the window.`,
      '2030-01-02T10:00:00Z',
    ),
  },
  { additionalProperties: false },
);

const LedgerCalendar = Type.Object(
  {
    calendarId: text('The calendar that removed the fire.', 'de-holidays'),
    list: StringEnum(['only', 'exclude'] as const, {
      description: 'Which of the schedule’s lists named it.',
      examples: ['exclude'],
    }),
    date: text('The fire’s date in the calendar’s zone.', '2030-01-01'),
    reason: text('WEEKEND or HOLIDAY.', 'HOLIDAY'),
    label: orNull(Type.String(), 'The excluded date’s label, if it has one.', 'New Year'),
  },
  { additionalProperties: false },
);

const LedgerException = Type.Object(
  {
    action: StringEnum(['skip', 'move'] as const, { description: 'skip or move.', examples: ['skip'] }),
    to: InstantOrNull('A move’s new time, ISO-8601 UTC; null for a skip.'),
    by: text('Who made it.', 'ana'),
    reason: orNull(Type.String(), 'Why, as given.', 'deploy'),
  },
  { additionalProperties: false },
);

/** One fire's fields, a job's or a workflow's. */
const ENTRY_FIELDS = {
  scheduledTime: Instant(iso('The fire’s scheduled time (its run keeps it)'), T1),
  until: InstantOrNull(
    'The last fire of a run of fires with the same fate, ISO-8601 UTC; null for one fire.',
  ),
  count: Type.Integer({ minimum: 1, description: 'How many fires the entry stands for.', examples: [1] }),
  outcome: StringEnum(LEDGER_OUTCOMES, {
    description:
      'ran: a run has it (logId, status); skipped: recorded as skipped (rule); calendar: a calendar removed it (not owed); exception: a one-off exception skipped it (not owed); paused: the job was stopped (not owed; stoppedBy names the change that stopped it); notYetDue: due too recently to judge; unexplained: owed, and nothing explains it.',
    examples: ['ran'],
  }),
  logId: orNull(Type.Integer(), 'The run (a skip range’s first run); null when none.', 30064771072),
  status: orNull(
    StringEnum(['running', 'success', 'fail'] as const),
    'ran: the run’s status (a broadcast’s worst shard).',
    'success',
  ),
  rule: orNull(
    StringEnum(SKIP_RULES),
    'skipped: misfire (not planned in time, or a FIRE_ONCE_NOW catch-up stood for it), overload (it reached the dispatcher past the misfire threshold), overlap (a later fire was claimed first; for a workflow also: its overlap policy started no run), block (the executor’s block strategy refused it).',
    'misfire',
  ),
  fireAt: InstantOrNull(
    'When it was due to fire, when not at its scheduled time (jitter, a move), ISO-8601 UTC.',
  ),
  calendar: orNull(LedgerCalendar, 'calendar: what removed the fire.', null),
  exception: orNull(LedgerException, 'exception, or a moved fire: the one-off exception.', null),
  stoppedBy: orNull(
    Type.String(),
    'paused: the audit action that stopped the job (job.stop, job.pausedByPolicy, job.scheduleEnded, workflow.stop, …).',
    'job.stop',
  ),
};

export const LedgerEntry = named(
  'LedgerEntry',
  Type.Object(ENTRY_FIELDS, {
    additionalProperties: false,
    description: 'One fire, or consecutive fires with the same fate.',
  }),
);

export const WorkflowLedgerEntry = named(
  'WorkflowLedgerEntry',
  Type.Object(
    {
      ...ENTRY_FIELDS,
      logId: orNull(
        Type.Integer(),
        'The schedule job’s run of the fire (a skip range’s first run); null when none.',
        30064771072,
      ),
      status: orNull(
        StringEnum(['running', 'success', 'fail'] as const),
        'ran: the workflow run’s status in short (QUEUED and RUNNING: running, SUCCEEDED: success, FAILED and CANCELLED: fail); fail without a runId when the start itself failed (the schedule job’s run says why); null when the run is no longer stored.',
        'success',
      ),
      runId: orNull(
        Type.String(),
        'ran: the workflow run the fire started; skipped by misfire: the catch-up run that stood for it; null otherwise.',
        'wr-s30064771072',
      ),
      runStatus: orNull(
        StringEnum(['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'] as const),
        'The workflow run’s status; null without a run, or when it is no longer stored (past its retention).',
        'SUCCEEDED',
      ),
    },
    {
      additionalProperties: false,
      description:
        'One fire of a workflow’s schedule, or consecutive fires with the same fate: ran is the workflow run it started; unexplained also when its schedule job claimed it and no workflow run came of it.',
    },
  ),
);

const counts = Object.fromEntries(LEDGER_OUTCOMES.map((o) => [o, count(`Fires whose outcome is ${o}.`)]));
const ruleCounts = Object.fromEntries(SKIP_RULES.map((r) => [r, count(`Fires skipped by the ${r} rule.`)]));

const summary = Type.Object(
  {
    ...counts,
    skippedBy: Type.Object(ruleCounts, {
      additionalProperties: false,
      description: 'Skipped fires per rule.',
      examples: [{ misfire: 2, overload: 0, overlap: 0, block: 0 }],
    }),
  },
  {
    additionalProperties: false,
    description: 'Fires per outcome, and skipped fires per rule.',
    examples: [
      {
        ran: 58,
        skipped: 2,
        calendar: 0,
        exception: 0,
        paused: 0,
        notYetDue: 0,
        unexplained: 0,
        skippedBy: { misfire: 2, overload: 0, overlap: 0, block: 0 },
      },
    ],
  },
);

/** What a job's and a workflow's ledger both say of the window. */
const LEDGER_FIELDS = {
  from: Instant(iso('The window’s start'), T1),
  to: Instant(iso('The window’s end'), '2030-01-02T10:00:00.000Z'),
  summary,
  definitionChangedInWindow: Type.Boolean({
    description: 'An audit record in the window changed the schedule; the ledger follows each change.',
    examples: [false],
  }),
  history: StringEnum(['audit', 'current'] as const, {
    description:
      'audit: the schedule’s history rebuilt from the audit log; current: the schedule as it is now.',
    examples: ['audit'],
  }),
  calendars: Type.Array(
    Type.Object(
      {
        id: text('The calendar.', 'de-holidays'),
        version: orNull(Type.Integer(), 'Its version as read now; null when it is missing.', 3),
        versionsUsed: Type.Array(Type.Integer(), {
          description:
            'The versions the ledger applied, each where it held (rebuilt from the calendar’s audit records).',
          examples: [[2, 3]],
        }),
      },
      { additionalProperties: false },
    ),
    {
      description:
        'The calendars the schedule named in the window, each read as it was at the time of each fire (from its audit records), with its version now and the versions applied.',
      examples: [[{ id: 'de-holidays', version: 3, versionsUsed: [2, 3] }]],
    },
  ),
  calendarsChangedInWindow: Type.Array(Type.String(), {
    description: 'Calendars changed inside the window (the ledger follows each of their versions).',
    examples: [[]],
  }),
  runsRead: count('Runs read to build the ledger.', 60),
};

export const FireLedger = named(
  'FireLedger',
  Type.Object(
    {
      jobId: Type.Integer({ description: 'The job.', examples: [7] }),
      ...LEDGER_FIELDS,
      entries: Type.Array(LedgerEntry, { description: 'The fires, oldest first.', examples: [[]] }),
    },
    {
      additionalProperties: false,
      description: 'The fires a job’s schedule owed in a window and what became of each.',
    },
  ),
);

export const WorkflowFireLedger = named(
  'WorkflowFireLedger',
  Type.Object(
    {
      workflowId: Type.Integer({ description: 'The workflow.', examples: [3] }),
      starterJobId: orNull(
        Type.Integer(),
        'The schedule job whose fires start the workflow’s runs; null without a schedule.',
        12,
      ),
      ...LEDGER_FIELDS,
      runsRead: count('The schedule job’s runs read to build the ledger.', 60),
      workflowRunsRead: count('Workflow runs read to build the ledger.', 58),
      entries: Type.Array(WorkflowLedgerEntry, { description: 'The fires, oldest first.', examples: [[]] }),
    },
    {
      additionalProperties: false,
      description:
        'The fires a workflow’s schedule owed in a window and the workflow run each started, or why none.',
    },
  ),
);
