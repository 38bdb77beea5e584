import type { CalendarGate } from '../calendars/calendar-schedule.js';
import type { ScheduleBounds } from '../schedule/bounds.js';
import type { Schedule } from '../schedule/schedule.js';

/**
 * A backfill: the fires a job's schedule would have made in a past range, run now, each with its own
 * scheduled time, at most `parallelism` at once and at most `ratePerMinute` started a minute. Its own
 * record (never fields on the job): a cursor (the next scheduled time to fire), the fires in flight
 * (their runs' logIds) and the counters, all moved in one write conditional on `revision`.
 */

/** RUNNING: fires are still being started or are running. COMPLETED: every fire ran (see `failed`). CANCELLED: no new fire after the cancel. */
export const BACKFILL_STATES = ['RUNNING', 'COMPLETED', 'CANCELLED'] as const;
export type BackfillState = (typeof BACKFILL_STATES)[number];

export const BACKFILL_LIMITS = {
  /** Most fires one backfill makes: a bigger range is refused with its count. */
  fires: 10_000,
  /** Most fires of one backfill running at once. */
  parallelism: 100,
  /** Most fires started a minute. */
  ratePerMinute: 6_000,
} as const;

/** A fire sent and not yet finished: its scheduled time and its run (the first shard's, for a broadcast). */
export interface BackfillFire {
  readonly scheduledTime: number;
  readonly logId: number;
  /** When it was put on the ring (epoch ms): without a run a while later, it is put there again. */
  readonly sentAt: number;
}

export interface Backfill {
  /** `bf-{jobId}-{createdAt, base 36}-{4 hex}`: names its job, and sorts a job's backfills by age. */
  readonly id: string;
  readonly jobId: number;
  /**
   * Set for a backfill of a workflow's schedule: `jobId` is its starter job, each fire starts a
   * workflow run (trigger BACKFILL) and counts as running until that run ends.
   */
  readonly workflowId?: number;
  /** The job's group when it was started (authorisation; a job's group never changes). */
  readonly appName: string;
  /** The range, epoch ms: fires at or after `from` and before `to`. */
  readonly from: number;
  readonly to: number;
  readonly parallelism: number;
  /** Absent: no rate limit (only the parallelism). */
  readonly ratePerMinute?: number;
  /** The job's schedule and bounds when it was started: its fires follow them, whatever the job does since. */
  readonly schedule: Schedule;
  readonly bounds: Pick<ScheduleBounds, 'startAt' | 'endAt'>;
  /**
   * The job's calendars as they were when it was started, cut to the range's dates: no fire on a day
   * they removed then, whatever the calendars say since. Absent: the job names no calendars.
   */
  readonly calendars?: CalendarGate;
  /** The fires the range holds (within the job's startAt / endAt). */
  readonly total: number;
  /** The scheduled time of the next fire to start; absent when every fire was started (or cancelled). */
  readonly nextFireTime?: number;
  /** The rate limit: no fire starts before this (epoch ms). */
  readonly notBefore?: number;
  readonly dispatched: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly running: readonly BackfillFire[];
  /** The scheduled times of the failed fires, oldest first (at most the first 100). */
  readonly failures: readonly number[];
  readonly state: BackfillState;
  readonly createdAt: number;
  readonly createdBy: string;
  readonly cancelledAt?: number;
  readonly cancelledBy?: string;
  /** Why it stopped early when the system stopped it (its job was deleted). */
  readonly stopReason?: string;
  /** When its last fire finished (or it was cancelled with none running): absent while anything runs. */
  readonly endedAt?: number;
  /** Bumped by every write; each write is conditional on the revision read. */
  readonly revision: number;
}

/** The most failed scheduled times a backfill keeps (the count is exact). */
export const MAX_LISTED_FAILURES = 100;

const ID = /^bf-(\d+)-[0-9a-z]+-[0-9a-f]{4}$/;

export function newBackfillId(jobId: number, createdAt: number, random: () => number = Math.random): string {
  const suffix = Math.floor(random() * 0x10000)
    .toString(16)
    .padStart(4, '0');
  return `bf-${jobId}-${createdAt.toString(36)}-${suffix}`;
}

/** The job a backfill id names, or undefined when it is not a backfill id. */
export function jobIdOfBackfill(id: string): number | undefined {
  const match = ID.exec(id);
  if (!match) return undefined;
  const jobId = Number(match[1]);
  return Number.isSafeInteger(jobId) ? jobId : undefined;
}

/** Each backfill fire's run is found again by this key (and the ring's duplicates with it). */
export function backfillDedupKey(backfillId: string, scheduledTime: number): string {
  return `backfill#${backfillId}#${scheduledTime}`;
}
