import { sleepUntil } from '../common/clock.js';
import type { Run } from '../runs/run.js';
import { BatchReads } from './batch-reads.js';
import { type RunMark, recordRuns } from './claim.js';
import type { DispatchDeps } from './dispatch-deps.js';
import type { DispatchOutcome } from './dispatch-outcome.js';
import { DispatchRecord } from './dispatch-record.js';
import { dropReason } from './drop-rules.js';
import {
  type FireContext,
  fireContext,
  hasAddressOverride,
  mayRouteToRegistry,
  registrySince,
} from './fire-context.js';
import type { JobTurn } from './job-turns.js';
import { catchUpNote, heldUpReason, lateReason, misfireAfterClaim, misfireOf } from './misfire.js';
import { planRuns } from './planning.js';
import { reclaimUndispatched } from './reclaim.js';
import type { RingLane } from './ring-queue.js';
import { MAX_DELAY_SECONDS } from './ring-queue.js';
import { routeRun, type Target } from './route-run.js';
import { dispatchRun } from './send.js';
import type { DispatchSettings } from './settings.js';
import { noteSkipped, skipOwnClaim } from './skip.js';
import { noteSlowDispatch } from './slow-dispatch.js';
import { delaySecondsFor, type FireMessage, fireTimeOf } from './trigger.js';

/**
 * Dispatches one fire. Inside a ring batch pass its `DispatchRecord` (the caller saves it
 * when all of the batch's fires are done); alone, the fire gets its own, saved here. With a `turn`
 * (a ring batch's scheduled fires) it claims only once it holds its job's turn.
 */
export async function dispatchFire(
  deps: DispatchDeps,
  settings: DispatchSettings,
  message: FireMessage,
  lane: RingLane = 'fast',
  reads: BatchReads = new BatchReads(deps),
  record?: DispatchRecord,
  turn?: JobTurn,
): Promise<DispatchOutcome> {
  if (record) return dispatchInRecord(deps, settings, message, lane, reads, record, turn);
  const own = new DispatchRecord(deps, deps.clock.now());
  try {
    return await dispatchInRecord(deps, settings, message, lane, reads, own, turn);
  } finally {
    await own.save();
  }
}

/**
 * The steps of one fire: wait for its time (or go back on the ring), read its job, drop it, or
 * wait for its claim time and its job's turn and claim and send it.
 */
async function dispatchInRecord(
  deps: DispatchDeps,
  settings: DispatchSettings,
  message: FireMessage,
  lane: RingLane,
  reads: BatchReads,
  record: DispatchRecord,
  turn: JobTurn | undefined,
): Promise<DispatchOutcome> {
  const now = deps.clock.now();
  const keys = {
    jobId: message.jobId,
    scheduledTime: message.scheduledTime,
    triggerType: message.triggerType,
  };
  // A jittered fire waits for its jittered time; its scheduled time stays its identity.
  const fireTime = fireTimeOf(message);
  if (fireTime - now > settings.maxWaitMs) {
    // Long retry backoffs (SQS delays at most 900 s) and anything that came too early go back on the ring.
    const delaySeconds = delaySecondsFor(fireTime, now, MAX_DELAY_SECONDS);
    await deps.ring.enqueue([{ message, delaySeconds, lane }]);
    deps.logger.debug('fire re-enqueued until its time', { ...keys, delaySeconds });
    return { kind: 'deferred', delaySeconds };
  }

  // A fire that names its group (a workflow node's) has the group and its executors read beside
  // the job; the reads below find them (or, for a job moved since, read its own group's).
  if (message.appName !== undefined && !hasAddressOverride(message)) {
    reads.readAhead(message.appName, registrySince(settings, now));
  }
  // A linked fire (a workflow node's) asks its owner whether it is still wanted, beside the job's read.
  const [job, linked] = await Promise.all([
    reads.job(message.jobId, message.scheduleRevision),
    message.workflow && deps.fireHook ? deps.fireHook.linkedFire(message, message.workflow) : undefined,
  ]);
  const drop = dropReason(job, message);
  if (drop !== undefined || !job) {
    const reason = drop ?? 'the job does not exist';
    deps.logger.info('fire dropped', { ...keys, reason });
    // Its owner hears of it (a workflow run would otherwise wait for the node for ever).
    await linked?.dropped(`job ${message.jobId}: ${reason}`);
    return { kind: 'dropped', reason };
  }
  if (linked?.unwanted !== undefined) {
    // Cancelled (or decided) meanwhile: nothing more is fired.
    const reason = linked.unwanted;
    await linked.dropped(reason);
    deps.logger.info('fire dropped', { ...keys, reason });
    return { kind: 'dropped', reason };
  }
  // The group's online executors are read beside the group itself (one round trip less before the
  // claim; wasted only for a MANUAL group, once per batch): fireContext's own call finds the read.
  if (mayRouteToRegistry(job, message)) reads.readAhead(job.appName, registrySince(settings, now));
  const group = await reads.group(job.appName);
  const ctx = await fireContext(deps, reads, settings, { job, message, linked }, group, now);

  await deps.clock.sleep(fireTime - settings.claimLeadMs - deps.clock.now());
  // Within a ring batch a job's scheduled fires claim and send one after another (see JobTurns).
  await turn?.take();
  return claimAndSend(deps, settings, ctx, record);
}

/**
 * Applies the misfire policy, routes and records the fire's runs (or finds them recorded: a
 * duplicate, or runs to take over), and sends them at the fire's millisecond. Within a ring batch
 * the job's turn is held until the executor answered: given up as the send starts, the next fire's
 * request raced this one's to the executor (a SIGSTOP's backlog arrived out of order).
 */
async function claimAndSend(
  deps: DispatchDeps,
  settings: DispatchSettings,
  ctx: FireContext,
  record: DispatchRecord,
): Promise<DispatchOutcome> {
  const { job, message, linked } = ctx;
  const keys = {
    jobId: message.jobId,
    scheduledTime: message.scheduledTime,
    triggerType: message.triggerType,
  };
  if (!record.firstClaim(message.dedupKey)) {
    const logIds = message.logId === undefined ? [] : [message.logId];
    deps.logger.info('duplicate fire ignored', { ...keys, logIds, sameBatch: true });
    return { kind: 'duplicate', logIds };
  }
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
  const noting = linked?.noteRuns(recordedBefore ?? runs.map((r) => r.logId), runs[0]);
  try {
    let toDispatch: readonly Run[] = runs;
    if (ours && skipNow !== undefined) return noteSkipped(deps, ctx, runs, skipNow, runs, true);
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

    // Start at the fire's millisecond (SQS delays are whole seconds, so the message is up to 1 s early),
    // woken with the other fires of that millisecond (see sleepUntil).
    await sleepUntil(deps.clock, fireTimeOf(message));
    const heldUp = misfire?.catchUp ? undefined : await heldUpReason(deps, settings, ctx, toDispatch);
    if (heldUp !== undefined) return skipOwnClaim(deps, ctx, toDispatch, record.claimToken, heldUp);
    const leftLateMs = deps.clock.now() - fireTimeOf(message);
    const results = await Promise.all(toDispatch.map((run) => dispatchRun(deps, ctx, run, record)));
    await noteSlowDispatch(deps, job, routeMs + Math.max(...results.map((r) => r.dispatchMs)), leftLateMs);
    return { kind: 'dispatched', runs: results, reclaimed: !ours };
  } finally {
    await noting;
  }
}
