import { ValidationError } from '../common/errors.js';
import { isWorkflowLink, type WorkflowLink } from '../workflows/model/link.js';

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
  'WORKFLOW',
  'BACKFILL',
] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

export interface FireMessage {
  readonly jobId: number;
  /** Epoch ms the run is due to start: the fire's identity (dedupKey, order, the run's scheduledTime). */
  readonly scheduledTime: number;
  /**
   * A jittered scheduled fire, or a moved occurrence: when it is really sent (scheduledTime + its
   * jitter offset, or the move's time, before or after it; epoch ms); its wait and its lateness count
   * from here. Absent: at scheduledTime.
   */
  readonly fireAt?: number;
  readonly triggerType: TriggerType;
  /** Unique per intended execution: `${jobId}#${scheduledTime}` for scheduled fires. */
  readonly dedupKey: string;
  /**
   * The logId of the fire's run, fixed when the tick planned it (from the job's reserved block), so
   * the run record itself is the fire's claim; absent: the dispatcher allocates one and claims the
   * fire by `dedupKey`.
   */
  readonly logId?: number;
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
  /**
   * A workflow node's fire (WORKFLOW), and the retries of its runs: the workflow run, node and
   * attempt the run belongs to; its final outcome advances the workflow run.
   */
  readonly workflow?: WorkflowLink;
  /**
   * A workflow node's fire: when its engine saved the run with the node awaited at this attempt
   * (epoch ms, the engine's clock). A dispatcher that gets the fire soon after trusts that decision
   * instead of reading it again (see `isFreshDecision`).
   */
  readonly decidedAt?: number;
  /**
   * The job's group as its sender knew it (a workflow node's: its workflow's group): the dispatcher
   * reads that group and its executors beside the job, instead of after it. Only a hint: a job since
   * moved to another group is routed by its own.
   */
  readonly appName?: string;
  /** MISFIRE triggers: the scheduled time missed, which this catch-up stands for. */
  readonly missedTime?: number;
  /**
   * A scheduled fire the tick found missed (more than the misfire threshold past, DO_NOTHING): it
   * and the job's fires after it through `until`, `count` in all, are recorded as one skip range
   * and never sent.
   */
  readonly missedThrough?: { readonly until: number; readonly count: number };
  /**
   * A broadcast fixed when it was triggered (manual and API triggers of a SHARDING_BROADCAST job):
   * one run per shard, with the logId the trigger answered and the executor it goes to.
   */
  readonly shards?: readonly FixedShard[];
}

/** A broadcast shard whose run's logId was given out before the fire reached a dispatcher. */
export interface FixedShard extends ShardTarget {
  readonly logId: number;
}

export interface ShardTarget {
  readonly index: number;
  readonly total: number;
  readonly address: string;
}

/**
 * logIds reserved per job for the fires planned from its next `triggerNextTime`: a plan's fires take
 * them by their place in the schedule, so a re-plan of the same fires (after a tick crash) gets the
 * same logIds and each fire is claimed once. Fires past the block get theirs when dispatched.
 */
export const LOG_IDS_PER_PLAN = 32;

/** When a fire is to be sent: its jittered time, else its scheduled time. */
export function fireTimeOf(message: Pick<FireMessage, 'scheduledTime' | 'fireAt'>): number {
  return message.fireAt ?? message.scheduledTime;
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

// ---------------------------------------------------------------------------------------------------
// The ring message: the fires that share a lane and a delay travel together, as a JSON array, so a
// second's fires cost a few SQS messages and dispatcher invocations rather than one per fire. (A single
// JSON object is still read as one fire.)

/** Most fires in one ring message, and most bytes of its body (10 of them fit one SendMessageBatch). */
export const MAX_FIRES_PER_MESSAGE = 50;
export const MAX_RING_MESSAGE_BYTES = 24_000;

export interface RingMessageFires<K> {
  readonly key: K;
  readonly fires: FireMessage[];
  readonly body: string;
}

/**
 * Packs fires into ring message bodies: one group per distinct `keyOf` (lane and delay), each split
 * into messages of at most MAX_FIRES_PER_MESSAGE fires and MAX_RING_MESSAGE_BYTES.
 */
export function packRingMessages<E extends { readonly message: FireMessage }, K>(
  entries: readonly E[],
  keyOf: (entry: E) => K,
  keyId: (key: K) => string,
): RingMessageFires<K>[] {
  const groups = new Map<string, { key: K; fires: FireMessage[] }>();
  for (const entry of entries) {
    const key = keyOf(entry);
    const id = keyId(key);
    const group = groups.get(id) ?? { key, fires: [] };
    group.fires.push(entry.message);
    groups.set(id, group);
  }
  const messages: RingMessageFires<K>[] = [];
  for (const { key, fires } of groups.values()) {
    let current: FireMessage[] = [];
    let bytes = 2;
    const close = () => {
      if (current.length > 0) messages.push({ key, fires: current, body: JSON.stringify(current) });
      current = [];
      bytes = 2;
    };
    for (const fire of fires) {
      const size = Buffer.byteLength(JSON.stringify(fire)) + 1;
      if (
        current.length >= MAX_FIRES_PER_MESSAGE ||
        (current.length > 0 && bytes + size > MAX_RING_MESSAGE_BYTES)
      ) {
        close();
      }
      current.push(fire);
      bytes += size;
    }
    close();
  }
  return messages;
}

export interface ParsedRingMessage {
  readonly fires: FireMessage[];
  /** Why each malformed fire was left out (a redelivery cannot mend it). */
  readonly rejected: ValidationError[];
}

/**
 * Reads a ring message body: a JSON array of fires (or one fire as an object). ValidationError when
 * the body is not that at all; a malformed fire inside an array is rejected alone.
 */
export function parseRingMessage(body: string): ParsedRingMessage {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    throw new ValidationError('the message body is not JSON', 'body');
  }
  if (raw === null || typeof raw !== 'object') {
    throw new ValidationError('the message body must be a JSON array of fires or one fire object', 'body');
  }
  const fires: FireMessage[] = [];
  const rejected: ValidationError[] = [];
  for (const item of Array.isArray(raw) ? raw : [raw]) {
    try {
      fires.push(toFireMessage(item));
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      rejected.push(err);
    }
  }
  return { fires, rejected };
}

/** One fire of a ring message; ValidationError naming the field for anything that is not a FireMessage. */
export function toFireMessage(raw: unknown): FireMessage {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ValidationError('a fire must be a JSON object', 'body');
  }
  const m = raw as Record<string, unknown>;
  const int = (value: unknown, field: string, min = Number.MIN_SAFE_INTEGER): number => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
      throw new ValidationError(`${field} must be an integer >= ${min}; got ${JSON.stringify(value)}`, field);
    }
    return value;
  };
  int(m.jobId, 'jobId');
  int(m.scheduledTime, 'scheduledTime', 0);
  if (typeof m.triggerType !== 'string' || !(TRIGGER_TYPES as readonly string[]).includes(m.triggerType)) {
    throw new ValidationError(`triggerType must be one of ${TRIGGER_TYPES.join(', ')}`, 'triggerType');
  }
  if (typeof m.dedupKey !== 'string' || m.dedupKey === '') {
    throw new ValidationError('dedupKey must be a non-empty string', 'dedupKey');
  }
  if (m.scheduleRevision !== undefined) int(m.scheduleRevision, 'scheduleRevision');
  if (m.logId !== undefined) int(m.logId, 'logId', 1);
  if (m.parentLogId !== undefined) int(m.parentLogId, 'parentLogId');
  if (m.missedTime !== undefined) int(m.missedTime, 'missedTime', 0);
  // A moved occurrence may fire before its scheduled time; a jittered one only after it.
  if (m.fireAt !== undefined) int(m.fireAt, 'fireAt', 0);
  if (m.decidedAt !== undefined) int(m.decidedAt, 'decidedAt', 0);
  if (m.appName !== undefined && (typeof m.appName !== 'string' || m.appName === '')) {
    throw new ValidationError('appName must be a non-empty string', 'appName');
  }
  if (m.missedThrough !== undefined) {
    const through = m.missedThrough as Record<string, unknown> | null;
    if (through === null || typeof through !== 'object')
      throw new ValidationError('missedThrough must be {until, count}', 'missedThrough');
    int(through.until, 'missedThrough.until', m.scheduledTime as number);
    int(through.count, 'missedThrough.count', 1);
  }
  if (m.workflow !== undefined && !isWorkflowLink(m.workflow)) {
    throw new ValidationError('workflow must be {runId, node, attempt}', 'workflow');
  }
  if (m.executorParam !== undefined && typeof m.executorParam !== 'string') {
    throw new ValidationError('executorParam must be a string', 'executorParam');
  }
  if (
    m.addressList !== undefined &&
    (!Array.isArray(m.addressList) || m.addressList.some((a) => typeof a !== 'string'))
  ) {
    throw new ValidationError('addressList must be an array of strings', 'addressList');
  }
  if (m.retry !== undefined) {
    const retry = m.retry as Record<string, unknown> | null;
    if (retry === null || typeof retry !== 'object')
      throw new ValidationError('retry must be an object', 'retry');
    int(retry.attempt, 'retry.attempt', 1);
    int(retry.ofLogId, 'retry.ofLogId');
    int(retry.retriesLeft, 'retry.retriesLeft', 0);
    if (retry.shard !== undefined) {
      const shard = retry.shard as Record<string, unknown> | null;
      if (shard === null || typeof shard !== 'object')
        throw new ValidationError('retry.shard must be an object', 'retry.shard');
      int(shard.index, 'retry.shard.index', 0);
      int(shard.total, 'retry.shard.total', 1);
      if (typeof shard.address !== 'string')
        throw new ValidationError('retry.shard.address must be a string', 'retry.shard.address');
    }
  }
  if (m.shards !== undefined) {
    if (!Array.isArray(m.shards) || m.shards.length === 0)
      throw new ValidationError('shards must be a non-empty array', 'shards');
    m.shards.forEach((raw: unknown, i: number) => {
      const shard = raw as Record<string, unknown> | null;
      if (shard === null || typeof shard !== 'object')
        throw new ValidationError(`shards[${i}] must be an object`, `shards[${i}]`);
      int(shard.logId, `shards[${i}].logId`, 1);
      int(shard.index, `shards[${i}].index`, 0);
      int(shard.total, `shards[${i}].total`, 1);
      if (typeof shard.address !== 'string')
        throw new ValidationError(`shards[${i}].address must be a string`, `shards[${i}].address`);
    });
  }
  return m as unknown as FireMessage;
}
