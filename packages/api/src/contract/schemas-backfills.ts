/**
 * The shapes of backfills: the request (a past range of a job's schedule, its parallelism and rate),
 * the preview, the backfill with its progress. Limits come from the domain (BACKFILL_LIMITS); the
 * checks against the job and the clock (a range in the past, at most so many fires, a CRON or
 * FIX_RATE schedule) are the use-case's, every problem at once.
 */
import { Type } from '@sinclair/typebox';
import { BACKFILL_LIMITS, BACKFILL_STATES, MAX_LISTED_FAILURES } from '@tickring/core/backfills';
import { named, StringEnum } from './kit.js';
import { Cursor, Instant, InstantOrNull, iso, Limit, NextCursor } from './schemas-common.js';

export const BackfillIdParam = Type.String({
  pattern: '^bf-\\d+-[0-9a-z]+-[0-9a-f]{4}$',
  description: 'The backfill’s id (it names its job).',
  examples: ['bf-7-mfx3k2a1-9c1e'],
});

const RANGE = {
  from: Instant(iso('The range’s start: the first fire is at or after it'), '2030-01-01T00:00:00.000Z'),
  to: Instant(iso('The range’s end: every fire is before it; not in the future'), '2030-01-02T00:00:00.000Z'),
};

export const BackfillPreviewRequest = named(
  'BackfillPreviewRequest',
  Type.Object(RANGE, {
    additionalProperties: false,
    description: 'A past range of the job’s schedule.',
  }),
);

export const BackfillRequest = named(
  'BackfillRequest',
  Type.Object(
    {
      ...RANGE,
      parallelism: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: BACKFILL_LIMITS.parallelism,
          default: 1,
          description:
            'Most of the backfill’s fires running at once; 1 (the default) runs them one after another.',
          examples: [2],
        }),
      ),
      ratePerMinute: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: BACKFILL_LIMITS.ratePerMinute,
          description:
            'Most fires started a minute (spread evenly); absent: as fast as the parallelism allows.',
          examples: [30],
        }),
      ),
    },
    {
      additionalProperties: false,
      description: `Runs the fires the job’s schedule (CRON or FIX_RATE) would have made in [from, to), within its startAt / endAt, each with its own scheduled time; at most ${BACKFILL_LIMITS.fires} fires.`,
    },
  ),
);

export const BackfillPreview = named(
  'BackfillPreview',
  Type.Object(
    {
      jobId: Type.Integer({ description: 'The job (a workflow’s: its starter job).', examples: [7] }),
      workflowId: Type.Union([Type.Integer(), Type.Null()], {
        description: 'The workflow whose schedule it previews; null: a job’s.',
        examples: [null],
      }),
      from: Instant(iso('The range’s start')),
      to: Instant(iso('The range’s end')),
      total: Type.Integer({
        minimum: 0,
        description: `The fires the range holds, counted up to the limit + 1.`,
        examples: [288],
      }),
      tooMany: Type.Boolean({
        description: 'More fires than a backfill may make: split the range.',
        examples: [false],
      }),
      limit: Type.Integer({ description: 'Most fires of one backfill.', examples: [BACKFILL_LIMITS.fires] }),
      first: InstantOrNull(iso('The first fire’s scheduled time (null: none)')),
      last: InstantOrNull(iso('The last fire’s scheduled time, within the limit (null: none)')),
    },
    { additionalProperties: false },
  ),
);

const RunningFire = Type.Object(
  {
    scheduledTime: Instant(iso('The fire’s scheduled time')),
    logId: Type.Integer({
      description: 'Its run (a broadcast’s first shard).',
      examples: [30064771073 + 2 ** 31],
    }),
  },
  { additionalProperties: false },
);

export const Backfill = named(
  'Backfill',
  Type.Object(
    {
      id: BackfillIdParam,
      jobId: Type.Integer({
        description: 'The job whose schedule it runs (a workflow’s: its starter job).',
        examples: [7],
      }),
      workflowId: Type.Union([Type.Integer(), Type.Null()], {
        description:
          'The workflow whose schedule it runs: each fire starts a workflow run (trigger BACKFILL) and runs until that run ends; null: a job’s.',
        examples: [null],
      }),
      appName: Type.String({ description: 'The job’s group.', examples: ['orders'] }),
      from: Instant(iso('The range’s start')),
      to: Instant(iso('The range’s end')),
      parallelism: Type.Integer({ description: 'Most of its fires running at once.', examples: [2] }),
      ratePerMinute: Type.Union([Type.Integer(), Type.Null()], {
        description: 'Most fires started a minute; null: no rate limit.',
        examples: [30, null],
      }),
      scheduleType: StringEnum(['CRON', 'FIX_RATE'], {
        description: 'The schedule it follows, as the job had it when it started.',
        examples: ['CRON'],
      }),
      scheduleConf: Type.String({
        description: 'The schedule’s cron or seconds.',
        examples: ['0 0 * * * ?'],
      }),
      timeZone: Type.String({ description: 'The zone its cron is read in.', examples: ['Europe/Berlin'] }),
      state: StringEnum(BACKFILL_STATES, {
        description:
          'RUNNING: fires are being started or run. COMPLETED: every fire ran (`failed` of them failed). CANCELLED: no fire started after the cancel (those running then finish and are counted; `endedAt` says when).',
        examples: ['RUNNING'],
      }),
      total: Type.Integer({ minimum: 0, description: 'The fires the range holds.', examples: [24] }),
      dispatched: Type.Integer({ minimum: 0, description: 'Fires started.', examples: [10] }),
      succeeded: Type.Integer({ minimum: 0, description: 'Fires whose run succeeded.', examples: [7] }),
      failed: Type.Integer({
        minimum: 0,
        description: 'Fires whose run failed (or was refused).',
        examples: [1],
      }),
      running: Type.Integer({ minimum: 0, description: 'Fires started and not finished.', examples: [2] }),
      runningFires: Type.Array(RunningFire, {
        description: 'The fires running now, with their runs.',
        examples: [[{ scheduledTime: '2030-01-01T08:00:00.000Z', logId: 30064771073 + 2 ** 31 + 8 }]],
      }),
      failures: Type.Array(Type.String({ format: 'date-time' }), {
        description: `The failed fires’ scheduled times, oldest first (the first ${MAX_LISTED_FAILURES}).`,
        examples: [['2030-01-01T03:00:00.000Z']],
      }),
      nextFireTime: InstantOrNull(iso('The next fire to start (null: none left)')),
      createdAt: Instant(iso('Started')),
      createdBy: Type.String({ description: 'Who started it.', examples: ['ana'] }),
      cancelledAt: InstantOrNull(iso('Cancelled (null: not cancelled)')),
      cancelledBy: Type.Union([Type.String(), Type.Null()], {
        description: 'Who cancelled it (null: not cancelled).',
        examples: [null, 'ana'],
      }),
      stopReason: Type.Union([Type.String(), Type.Null()], {
        description: 'Why the system stopped it (its job was deleted); null otherwise.',
        examples: [null],
      }),
      endedAt: InstantOrNull(iso('When its last fire finished (null while any runs)')),
    },
    { additionalProperties: false },
  ),
);

export const BackfillListQuery = Type.Object({ limit: Limit, cursor: Type.Optional(Cursor) });

export const BackfillPage = named(
  'BackfillPage',
  Type.Object(
    { items: Type.Array(Backfill, { description: 'Newest first.', examples: [[]] }), nextCursor: NextCursor },
    { additionalProperties: false },
  ),
);
