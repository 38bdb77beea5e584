import type { ReturnT, TriggerParam } from '@tickring/protocol';
import { isAppError } from '../common/errors.js';
import { METRIC } from '../common/metrics.js';
import type { ExecutorTransport } from '../executors/executor-transport.js';
import type { RegistryEntry, RegistryStore } from '../executors/registry-store.js';
import type { Group, Job } from '../jobs/job.js';
import type { GroupStore, JobStore } from '../jobs/job-store.js';
import {
  dayOf,
  firstPlannedLogId,
  HANDLE_CODE,
  type Run,
  TRIGGER_CODE,
  UNPLANNED_LOG_ID_OFFSET,
} from '../runs/run.js';
import { onRunFinished, type RunOutcomeDeps } from '../runs/run-outcome.js';
import type { CreateFireResult, DispatchEntry } from '../runs/run-store.js';
import { MISFIRE_THRESHOLD_MS } from '../schedule/index.js';
import { scheduledRunId, starterAddress, workflowOfAddress } from '../workflows/model/link.js';
import type { WorkflowEngine } from '../workflows/workflow-engine.js';
import type { NodeFireState } from '../workflows/workflow-store.js';
import type { RingLane } from './ring-queue.js';
import { MAX_DELAY_SECONDS } from './ring-queue.js';
import type { RouteStateStore } from './route-state-store.js';
import {
  isRouteStrategy,
  type Probe,
  type RouteResult,
  type RouteStrategy,
  route,
  stateKindOf,
} from './routing/index.js';
import type { SlowTracker } from './slow-tracker.js';
import { delaySecondsFor, type FireMessage, type TriggerType } from './trigger.js';

/**
 * The dispatcher's use-case: one fire from the ring queue becomes one run record (one per executor
 * for SHARDING_BROADCAST), created idempotently, routed and sent to its executor at the fire's
 * millisecond, with the trigger result recorded and a refused trigger handed to retry/alarm.
 */
export interface DispatchDeps extends RunOutcomeDeps {
  readonly groups: GroupStore;
  readonly registry: RegistryStore;
  readonly transport: ExecutorTransport;
  readonly routeStates: RouteStateStore;
  readonly slowTracker: SlowTracker;
  /** A number in [0, 1), like Math.random (ROUND seed, RANDOM, LFU seed). */
  readonly random: () => number;
  /**
   * Starts the runs of scheduled workflows (their starter jobs' fires), checks that a workflow node's
   * fire is still wanted, and records which runs a node's fire became.
   */
  readonly workflows?: Pick<
    WorkflowEngine,
    'onNodeRunFinished' | 'start' | 'nodeFireState' | 'noteNodeRuns' | 'onFireDropped'
  >;
}

export interface DispatchSettings {
  /** Registry entries older than this are offline (XXL-JOB's DEAD_TIMEOUT, 90 s). */
  readonly registryDeadSeconds: number;
  /** A recorded, never-dispatched run whose claim is older than this is taken over (the dispatcher's timeout). */
  readonly claimStaleMs: number;
  /** Longest wait for a fire's time inside one invocation; a fire further out goes back on the ring. */
  readonly maxWaitMs: number;
  /**
   * How long before its time a fire is routed and recorded. A record's fires arrive together up to
   * a second early; claiming each just ahead of its own time, rather than all on arrival, spreads
   * their writes (and the CPU they cost) over the second instead of stalling the sends due meanwhile.
   */
  readonly claimLeadMs: number;
  /**
   * Nothing is sent when less than this is left of the invocation (see `DispatchRecord.sendBy`):
   * the executor call's timeout and the record's write must fit in what is left.
   */
  readonly sendMarginMs: number;
}

export const DISPATCH_DEFAULTS: DispatchSettings = {
  registryDeadSeconds: 90,
  // The dispatcher's timeout (15 s, FUNCTIONS.dispatcher) and a margin, as functions/dispatcher/config.ts.
  claimStaleMs: 20_000,
  maxWaitMs: 5_000,
  claimLeadMs: 250,
  sendMarginMs: 5_000,
};

/** XXL-JOB's slow-pool rule: more than 10 triggers slower than 500 ms in a minute. */
export const SLOW_DISPATCH_MS = 500;
export const SLOW_DISPATCHES_PER_MINUTE = 10;
/** How long a job demoted to the slow lane stays there (renewed while it stays slow). */
export const SLOW_LANE_MS = 60_000;
/** Grace past an executor timeout before a silent run counts as lost; runs without a timeout: 10 min. */
export const DEADLINE_GRACE_MS = 60_000;
export const DEADLINE_WITHOUT_TIMEOUT_MS = 600_000;

/**
 * Fires planned by the tick: dropped when the job was stopped or re-scheduled since, and subject to
 * the job's misfire strategy when late or out of order (see {@link misfireOf}).
 */
const SCHEDULED_TRIGGERS: ReadonlySet<TriggerType> = new Set(['CRON', 'FIX_RATE', 'ONCE', 'MISFIRE']);
/**
 * The order check. A job's scheduled fires are at least this far apart (cron and FIX_RATE fires fall
 * on whole seconds, a ONCE job fires once, the tick's MISFIRE fire is the second before the next), and
 * each is claimed no earlier than `claimLeadMs` before its time; with {@link CLOCK_SKEW_MARGIN_MS} for
 * the clocks of two dispatchers, a claim completed sooner than `MIN_FIRE_GAP_MS − claimLeadMs −
 * CLOCK_SKEW_MARGIN_MS` after its fire's time cannot have been overtaken, and needs no read.
 */
const MIN_FIRE_GAP_MS = 1000;
const CLOCK_SKEW_MARGIN_MS = 250;
const ROUTE_CONFLICT_ATTEMPTS = 5;
const CREATE_FIRE_ATTEMPTS = 3;

export type DispatchOutcome =
  | { readonly kind: 'deferred'; readonly delaySeconds: number }
  | { readonly kind: 'dropped'; readonly reason: string }
  /** A duplicate delivery: every run was triggered already, or is being triggered by a live dispatcher. */
  | { readonly kind: 'duplicate'; readonly logIds: readonly number[] }
  | { readonly kind: 'dispatched'; readonly runs: readonly DispatchedRun[]; readonly reclaimed: boolean }
  /** A scheduled fire recorded as a misfire (TRIGGER_CODE.skipped) and not sent: see {@link misfireOf}. */
  | { readonly kind: 'skipped'; readonly logIds: readonly number[]; readonly reason: string };

export interface DispatchedRun {
  readonly logId: number;
  readonly address: string;
  readonly triggerCode: number;
  /** Route + send, ms. */
  readonly dispatchMs: number;
}

/** What one fire's runs share: the job and group as read, the online addresses and where they came from. */
interface FireContext {
  readonly job: Job;
  readonly message: FireMessage;
  readonly addresses: readonly string[];
  readonly addressSource: string;
  /** The failure message when `addresses` is empty. */
  readonly noAddressReason: string;
}

/**
 * What the fires of one batch read in common, read once: the jobs (strongly, in one BatchGet up
 * front), each group and each group's online executors. A batch lasts about a second, so a
 * registry read shared by its fires is as fresh as one per fire.
 */
export class BatchReads {
  private readonly jobs = new Map<number, Promise<Job | undefined>>();
  private readonly groups = new Map<string, Promise<Group | undefined>>();
  private readonly online = new Map<string, Promise<RegistryEntry[]>>();

  constructor(private readonly deps: { jobs: JobStore; groups: GroupStore; registry: RegistryStore }) {}

  /** Reads these jobs with one batched read; later `job()` calls for them wait for it. */
  preloadJobs(ids: readonly number[]): void {
    const missing = [...new Set(ids)].filter((id) => !this.jobs.has(id));
    if (missing.length === 0) return;
    const all = this.deps.jobs.getMany(missing).then((jobs) => new Map(jobs.map((j) => [j.id, j])));
    // Should the batched read fail, each fire reads its own job.
    for (const id of missing) {
      this.jobs.set(
        id,
        all.then(
          (byId) => byId.get(id),
          () => this.deps.jobs.get(id),
        ),
      );
    }
  }

  job(id: number): Promise<Job | undefined> {
    return memo(this.jobs, id, () => this.deps.jobs.get(id));
  }

  group(appName: string): Promise<Group | undefined> {
    return memo(this.groups, appName, () => this.deps.groups.get(appName));
  }

  registry(appName: string, seenSince: number): Promise<RegistryEntry[]> {
    return memo(this.online, appName, () => this.deps.registry.list(appName, seenSince));
  }
}

/** The cached promise for `key`; a failed read is forgotten so the next caller tries again. */
function memo<K, V>(cache: Map<K, Promise<V>>, key: K, read: () => Promise<V>): Promise<V> {
  let value = cache.get(key);
  if (value === undefined) {
    value = read();
    value.catch(() => cache.delete(key));
    cache.set(key, value);
  }
  return value;
}

/** How long a sent run waits for others sent about then to share its dispatch-record write. */
export const RECORD_LINGER_MS = 50;

/**
 * The runs one dispatcher record sends. Each is written to the record (`RunStore.recordDispatch`)
 * within {@link RECORD_LINGER_MS} of being sent, together with the others sent meanwhile (the fires
 * of a record mostly share their millisecond: one write): a run sent but not yet written could be
 * taken over and sent again by a duplicate delivery, so that window stays short. Nothing is sent
 * after `sendBy` (the invocation's deadline less a margin): a run is then left for the redelivery
 * rather than sent by an invocation about to be cut off before writing it down.
 */
export class DispatchRecord {
  readonly claimToken: string;
  private unwritten: DispatchEntry[] = [];
  private readonly writes: Promise<void>[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failure: unknown;

  constructor(
    private readonly deps: Pick<DispatchDeps, 'runs' | 'logger' | 'clock'>,
    nowMs: number,
    readonly sendBy: number = Number.POSITIVE_INFINITY,
  ) {
    this.claimToken = deps.runs.newClaimToken(nowMs);
  }

  add(entry: DispatchEntry): void {
    this.unwritten.push(entry);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, RECORD_LINGER_MS);
  }

  /** Writes what is not written yet and waits for every write; rejects if one failed. */
  async save(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.write();
    await Promise.all(this.writes);
    if (this.failure !== undefined) throw this.failure;
  }

  private write(): void {
    const entries = this.unwritten.splice(0);
    if (entries.length === 0) return;
    // Tried again on an infrastructure error: without it a sent run could be sent again.
    const written = withRetries(this.deps, this.claimToken, () =>
      this.deps.runs.recordDispatch(this.claimToken, entries),
    ).catch((err: unknown) => {
      this.failure ??= err;
    });
    this.writes.push(written);
  }
}

/**
 * Dispatches one fire. Inside a dispatcher record pass its `DispatchRecord` (the caller saves it
 * when all of the record's fires are done); alone, the fire gets its own, saved here.
 */
export async function dispatchFire(
  deps: DispatchDeps,
  settings: DispatchSettings,
  message: FireMessage,
  lane: RingLane = 'fast',
  reads: BatchReads = new BatchReads(deps),
  record?: DispatchRecord,
): Promise<DispatchOutcome> {
  if (record) return dispatchInRecord(deps, settings, message, lane, reads, record);
  const own = new DispatchRecord(deps, deps.clock.now());
  try {
    return await dispatchInRecord(deps, settings, message, lane, reads, own);
  } finally {
    await own.save();
  }
}

async function dispatchInRecord(
  deps: DispatchDeps,
  settings: DispatchSettings,
  message: FireMessage,
  lane: RingLane,
  reads: BatchReads,
  record: DispatchRecord,
): Promise<DispatchOutcome> {
  const now = deps.clock.now();
  const keys = {
    jobId: message.jobId,
    scheduledTime: message.scheduledTime,
    triggerType: message.triggerType,
  };
  if (message.scheduledTime - now > settings.maxWaitMs) {
    // Long retry backoffs (SQS delays at most 900 s) and anything that came too early go back on the ring.
    const delaySeconds = delaySecondsFor(message.scheduledTime, now, MAX_DELAY_SECONDS);
    await deps.ring.enqueue([{ message, delaySeconds, lane }]);
    deps.logger.debug('fire re-enqueued until its time', { ...keys, delaySeconds });
    return { kind: 'deferred', delaySeconds };
  }

  // A workflow node's fire asks whether its run still waits for it, beside the job's read.
  const [job, nodeFire] = await Promise.all([
    reads.job(message.jobId),
    message.workflow && deps.workflows ? deps.workflows.nodeFireState(message.workflow) : undefined,
  ]);
  const drop = dropReason(job, message);
  if (drop !== undefined || !job) {
    const reason = drop ?? 'the job does not exist';
    deps.logger.info('fire dropped', { ...keys, reason });
    // A workflow node whose job is gone fails (its run would otherwise wait for it for ever).
    if (message.workflow && nodeFire)
      await nodeFireDropped(deps, message, nodeFire, `job ${message.jobId}: ${reason}`);
    return { kind: 'dropped', reason };
  }
  if (message.workflow && nodeFire && !nodeFire.awaited) {
    // Cancelled (or decided) meanwhile: nothing more is fired.
    const reason = `workflow run ${message.workflow.runId} no longer waits for node ${message.workflow.node} (attempt ${message.workflow.attempt})`;
    await nodeFireDropped(deps, message, nodeFire, reason);
    deps.logger.info('fire dropped', { ...keys, reason });
    return { kind: 'dropped', reason };
  }
  const group = await reads.group(job.appName);
  const ctx = await fireContext(reads, settings, job, group, message, now);

  await deps.clock.sleep(message.scheduledTime - settings.claimLeadMs - deps.clock.now());
  const misfire = misfireOf(job, message, deps.clock.now());
  // A late DO_NOTHING fire: its claim records it as skipped (one write, as a claim), unrouted.
  const skipNow = misfire?.skip ? lateReason(misfire) : undefined;
  // Routed before it is recorded: the run is written once, with the executor it is sent to.
  const routeStarted = deps.clock.now();
  const planned = await planRuns(deps, ctx);
  const targets: Target[] =
    skipNow === undefined
      ? await Promise.all(planned.map((plan) => routeRun(deps, ctx, plan)))
      : planned.map(() => ({ trail: '' }));
  const routeMs = deps.clock.now() - routeStarted;
  const mark: RunMark | undefined =
    skipNow !== undefined
      ? { skipped: skipNow }
      : misfire?.catchUp
        ? { catchUp: catchUpNote(misfire) }
        : undefined;
  const { runs, recordedBefore } = await recordRuns(deps, ctx, planned, targets, record.claimToken, mark);
  const ours = recordedBefore === undefined;
  // Also when found claimed: the dispatcher that claimed them may have died before noting them. Off
  // the path to the executor: the send does not wait for it, the answer does.
  const noting = noteNodeRuns(deps, message, recordedBefore ?? runs.map((r) => r.logId), runs[0]);
  try {
    let toDispatch: readonly Run[] = runs;
    if (ours && skipNow !== undefined) return noteSkipped(deps, ctx, runs, skipNow, runs);
    if (ours && misfire) {
      // Claimed first, then checked: a later fire claimed meanwhile cannot slip between the two.
      const reason = await misfireAfterClaim(deps, settings, ctx, misfire, runs);
      if (reason !== undefined) return skipOwnClaim(deps, ctx, runs, record.claimToken, reason);
    }
    if (recordedBefore !== undefined) {
      const taken = await reclaimUndispatched(deps, settings, ctx, recordedBefore, record.claimToken);
      toDispatch = taken.runs;
      if (toDispatch.length === 0) {
        if (taken.skipped) return taken.skipped;
        deps.logger.info('duplicate fire ignored', { ...keys, logIds: recordedBefore });
        return { kind: 'duplicate', logIds: recordedBefore };
      }
      deps.logger.warn('taking over runs recorded but never dispatched', {
        ...keys,
        logIds: toDispatch.map((r) => r.logId),
      });
    }

    // Start at the fire's millisecond: SQS delays are whole seconds, so the message is up to 1 s early.
    await deps.clock.sleep(message.scheduledTime - deps.clock.now());
    const heldUp = misfire?.catchUp ? undefined : await heldUpReason(deps, settings, ctx, toDispatch);
    if (heldUp !== undefined) return skipOwnClaim(deps, ctx, toDispatch, record.claimToken, heldUp);
    const results = await Promise.all(toDispatch.map((run) => dispatchRun(deps, ctx, run, record)));
    await noteSlowDispatch(deps, job, routeMs + Math.max(...results.map((r) => r.dispatchMs)));
    return { kind: 'dispatched', runs: results, reclaimed: !ours };
  } finally {
    await noting;
  }
}

function dropReason(job: Job | undefined, message: FireMessage): string | undefined {
  if (!job) return 'the job does not exist';
  if (!SCHEDULED_TRIGGERS.has(message.triggerType)) return undefined; // manual, API, parent, retry: always run
  // A stop or a schedule edit bumps the revision. The tick's own stop at the end of a schedule does
  // not, so the last fires of a ONCE job (or of a cron with a final year) still run.
  if (message.scheduleRevision === job.scheduleRevision) return undefined;
  if (job.triggerStatus !== 'RUNNING') return 'the job was stopped after the fire was planned';
  return `the schedule changed since the fire was planned (revision ${message.scheduleRevision ?? 'none'} → ${job.scheduleRevision})`;
}

/**
 * A scheduled fire as the job's misfire strategy sees it when it is about to be claimed; undefined
 * for the triggers that always run (manual, API, parent, retry).
 *
 * - Late: more than MISFIRE_THRESHOLD_MS (5 s) past its time (a dispatcher that held it died and SQS
 *   redelivered it, or everything is overloaded). DO_NOTHING records it as skipped instead of sending
 *   it; FIRE_ONCE_NOW sends it as the job's catch-up, if it is the first since the fire was due.
 * - Overtaken: a later fire of the job was claimed before it (planned logIds grow in schedule order,
 *   so a run above its logId in the job's planned range is one); skipped, whatever the strategy, so
 *   a job's runs start in schedule order. Checked after the claim, and only when the claim completed
 *   late enough for a later fire to have been claimed first (see MIN_FIRE_GAP_MS): no read in the
 *   steady state. Fires without a planned logId are not checked.
 * - Catch-up: a late FIRE_ONCE_NOW fire, or the tick's own MISFIRE fire (FIRE_ONCE_NOW after a
 *   downtime), runs only if it takes the job's catch-up mark (`RunStore.takeCatchUp`): at most one
 *   catch-up per job for the fires missed before it, whoever noticed them.
 */
interface Misfire {
  readonly strategy: string;
  readonly latenessMs: number;
  readonly late: boolean;
  /** Late under DO_NOTHING: recorded as skipped instead of being sent. */
  readonly skip: boolean;
  /** It runs only as the job's catch-up. */
  readonly catchUp: boolean;
  /** The fire time it stands for: its own, or, for a MISFIRE fire, the missed one. */
  readonly missedTime: number;
}

function misfireOf(job: Job, message: FireMessage, nowMs: number): Misfire | undefined {
  if (!SCHEDULED_TRIGGERS.has(message.triggerType)) return undefined;
  const latenessMs = nowMs - message.scheduledTime;
  const late = latenessMs > MISFIRE_THRESHOLD_MS;
  return {
    strategy: job.misfireStrategy,
    latenessMs,
    late,
    skip: late && job.misfireStrategy !== 'FIRE_ONCE_NOW',
    catchUp: message.triggerType === 'MISFIRE' || (late && job.misfireStrategy === 'FIRE_ONCE_NOW'),
    missedTime: message.missedTime ?? message.scheduledTime,
  };
}

const iso = (ms: number): string => new Date(ms).toISOString();

function lateText(misfire: Misfire): string {
  return `reached the dispatcher ${(misfire.latenessMs / 1000).toFixed(1)} s after its time (threshold ${
    MISFIRE_THRESHOLD_MS / 1000
  } s)`;
}

function lateReason(misfire: Misfire): string {
  return `${lateText(misfire)}; ${misfire.strategy} skips it`;
}

function catchUpNote(misfire: Misfire): string {
  const why = misfire.late ? `${lateText(misfire)}; ` : '';
  return `Misfire: ${why}FIRE_ONCE_NOW: the catch-up of the fire due at ${iso(misfire.missedTime)}`;
}

/** Whether a later fire of the job can have been claimed by the time this one is `latenessMs` past its time. */
function mayBeOvertaken(settings: DispatchSettings, latenessMs: number): boolean {
  return latenessMs > MIN_FIRE_GAP_MS - settings.claimLeadMs - CLOCK_SKEW_MARGIN_MS;
}

/** The planned range of the fire's job holds the logId: its place in the schedule is known. */
function isPlannedLogId(jobId: number, logId: number): boolean {
  const first = firstPlannedLogId(jobId);
  return logId >= first && logId < first + UNPLANNED_LOG_ID_OFFSET;
}

/**
 * After a scheduled fire's runs were claimed (or taken over) by us: why they must not be sent
 * (overtaken, or a catch-up that lost the job's mark), or undefined to send them.
 */
async function misfireAfterClaim(
  deps: DispatchDeps,
  settings: DispatchSettings,
  ctx: FireContext,
  misfire: Misfire,
  runs: readonly Run[],
): Promise<string | undefined> {
  const { message } = ctx;
  const [only] = runs;
  const now = deps.clock.now();
  const overtakable = mayBeOvertaken(settings, now - message.scheduledTime);
  if (runs.length === 1 && only && isPlannedLogId(message.jobId, only.logId) && overtakable) {
    const later = await deps.runs.laterPlannedRun(only.logId);
    if (later) return `overtaken by the fire due at ${iso(later.scheduledTime)}, claimed before it`;
  }
  if (!misfire.catchUp) return undefined;
  const won = await deps.runs.takeCatchUp(message.jobId, {
    missedTime: misfire.missedTime,
    nowMs: now,
    fireKey: message.dedupKey,
  });
  if (won) return undefined;
  return misfire.late
    ? `${lateText(misfire)}; FIRE_ONCE_NOW: a catch-up already ran since`
    : `FIRE_ONCE_NOW: a catch-up already ran since the fire due at ${iso(misfire.missedTime)}`;
}

/**
 * A last look before sending, for a dispatcher held up since its claim (paused, starved of CPU):
 * a scheduled fire is not sent past the misfire threshold (DO_NOTHING; FIRE_ONCE_NOW sends it
 * only as the job's catch-up), nor after a later fire of its job was claimed. Free unless the
 * send itself is late; a catch-up is meant to run late and is not looked at again.
 */
async function heldUpReason(
  deps: DispatchDeps,
  settings: DispatchSettings,
  ctx: FireContext,
  runs: readonly Run[],
): Promise<string | undefined> {
  const atSend = misfireOf(ctx.job, ctx.message, deps.clock.now());
  if (!atSend || !mayBeOvertaken(settings, atSend.latenessMs)) return undefined;
  if (atSend.skip) {
    return `held up ${(atSend.latenessMs / 1000).toFixed(1)} s past its time before it could be sent (threshold ${
      MISFIRE_THRESHOLD_MS / 1000
    } s); ${atSend.strategy} skips it`;
  }
  return misfireAfterClaim(deps, settings, ctx, atSend, runs);
}

/** The trigger message of a skipped run. */
function skippedTriggerMsg(job: Job, triggerType: TriggerType, reason: string): string {
  return [
    `Trigger type: ${triggerType}`,
    `Misfire strategy: ${job.misfireStrategy}`,
    `Skipped, never sent: ${reason}`,
  ].join('\n');
}

/** Rewrites runs we claimed (not sent) as skipped. */
async function skipOwnClaim(
  deps: DispatchDeps,
  ctx: FireContext,
  runs: readonly Run[],
  claimToken: string,
  reason: string,
): Promise<DispatchOutcome> {
  const nowMs = deps.clock.now();
  const skipped: Run[] = [];
  for (const run of runs) {
    const triggerMsg = skippedTriggerMsg(ctx.job, run.triggerType, reason);
    if (await deps.runs.skipClaimed(run.logId, { claimToken, triggerMsg, nowMs })) {
      skipped.push(run);
    } else {
      // Only a take-over of our claim changes it: not sent by us either way.
      deps.logger.warn('a skipped run changed meanwhile; left as it is', {
        jobId: run.jobId,
        logId: run.logId,
      });
    }
  }
  return noteSkipped(deps, ctx, runs, reason, skipped);
}

/**
 * Counts and logs a fire recorded as skipped (a misfire): the runs `recorded` as skipped count in
 * the daily report counters of their trigger day and group, as sent runs count as running.
 */
async function noteSkipped(
  deps: DispatchDeps,
  ctx: FireContext,
  runs: readonly Pick<Run, 'logId'>[],
  reason: string,
  recorded: readonly Pick<Run, 'triggerTime' | 'appName'>[],
): Promise<DispatchOutcome> {
  const { job, message } = ctx;
  const logIds = runs.map((r) => r.logId);
  deps.metrics.add(METRIC.misfiresSkipped, 'Count', 1);
  for (const run of recorded) await deps.reports.add(dayOf(run.triggerTime), { skipped: 1 }, run.appName);
  deps.logger.warn('fire skipped (misfire)', {
    jobId: job.id,
    logId: logIds[0],
    ...(logIds.length > 1 ? { logIds } : {}),
    scheduledTime: iso(message.scheduledTime),
    latenessMs: deps.clock.now() - message.scheduledTime,
    reason,
    misfireStrategy: job.misfireStrategy,
  });
  return { kind: 'skipped', logIds, reason };
}

async function fireContext(
  reads: BatchReads,
  settings: DispatchSettings,
  job: Job,
  group: Group | undefined,
  message: FireMessage,
  now: number,
): Promise<FireContext> {
  const base = { job, message };
  if (job.workflowId !== undefined) {
    // A workflow's starter job: the dispatcher itself starts the run (see dispatchRun).
    return {
      ...base,
      addresses: [starterAddress(job.workflowId)],
      addressSource: 'workflow',
      noAddressReason: '',
    };
  }
  const override = (message.addressList ?? []).map((a) => a.trim()).filter(Boolean);
  if (override.length > 0) {
    return {
      ...base,
      addresses: [...new Set(override)],
      addressSource: 'address list of this trigger',
      noAddressReason: '',
    };
  }
  const noAddressReason = `no online executor in group ${job.appName}`;
  if (!group) {
    return {
      ...base,
      addresses: [],
      addressSource: 'group missing',
      noAddressReason: `${noAddressReason}: the group does not exist`,
    };
  }
  if (group.addressType === 'MANUAL') {
    const addresses = [...new Set(group.addressList.map((a) => a.trim()).filter(Boolean))];
    return {
      ...base,
      addresses,
      addressSource: 'MANUAL',
      noAddressReason: `${noAddressReason} (its address list is empty)`,
    };
  }
  const entries = await reads.registry(job.appName, now - settings.registryDeadSeconds * 1000);
  const addresses = [...new Set(entries.map((e) => e.address))].sort();
  return {
    ...base,
    addresses,
    addressSource: 'AUTO',
    noAddressReason: `${noAddressReason} (none registered within ${settings.registryDeadSeconds} s)`,
  };
}

interface PlannedRun {
  readonly shardIndex: number;
  readonly shardTotal: number;
  /** Broadcast shards know their executor when recorded; other runs are routed when sent. */
  readonly address: string;
}

/**
 * One run, or one per online executor for SHARDING_BROADCAST (one shard again for its retry; the
 * shards a trigger fixed, with their logIds, when it gave them out).
 */
async function planRuns(deps: DispatchDeps, ctx: FireContext): Promise<PlannedRun[]> {
  if (ctx.message.shards !== undefined) {
    return ctx.message.shards.map((s) => ({ shardIndex: s.index, shardTotal: s.total, address: s.address }));
  }
  const shard = ctx.message.retry?.shard;
  const single = [{ shardIndex: shard?.index ?? 0, shardTotal: shard?.total ?? 1, address: '' }];
  if (ctx.job.executorRouteStrategy !== 'SHARDING_BROADCAST') return single;
  let result: RouteResult;
  try {
    result = await route({
      strategy: 'SHARDING_BROADCAST',
      jobId: ctx.job.id,
      addresses: ctx.addresses,
      nowMs: deps.clock.now(),
      random: deps.random,
      shard: shard ? { index: shard.index, total: shard.total } : undefined,
    });
  } catch (err) {
    if (!isAppError(err)) throw err;
    return single; // routed again when sent, where the error becomes the failed trigger's message
  }
  if (result.kind !== 'BROADCAST') return single;
  return result.targets.map((t) => ({ shardIndex: t.index, shardTotal: t.total, address: t.address }));
}

/** A run recorded as skipped (never sent, why), or to be sent as the job's catch-up (a note why). */
type RunMark = { readonly skipped: string } | { readonly catchUp: string };

/**
 * A run as recorded: sent to its target (triggerCode 200, as the executor is expected to answer;
 * a refusal rewrites it) or, without a target, refused already (triggerCode 500); with a `skipped`
 * mark, skipped (never sent).
 */
function newRun(
  ctx: FireContext,
  plan: PlannedRun,
  target: Target,
  logId: number,
  now: number,
  mark?: RunMark,
): Run {
  const { job, message } = ctx;
  const run: Run = {
    logId,
    jobId: job.id,
    appName: job.appName,
    jobName: job.name,
    dedupKey: message.dedupKey,
    triggerType: message.triggerType,
    scheduledTime: message.scheduledTime,
    triggerTime: now,
    executorHandler: job.executorHandler ?? '',
    executorParam: message.executorParam ?? job.executorParam ?? '',
    executorRouteStrategy: job.executorRouteStrategy,
    executorTimeout: job.executorTimeout,
    shardIndex: plan.shardIndex,
    shardTotal: plan.shardTotal,
    attempt: message.retry?.attempt ?? 1,
    retriesLeft: message.retry?.retriesLeft ?? Math.max(0, job.executorFailRetryCount),
    ...(message.parentLogId === undefined ? {} : { parentLogId: message.parentLogId }),
    ...(message.workflow === undefined ? {} : { workflow: message.workflow }),
    executorAddress: target.address ?? '',
    triggerCode: target.address === undefined ? TRIGGER_CODE.fail : TRIGGER_CODE.success,
    triggerMsg: '',
    dispatchedAt: Math.max(now, message.scheduledTime),
    handleCode: 0,
    handleMsg: '',
    handleTime: 0,
    alarmStatus: 0,
  };
  if (mark && 'skipped' in mark) {
    return {
      ...run,
      executorAddress: '',
      triggerCode: TRIGGER_CODE.skipped,
      triggerMsg: skippedTriggerMsg(job, run.triggerType, mark.skipped),
      dispatchedAt: 0,
    };
  }
  const reply: ReturnT<unknown> =
    target.address === undefined
      ? { code: TRIGGER_CODE.fail, msg: target.reason ?? ctx.noAddressReason }
      : { code: TRIGGER_CODE.success };
  const note = mark && 'catchUp' in mark ? mark.catchUp : undefined;
  return { ...run, triggerMsg: describeTrigger(ctx, run, run.executorAddress, target.trail, reply, note) };
}

/**
 * Records the fire's runs, which claims the fire. A fire planned or triggered with its logId (one
 * run) is claimed by putting that run unless it exists: one write. Otherwise the runs (with the
 * logIds a trigger fixed for its shards, or new ones) are written with a fire record keyed by
 * `dedupKey`, in one transaction. For a duplicate, `recordedBefore` holds the logIds of the runs
 * recorded before.
 */
async function recordRuns(
  deps: DispatchDeps,
  ctx: FireContext,
  planned: readonly PlannedRun[],
  targets: readonly Target[],
  claimToken: string,
  mark?: RunMark,
): Promise<{ runs: Run[]; recordedBefore?: readonly number[] }> {
  const { message } = ctx;
  const [only] = planned;
  const [target] = targets;
  if (message.logId !== undefined && only !== undefined && target !== undefined && planned.length === 1) {
    const run = newRun(ctx, only, target, message.logId, deps.clock.now(), mark);
    const claimed = await withRetries(deps, message.dedupKey, () => deps.runs.claim(run, claimToken));
    return claimed.created ? { runs: [run] } : { runs: [run], recordedBefore: claimed.logIds };
  }
  const logIds =
    message.shards?.map((s) => s.logId) ?? (await deps.runs.allocateLogIds(ctx.job.id, planned.length));
  const runs = planned.map((plan, i) =>
    newRun(ctx, plan, targets[i] as Target, logIds[i] as number, deps.clock.now(), mark),
  );
  const created: CreateFireResult = await withRetries(deps, message.dedupKey, () =>
    deps.runs.createFire(message.dedupKey, runs, claimToken),
  );
  return created.created ? { runs } : { runs, recordedBefore: created.logIds };
}

/** Recording a fire, tried again on an infrastructure error (the write is idempotent). */
async function withRetries<R>(
  deps: Pick<DispatchDeps, 'logger' | 'clock'>,
  dedupKey: string,
  write: () => Promise<R>,
): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (isAppError(err) || attempt >= CREATE_FIRE_ATTEMPTS) throw err;
      deps.logger.warn('recording the fire failed, trying again', { dedupKey, attempt, error: String(err) });
      await deps.clock.sleep(50 * 2 ** attempt);
    }
  }
}

/**
 * A duplicate delivery. Runs recorded but never sent (no dispatch record under their claim lists
 * them) are taken over when their claim is stale (the dispatcher that recorded them died), under
 * the misfire policy of a scheduled fire (see {@link misfireOf}): a late DO_NOTHING fire is
 * taken over as skipped (one write, in place of the take-over), the rest are checked as a claim of
 * our own is; runs refused long ago whose retry/alarm never happened (the dispatcher died between
 * recording the refusal and enqueueing the retry) get it now; the retry's own dedupKey keeps a
 * second retry from running twice. A run that was sent is never touched.
 */
async function reclaimUndispatched(
  deps: DispatchDeps,
  settings: DispatchSettings,
  ctx: FireContext,
  logIds: readonly number[],
  claimToken: string,
): Promise<{ runs: Run[]; skipped?: DispatchOutcome }> {
  const stored = await deps.runs.getMany(logIds);
  const staleBefore = deps.clock.now() - settings.claimStaleMs;
  for (const run of stored) {
    const outcomePending =
      run.triggerCode === TRIGGER_CODE.fail &&
      run.handleCode === 0 &&
      run.alarmStatus === 0 &&
      run.dispatchedAt < staleBefore;
    if (!outcomePending) continue;
    deps.logger.warn('finishing a refused run whose retry or alarm was never handled', {
      jobId: run.jobId,
      logId: run.logId,
    });
    // Its failure was counted when it was refused; only the retry or alarm is missing.
    await onRunFinished(deps, run, false, { countersDone: true });
  }
  // Only runs claimed long ago and still unfinished can be unsent; only they cost a look at their record.
  const suspects = stored.filter(
    (r) => r.triggerCode === TRIGGER_CODE.success && r.handleCode === 0 && r.claimAt < staleBefore,
  );
  const sentUnder = new Map<string, Promise<ReadonlySet<number>>>();
  const taken: Run[] = [];
  const skipped: Run[] = [];
  let skipReason = '';
  let misfire: Misfire | undefined;
  for (const run of suspects.sort((a, b) => a.shardIndex - b.shardIndex)) {
    let sent = sentUnder.get(run.claimToken);
    if (!sent) {
      sent = deps.runs.dispatchedUnder(run.claimToken);
      sentUnder.set(run.claimToken, sent);
    }
    if ((await sent).has(run.logId)) continue;
    const now = deps.clock.now();
    const previous = { previousToken: run.claimToken, staleBeforeMs: now - settings.claimStaleMs };
    misfire = misfireOf(ctx.job, ctx.message, now);
    const { claimToken: _t, claimAt: _c, ...plain } = run;
    if (misfire?.skip) {
      skipReason = lateReason(misfire);
      const triggerMsg = skippedTriggerMsg(ctx.job, run.triggerType, skipReason);
      if (
        await deps.runs.skipClaimed(run.logId, { claimToken, triggerMsg, nowMs: now, takeOver: previous })
      ) {
        skipped.push(plain);
      }
      continue;
    }
    const triggerMsg = misfire?.catchUp ? withNote(run.triggerMsg, catchUpNote(misfire)) : undefined;
    const reclaimed = await deps.runs.reclaim(run.logId, {
      ...previous,
      claimToken,
      nowMs: now,
      ...(triggerMsg === undefined ? {} : { triggerMsg }),
    });
    if (reclaimed) taken.push(triggerMsg === undefined ? plain : { ...plain, triggerMsg });
  }
  if (skipped.length > 0) {
    return { runs: taken, skipped: await noteSkipped(deps, ctx, skipped, skipReason, skipped) };
  }
  if (taken.length > 0 && misfire) {
    const reason = await misfireAfterClaim(deps, settings, ctx, misfire, taken);
    if (reason !== undefined)
      return { runs: [], skipped: await skipOwnClaim(deps, ctx, taken, claimToken, reason) };
  }
  return { runs: taken };
}

interface Target {
  readonly address?: string;
  readonly trail: string;
  /** Why there is no address. */
  readonly reason?: string;
}

/**
 * Sends a recorded run to its executor (or finishes it as refused when it had none). An accepted
 * run needs no write of its own: the record lists it; a refusal rewrites the run.
 */
async function dispatchRun(
  deps: DispatchDeps,
  ctx: FireContext,
  run: Run,
  record: DispatchRecord,
): Promise<DispatchedRun> {
  const started = deps.clock.now();
  const keys = {
    jobId: run.jobId,
    logId: run.logId,
    scheduledTime: new Date(run.scheduledTime).toISOString(),
  };
  const address = run.executorAddress;
  let reply: ReturnT<unknown> | undefined;
  let starter: StarterResult | undefined;
  if (run.triggerCode === TRIGGER_CODE.success) {
    if (started > record.sendBy) {
      // Its claim goes stale and the redelivery of the fire takes it over.
      throw new Error(`run ${run.logId} not sent: the invocation is about to run out of time`);
    }
    deps.metrics.add(METRIC.lateness, 'Milliseconds', Math.max(0, started - run.scheduledTime));
    if (run.triggerType === 'WORKFLOW') {
      deps.metrics.add(METRIC.workflowNodeLateness, 'Milliseconds', Math.max(0, started - run.scheduledTime));
    }
    const workflowId = workflowOfAddress(address);
    if (workflowId === undefined) {
      reply = await deps.transport.run({ address, appName: ctx.job.appName }, triggerParam(ctx.job, run));
    } else {
      // Started where an executor would be called: a dispatcher that dies after this and before its
      // record is written leaves the fire to be taken over, which finds the run started.
      starter = await startScheduledWorkflow(deps, run, workflowId);
      reply = { code: TRIGGER_CODE.success, msg: starter.handleMsg };
    }
  }
  const dispatchedAt = deps.clock.now();
  const accepted = reply?.code === TRIGGER_CODE.success;
  deps.logger.info('run triggered', {
    ...keys,
    address,
    triggerType: run.triggerType,
    code: reply?.code ?? TRIGGER_CODE.fail,
  });
  if (accepted) {
    record.add({ logId: run.logId, appName: run.appName, deadline: deadlineOf(run, dispatchedAt) });
    deps.metrics.add(METRIC.runsDispatched, 'Count', 1);
    await deps.reports.add(dayOf(run.triggerTime), { running: 1 }, run.appName);
    if (starter) await finishStarterRun(deps, ctx.job, run, starter);
    return {
      logId: run.logId,
      address,
      triggerCode: TRIGGER_CODE.success,
      dispatchMs: dispatchedAt - started,
    };
  }
  record.add({ logId: run.logId, appName: run.appName, deadline: 0 });
  let failed: Run = run;
  if (reply !== undefined) {
    // Refused by the executor: the run was recorded as sent, so record the refusal.
    const triggerMsg = withReply(run.triggerMsg, address, reply);
    failed = { ...run, triggerCode: TRIGGER_CODE.fail, triggerMsg, dispatchedAt };
    const recorded = await deps.runs.recordRefusal(run.logId, record.claimToken, failed);
    if (!recorded) {
      deps.logger.warn('the run has a result already; its refusal is not recorded', keys);
      return {
        logId: run.logId,
        address,
        triggerCode: TRIGGER_CODE.fail,
        dispatchMs: dispatchedAt - started,
      };
    }
  }
  deps.metrics.add(METRIC.dispatchFailures, 'Count', 1);
  deps.logger.warn('trigger failed', { ...keys, address, msg: reply?.msg ?? failed.triggerMsg });
  await onRunFinished(deps, failed, false, { job: ctx.job });
  return { logId: run.logId, address, triggerCode: TRIGGER_CODE.fail, dispatchMs: dispatchedAt - started };
}

/**
 * Records which job runs a workflow node's fire became (for the run's page, a cancel's kill and the
 * monitors). A broadcast shard's retry leaves the node's shard list as it was. Best-effort: the
 * monitors find the node by its fire again.
 */
async function noteNodeRuns(
  deps: DispatchDeps,
  message: FireMessage,
  logIds: readonly number[],
  first: Run | undefined,
): Promise<void> {
  const link = message.workflow;
  if (!link || !deps.workflows || logIds.length === 0) return;
  const shard = message.retry && first && first.shardTotal > 1 ? first.shardIndex : undefined;
  await deps.workflows.noteNodeRuns(link, logIds, shard);
}

/** A workflow node's fire that is not run: the engine decides whether that ends the node's attempt. */
async function nodeFireDropped(
  deps: DispatchDeps,
  message: FireMessage,
  state: NodeFireState,
  reason: string,
): Promise<void> {
  if (!message.workflow || !deps.workflows) return;
  await deps.workflows.onFireDropped(message.workflow, state, {
    reason,
    ...(message.retry ? { retryOf: message.retry.ofLogId } : {}),
  });
}

interface StarterResult {
  readonly handleCode: number;
  readonly handleMsg: string;
}

/**
 * A workflow's schedule fired (its starter job's run): the workflow run starts (one per fire,
 * `scheduledRunId`, whoever starts it; a start repeated finds it started), and what happened is
 * the starter run's result, a success also when the overlap policy skipped the start.
 */
async function startScheduledWorkflow(
  deps: DispatchDeps,
  run: Run,
  workflowId: number,
): Promise<StarterResult> {
  let handleCode: number = HANDLE_CODE.success;
  let handleMsg: string;
  try {
    if (!deps.workflows) throw new Error('this dispatcher cannot start workflows');
    const started = await deps.workflows.start({
      workflowId,
      runId: scheduledRunId(run.logId),
      trigger: { type: 'SCHEDULE', starterLogId: run.logId },
    });
    handleMsg =
      started.kind === 'skipped'
        ? `workflow run not started: ${started.reason}`
        : started.kind === 'exists'
          ? `workflow run ${started.runId} started`
          : `workflow run ${started.run.id} ${started.kind}`;
  } catch (err) {
    handleCode = HANDLE_CODE.fail;
    handleMsg = `workflow ${workflowId} not started: ${err instanceof Error ? err.message : String(err)}`;
  }
  return { handleCode, handleMsg };
}

/** The starter run's result: what became of the start. */
async function finishStarterRun(
  deps: DispatchDeps,
  job: Job,
  run: Run,
  result: StarterResult,
): Promise<void> {
  const { handleCode, handleMsg } = result;
  const outcome = await deps.runs.complete(
    run.logId,
    { handleCode, handleMsg, handleTime: deps.clock.now() },
    { markOutcomePending: handleCode !== HANDLE_CODE.success },
  );
  if (outcome.kind === 'completed') {
    await onRunFinished(deps, outcome.run, true, { job, marked: handleCode !== HANDLE_CODE.success });
  }
}

/** The executor for one run: the shard's own for broadcasts, else `route()` with the job's shared state. */
async function routeRun(deps: DispatchDeps, ctx: FireContext, plan: PlannedRun): Promise<Target> {
  const strategy = ctx.job.executorRouteStrategy;
  if (!isRouteStrategy(strategy)) {
    return { trail: '', reason: `the job's route strategy "${strategy}" is not one tickring knows` };
  }
  if (strategy === 'SHARDING_BROADCAST' && plan.address !== '') {
    return { address: plan.address, trail: '' };
  }
  try {
    const result = await routeWithState(deps, ctx, strategy, plan);
    if (result.kind === 'ONE') return { address: result.address, trail: result.trail };
    if (result.kind === 'BROADCAST') {
      const first = result.targets[0];
      return first ? { address: first.address, trail: '' } : { trail: '', reason: ctx.noAddressReason };
    }
    const reason =
      result.cause === 'NO_ADDRESS' ? ctx.noAddressReason : `${result.reason} in group ${ctx.job.appName}`;
    return { trail: result.trail, reason };
  } catch (err) {
    if (!isAppError(err)) throw err;
    return { trail: '', reason: `routing failed: ${err.message}` };
  }
}

/** Read the job's state, route, write the new state conditionally; on a lost race read and route again. */
async function routeWithState(
  deps: DispatchDeps,
  ctx: FireContext,
  strategy: RouteStrategy,
  plan: PlannedRun,
): Promise<RouteResult> {
  const kind = stateKindOf(strategy);
  const probe: Probe | undefined =
    strategy === 'FAILOVER'
      ? async (address) => toProbe(await deps.transport.beat({ address, appName: ctx.job.appName }))
      : strategy === 'BUSYOVER'
        ? async (address, jobId) =>
            toProbe(await deps.transport.idleBeat({ address, appName: ctx.job.appName }, jobId))
        : undefined;
  const input = {
    strategy,
    jobId: ctx.job.id,
    addresses: ctx.addresses,
    random: deps.random,
    probe,
    shard: strategy === 'SHARDING_BROADCAST' ? { index: plan.shardIndex, total: plan.shardTotal } : undefined,
  };
  if (kind === undefined || ctx.addresses.length === 0) return route({ ...input, nowMs: deps.clock.now() });
  for (let attempt = 1; ; attempt++) {
    const stored = await deps.routeStates.get(ctx.job.id);
    const result = await route({ ...input, state: stored.state, nowMs: deps.clock.now() });
    if (result.kind !== 'ONE' || !result.state) return result;
    if (await deps.routeStates.put(ctx.job.id, result.state, stored.version)) return result;
    if (attempt >= ROUTE_CONFLICT_ATTEMPTS) {
      deps.logger.warn('route state kept changing; routing without storing', { jobId: ctx.job.id });
      return result;
    }
  }
}

function toProbe(reply: ReturnT<unknown>): { ok: boolean; msg: string; code: number } {
  return { ok: reply.code === 200, msg: reply.msg ?? '', code: reply.code };
}

/** Every field present, `''` rather than null, as XXL-JOB's admin sends it (reference §B.2). */
export function triggerParam(job: Job, run: Run): TriggerParam {
  return {
    jobId: job.id,
    executorHandler: run.executorHandler ?? '',
    executorParams: run.executorParam ?? '',
    executorBlockStrategy: job.executorBlockStrategy ?? 'SERIAL_EXECUTION',
    executorTimeout: run.executorTimeout ?? 0,
    logId: run.logId,
    logDateTime: run.scheduledTime,
    glueType: job.glueType ?? 'BEAN',
    glueSource: job.glueSource ?? '',
    glueUpdatetime: job.glueUpdatetime ?? 0,
    broadcastIndex: run.shardIndex,
    broadcastTotal: run.shardTotal,
  };
}

function deadlineOf(run: Run, dispatchedAt: number): number {
  return (
    dispatchedAt +
    (run.executorTimeout > 0 ? run.executorTimeout * 1000 + DEADLINE_GRACE_MS : DEADLINE_WITHOUT_TIMEOUT_MS)
  );
}

/** The trigger log's message (XXL-JOB's triggerMsg): the settings used, the route trail, the executor's reply. */
function describeTrigger(
  ctx: FireContext,
  run: Run,
  address: string,
  trail: string,
  reply: ReturnT<unknown>,
  note?: string,
): string {
  const { job } = ctx;
  const broadcast = job.executorRouteStrategy === 'SHARDING_BROADCAST';
  return [
    `Trigger type: ${run.triggerType}${run.attempt > 1 ? ` (attempt ${run.attempt})` : ''}`,
    `Executor group: ${job.appName} (${ctx.addressSource})`,
    `Address list: [${ctx.addresses.join(', ')}]`,
    `Route strategy: ${job.executorRouteStrategy}${broadcast ? ` (shard ${run.shardIndex}/${run.shardTotal})` : ''}`,
    `Block strategy: ${job.executorBlockStrategy}`,
    `Timeout: ${run.executorTimeout} s`,
    `Retries left: ${run.retriesLeft}`,
    ...(note ? [note] : []),
    ...(trail ? ['Route trail:', trail] : []),
    replyPart(address, reply),
  ].join('\n');
}

const REPLY_MARK = '>>>>>>>>>>> Trigger <<<<<<<<<<<';

function replyPart(address: string, reply: ReturnT<unknown>): string {
  return [REPLY_MARK, `address: ${address || '-'}`, `code: ${reply.code}`, `msg: ${reply.msg ?? ''}`].join(
    '\n',
  );
}

/** A recorded trigger message with a note added before the executor's reply. */
function withNote(triggerMsg: string, note: string): string {
  const at = triggerMsg.lastIndexOf(REPLY_MARK);
  return at < 0 ? `${triggerMsg}\n${note}` : `${triggerMsg.slice(0, at)}${note}\n${triggerMsg.slice(at)}`;
}

/** A recorded trigger message with the executor's actual reply in place of the expected one. */
function withReply(triggerMsg: string, address: string, reply: ReturnT<unknown>): string {
  const at = triggerMsg.lastIndexOf(REPLY_MARK);
  return `${at < 0 ? `${triggerMsg}\n` : triggerMsg.slice(0, at)}${replyPart(address, reply)}`;
}

/** XXL-JOB's slow pool: > 10 dispatches over 500 ms in the current minute sends the job's fires to the slow lane. */
async function noteSlowDispatch(deps: DispatchDeps, job: Job, dispatchMs: number): Promise<void> {
  if (dispatchMs <= SLOW_DISPATCH_MS) return;
  const now = deps.clock.now();
  const count = await deps.slowTracker.countSlowDispatch(job.id, now);
  if (count <= SLOW_DISPATCHES_PER_MINUTE) return;
  await deps.jobs.markSlow(job.id, now + SLOW_LANE_MS);
  if (job.slowUntil <= now) {
    deps.logger.warn('job moved to the slow lane', {
      jobId: job.id,
      slowDispatchesThisMinute: count,
      dispatchMs,
    });
  }
}
