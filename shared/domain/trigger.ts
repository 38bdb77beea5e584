/**
 * What travels on the ring queue: one fire of one job. The dispatcher turns each into exactly one
 * run record, keyed by `dedupKey`, so a redelivered or re-sent message is a harmless duplicate.
 */
export const TRIGGER_TYPES = [
  'CRON',
  'FIX_RATE',
  'ONCE',
  'MANUAL',
  'RETRY',
  'PARENT',
  'MISFIRE',
  'API',
] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

export interface FireMessage {
  readonly jobId: number;
  /** Epoch ms the run is due to start. */
  readonly scheduledTime: number;
  readonly triggerType: TriggerType;
  /** Unique per intended execution: `${jobId}#${scheduledTime}` for scheduled fires. */
  readonly dedupKey: string;
  /** The job's scheduleRevision when a scheduled fire was planned; absent for other triggers. */
  readonly scheduleRevision?: number;
  /** Overrides for this run only (manual triggers). */
  readonly executorParam?: string;
  readonly addressList?: readonly string[];
  /** Retries: the attempt number (2 = first retry), the run it retries, retries left after it, its shard when broadcast. */
  readonly retry?: {
    readonly attempt: number;
    readonly ofLogId: number;
    readonly retriesLeft: number;
    readonly shard?: ShardTarget;
  };
  /** PARENT triggers: the run whose success fired this one. */
  readonly parentLogId?: number;
}

export interface ShardTarget {
  readonly index: number;
  readonly total: number;
  readonly address: string;
}

export function scheduledDedupKey(jobId: number, scheduledTime: number): string {
  return `${jobId}#${scheduledTime}`;
}

/** The FIRE_ONCE_NOW fire that stands in for a missed `missedTime`. */
export function misfireDedupKey(jobId: number, missedTime: number): string {
  return `${jobId}#misfire#${missedTime}`;
}

/** Whole seconds of SQS delay so the message becomes visible at or just before the fire. */
export function delaySecondsFor(scheduledTime: number, nowMs: number, maxDelaySeconds: number): number {
  return Math.min(maxDelaySeconds, Math.max(0, Math.floor((scheduledTime - nowMs) / 1000)));
}
