/**
 * Moves running backfills on: counts the fires that finished (read from their runs), starts the next
 * ones while fewer than `parallelism` run and the rate allows, and ends a backfill whose fires are all
 * done. Each step is one write conditional on the backfill's revision, made before its fires go on the
 * ring: two sweeps racing never start the same fire twice (the loser writes nothing and sends nothing),
 * and a crash after the write leaves fires recorded as running without a run, which the next step a
 * while later puts on the ring again under the same logId (the run record is the fire's claim).
 */
import type { Clock } from '../common/clock.js';
import { ConflictError, NotFoundError } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import { dueNow, type RingQueue } from '../dispatch/ring-queue.js';
import type { FireMessage } from '../dispatch/trigger.js';
import type { JobStore } from '../jobs/job-store.js';
import { type Run, runStatus } from '../runs/run.js';
import type { RunStore } from '../runs/run-store.js';
import { scheduledRunId } from '../workflows/model/link.js';
import type { WorkflowStore } from '../workflows/workflow-store.js';
import { type Backfill, type BackfillFire, backfillDedupKey, MAX_LISTED_FAILURES } from './backfill.js';
import { nextBackfillFire } from './backfill-fires.js';
import type { BackfillStore } from './backfill-store.js';

export interface BackfillSweepDeps {
  readonly jobs: Pick<JobStore, 'get'>;
  readonly backfills: BackfillStore;
  readonly runs: Pick<RunStore, 'allocateLogIds' | 'getMany'>;
  readonly ring: RingQueue;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Where a workflow's backfill reads its runs (each fire's progress is its workflow run's). */
  readonly workflowRuns?: Pick<WorkflowStore, 'getRun'>;
}

export const BACKFILL_SWEEP = {
  /** How often a driving sweep steps every active backfill. */
  stepMs: 1_000,
  /** A fire recorded as sent that has no run this long after is put on the ring again. */
  resendAfterMs: 60_000,
  /** The rate limit lets at most this much of unused time be caught up at once. */
  burstMs: 1_000,
} as const;

export type BackfillStep =
  | {
      readonly kind: 'advanced';
      readonly backfill: Backfill;
      readonly started: number;
      readonly finished: number;
    }
  | { readonly kind: 'unchanged'; readonly backfill: Backfill }
  | { readonly kind: 'lostRace'; readonly backfill?: undefined };

/** One step of one backfill (see the file's comment). */
export async function advanceBackfill(deps: BackfillSweepDeps, backfill: Backfill): Promise<BackfillStep> {
  const now = deps.clock.now();
  const job = await deps.jobs.get(backfill.jobId);
  const runs =
    backfill.running.length > 0 ? await deps.runs.getMany(backfill.running.map((f) => f.logId)) : [];
  const runOf = new Map(runs.map((run) => [run.logId, run]));

  let succeeded = backfill.succeeded;
  let failed = backfill.failed;
  const failures = [...backfill.failures];
  const stillRunning: BackfillFire[] = [];
  const resend: BackfillFire[] = [];
  const fail = (fire: BackfillFire) => {
    failed++;
    if (failures.length < MAX_LISTED_FAILURES) failures.push(fire.scheduledTime);
  };
  for (const fire of backfill.running) {
    const run = runOf.get(fire.logId);
    if (!run) {
      if (!job)
        fail(fire); // its job is gone: no dispatcher will run it
      else if (now - fire.sentAt >= BACKFILL_SWEEP.resendAfterMs) {
        const again = { ...fire, sentAt: now };
        resend.push(again);
        stillRunning.push(again);
      } else stillRunning.push(fire);
      continue;
    }
    const status = backfill.workflowId === undefined ? runStatus(run) : await workflowFireStatus(deps, run);
    if (status === 'running') stillRunning.push(fire);
    else if (status === 'success') succeeded++;
    else fail(fire);
  }
  const finished = backfill.running.length - stillRunning.length;

  // New fires: while running, within the parallelism and the rate.
  const starting: number[] = [];
  let nextFireTime = backfill.nextFireTime;
  let slot = Math.max(backfill.notBefore ?? now, now - BACKFILL_SWEEP.burstMs);
  const interval = backfill.ratePerMinute === undefined ? 0 : 60_000 / backfill.ratePerMinute;
  if (backfill.state === 'RUNNING' && job) {
    while (
      nextFireTime !== undefined &&
      stillRunning.length + starting.length < backfill.parallelism &&
      (interval === 0 || slot <= now)
    ) {
      starting.push(nextFireTime);
      nextFireTime = nextBackfillFire(
        backfill.schedule,
        backfill.bounds,
        backfill,
        nextFireTime,
        backfill.calendars,
      );
      slot += interval;
    }
  }
  const logIds = starting.length > 0 ? await deps.runs.allocateLogIds(backfill.jobId, starting.length) : [];
  const started: BackfillFire[] = starting.map((scheduledTime, i) => ({
    scheduledTime,
    logId: logIds[i] as number,
    sentAt: now,
  }));
  const running = [...stillRunning, ...started];

  const stopped = !job && backfill.state === 'RUNNING';
  const state = stopped
    ? 'CANCELLED'
    : backfill.state === 'RUNNING' && nextFireTime === undefined && running.length === 0
      ? 'COMPLETED'
      : backfill.state;
  const ends = running.length === 0 && backfill.endedAt === undefined && state !== 'RUNNING';
  if (finished === 0 && started.length === 0 && resend.length === 0 && state === backfill.state && !ends) {
    return { kind: 'unchanged', backfill };
  }
  const { nextFireTime: _n, notBefore: _b, ...rest } = backfill;
  const moved = state === 'RUNNING' && nextFireTime !== undefined;
  const next: Backfill = {
    ...rest,
    ...(moved ? { nextFireTime } : {}),
    ...(moved && interval > 0 ? { notBefore: slot } : {}),
    dispatched: backfill.dispatched + started.length,
    succeeded,
    failed,
    failures,
    running,
    state,
    ...(stopped ? { stopReason: `job ${backfill.jobId} was deleted` } : {}),
    ...(ends ? { endedAt: now } : {}),
    revision: backfill.revision + 1,
  };
  try {
    await deps.backfills.update(next, backfill.revision);
  } catch (err) {
    // Another sweep (or a cancel) moved it first: it sends what it recorded; we send nothing.
    if (err instanceof ConflictError || err instanceof NotFoundError) return { kind: 'lostRace' };
    throw err;
  }
  const send = [...started, ...resend];
  if (send.length > 0)
    await deps.ring.enqueue(dueNow(send.map((fire) => backfillFireMessage(backfill, fire))));
  if (resend.length > 0) {
    deps.logger.warn('backfill fires sent again: no run a while after they were sent', {
      backfillId: backfill.id,
      jobId: backfill.jobId,
      logIds: resend.map((f) => f.logId),
    });
  }
  if (ends) {
    deps.logger.info('backfill ended', {
      backfillId: backfill.id,
      jobId: backfill.jobId,
      state,
      total: backfill.total,
      dispatched: next.dispatched,
      succeeded,
      failed,
      ...(next.stopReason ? { reason: next.stopReason } : {}),
    });
  }
  return { kind: 'advanced', backfill: next, started: started.length, finished };
}

/**
 * A workflow backfill's fire: its starter job's run starts the workflow run (`scheduledRunId`), whose
 * status is the fire's; a starter run that failed started none.
 */
async function workflowFireStatus(
  deps: BackfillSweepDeps,
  starter: Pick<Run, 'logId' | 'triggerCode' | 'handleCode'>,
): Promise<'running' | 'success' | 'failed'> {
  const status = runStatus(starter);
  if (status !== 'success') return status === 'running' ? 'running' : 'failed';
  if (!deps.workflowRuns)
    throw new Error('a workflow backfill is stepped without the workflow runs (workflowRuns)');
  const run = await deps.workflowRuns.getRun(scheduledRunId(starter.logId));
  if (run === undefined) return 'failed';
  if (run.status === 'RUNNING' || run.status === 'QUEUED') return 'running';
  return run.status === 'SUCCEEDED' ? 'success' : 'failed';
}

/** A backfill fire: a past scheduled time, run now, never subject to the live schedule's misfire rules. */
export function backfillFireMessage(
  backfill: Pick<Backfill, 'id' | 'jobId'>,
  fire: BackfillFire,
): FireMessage {
  return {
    jobId: backfill.jobId,
    scheduledTime: fire.scheduledTime,
    triggerType: 'BACKFILL',
    dedupKey: backfillDedupKey(backfill.id, fire.scheduledTime),
    logId: fire.logId,
  };
}

export interface BackfillSweepResult {
  /** Backfills still active after the sweep. */
  readonly active: number;
  readonly started: number;
  readonly finished: number;
  /** Backfills whose step failed (logged each); the sweep throws after the others were stepped. */
  readonly errors: number;
}

/** One step of every active backfill; throws after all were tried if any step failed (the monitors count it). */
export async function sweepBackfills(deps: BackfillSweepDeps): Promise<BackfillSweepResult> {
  const active = await deps.backfills.listActive();
  let started = 0;
  let finished = 0;
  let still = 0;
  let firstError: unknown;
  let errors = 0;
  for (const backfill of active) {
    try {
      const step = await advanceBackfill(deps, backfill);
      if (step.kind === 'advanced') {
        started += step.started;
        finished += step.finished;
      }
      if (step.backfill?.endedAt === undefined) still++;
    } catch (err) {
      errors++;
      firstError ??= err;
      still++;
      deps.logger.error('backfill step failed', {
        backfillId: backfill.id,
        jobId: backfill.jobId,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
    }
  }
  if (firstError !== undefined) throw firstError;
  return { active: still, started, finished, errors };
}

/**
 * Steps the active backfills once a second until none is active or `untilMs` (the monitors function's
 * invocation, so fires start within a second of a slot, not a minute). A failed sweep does not stop the
 * others; the first failure is thrown at the end.
 */
export async function driveBackfills(
  deps: BackfillSweepDeps,
  untilMs: number,
  signal?: AbortSignal,
): Promise<BackfillSweepResult> {
  let started = 0;
  let finished = 0;
  let errors = 0;
  let active = 0;
  let firstError: unknown;
  for (;;) {
    const stepAt = deps.clock.now();
    try {
      const result = await sweepBackfills(deps);
      started += result.started;
      finished += result.finished;
      active = result.active;
    } catch (err) {
      errors++;
      firstError ??= err;
      active = 1; // unknown: keep trying until the deadline
    }
    if (active === 0 || signal?.aborted) break;
    const wake = stepAt + BACKFILL_SWEEP.stepMs;
    if (wake >= untilMs) break;
    await deps.clock.sleep(wake - deps.clock.now(), signal);
  }
  if (firstError !== undefined) throw firstError;
  return { active, started, finished, errors };
}
