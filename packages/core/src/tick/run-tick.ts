import type { AuditLog } from '../audit/audit-log.js';
import { allowedEffectiveFire, type CalendarGate, calendarsAllow } from '../calendars/calendar-schedule.js';
import type { CalendarStore } from '../calendars/calendar-store.js';
import type { Clock } from '../common/clock.js';
import { mapLimit } from '../common/concurrency.js';
import type { Logger } from '../common/logger.js';
import { METRIC, type Metrics } from '../common/metrics.js';
import type { RingEntry, RingGauge, RingQueue } from '../dispatch/ring-queue.js';
import { MAX_DELAY_SECONDS } from '../dispatch/ring-queue.js';
import {
  delaySecondsFor,
  type FireMessage,
  fireTimeOf,
  LOG_IDS_PER_PLAN,
  MAX_FIRES_PER_MESSAGE,
  misfireDedupKey,
  scheduledDedupKey,
} from '../dispatch/trigger.js';
import { isSlow, type Job, type ScheduleEnded } from '../jobs/job.js';
import type { DueJobRef, JobStore, PlannableJob } from '../jobs/job-store.js';
import { boundsOf } from '../jobs/job-validation.js';
import { firstPlannedLogId } from '../runs/run.js';
import {
  boundDecision,
  type FireDecision,
  jitterOffsetMs,
  MISFIRE_THRESHOLD_MS,
  nextFireAfter,
  planFires,
  previewFireTimes,
  type Schedule,
} from '../schedule/index.js';
import {
  effectiveTimeOf,
  exceptionAt,
  nominalOf,
  type OccurrenceException,
  planOccurrences,
} from '../schedule/occurrences.js';
import { ringMessageCount, TickAdmission } from './admission.js';
import { CalendarReads } from './calendar-reads.js';
import type { Lease, LeaseStore } from './lease-store.js';

export interface TickDeps {
  readonly jobs: JobStore;
  readonly leases: LeaseStore;
  readonly ring: RingQueue;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Where a schedule that stops itself is recorded (a system entry); absent: only logged. */
  readonly audit?: Pick<AuditLog, 'append'>;
  /** The ring's backlog, for admission control (see admission.ts); absent: every due job is planned. */
  readonly ringGauge?: RingGauge;
  /**
   * Where the calendars a job's schedule names are read (each at most once per iteration); absent:
   * a job that names calendars is planned as if every calendar were missing (see `calendarGate`).
   */
  readonly calendars?: Pick<CalendarStore, 'get'>;
}

export interface TickSettings {
  readonly shardCount: number;
  /** Most jobs read per shard per iteration (XXL-JOB's preReadCount). */
  readonly preReadCount: number;
  /** Jobs due within this are picked up; XXL-JOB's PRE_READ_MS. */
  readonly preReadMs: number;
  /**
   * A picked-up job gets its fires up to about this far ahead (>= preReadMs; default preReadMs) in
   * one advance, so a job firing every second is written once per few fires, not once per fire.
   * Each job's horizon is spread over one more span past this (see `planHorizonMs`).
   */
  readonly planAheadMs?: number;
  readonly leaseMs: number;
  /** Who we are in the lease items. */
  readonly owner: string;
}

export const DEFAULT_PRE_READ_MS = MISFIRE_THRESHOLD_MS;
const QUERY_PAGE = 500;
const WRITE_CONCURRENCY = 32;

export interface ShardResult {
  readonly shard: number;
  readonly held: boolean;
  /** The lease held after the iteration, to be used by the next one (see `scheduleShard`). */
  readonly lease?: Lease;
  readonly jobsRead: number;
  readonly firesEnqueued: number;
  readonly misfiresSkipped: number;
  readonly casLost: number;
}

/**
 * Runs one iteration per wall-clock second until `until` (epoch ms) or `signal` aborts, then hands
 * its leases over at once. Every shard it can lease is scheduled each second; the others are
 * re-tried each second, so a standby takes a dead holder's shard as soon as its lease expires. A
 * lease held is renewed only once half of it has run (see `isAging`), not every second.
 * `processAdmission`: admission control that outlives one loop (see {@link tickOnce}), so the next
 * loop of the same process goes on from its share (a stale one is forgotten); without it the loop
 * starts one of its own at a full share. Either way, with admission control on (a ring gauge), the
 * share is handed over with the leases (see `LeaseStore.release`), and a loop that held no shard and
 * takes them goes on from it: the next loop may be another process.
 */
export async function runTickLoop(
  deps: TickDeps,
  settings: TickSettings,
  until: number,
  signal?: AbortSignal,
  processAdmission?: TickAdmission,
): Promise<{ iterations: number; firesEnqueued: number }> {
  const held = new Map<number, Lease>();
  const admission = processAdmission ?? (deps.ringGauge ? new TickAdmission() : undefined);
  let iterations = 0;
  let firesEnqueued = 0;
  try {
    while (!signal?.aborted && deps.clock.now() < until) {
      const started = deps.clock.now();
      const results = await tickOnce(deps, settings, started, held, admission);
      for (const r of results) {
        if (r.held && r.lease) held.set(r.shard, r.lease);
        else held.delete(r.shard);
        firesEnqueued += r.firesEnqueued;
      }
      iterations++;
      deps.metrics.add(METRIC.tickDuration, 'Milliseconds', deps.clock.now() - started);
      const now = deps.clock.now();
      // Iterate at the half second, an iteration that overran starting the next at once: cron and
      // FIX_RATE fires fall on whole seconds, where the dispatchers are busiest, and the pre-read
      // does not care where in the second it runs.
      await deps.clock.sleep(Math.min(msUntilTickPhase(now), until - now), signal);
    }
  } finally {
    // The admission goes with the leases: the loop that takes them next (on Lambda, another
    // instance's) goes on from this share rather than planning every due job into a ring behind.
    const handover = admission?.handover();
    await Promise.allSettled(
      [...held.keys()].map((shard) => deps.leases.release(shard, settings.owner, handover)),
    );
  }
  return { iterations, firesEnqueued };
}

/** Where in each second the tick iterates: half a second off the whole seconds fires fall on. */
export const TICK_PHASE_MS = 500;

export function msUntilTickPhase(nowMs: number): number {
  const intoSecond = nowMs % 1000;
  return intoSecond < TICK_PHASE_MS ? TICK_PHASE_MS - intoSecond : 1000 - intoSecond + TICK_PHASE_MS;
}

/**
 * One iteration: each shard whose lease we hold (or can take) is planned, in parallel; then the
 * fires of all of them are sent in one go, then each shard's jobs are advanced. `held`: the leases
 * the iteration before ended with (a loop's; absent for a lone iteration). `admission`: admission
 * control, told the ring's backlog first (see admission.ts) unless the loop held no shard after its
 * last iteration. It can outlive the loop (see `runTickLoop`): the local stack starts the tick anew
 * every minute, a standby beside it, and a loop that began at a full share planned every due job
 * into a ring that was behind; a standby, sending nothing, read any backlog as endless.
 */
export async function tickOnce(
  deps: TickDeps,
  settings: TickSettings,
  nowMs: number,
  held?: ReadonlyMap<number, Lease>,
  admission?: TickAdmission,
): Promise<ShardResult[]> {
  // A loop that held no shard after its last iteration (a standby, or a loop just begun) does not
  // read the backlog; it plans at the share as it stands, unless that is stale (see STALE_MS).
  const standing = held !== undefined && held.size === 0;
  if (admission && standing) admission.forgetIfStale(nowMs);
  else if (admission) await observeBacklog(deps, admission, nowMs);
  const shards = Array.from({ length: settings.shardCount }, (_, shard) => shard);
  const calendars = new CalendarReads(deps.calendars);
  // Only a loop that held no shard goes on from a handover: one already planning reads its own
  // backlog, and one iteration's shards are all planned at the same share.
  const adopting = standing ? admission : undefined;
  const planned = await Promise.all(
    shards.map((shard) =>
      planShard(deps, settings, shard, nowMs, calendars, held?.get(shard), admission, adopting),
    ),
  );
  // Send first, then advance: a crash in between re-sends the same (jobId, scheduledTime) fires,
  // which the dispatcher de-duplicates; the reverse order could lose them. One send for all the
  // shards: a ring message carries a second's fires of every shard, not of one (fewer messages,
  // receives and dispatcher invocations per fire).
  const now = deps.clock.now();
  const entries = planned.map(({ plans }) => ringEntries(plans, now));
  const all = entries.flat();
  if (all.length > 0) {
    await deps.ring.enqueue(all);
    deps.metrics.add(METRIC.firesEnqueued, 'Count', all.length);
  }
  if (planned.some((p) => p.lease !== undefined))
    admission?.sent(
      ringMessageCount(
        all.filter((e) => e.lane === 'fast').map((e) => e.delaySeconds),
        MAX_FIRES_PER_MESSAGE,
      ),
    );
  const deferred = planned.reduce((n, p) => n + p.deferred, 0);
  if (deferred > 0) deps.metrics.add(METRIC.plansDeferred, 'Count', deferred);
  // Fires missed while jobs were left due (the share below 1) are the overload's skips.
  const overloaded = admission !== undefined && admission.state.share < 1;
  return Promise.all(
    planned.map((shard, i) => advanceShard(deps, shard, entries[i]?.length ?? 0, overloaded)),
  );
}

/** Reads the ring's backlog into the admission; a failed read keeps the share (logged, counted). */
async function observeBacklog(deps: TickDeps, admission: TickAdmission, nowMs: number): Promise<void> {
  if (!deps.ringGauge) return;
  const before = admission.state.share;
  try {
    const changed = admission.observe(await deps.ringGauge.backlog(), nowMs);
    const { share, backlogSeconds } = admission.state;
    if (changed) {
      const log = share < before ? deps.logger.warn : deps.logger.info;
      log.call(deps.logger, 'admission share changed: dispatchers behind, some due jobs left due', {
        share: Number(share.toFixed(3)),
        before: Number(before.toFixed(3)),
        backlogSeconds: Number((backlogSeconds ?? 0).toFixed(1)),
      });
    }
  } catch (err) {
    deps.metrics.add(METRIC.sweepFailures, 'Count', 1);
    deps.logger.warn('background sweep failed', { sweep: 'ring backlog', error: String(err) });
  }
  deps.metrics.add(METRIC.admissionSharePercent, 'Count', Math.round(admission.state.share * 100));
}

/**
 * A lease is renewed once less than half of it is left. Renewed each second, a shard cost a write
 * per second; at half a 3 s lease, one per ~2 s, with 1.5 s left at worst for the iteration.
 */
function isAging(settings: Pick<TickSettings, 'leaseMs'>, lease: Lease, nowMs: number): boolean {
  return lease.leaseUntil - nowMs <= settings.leaseMs / 2;
}

/** A shard's part of an iteration: its lease (none: not ours) and the plans of its due jobs. */
interface ShardPlan {
  readonly shard: number;
  readonly lease?: Lease;
  readonly jobsRead: number;
  readonly plans: readonly JobPlan[];
  /** Due jobs left due by admission control. */
  readonly deferred: number;
}

async function planShard(
  deps: TickDeps,
  settings: TickSettings,
  shard: number,
  nowMs: number,
  calendars: CalendarReads,
  held?: Lease,
  admission?: TickAdmission,
  adopting?: TickAdmission,
): Promise<ShardPlan> {
  let lease =
    held && !isAging(settings, held, nowMs)
      ? held
      : await deps.leases.acquire(shard, settings.owner, nowMs, settings.leaseMs);
  if (!lease) return { shard, jobsRead: 0, plans: [], deferred: 0 };
  if (lease.tookOver && lease !== held) {
    deps.metrics.add(METRIC.leaseTakeovers, 'Count', 1);
    deps.logger.warn('took over shard lease', { shard, fencingToken: lease.fencingToken });
  }
  if (adopting && lease !== held && lease.admission && adopting.adopt(lease.admission, nowMs)) {
    deps.logger.info('admission share handed over with the shard lease', {
      shard,
      share: Number(adopting.state.share.toFixed(3)),
      backlogSeconds: Number((adopting.state.backlogSeconds ?? 0).toFixed(2)),
    });
  }

  const windowEnd = nowMs + settings.preReadMs;
  const refs = await readDue(deps.jobs, shard, windowEnd, settings.preReadCount);
  if (refs.length === 0) return { shard, lease, jobsRead: 0, plans: [], deferred: 0 };

  // Admission needs only (job, due), which the index has: a job it leaves out, not yet past the
  // misfire threshold, is not read (re-reading every left-out job twice a second was most of the
  // tick's work under overload). A stale index entry only defers a job one more iteration.
  const wanted = admission
    ? refs.filter(
        (r) => admission.admits(r.id, r.nextTriggerTime) || nowMs > r.nextTriggerTime + MISFIRE_THRESHOLD_MS,
      )
    : refs;
  let deferred = refs.length - wanted.length;
  if (wanted.length === 0) return { shard, lease, jobsRead: 0, plans: [], deferred };

  // The index is eventually consistent: act only on the base item, read strongly.
  const jobs = await deps.jobs.getPlannable(wanted.map((r) => r.id));
  const planNow = deps.clock.now();
  const plans: JobPlan[] = [];
  const gates = await Promise.all(jobs.map((job) => calendars.gateOf(job.job)));
  for (const [i, job] of jobs.entries()) {
    const gate = gates[i];
    const horizon = nowMs + planHorizonMs(settings, job.job.id);
    for (const plan of planJob(job, planNow, windowEnd, horizon, gate)) {
      if (!admission || admission.admits(plan.job.id, plan.due)) plans.push(plan);
      // Left out, a job stays due, unwritten. Past the misfire threshold it gets its misfire plan,
      // but none of the fires after it (a horizon of now): it is due again at once, admitted or not.
      else if (plan.missedTime !== undefined) plans.push(...planJob(job, planNow, windowEnd, planNow, gate));
      else deferred++;
    }
  }

  // Renew before sending, so a tick paused past its lease never sends on a shard it lost.
  lease = await renewIfAging(deps, settings, lease);
  if (!lease) return { shard, jobsRead: jobs.length, plans: [], deferred: 0 };
  return { shard, lease, jobsRead: jobs.length, plans, deferred };
}

function ringEntries(plans: readonly JobPlan[], now: number): RingEntry[] {
  return plans.flatMap((p) =>
    p.messages.map((message) => ({
      message,
      // A jittered fire is due at its jittered time: the dispatcher waits for that, not the nominal one.
      delaySeconds: delaySecondsFor(fireTimeOf(message), now, MAX_DELAY_SECONDS),
      lane: isSlow(p.job, now) ? ('slow' as const) : ('fast' as const),
    })),
  );
}

/** Advances the shard's jobs past the fires just sent (one CAS write each). */
async function advanceShard(
  deps: TickDeps,
  planned: ShardPlan,
  firesEnqueued: number,
  overloaded: boolean,
): Promise<ShardResult> {
  const { shard, lease, jobsRead, plans } = planned;
  const misfiresSkipped = plans.reduce((n, p) => n + p.misfiresSkipped, 0);
  if (misfiresSkipped) deps.metrics.add(METRIC.misfiresSkipped, 'Count', misfiresSkipped);
  if (misfiresSkipped && overloaded) deps.metrics.add(METRIC.firesSkippedOverload, 'Count', misfiresSkipped);
  const advanced = await mapLimit(plans, WRITE_CONCURRENCY, (p) =>
    deps.jobs.advanceSchedule({
      id: p.job.id,
      expectedNext: p.due,
      nextTriggerTime: p.nextTriggerTime,
      triggerLastTime: p.lastFire ?? p.job.triggerLastTime,
      nextLogIdBlock: p.logIdBlock + LOG_IDS_PER_PLAN,
      planDue: p.missedTime === undefined ? (p.nominalDue ?? p.due) : undefined,
      ...(p.scheduledFires === undefined ? {} : { scheduledFires: p.scheduledFires }),
      ...(p.ended === undefined ? {} : { ended: p.ended }),
    }),
  );
  const casLost = advanced.filter((ok) => !ok).length;
  if (casLost) deps.logger.info('schedule moved by someone else meanwhile', { shard, casLost });
  // Only the advance that won records the end: a retried tick whose write lost records nothing.
  await Promise.all(plans.map((p, i) => (p.ended && advanced[i] ? recordEnd(deps, p, p.ended) : undefined)));
  for (const p of plans) {
    if (p.missedTime !== undefined) logMisfire(deps.logger, p);
    for (const m of p.messages) {
      deps.logger.debug('fire enqueued', {
        jobId: m.jobId,
        scheduledTime: m.scheduledTime,
        triggerType: m.triggerType,
      });
    }
  }
  return {
    shard,
    held: lease !== undefined,
    ...(lease === undefined ? {} : { lease }),
    jobsRead,
    firesEnqueued,
    misfiresSkipped,
    casLost,
  };
}

interface JobPlan {
  readonly job: Job;
  /** The first logId of this plan's block. */
  readonly logIdBlock: number;
  readonly due: number;
  /** The occurrence `due` stands for when it is a moved one's new time (the plan starts there). */
  readonly nominalDue?: number;
  readonly messages: FireMessage[];
  readonly nextTriggerTime: number | null;
  readonly lastFire: number | undefined;
  readonly misfiresSkipped: number;
  /** The first fire time missed (more than the misfire threshold past) when the tick got to it. */
  readonly missedTime?: number;
  /** The job's scheduledFires after this plan (only while it has a maxRuns). */
  readonly scheduledFires?: number;
  /** Set when the schedule stops itself with this plan. */
  readonly ended?: ScheduleEnded;
}

/**
 * A schedule that stopped itself: logged, and recorded in the audit log as the scheduler's own
 * change (a failed write is logged, not thrown: the job has stopped either way).
 */
async function recordEnd(deps: TickDeps, plan: JobPlan, ended: ScheduleEnded): Promise<void> {
  const { job } = plan;
  const lastFire = plan.lastFire ?? (job.triggerLastTime || null);
  deps.logger.info('schedule ended: job stopped', {
    jobId: job.id,
    reason: ended.reason,
    lastFire: lastFire === null ? null : new Date(lastFire).toISOString(),
    scheduledFires: plan.scheduledFires,
  });
  if (!deps.audit) return;
  const iso = (ms: number) => new Date(ms).toISOString();
  try {
    await deps.audit.append({
      at: ended.at,
      actor: { kind: 'system', id: 'scheduler', name: 'scheduler' },
      source: { ip: '', userAgent: 'tickring scheduler-tick' },
      action: 'job.scheduleEnded',
      target: `job#${job.id}`,
      appName: job.appName,
      changes: {
        triggerStatus: { before: 'RUNNING', after: 'STOPPED' },
        triggerNextTime: { before: iso(plan.due), after: null },
        scheduleEnded: { after: { reason: ended.reason, at: iso(ended.at) } },
      },
      detail: {
        reason: ended.reason,
        lastFire: lastFire === null ? null : iso(lastFire),
        ...(job.maxRuns === undefined ? {} : { maxRuns: job.maxRuns, scheduledFires: plan.scheduledFires }),
        ...(job.endAt === undefined ? {} : { endAt: iso(job.endAt) }),
        ...(job.calendars === undefined ? {} : { calendars: job.calendars }),
      },
      requestId: `tick-${job.id}-${plan.due}`,
    });
  } catch (err) {
    deps.metrics.add(METRIC.auditWriteFailures, 'Count', 1);
    deps.logger.error('audit write failed: schedule end not recorded', { jobId: job.id, err });
  }
}

/** Fires missed while nothing was scheduling (downtime, a stalled tick): said once per job and plan. */
function logMisfire(logger: Logger, plan: JobPlan): void {
  const { job, missedTime } = plan;
  const catchUp = plan.misfiresSkipped === 0;
  const resumesAt =
    plan.messages.find((m) => m.triggerType !== 'MISFIRE' && m.missedThrough === undefined)?.scheduledTime ??
    plan.nextTriggerTime;
  logger.warn(catchUp ? 'misfire: one catch-up fire now' : 'misfire: missed fires skipped', {
    jobId: job.id,
    misfireStrategy: job.misfireStrategy,
    missedTime: new Date(missedTime ?? 0).toISOString(),
    // Where the schedule picks up again: the first fire after the missed ones.
    resumesAt: resumesAt === undefined || resumesAt === null ? null : new Date(resumesAt).toISOString(),
  });
}

/**
 * How far ahead a job's fires are planned. A job is picked up `preReadMs` before it is due, so a
 * plan spans about `planAheadMs − preReadMs`; each job's span is stretched by a fraction of itself
 * fixed per job (its id's golden-ratio fraction, in [0, 1)). Jobs that start together (made in one
 * go, same period) then fall out of step after a plan or two, so their advances spread over the
 * seconds instead of all landing in the same tick iteration.
 */
export function planHorizonMs(
  settings: Pick<TickSettings, 'preReadMs' | 'planAheadMs'>,
  jobId: number,
): number {
  const span = Math.max(0, (settings.planAheadMs ?? 0) - settings.preReadMs);
  const stretch = (jobId * GOLDEN_RATIO_FRACTION) % 1;
  return settings.preReadMs + Math.round(span * (1 + stretch));
}

const GOLDEN_RATIO_FRACTION = 0.618_033_988_75;

/**
 * A due job's fires from `due` up to `planEnd`, those its calendars (`gate`) allow; nothing for a
 * job not due before `windowEnd`.
 */
function planJob(
  { job, logIdBlock = firstPlannedLogId(job.id) }: PlannableJob,
  nowMs: number,
  windowEnd: number,
  planEnd: number,
  gate?: CalendarGate,
): JobPlan[] {
  const due = job.triggerNextTime;
  if (job.triggerStatus !== 'RUNNING' || due === null || due >= windowEnd) return [];
  const schedule = { type: job.scheduleType, conf: job.scheduleConf, timeZone: job.timeZone };
  const counted = job.scheduledFires ?? 0;
  // With one-off exceptions the stored due is the effective next fire; the plan counts from the
  // occurrence it stands for, skipped ones left out, moved ones at their new time (occurrences.ts).
  const exceptions = job.occurrenceExceptions ?? [];
  const excepted =
    exceptions.length === 0
      ? undefined
      : planOccurrences(schedule, job.misfireStrategy, due, nowMs, planEnd, LOG_IDS_PER_PLAN, exceptions);
  const nominalDue = excepted?.nominalDue ?? due;
  const planned =
    excepted?.decision ?? withinBlock(planFires(schedule, job.misfireStrategy, due, nowMs, planEnd));
  // The calendars judge each occurrence by its scheduled time; an exception applies to those they allow.
  const gated = gate ? gateDecision(planned, schedule, gate, exceptions) : { decision: planned };
  const bounded = boundDecision(gated.decision, boundsOf(job), counted);
  // A schedule left without an allowed fire ends because of its calendars.
  const decision =
    gated.ended && bounded.ended === 'noNextFire' ? { ...bounded, ended: gated.ended } : bounded;
  // A fire keeps the logId of its place in the schedule, whether or not the calendars removed the
  // ones before it; skipped occurrences keep their places too, so slots are then looked up (as after
  // a misfire).
  const slotOf = logIdSlots(
    schedule,
    nominalDue,
    planned.missedTime !== undefined || excepted !== undefined,
    planned.fireTimes,
  );
  const messages = decision.fireTimes.map((scheduledTime, i): FireMessage => {
    const isMisfireFire = decision.misfire && i === 0;
    // The misfire fire stands in for the missed `due`: the first slot, as the fire it replaces.
    const slot = isMisfireFire ? 0 : slotOf(scheduledTime);
    const fire = scheduledFireMessage(job, scheduledTime, slot === undefined ? undefined : logIdBlock + slot);
    if (!isMisfireFire) return fire;
    // The misfire fire's own time depends on when the tick ran; key it by the missed time so
    // ticks that read the same `due` still produce one run. A catch-up runs at once: no jitter.
    const missedTime = decision.missedTime ?? nominalDue;
    const { fireAt: _jittered, ...atOnce } = fire;
    return { ...atOnce, triggerType: 'MISFIRE', dedupKey: misfireDedupKey(job.id, missedTime), missedTime };
  });
  // DO_NOTHING: the missed fires are recorded as one skip range, by a note in the due fire's slot.
  const missed =
    decision.missedTime !== undefined && !decision.misfire && !gated.dueRemoved
      ? missedFires(schedule, nominalDue, nowMs)
      : undefined;
  if (missed)
    messages.unshift({ ...scheduledFireMessage(job, nominalDue, logIdBlock), missedThrough: missed });
  return [
    {
      job,
      logIdBlock,
      due,
      ...(nominalDue === due ? {} : { nominalDue }),
      messages,
      nextTriggerTime: decision.nextTriggerTime,
      lastFire: decision.fireTimes.at(-1),
      misfiresSkipped: missed?.count ?? 0,
      ...(decision.missedTime === undefined ? {} : { missedTime: decision.missedTime }),
      ...(job.maxRuns === undefined ? {} : { scheduledFires: counted + decision.counted }),
      ...(decision.ended === undefined ? {} : { ended: { reason: decision.ended, at: nowMs } }),
    },
  ];
}

/**
 * A plan cut to the job's calendars: the fires they remove are left out, a FIRE_ONCE_NOW catch-up
 * of a removed `due` too (and a DO_NOTHING one records no skip: `dueRemoved`), and the next fire is
 * the effective time of the first one they allow that no exception skips (found by jumping over the
 * days removed, see `allowedEffectiveFire`); none: the schedule ends (`ended`).
 */
function gateDecision(
  decision: FireDecision,
  schedule: Schedule,
  gate: CalendarGate,
  exceptions: readonly OccurrenceException[],
): { decision: FireDecision; dueRemoved?: boolean; ended?: 'calendar' } {
  const dueRemoved = decision.missedTime !== undefined && !calendarsAllow(gate, decision.missedTime);
  const fireTimes = decision.fireTimes.filter((t, i) =>
    decision.misfire && i === 0 ? !dueRemoved : calendarsAllow(gate, t),
  );
  const misfire = decision.misfire && !dueRemoved;
  // With exceptions the decision's next is an effective time: the calendars judge its occurrence.
  const nominalNext =
    decision.nextTriggerTime === null ? null : nominalOf(decision.nextTriggerTime, exceptions);
  const next = allowedEffectiveFire(schedule, gate, nominalNext, exceptions);
  const nextTriggerTime = 'time' in next ? next.time : null;
  const cut: FireDecision = { ...decision, fireTimes, misfire, nextTriggerTime };
  // Ended by the calendars: no allowed fire ahead, or the schedule's last fires all removed.
  const allRemoved = fireTimes.length === 0 && decision.fireTimes.length > 0;
  const ended =
    'none' in next && (next.none === 'calendar' || allRemoved) ? ('calendar' as const) : undefined;
  return { decision: cut, ...(dueRemoved ? { dueRemoved } : {}), ...(ended ? { ended } : {}) };
}

/** Most missed fires one skip range note counts (a longer outage's later ones go unrecorded). */
export const MAX_MISSED_COUNTED = 10_000;

/**
 * The schedule's fires from `due` up to the one the plan resumes at, the first fire after `nowMs`
 * (the ones a DO_NOTHING misfire plan leaves out): the last one and how many, at most
 * MAX_MISSED_COUNTED. For a cron that is every fire through `nowMs`; a FIX_RATE sequence re-counts
 * from `nowMs` (XXL-JOB's now + rate, rounded up to a second), so the old sequence's fire between
 * `nowMs` and that resumption never comes either: counted here, or it would be neither run nor
 * recorded (the fire ledger would find it unaccounted for).
 */
function missedFires(schedule: Schedule, due: number, nowMs: number): { until: number; count: number } {
  const resumesAt = nextFireAfter(schedule, nowMs) ?? Number.POSITIVE_INFINITY;
  let until = due;
  let count = 1;
  for (
    let next = nextFireAfter(schedule, due);
    next !== null && next < resumesAt;
    next = nextFireAfter(schedule, next)
  ) {
    if (count >= MAX_MISSED_COUNTED) break;
    until = next;
    count++;
  }
  return { until, count };
}

/**
 * A plan of the schedule from its due ends with its block of logIds (LOG_IDS_PER_PLAN fires): a
 * fire past the block would be claimed with a fire record (a transaction of two items, four write
 * units) instead of by its run alone; the next plan takes it. (A plan after a misfire keeps its
 * fires: they are not the schedule's from its due.)
 */
function withinBlock(decision: FireDecision): FireDecision {
  if (decision.missedTime !== undefined || decision.fireTimes.length <= LOG_IDS_PER_PLAN) return decision;
  return {
    ...decision,
    fireTimes: decision.fireTimes.slice(0, LOG_IDS_PER_PLAN),
    nextTriggerTime: decision.fireTimes[LOG_IDS_PER_PLAN] ?? decision.nextTriggerTime,
  };
}

/**
 * A scheduled fire of `job` at `scheduledTime`, as the tick plans it (`logId`: its slot in a reserved
 * block), with its jittered time (`fireAt`) when the job has jitter: the same for every copy of it.
 * A moved occurrence fires at its move's time instead, not jittered again (its `to` is the user's).
 */
export function scheduledFireMessage(
  job: Job,
  scheduledTime: number,
  logId: number | undefined,
): FireMessage {
  const moved = exceptionAt(job.occurrenceExceptions, scheduledTime)?.action === 'move';
  const movedTo = moved ? effectiveTimeOf(scheduledTime, job.occurrenceExceptions) : null;
  const jitterMs =
    movedTo !== null
      ? movedTo - scheduledTime
      : jitterOffsetMs(job.id, scheduledTime, job.jitterSeconds ?? 0);
  return {
    jobId: job.id,
    ...(logId !== undefined ? { logId } : {}),
    scheduledTime,
    ...(jitterMs !== 0 ? { fireAt: scheduledTime + jitterMs } : {}),
    triggerType: job.scheduleType === 'NONE' ? 'API' : job.scheduleType,
    dedupKey: scheduledDedupKey(job.id, scheduledTime),
    scheduleRevision: job.scheduleRevision,
  };
}

/**
 * The place of a fire time in the schedule counted from `due` (0 = due), within LOG_IDS_PER_PLAN.
 * Without a misfire a plan's fires are that sequence itself (the i-th fire has place i); after one
 * the fires start later and their places are looked up.
 */
function logIdSlots(
  schedule: Schedule,
  due: number,
  missed: boolean,
  planned: readonly number[],
): (fireTime: number) => number | undefined {
  if (!missed) {
    return (fireTime) => {
      const index = planned.indexOf(fireTime);
      return index >= 0 && index < LOG_IDS_PER_PLAN ? index : undefined;
    };
  }
  let sequence: number[] | undefined;
  return (fireTime) => {
    sequence ??= [due, ...previewFireTimes(schedule, due, LOG_IDS_PER_PLAN - 1)];
    const slot = sequence.indexOf(fireTime);
    return slot < 0 ? undefined : slot;
  };
}

async function readDue(jobs: JobStore, shard: number, untilMs: number, max: number): Promise<DueJobRef[]> {
  const refs: DueJobRef[] = [];
  let cursor: string | undefined;
  do {
    const page = await jobs.queryDue(shard, untilMs, Math.min(QUERY_PAGE, max - refs.length), cursor);
    refs.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor && refs.length < max);
  return refs;
}

async function renewIfAging(
  deps: TickDeps,
  settings: TickSettings,
  lease: Lease,
): Promise<Lease | undefined> {
  const now = deps.clock.now();
  if (!isAging(settings, lease, now)) return lease;
  return deps.leases.acquire(lease.shard, settings.owner, now, settings.leaseMs);
}
