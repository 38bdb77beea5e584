import type { ReturnT, TriggerParam } from '@tickring/protocol';
import { METRIC } from '../common/metrics.js';
import type { Job } from '../jobs/job.js';
import { dayOf, type Run, TRIGGER_CODE } from '../runs/run.js';
import { onRunFinished } from '../runs/run-outcome.js';
import type { DispatchDeps } from './dispatch-deps.js';
import type { DispatchedRun } from './dispatch-outcome.js';
import type { DispatchRecord } from './dispatch-record.js';
import type { FireContext } from './fire-context.js';
import { withReply } from './trigger-text.js';

/** Grace past an executor timeout before a silent run counts as lost; runs without a timeout: 10 min. */
export const DEADLINE_GRACE_MS = 60_000;
export const DEADLINE_WITHOUT_TIMEOUT_MS = 600_000;

/**
 * Sends a recorded run to its executor (or finishes it as refused when it had none). An accepted
 * run needs no write of its own: the record lists it; a refusal rewrites the run.
 */
export async function dispatchRun(
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
  let finish: (() => Promise<void>) | undefined;
  if (run.triggerCode === TRIGGER_CODE.success) {
    if (started > record.sendBy) {
      // Its claim goes stale and the redelivery of the fire takes it over.
      throw new Error(`run ${run.logId} not sent: the invocation is about to run out of time`);
    }
    // Lateness counts from when the fire was due to be sent: its jittered time, when it has jitter. A
    // backfill fire is in the past on purpose: its hours are not the scheduler's lateness.
    if (run.triggerType !== 'BACKFILL') {
      deps.metrics.add(
        METRIC.lateness,
        'Milliseconds',
        Math.max(0, started - run.scheduledTime - (run.jitterMs ?? 0)),
      );
    }
    ctx.linked?.sending(run, started);
    if (ctx.owner) ({ reply, finish } = await ctx.owner.send(run));
    else reply = await deps.transport.run({ address, appName: ctx.job.appName }, triggerParam(ctx.job, run));
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
    await finish?.();
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
