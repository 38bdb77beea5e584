/** Runs: one execution of a job on one executor, its list and its log. */
import { type Static, Type } from '@sinclair/typebox';
import { TRIGGER_TYPES } from '@tickring/core/dispatch';
import { RUN_STATUSES } from '@tickring/core/runs';
import { defaulted, named, StringEnum } from './kit.js';
import { Cursor, Instant, InstantOrNull, iso, Limit, NextCursor } from './schemas-common.js';

export const LogIdParam = Type.Integer({
  minimum: 1,
  description: 'The run’s logId (jobId × 2^32 + n).',
  examples: [30064771073],
});

const SKIPPED_RANGE =
  'A skipped run may stand for a range of skipped fires of its job: from scheduledTime to skippedUntil, skippedCount fires.';

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
          'running: sent, no result yet; success: handled with 200; fail: refused, failed or timed out; skipped: a misfire, never sent (one record may stand for a range of its job’s fires: skippedCount, skippedUntil).',
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
      skippedCount: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
        description: `How many fires it stands for; null unless skipped. ${SKIPPED_RANGE}`,
        examples: [null, 12],
      }),
      skippedUntil: InstantOrNull(
        `When the last fire it stands for was due (ISO-8601 UTC; scheduledTime when it stands for one); null unless skipped. ${SKIPPED_RANGE}`,
      ),
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

export type RunView = Static<typeof Run>;
