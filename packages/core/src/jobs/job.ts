import { BLOCK_STRATEGIES, type BlockStrategy, GLUE_TYPES, type GlueType } from '@tickring/protocol';
import type { ScheduleCalendars } from '../calendars/calendar-schedule.js';
import type { ScheduleEndReason } from '../schedule/bounds.js';
import type { OccurrenceException } from '../schedule/occurrences.js';
import type { Deadline } from './deadline.js';
import type { FailurePolicy } from './failure-policy.js';

/**
 * Jobs and executor groups, named as in XXL-JOB so its users recognise every field.
 * Schedules, misfire and routing rules live in their own modules; this one holds the shapes.
 */
export const TRIGGER_STATUSES = ['RUNNING', 'STOPPED'] as const;
export type TriggerStatus = (typeof TRIGGER_STATUSES)[number];

// The executor-side names (XXL-JOB's enums) have one definition, the protocol's.
export { BLOCK_STRATEGIES, type BlockStrategy, GLUE_TYPES, type GlueType };

export const ADDRESS_TYPES = ['AUTO', 'MANUAL'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

export interface Job {
  readonly id: number;
  readonly appName: string;
  readonly name: string;
  readonly author: string;
  readonly alarmEmail: string;
  /** Optional URL POSTed with the run when its last retry fails. */
  readonly alarmWebhook: string;
  /**
   * Alert channels (ids) its alarms are routed to, besides alarmEmail / alarmWebhook; absent: its
   * group's `alertChannels`; `[]`: none, whatever the group says.
   */
  readonly alertChannels?: readonly string[];
  readonly scheduleType: 'NONE' | 'CRON' | 'FIX_RATE' | 'ONCE';
  readonly scheduleConf: string;
  /** IANA zone the cron is read in (XXL-JOB only has the server's zone). */
  readonly timeZone: string;
  readonly misfireStrategy: 'DO_NOTHING' | 'FIRE_ONCE_NOW';
  /** No scheduled fire before this instant (epoch ms); absent: no bound. */
  readonly startAt?: number;
  /** No scheduled fire after this instant (epoch ms); absent: no bound. */
  readonly endAt?: number;
  /** At most this many scheduled fires, counted in `scheduledFires`; absent: no limit. */
  readonly maxRuns?: number;
  /**
   * Each scheduled fire is delayed by an offset in [0, jitterSeconds) s derived from the job and the
   * fire's scheduled time (see `jitterOffsetMs`); 0 or absent: none.
   */
  readonly jitterSeconds?: number;
  /**
   * One-off exceptions: single occurrences skipped or moved, by scheduled time (see occurrences.ts);
   * changed only through the occurrence routes, with the job's version. Absent: none.
   */
  readonly occurrenceExceptions?: readonly OccurrenceException[];
  /**
   * The calendars the schedule follows (ids): `only` fires on working days of every one listed,
   * `exclude` never on a date one of them excludes; absent: none (see calendar-schedule.ts).
   */
  readonly calendars?: ScheduleCalendars;
  readonly executorRouteStrategy: string;
  readonly executorHandler: string;
  readonly executorParam: string;
  readonly executorBlockStrategy: BlockStrategy;
  /** Seconds; 0 = none. */
  readonly executorTimeout: number;
  readonly executorFailRetryCount: number;
  /** Seconds before the first retry; doubles for each further one. */
  readonly retryBackoffSeconds: number;
  readonly glueType: GlueType;
  readonly glueSource: string;
  readonly glueUpdatetime: number;
  readonly childJobIds: readonly number[];
  readonly triggerStatus: TriggerStatus;
  /** Epoch ms of the last fire handed to the ring, 0 when none. */
  readonly triggerLastTime: number;
  /** Epoch ms of the next fire while RUNNING, null otherwise. */
  readonly triggerNextTime: number | null;
  /** Until this time (epoch ms) fires go to the slow ring queue; set by the dispatcher. */
  readonly slowUntil: number;
  /**
   * Bumped when the schedule or the trigger status changes: fires enqueued under an older revision
   * are dropped by the dispatcher, so a stop or a schedule edit takes effect from the next fire.
   */
  readonly scheduleRevision: number;
  /**
   * The schedule's fires made since `maxRuns` was set (kept only while it is): moved on by the tick
   * in the write that advances the schedule, so a retried tick counts nothing twice.
   */
  readonly scheduledFires?: number;
  /** Why and when the schedule stopped itself (its bounds reached, or no next fire); cleared by a start. */
  readonly scheduleEnded?: ScheduleEnded;
  /** Pause the job after too many final failures (see failure-policy.ts); absent: never paused. */
  readonly failurePolicy?: FailurePolicy;
  /** Set while the job is stopped by its failure policy; cleared by a start (a user's, or the resume). */
  readonly pausedBy?: PausedBy;
  /** "Must have succeeded by": see deadline.ts; absent: none. */
  readonly deadline?: Deadline;
  /** When the deadline was set or last changed (epoch ms): windows that began before are never missed. */
  readonly deadlineSetAt?: number;
  /** Days its run records are kept (1..3650); absent: the deployment's TICKRING_LOG_RETENTION_DAYS. */
  readonly logRetentionDays?: number;
  /**
   * The share (0, 1] of successful runs kept for the whole retention; the others are kept one day
   * (see log-retention.ts). Absent: all.
   */
  readonly keepSuccessfulRuns?: number;
  /**
   * Set on the job a scheduled workflow's schedule fires (its starter job, managed by the workflow):
   * its runs start a run of that workflow instead of calling an executor.
   */
  readonly workflowId?: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Optimistic-concurrency counter, bumped by every write of the definition. */
  readonly version: number;
}

/** A schedule that stopped itself: why, and when (epoch ms; the tick's time when it stopped the job). */
export interface ScheduleEnded {
  readonly reason: ScheduleEndReason;
  readonly at: number;
}

/** A job its failure policy stopped: when, the failures that met the rule, and when it starts again. */
export interface PausedBy {
  readonly reason: 'failurePolicy';
  readonly at: number;
  /** Final failures among the last `ofLast` final outcomes when it paused. */
  readonly failures: number;
  readonly ofLast: number;
  /** When the monitors start it again (resumeAfterSeconds); absent: a user starts it. */
  readonly resumeAt?: number;
}

export interface Group {
  readonly appName: string;
  readonly title: string;
  readonly addressType: AddressType;
  /** MANUAL groups: the configured addresses. AUTO groups: empty (addresses come from the registry). */
  readonly addressList: readonly string[];
  /**
   * When the group was given an access token of its own (XXL-JOB 3.5's per-group token), which its
   * executors and the dispatcher use instead of the global one; absent: the global token applies.
   * The token itself is kept sealed beside the group, never in this record.
   */
  readonly accessTokenSetAt?: number;
  /** Alert channels (ids) of the group's jobs that name none of their own. */
  readonly alertChannels?: readonly string[];
  readonly createdAt: number;
  readonly updatedAt: number;
}

export function isSlow(job: Pick<Job, 'slowUntil'>, nowMs: number): boolean {
  return job.slowUntil > nowMs;
}
