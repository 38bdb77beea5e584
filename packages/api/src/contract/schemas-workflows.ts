/**
 * The shapes of workflows (DAGs of jobs) and their runs: the definition as a request body, the
 * workflow and run views, their list queries and pages. Limits and value lists come from the
 * domain (WORKFLOW_LIMITS, OVERLAP_POLICIES, EDGE_CONDITIONS, ...), so the document and the domain's
 * checks say the same.
 *
 * The definition body is checked by the use-case, not by the router (its route says `checkedBy:
 * 'use-case'`): `validateWorkflow` reports every problem at once, the structural ones together with
 * those no schema can express (a cycle, an upstream key that is no node, a job of another group).
 * The schema here documents the body (and types the client).
 */
import { type Static, Type } from '@sinclair/typebox';
import { TRIGGER_STATUSES } from '@tickring/core/jobs';
import { MAX_JOB_ID } from '@tickring/core/runs';
import { MISFIRE_STRATEGIES, SCHEDULE_TYPES } from '@tickring/core/schedule';
import {
  EDGE_CONDITIONS,
  NODE_STATUSES,
  OVERLAP_POLICIES,
  WORKFLOW_DEFAULTS,
  WORKFLOW_LIMITS,
  WORKFLOW_RUN_ID,
} from '@tickring/core/workflows';
import { named, StringEnum } from './kit.js';
import { Cursor, Instant, InstantOrNull, iso, Limit, NextCursor } from './schemas-common.js';
import {
  Deadline,
  DeadlineStatus,
  SCHEDULE_BOUND_FIELDS,
  SCHEDULE_CALENDARS_TEXT,
  ScheduleCalendarsSchema,
  ScheduleCalendarsView,
  ScheduleEnded,
} from './schemas-jobs.js';

/** A workflow run's status: QUEUED while BUFFER_ONE keeps it waiting, then its progress's. */
export const WORKFLOW_RUN_STATUSES = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED'] as const;

// ---------------------------------------------------------------------------------------------
// Parameters

export const WorkflowIdParam = Type.Integer({ minimum: 1, description: 'The workflow’s id.', examples: [3] });
export const WorkflowRunIdParam = Type.String({
  pattern: WORKFLOW_RUN_ID.source,
  description: 'The workflow run’s id (`wr-…`).',
  examples: ['wr-m5x8k2a1-3f9c1d2e6b8a'],
});

// ---------------------------------------------------------------------------------------------
// The definition

const NODE_KEY_WORDS = `1-${WORKFLOW_LIMITS.keyLength} characters of letters, digits, '_' and '-', starting with a letter`;

export const WorkflowEdge = named(
  'WorkflowEdge',
  Type.Object(
    {
      key: Type.String({
        pattern: `^[A-Za-z][A-Za-z0-9_-]{0,${WORKFLOW_LIMITS.keyLength - 1}}$`,
        description: 'The upstream node’s key: another node of the workflow, listed once per node.',
        examples: ['extract'],
      }),
      condition: Type.Optional(
        StringEnum(EDGE_CONDITIONS, {
          default: 'ON_SUCCESS',
          description:
            'When the node may run after this upstream node: ON_SUCCESS (it succeeded), ON_FAILURE (it failed: a failure handler, which makes that failure handled), ALWAYS (it finished in any way, skipped included: cleanup, notification). A node runs once every upstream node has finished and each edge’s condition holds; it is skipped as soon as one cannot hold any more.',
          examples: ['ON_SUCCESS'],
        }),
      ),
    },
    { additionalProperties: false, description: 'An edge from an upstream node.' },
  ),
);

export const WorkflowNode = named(
  'WorkflowNode',
  Type.Object(
    {
      key: Type.String({
        pattern: `^[A-Za-z][A-Za-z0-9_-]{0,${WORKFLOW_LIMITS.keyLength - 1}}$`,
        description: `The node’s key, unique in the workflow: ${NODE_KEY_WORDS}.`,
        examples: ['extract'],
      }),
      jobId: Type.Integer({
        minimum: 1,
        maximum: MAX_JOB_ID,
        description:
          'The job the node runs: a job of the workflow’s group (not a workflow’s schedule job). Its handler, routing, timeout and retries apply.',
        examples: [7],
      }),
      executorParam: Type.Optional(
        Type.String({
          description: `A template for the run’s executorParam (at most ${WORKFLOW_LIMITS.templateBytes} bytes): \`{{ input.x }}\` reads the run’s input, \`{{ nodes.<key>.result.a[0] }}\` an upstream node’s result (parsed as JSON when it is JSON), \`{{ '{{' }}\` is a literal. Only ancestors’ results may be named; a value missing at run time fails the node with the path named. Absent: the job’s own executorParam.`,
          examples: ['{"date": "{{ input.date }}", "rows": {{ nodes.extract.result.rows }}}'],
        }),
      ),
      upstream: Type.Optional(
        Type.Array(WorkflowEdge, {
          maxItems: WORKFLOW_LIMITS.nodes,
          default: [],
          description:
            'The nodes it runs after; empty (or absent) for a root, which runs when the run starts.',
          examples: [[{ key: 'extract', condition: 'ON_SUCCESS' }]],
        }),
      ),
    },
    { additionalProperties: false, description: 'A node: one run of a job per attempt.' },
  ),
);

/** The definition's fields: the request bodies and the workflow view are made of them. */
const DEFINITION_FIELDS = {
  name: Type.String({
    minLength: 1,
    maxLength: WORKFLOW_LIMITS.name,
    description: 'What the workflow does; not blank.',
    examples: ['Nightly ETL'],
  }),
  appName: Type.String({
    minLength: WORKFLOW_LIMITS.appNameMin,
    maxLength: WORKFLOW_LIMITS.appName,
    description:
      'The executor group the workflow belongs to (its AppName): every node’s job must be of it, and access to the workflow is access to the group.',
    examples: ['my-app'],
  }),
  scheduleType: StringEnum(SCHEDULE_TYPES, {
    description:
      'NONE: runs only when triggered (POST /v1/workflows/{id}/trigger); CRON, FIX_RATE, ONCE: as a job’s schedule (the workflow’s schedule job fires it).',
    examples: ['CRON'],
  }),
  scheduleConf: Type.String({
    maxLength: WORKFLOW_LIMITS.scheduleConf,
    description:
      'The schedule, read by scheduleType: a Quartz cron (`0 0 2 * * ?`), whole seconds >= 1 (`30`), or an instant with a zone; empty for NONE.',
    examples: ['0 0 2 * * ?'],
  }),
  timeZone: Type.String({
    maxLength: WORKFLOW_LIMITS.timeZone,
    description: 'The IANA time zone a cron is read in.',
    examples: ['Europe/Berlin'],
  }),
  misfireStrategy: StringEnum(MISFIRE_STRATEGIES, {
    description:
      'A scheduled fire more than 5 s late: DO_NOTHING skips it; FIRE_ONCE_NOW starts one catch-up run.',
    examples: ['DO_NOTHING'],
  }),
  calendars: Type.Union([ScheduleCalendarsSchema, Type.Null()], {
    description: `The calendars the schedule follows, by id, as a job’s (its schedule job carries them); null, {} or empty lists: none (a workflow read shows empty lists). ${SCHEDULE_CALENDARS_TEXT}`,
    examples: [{ only: ['cn-workdays'], exclude: [] }],
  }),
  overlapPolicy: StringEnum(OVERLAP_POLICIES, {
    description:
      'A new run (scheduled or triggered) while another runs: SKIP does not start it (a trigger answers 409); BUFFER_ONE lets one wait (QUEUED) and starts it when the running one ends, later ones are skipped; ALLOW starts it beside the others; CANCEL_PREVIOUS cancels the running ones and starts it.',
    examples: ['SKIP'],
  }),
  deadline: Type.Union([Deadline, Type.Null()], {
    description:
      'Must have succeeded by a local time each day, as a job’s deadline: a window (from the deadline before to this one) in which no run of the workflow ended SUCCEEDED raises one deadlineMissed alarm (through its schedule job’s alarm paths; a workflow without a schedule, its first node’s job’s). null or absent: none.',
    examples: [{ time: '06:00', timeZone: 'Europe/Berlin', days: 'weekdays' }],
  }),
  nodes: Type.Array(WorkflowNode, {
    minItems: 1,
    maxItems: WORKFLOW_LIMITS.nodes,
    description: `The DAG: 1-${WORKFLOW_LIMITS.nodes} nodes, keys unique, no cycles (each cycle is named), at least one root, no node that no combination of outcomes can run.`,
    examples: [[{ key: 'extract', jobId: 7, upstream: [] }]],
  }),
};

const TriggerStatusField = StringEnum(TRIGGER_STATUSES, {
  description:
    'RUNNING: the schedule fires; STOPPED: the workflow runs only when triggered. A NONE schedule is always STOPPED.',
  examples: ['RUNNING'],
});

const readOnly = (description: string, example: unknown) =>
  Type.Optional(Type.Unknown({ readOnly: true, description, examples: [example] }));
const ECHOED = 'Read-only: shown in answers; a body may carry it (a workflow as read) and it is ignored.';

export const WorkflowRequest = named(
  'WorkflowRequest',
  Type.Object(
    {
      name: DEFINITION_FIELDS.name,
      appName: DEFINITION_FIELDS.appName,
      scheduleType: Type.Optional({
        ...DEFINITION_FIELDS.scheduleType,
        default: WORKFLOW_DEFAULTS.scheduleType,
      }),
      scheduleConf: Type.Optional({
        ...DEFINITION_FIELDS.scheduleConf,
        default: WORKFLOW_DEFAULTS.scheduleConf,
      }),
      timeZone: Type.Optional({ ...DEFINITION_FIELDS.timeZone, default: WORKFLOW_DEFAULTS.timeZone }),
      misfireStrategy: Type.Optional({
        ...DEFINITION_FIELDS.misfireStrategy,
        default: WORKFLOW_DEFAULTS.misfireStrategy,
      }),
      startAt: Type.Optional(SCHEDULE_BOUND_FIELDS.startAt),
      endAt: Type.Optional(SCHEDULE_BOUND_FIELDS.endAt),
      maxRuns: Type.Optional(SCHEDULE_BOUND_FIELDS.maxRuns),
      jitterSeconds: Type.Optional({ ...SCHEDULE_BOUND_FIELDS.jitterSeconds, default: 0 }),
      calendars: Type.Optional(DEFINITION_FIELDS.calendars),
      overlapPolicy: Type.Optional({
        ...DEFINITION_FIELDS.overlapPolicy,
        default: WORKFLOW_DEFAULTS.overlapPolicy,
      }),
      deadline: Type.Optional(DEFINITION_FIELDS.deadline),
      nodes: DEFINITION_FIELDS.nodes,
      triggerStatus: Type.Optional({
        ...TriggerStatusField,
        description: `${TriggerStatusField.description} POST: STOPPED when absent; PUT: the workflow’s when absent.`,
      }),
      id: readOnly('PUT: when given, it must be the id in the path. POST: ignored.', 3),
      version: readOnly(
        'PUT: when given, it must be the workflow’s current version, or the answer is 409 (optimistic concurrency). POST: ignored.',
        1,
      ),
      starterJobId: readOnly(ECHOED, null),
      triggerNextTime: readOnly(ECHOED, null),
      activeRuns: readOnly(ECHOED, 0),
      bufferedRunId: readOnly(ECHOED, null),
      runsRemaining: readOnly(ECHOED, null),
      scheduleEnded: readOnly(ECHOED, null),
      deadlineStatus: readOnly(ECHOED, null),
      createdAt: readOnly(ECHOED, '2030-01-01T02:00:00.000Z'),
      updatedAt: readOnly(ECHOED, '2030-01-01T02:00:00.000Z'),
    },
    {
      additionalProperties: false,
      description:
        'A workflow definition: the whole of it (a PUT replaces the definition, as a new version). Checked as a whole, every problem at once: the fields, the graph (each cycle named), the templates, the group and every node’s job. A workflow read with GET may be sent back: read-only fields are ignored.',
    },
  ),
);

// ---------------------------------------------------------------------------------------------
// Workflows

export const Workflow = named(
  'Workflow',
  Type.Object(
    {
      id: Type.Integer({ minimum: 1, description: 'The workflow’s id.', examples: [3] }),
      version: Type.Integer({
        minimum: 1,
        description:
          'The definition’s version: 1 on create, +1 per PUT. Runs keep the version they started with; send it back in a PUT to refuse (409) a lost update.',
        examples: [1],
      }),
      ...DEFINITION_FIELDS,
      ...SCHEDULE_BOUND_FIELDS,
      calendars: ScheduleCalendarsView,
      triggerStatus: TriggerStatusField,
      starterJobId: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
        description:
          'The job of the group whose schedule starts the workflow (managed by the workflow: the job routes refuse to change it, 409); null for a NONE schedule.',
        examples: [12, null],
      }),
      triggerNextTime: InstantOrNull(
        'The schedule’s next fire while RUNNING (its schedule job’s), ISO-8601 UTC; null when stopped or NONE.',
      ),
      runsRemaining: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
        description: 'Scheduled fires left under maxRuns (its schedule job’s count); null without a limit.',
        examples: [null],
      }),
      scheduleEnded: Type.Union([ScheduleEnded, Type.Null()], {
        description:
          'Set when the schedule stopped itself (maxRuns used up, past endAt, no next fire): why and when; the workflow is then STOPPED. Cleared when it is started again. null otherwise.',
        examples: [null],
      }),
      deadlineStatus: Type.Union([DeadlineStatus, Type.Null()], {
        description:
          'Where the workflow stands against its deadline: met (a run ended SUCCEEDED in the current window, at), missed (the last window closed without one; shown until a success), pending; null without a deadline.',
        examples: [null],
      }),
      activeRuns: Type.Integer({ minimum: 0, description: 'Runs RUNNING now.', examples: [0] }),
      bufferedRunId: Type.Union([Type.String(), Type.Null()], {
        description: 'The run BUFFER_ONE keeps waiting (QUEUED); null when none.',
        examples: [null],
      }),
      createdAt: Instant(iso('When the workflow was created')),
      updatedAt: Instant(iso('When the workflow last changed')),
    },
    {
      additionalProperties: false,
      description: 'A workflow: a DAG of jobs of one group, with its schedule.',
    },
  ),
);

export const WorkflowPage = named(
  'WorkflowPage',
  Type.Object(
    {
      items: Type.Array(Workflow, { description: 'Workflows in id order.', examples: [] }),
      nextCursor: NextCursor,
    },
    { additionalProperties: false, description: 'A page of workflows.' },
  ),
);

export const WorkflowListQuery = Type.Object({
  appName: Type.Optional(
    Type.String({ description: 'Only the workflows of this executor group.', examples: ['my-app'] }),
  ),
  limit: Limit,
  cursor: Type.Optional(Cursor),
});

export const WorkflowTriggerRequest = named(
  'WorkflowTriggerRequest',
  Type.Object(
    {
      input: Type.Optional(
        Type.Unknown({
          description:
            'The run’s input, any JSON (at most 64 KiB as JSON); templates read it as `input`. Absent: `{}`.',
          examples: [{ date: '2030-01-01' }],
        }),
      ),
    },
    {
      additionalProperties: false,
      description: 'What a run started by hand gets; the body may be absent.',
    },
  ),
);

// ---------------------------------------------------------------------------------------------
// Runs

const runFields = {
  id: Type.String({ description: 'The run’s id.', examples: ['wr-m5x8k2a1-3f9c1d2e6b8a'] }),
  workflowId: Type.Integer({ minimum: 1, description: 'Its workflow.', examples: [3] }),
  version: Type.Integer({
    minimum: 1,
    description: 'The definition version it follows, whatever edits came later.',
    examples: [1],
  }),
  workflowName: Type.String({
    description: 'The workflow’s name when it started.',
    examples: ['Nightly ETL'],
  }),
  appName: Type.String({ description: 'The workflow’s group.', examples: ['my-app'] }),
  status: StringEnum(WORKFLOW_RUN_STATUSES, {
    description:
      'QUEUED: waiting for the running run (BUFFER_ONE); RUNNING; SUCCEEDED: every failure handled; FAILED: a node’s failure was not handled (failedNodes); CANCELLED.',
    examples: ['RUNNING'],
  }),
  input: Type.Unknown({ description: 'The run’s input (JSON).', examples: [{ date: '2030-01-01' }] }),
  trigger: Type.Object(
    {
      type: StringEnum(['SCHEDULE', 'MANUAL', 'BACKFILL'], {
        description:
          'SCHEDULE: its schedule fired; MANUAL: POST /v1/workflows/{id}/trigger; BACKFILL: a backfill of its schedule (POST /v1/workflows/{id}/backfill).',
        examples: ['MANUAL'],
      }),
      starterLogId: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
        description: 'SCHEDULE and BACKFILL: the run of the schedule job that started it; null otherwise.',
        examples: [null],
      }),
      scheduledTime: InstantOrNull(
        iso(
          'BACKFILL: the past fire’s scheduled time (also the run’s input `scheduledTime`); null otherwise',
        ),
      ),
      by: Type.Union([Type.String(), Type.Null()], {
        description: 'MANUAL: who triggered it (a username, `token:<name>` or `bootstrap`); null otherwise.',
        examples: ['ana'],
      }),
    },
    {
      additionalProperties: false,
      description: 'What started it.',
      examples: [{ type: 'MANUAL', starterLogId: null, scheduledTime: null, by: 'ana' }],
    },
  ),
  createdAt: Instant(iso('When the run was made')),
  startedAt: InstantOrNull(
    'When it started running (a QUEUED run later than it was made), ISO-8601 UTC; null before.',
  ),
  finishedAt: InstantOrNull('When it ended (SUCCEEDED, FAILED, CANCELLED), ISO-8601 UTC; null before.'),
  failedNodes: Type.Array(Type.String(), {
    description:
      'FAILED: the nodes whose failure no ON_FAILURE node handled, in definition order; else empty.',
    examples: [['load']],
  }),
};

const count = (description: string) => Type.Integer({ minimum: 0, description, examples: [1] });

export const WorkflowNodeCounts = Type.Object(
  {
    PENDING: count('Nodes waiting for their upstream nodes.'),
    RUNNING: count('Nodes whose job runs.'),
    SUCCEEDED: count('Nodes that succeeded.'),
    FAILED: count('Nodes that failed.'),
    SKIPPED: count('Nodes skipped (an upstream condition can no longer hold).'),
    CANCELLED: count('Nodes cancelled before they ran.'),
  },
  {
    additionalProperties: false,
    description: 'The run’s nodes by status (a QUEUED run has none yet).',
    examples: [{ PENDING: 1, RUNNING: 1, SUCCEEDED: 1, FAILED: 0, SKIPPED: 0, CANCELLED: 0 }],
  },
);

export const WorkflowRunNode = named(
  'WorkflowRunNode',
  Type.Object(
    {
      key: Type.String({ description: 'The node’s key.', examples: ['extract'] }),
      jobId: Type.Integer({ minimum: 1, description: 'The job it runs.', examples: [7] }),
      status: StringEnum(NODE_STATUSES, {
        description:
          'PENDING until fired; RUNNING until its job run (every shard of a broadcast) ended for good, retries included; then SUCCEEDED or FAILED; SKIPPED when an upstream condition can no longer hold; CANCELLED when the run was cancelled before it ran.',
        examples: ['SUCCEEDED'],
      }),
      attempt: Type.Integer({
        minimum: 0,
        description: 'Times the node was fired (0 before the first; a retry of the run fires it again).',
        examples: [1],
      }),
      upstream: Type.Array(
        Type.Object(
          {
            key: Type.String({ description: 'The upstream node.', examples: ['extract'] }),
            condition: StringEnum(EDGE_CONDITIONS, {
              description: 'The edge’s condition.',
              examples: ['ON_SUCCESS'],
            }),
          },
          { additionalProperties: false },
        ),
        { description: 'Its edges, as defined.', examples: [[{ key: 'extract', condition: 'ON_SUCCESS' }]] },
      ),
      result: Type.Union([Type.String(), Type.Null()], {
        description:
          'SUCCEEDED or FAILED: its job run’s result message (handleMsg; a broadcast’s: the shards’ results as a JSON array); null otherwise.',
        examples: ['{"rows": 1204}'],
      }),
      resultJson: Type.Unknown({
        description: 'The result parsed as JSON, as templates read it; null when it is not JSON (or none).',
        examples: [{ rows: 1204 }],
      }),
      reason: Type.Union([Type.String(), Type.Null()], {
        description: 'SKIPPED or CANCELLED: why; null otherwise.',
        examples: [null],
      }),
      logIds: Type.Array(Type.Integer({ minimum: 1 }), {
        description:
          'The job runs of its current attempt (GET /v1/logs/{logId}): one, or one per broadcast shard (their latest retries); empty before a dispatcher claimed them.',
        examples: [[30064771073]],
      }),
      firedAt: InstantOrNull('When its current attempt was fired, ISO-8601 UTC; null before.'),
      finishedAt: InstantOrNull(
        'When it last finished (or was skipped or cancelled), ISO-8601 UTC; null before.',
      ),
    },
    { additionalProperties: false, description: 'A node of a run: its state, result and job runs.' },
  ),
);

export const WorkflowRun = named(
  'WorkflowRun',
  Type.Object(
    {
      ...runFields,
      nodes: Type.Array(WorkflowRunNode, {
        description: 'Every node of the run’s definition version, in definition order.',
        examples: [],
      }),
    },
    { additionalProperties: false, description: 'A run of a workflow, with its nodes.' },
  ),
);

export const WorkflowRunSummary = named(
  'WorkflowRunSummary',
  Type.Object(
    { ...runFields, nodeCounts: WorkflowNodeCounts },
    {
      additionalProperties: false,
      description:
        'A run of a workflow as lists show it: its nodes counted by status (GET the run for them).',
    },
  ),
);

export const WorkflowRunPage = named(
  'WorkflowRunPage',
  Type.Object(
    {
      items: Type.Array(WorkflowRunSummary, { description: 'Runs, newest first.', examples: [] }),
      nextCursor: NextCursor,
    },
    { additionalProperties: false, description: 'A page of workflow runs.' },
  ),
);

export const WorkflowRunListQuery = Type.Object({
  workflowId: Type.Optional(
    Type.Integer({ minimum: 1, description: 'Only this workflow’s runs.', examples: [3] }),
  ),
  appName: Type.Optional(
    Type.String({ description: 'Only the runs of this group’s workflows.', examples: ['my-app'] }),
  ),
  status: Type.Optional(
    StringEnum(WORKFLOW_RUN_STATUSES, { description: 'Only runs in this status.', examples: ['FAILED'] }),
  ),
  limit: Limit,
  cursor: Type.Optional(Cursor),
});

export type WorkflowView = Static<typeof Workflow>;
export type WorkflowRunView = Static<typeof WorkflowRun>;
export type WorkflowRunSummaryView = Static<typeof WorkflowRunSummary>;
export type WorkflowRequestBody = Static<typeof WorkflowRequest>;
