import type { ReturnT } from '@tickring/protocol';
import type { Job } from '../jobs/job.js';
import { runRetentionOf } from '../jobs/log-retention.js';
import { type Run, TRIGGER_CODE } from '../runs/run.js';
import { childJobsOf } from '../runs/run-outcome.js';
import type { CreateFireResult } from '../runs/run-store.js';
import type { DispatchDeps } from './dispatch-deps.js';
import { withRetries } from './dispatch-record.js';
import type { FireContext } from './fire-context.js';
import type { PlannedRun } from './planning.js';
import type { Target } from './route-run.js';
import type { FireMessage } from './trigger.js';
import { describeTrigger, skippedTriggerMsg } from './trigger-text.js';

/** A run recorded as skipped (never sent, why), or to be sent as the job's catch-up (a note why). */
export type RunMark = { readonly skipped: string } | { readonly catchUp: string };

/**
 * Records the fire's runs, which claims the fire. A fire planned or triggered with its logId (one
 * run) is claimed by putting that run unless it exists: one write. Otherwise the runs (with the
 * logIds a trigger fixed for its shards, or new ones) are written with a fire record keyed by
 * `dedupKey`, in one transaction. For a duplicate, `recordedBefore` holds the logIds of the runs
 * recorded before. A workflow node's fire carries the logId its engine gave it: when its job
 * broadcasts to several executors, that logId is the first shard's, so a copy of the fire claimed
 * either way (one run or a broadcast, as many executors as were online) finds the other's claim.
 */
export async function recordRuns(
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
  const nodeLogId = message.workflow ? message.logId : undefined;
  const logIds =
    message.shards?.map((s) => s.logId) ??
    (nodeLogId === undefined
      ? await deps.runs.allocateLogIds(ctx.job.id, planned.length)
      : [nodeLogId, ...(await deps.runs.allocateLogIds(ctx.job.id, planned.length - 1))]);
  const runs = planned.map((plan, i) =>
    newRun(ctx, plan, targets[i] as Target, logIds[i] as number, deps.clock.now(), mark),
  );
  const created: CreateFireResult = await withRetries(deps, message.dedupKey, async () => {
    try {
      return await deps.runs.createFire(message.dedupKey, runs, claimToken);
    } catch (err) {
      // No fire record, but the node's run exists: a copy claimed it alone (its job ran on one executor then).
      if (nodeLogId !== undefined && (await deps.runs.get(nodeLogId)))
        return { created: false, logIds: [nodeLogId] };
      throw err;
    }
  });
  return created.created ? { runs } : { runs, recordedBefore: created.logIds };
}

/**
 * A scheduled fire's run recorded as skipped for `reason`, never routed: how a skip range is claimed
 * (see `skip-ranges.ts`), as a late fire's own claim records it.
 */
export function skippedRun(
  job: Job,
  message: FireMessage,
  logId: number,
  nowMs: number,
  reason: string,
): Run {
  const ctx: FireContext = { job, message, addresses: [], addressSource: '', noAddressReason: '' };
  const plan: PlannedRun = { shardIndex: 0, shardTotal: 1, address: '' };
  return newRun(ctx, plan, { trail: '' }, logId, nowMs, { skipped: reason });
}

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
    ...(message.fireAt === undefined ? {} : { jitterMs: message.fireAt - message.scheduledTime }),
    triggerTime: now,
    executorHandler: job.executorHandler ?? '',
    executorParam: message.executorParam ?? job.executorParam ?? '',
    executorRouteStrategy: job.executorRouteStrategy,
    executorTimeout: job.executorTimeout,
    shardIndex: plan.shardIndex,
    shardTotal: plan.shardTotal,
    attempt: message.retry?.attempt ?? 1,
    retriesLeft: message.retry?.retriesLeft ?? Math.max(0, job.executorFailRetryCount),
    // Recorded so its result needs no read of the job (see `needsOutcomeMark`).
    childJobIds: childJobsOf(job),
    ...(job.failurePolicy !== undefined || job.deadline !== undefined ? { tracksOutcome: true } : {}),
    // Recorded so the stores set its expiry, and a result shortens it, without reading the job.
    ...withRetention(job),
    ...(message.parentLogId === undefined ? {} : { parentLogId: message.parentLogId }),
    ...(message.workflow === undefined ? {} : { workflow: message.workflow }),
    executorAddress: target.address ?? '',
    triggerCode: target.address === undefined ? TRIGGER_CODE.fail : TRIGGER_CODE.success,
    triggerMsg: '',
    dispatchedAt: Math.max(now, message.fireAt ?? message.scheduledTime),
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

function withRetention(job: Job): Pick<Run, 'retention'> {
  const retention = runRetentionOf(job);
  return retention === undefined ? {} : { retention };
}
