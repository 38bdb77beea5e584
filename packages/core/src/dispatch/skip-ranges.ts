import { METRIC } from '../common/metrics.js';
import type { Job } from '../jobs/job.js';
import {
  dayOf,
  firstPlannedLogId,
  type Run,
  skippedCountOf,
  skippedUntilOf,
  TRIGGER_CODE,
  UNPLANNED_LOG_ID_OFFSET,
} from '../runs/run.js';
import type { PlannedRunHead } from '../runs/run-store.js';
import { followsInSchedule, MISFIRE_THRESHOLD_MS, type Schedule } from '../schedule/index.js';
import { skippedRun } from './claim.js';
import type { DispatchDeps } from './dispatch-deps.js';
import { withRetries } from './dispatch-record.js';
import { dropReason } from './drop-rules.js';
import { iso, lateRangeReason, type Misfire, misfireOf } from './misfire.js';
import type { FireMessage, TriggerType } from './trigger.js';
import { skippedTriggerMsg } from './trigger-text.js';

/**
 * Skip ranges: a ring batch records its late DO_NOTHING fires in aggregate, one skipped run per
 * job and run of consecutive fires (`Run.skippedCount`, `Run.skippedUntil`), at the planned logId
 * of the range's first fire, instead of one claim per fire. Under overload every fire is late, and
 * a write per skipped fire took the capacity the runs that still run needed.
 *
 * Why a fire of a range needs no claim of its own logId: lateness only grows. A fire more than the
 * misfire threshold past its time when this dispatcher looks at it is past it for every dispatcher
 * that looks later, so no copy of it can be sent any more; its own logId is never claimed to be
 * sent, and a copy that arrives later finds the fire inside a range (ignored) or its own record (a
 * claim made before it was late: that copy takes today's path, which takes the claim over as
 * skipped only if it was never sent). A range is below any later fire of its job, and the order
 * check (`laterPlannedRun`) looks only above a run's logId: a range never holds a later fire back.
 */

/** Scheduled fires on the job's schedule (a MISFIRE fire's time is when the tick noticed, not a fire time). */
const RANGE_TRIGGERS: ReadonlySet<TriggerType> = new Set(['CRON', 'FIX_RATE', 'ONCE']);
/** Reads of a job's planned runs one batch makes at most to place its late fires. */
const MAX_READS = 8;
/** Tries at a job's ranges; a write that meets someone else's twice leaves its fires to their own claims. */
const ATTEMPTS = 2;

/** A late fire put aside for its job's skip range. */
export interface LateFire {
  readonly message: FireMessage & { readonly logId: number };
  readonly misfire: Misfire;
}

/** How many fires it stands for: one, or a tick's missed fires (`FireMessage.missedThrough`). */
const countOf = (fire: LateFire): number => fire.message.missedThrough?.count ?? 1;
/** The scheduled time of the last fire it stands for. */
const untilOf = (fire: LateFire): number => fire.message.missedThrough?.until ?? fire.message.scheduledTime;
const countAll = (fires: readonly LateFire[]): number => fires.reduce((n, f) => n + countOf(f), 0);

/** Why a range's fires were skipped: a tick's missed fires among them were never planned in time. */
function rangeReason(
  fires: readonly LateFire[],
  count: number,
  firstTime: number,
  untilTime: number,
): string {
  const [first] = fires;
  if (!first) return '';
  if (!fires.some((f) => f.message.missedThrough))
    return lateRangeReason(first.misfire, count, firstTime, untilTime);
  return `${count} fire${count === 1 ? '' : 's'} due from ${iso(firstTime)} to ${iso(untilTime)}: not planned within ${
    MISFIRE_THRESHOLD_MS / 1000
  } s of their time (the scheduler was behind or not running); ${first.misfire.strategy} skips them`;
}

/**
 * The fire as a late DO_NOTHING fire that may join its job's skip range, or undefined for one that
 * takes its own path: not planned with its logId, a broadcast or a workflow's linked fire (its
 * owner must hear of it), its job missing, stopped or re-scheduled, or not late.
 */
export function lateFireOf(job: Job | undefined, message: FireMessage, nowMs: number): LateFire | undefined {
  const { logId } = message;
  if (!job || logId === undefined || !RANGE_TRIGGERS.has(message.triggerType)) return undefined;
  if (message.shards !== undefined || message.workflow !== undefined) return undefined;
  if (job.executorRouteStrategy === 'SHARDING_BROADCAST' || dropReason(job, message) !== undefined) {
    return undefined;
  }
  const first = firstPlannedLogId(job.id);
  if (logId < first || logId >= first + UNPLANNED_LOG_ID_OFFSET) return undefined;
  const misfire = misfireOf(job, message, nowMs);
  return misfire?.skip ? { message: { ...message, logId }, misfire } : undefined;
}

/** Fires to record in one write: extending `extends` (a skip range), or a new range at the first fire's logId. */
interface RangeWrite {
  readonly fires: LateFire[];
  /** The job's planned run just below the first fire (none: the job has none there). */
  readonly below: PlannedRunHead | undefined;
  readonly extends: PlannedRunHead | undefined;
}

interface RangePlan {
  readonly writes: RangeWrite[];
  /** Recorded before (inside a range, or a range's first fire): a redelivery. */
  readonly recorded: LateFire[];
  /** Claimed before as to be sent, or not placeable: each takes a late fire's own path. */
  readonly perFire: LateFire[];
}

/**
 * Records a job's late fires of one batch in skip ranges: reads the job's planned runs at and below
 * them (one read, unless runs of the job lie among them), extends the range just below when the
 * first fire follows it in the job's schedule, else claims a new range; counts and logs them once.
 * Answers the fires left to their own path (see `LateFire`: claimed before, or in a write that met
 * another's twice). Throws on a store failure (the batch's records with these fires are delivered
 * again; what was written is then recognised).
 */
export async function recordSkipRanges(
  deps: DispatchDeps,
  job: Job,
  late: readonly LateFire[],
): Promise<LateFire[]> {
  const fires = inScheduleOrder(late);
  if (!fires) return [...late];
  const schedule: Schedule = { type: job.scheduleType, conf: job.scheduleConf, timeZone: job.timeZone };
  const perFire: LateFire[] = [];
  const written: { logId: number; fires: LateFire[] }[] = [];
  let duplicates = late.length - fires.length;
  let pending = fires;
  for (let attempt = 1; pending.length > 0; attempt++) {
    const plan = await planRanges(deps, job.id, schedule, pending);
    perFire.push(...plan.perFire);
    duplicates += plan.recorded.length;
    const conflicted: LateFire[] = [];
    for (const write of plan.writes) {
      const logId = await writeRange(deps, job, write);
      if (logId === undefined) conflicted.push(...write.fires);
      else written.push({ logId, fires: write.fires });
    }
    // Read again once: a write that lost to another usually finds its fires recorded by it.
    if (attempt >= ATTEMPTS) perFire.push(...conflicted);
    pending = attempt >= ATTEMPTS ? [] : conflicted;
  }
  await noteRanges(deps, job, written, duplicates);
  return perFire;
}

/** The fires by scheduled time, each once; undefined when their logIds do not grow with their times. */
function inScheduleOrder(late: readonly LateFire[]): LateFire[] | undefined {
  const byLogId = new Map<number, LateFire>();
  for (const fire of late) if (!byLogId.has(fire.message.logId)) byLogId.set(fire.message.logId, fire);
  const fires = [...byLogId.values()].sort((a, b) => a.message.scheduledTime - b.message.scheduledTime);
  for (let i = 1; i < fires.length; i++) {
    const [prev, next] = [fires[i - 1]?.message, fires[i]?.message];
    if (!prev || !next || next.logId <= prev.logId || next.scheduledTime <= prev.scheduledTime)
      return undefined;
  }
  return fires;
}

/**
 * Places the fires among the job's planned runs: read from the last fire's logId down until one
 * below the first fire (usually the first read: nothing of the job is recorded among them).
 */
async function planRanges(
  deps: DispatchDeps,
  jobId: number,
  schedule: Schedule,
  fires: readonly LateFire[],
): Promise<RangePlan> {
  const firstLogId = fires[0]?.message.logId ?? 0;
  const heads: PlannedRunHead[] = []; // highest logId first
  let bound = fires.at(-1)?.message.logId ?? 0;
  let complete = false;
  for (let read = 0; read < MAX_READS && !complete; read++) {
    const head = await deps.runs.latestPlannedRun(jobId, bound);
    if (head) heads.push(head);
    complete = !head || head.logId < firstLogId;
    if (head) bound = head.logId - 1;
  }
  // Without the run below them, fires under the lowest run read cannot be placed.
  const placeableFrom = complete ? Number.NEGATIVE_INFINITY : (heads.at(-1)?.logId ?? 0);
  const plan: RangePlan = { writes: [], recorded: [], perFire: [] };
  let current: RangeWrite | undefined;
  for (const fire of fires) {
    const { logId, scheduledTime } = fire.message;
    if (logId < placeableFrom) {
      plan.perFire.push(fire);
      continue;
    }
    const own = heads.find((h) => h.logId === logId);
    if (own) {
      // A range's first fire (or a lone skip) is recorded; a claim to be sent takes the fire's own path.
      (isSkipped(own) ? plan.recorded : plan.perFire).push(fire);
      continue;
    }
    const below = heads.find((h) => h.logId < logId);
    if (below && isSkipped(below) && scheduledTime <= skippedUntilOf(below)) {
      plan.recorded.push(fire);
      continue;
    }
    const lastFire = current?.fires.at(-1);
    const last = lastFire ? untilOf(lastFire) : undefined;
    if (
      current &&
      current.below === below &&
      last !== undefined &&
      followsInSchedule(schedule, last, scheduledTime)
    ) {
      current.fires.push(fire);
      continue;
    }
    const extendable =
      below && isSkipped(below) && followsInSchedule(schedule, skippedUntilOf(below), scheduledTime);
    current = { fires: [fire], below, extends: extendable ? below : undefined };
    plan.writes.push(current);
  }
  return plan;
}

function isSkipped(head: PlannedRunHead): boolean {
  return head.triggerCode === TRIGGER_CODE.skipped;
}

/** One write for a range: the logId of the range written, or undefined when another writer came first. */
async function writeRange(deps: DispatchDeps, job: Job, write: RangeWrite): Promise<number | undefined> {
  const [first] = write.fires;
  const last = write.fires.at(-1);
  if (!first || !last) return undefined;
  const now = deps.clock.now();
  const until = untilOf(last);
  const key = first.message.dedupKey;
  const range = write.extends;
  const added = countAll(write.fires);
  if (range) {
    const count = skippedCountOf(range) + added;
    const reason = rangeReason(write.fires, count, range.scheduledTime, until);
    const extended = await withRetries(deps, key, () =>
      deps.runs.extendSkipRange(range.logId, {
        expectedUntil: skippedUntilOf(range),
        until,
        addCount: added,
        triggerMsg: skippedTriggerMsg(job, first.message.triggerType, reason),
      }),
    );
    return extended ? range.logId : undefined;
  }
  const count = added;
  const reason = rangeReason(write.fires, count, first.message.scheduledTime, until);
  const run: Run = {
    ...skippedRun(job, first.message, first.message.logId, now, reason),
    ...(count > 1 ? { skippedCount: count, skippedUntil: until } : {}),
  };
  const token = deps.runs.newClaimToken(now);
  const claimed = await withRetries(deps, key, () => deps.runs.claim(run, token));
  return claimed.created ? run.logId : undefined;
}

/**
 * Counts the fires recorded, as a late fire's own skip counts (the day's and group's `skipped`
 * counters, MisfiresSkipped, FiresSkippedOverload; a tick's missed fires only in the day's counters:
 * the tick counted them), and says so once for the job and batch.
 */
async function noteRanges(
  deps: DispatchDeps,
  job: Job,
  written: readonly { logId: number; fires: readonly LateFire[] }[],
  duplicates: number,
): Promise<void> {
  const fires = written
    .flatMap((w) => w.fires)
    .sort((a, b) => a.message.scheduledTime - b.message.scheduledTime);
  const [first] = fires;
  const last = fires.at(-1);
  if (duplicates > 0) {
    deps.logger.info('late fires recorded before ignored', { jobId: job.id, count: duplicates });
  }
  if (!first || !last) return;
  const now = deps.clock.now();
  const count = countAll(fires);
  const lateHere = fires.filter((f) => !f.message.missedThrough).length;
  if (lateHere > 0) {
    deps.metrics.add(METRIC.misfiresSkipped, 'Count', lateHere);
    deps.metrics.add(METRIC.firesSkippedOverload, 'Count', lateHere);
  }
  await deps.reports.add(dayOf(now), { skipped: count }, job.appName);
  const logIds = written.map((w) => w.logId);
  deps.logger.warn('fires skipped (misfire)', {
    jobId: job.id,
    logId: logIds[0],
    ...(logIds.length > 1 ? { logIds } : {}),
    firstScheduledTime: iso(first.message.scheduledTime),
    lastScheduledTime: iso(untilOf(last)),
    count,
    latenessMs: now - first.message.scheduledTime,
    reason: rangeReason(fires, count, first.message.scheduledTime, untilOf(last)),
    misfireStrategy: job.misfireStrategy,
  });
}
