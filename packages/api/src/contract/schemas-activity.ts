/** What the runs did: the dashboard's days and the live activity chart's recent buckets. */
import { Type } from '@sinclair/typebox';
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
import { defaulted, named, StringEnum } from './kit.js';
import { Instant, InstantOrNull, iso } from './schemas-common.js';
import { Run } from './schemas-runs.js';

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
