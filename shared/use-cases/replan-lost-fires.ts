import { isSlow, type Job } from '../domain/job.js';
import { previewFireTimes } from '../domain/schedule/index.js';
import { delaySecondsFor, type FireMessage, LOG_IDS_PER_PLAN } from '../domain/trigger.js';
import type { Clock } from '../ports/clock.js';
import type { JobStore, PlannableJob } from '../ports/job-store.js';
import type { Logger } from '../ports/logger.js';
import type { RingEntry, RingQueue } from '../ports/ring-queue.js';
import type { RunStore } from '../ports/run-store.js';
import { MAX_DELAY_SECONDS } from '../schema/queues.js';
import { scheduledFireMessage } from './run-tick.js';

export interface ReplanDeps {
  readonly jobs: Pick<JobStore, 'listLastPlans'>;
  readonly runs: Pick<RunStore, 'existingLogIds'>;
  readonly ring: RingQueue;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface ReplanResult {
  /** Jobs whose last plan had fires never claimed. */
  readonly jobs: number;
  /** Fires sent again. */
  readonly fires: number;
  /** Of them, fires already more than the misfire threshold past: the dispatcher applies the job's misfire policy. */
  readonly late: number;
}

const PAGE_SIZE = 100;

/**
 * The fires of a job's last plan, as the tick planned them: the schedule's times from `lastPlanDue`
 * up to `triggerLastTime`, the i-th with the i-th logId of the block before `logIdBlock`.
 */
export function lastPlanFires({ job, logIdBlock, lastPlanDue }: PlannableJob): FireMessage[] {
  if (lastPlanDue === undefined || logIdBlock === undefined) return [];
  const block = logIdBlock - LOG_IDS_PER_PLAN;
  const schedule = { type: job.scheduleType, conf: job.scheduleConf, timeZone: job.timeZone };
  const times = [lastPlanDue, ...previewFireTimes(schedule, lastPlanDue, LOG_IDS_PER_PLAN - 1)];
  return times
    .filter((time) => time <= job.triggerLastTime)
    .map((time, slot) => scheduledFireMessage(job, time, block + slot));
}

/**
 * After a restart that lost the ring's messages (the local SQS stand-in keeps them in memory), sends
 * again every fire of each job's last plan that no run claims: the jobs table knows the plan (where
 * it began and its logIds), the runs table which of them were claimed. Fires re-sent keep their
 * logIds, so one claimed meanwhile is a duplicate; fires whose time passed during the downtime reach
 * the dispatcher late and follow the job's misfire policy there. The tick plans on from each job's
 * `nextTriggerTime` as ever, so nothing is planned twice.
 */
export async function replanLostFires(deps: ReplanDeps): Promise<ReplanResult> {
  let jobs = 0;
  let fires = 0;
  let late = 0;
  let cursor: string | undefined;
  do {
    const page = await deps.jobs.listLastPlans(PAGE_SIZE, cursor);
    cursor = page.nextCursor;
    const entries: RingEntry[] = [];
    for (const plannable of page.items) {
      const planned = lastPlanFires(plannable);
      const first = planned[0];
      const last = planned.at(-1);
      if (!first?.logId || !last?.logId) continue;
      const claimed = await deps.runs.existingLogIds(plannable.job.id, first.logId, last.logId);
      const lost = planned.filter((fire) => fire.logId !== undefined && !claimed.has(fire.logId));
      if (lost.length === 0) continue;
      jobs++;
      entries.push(...lost.map((message) => ringEntry(plannable.job, message, deps.clock.now())));
    }
    if (entries.length > 0) await deps.ring.enqueue(entries);
    fires += entries.length;
    late += entries.filter((e) => e.message.scheduledTime < deps.clock.now()).length;
  } while (cursor);
  if (fires > 0) {
    deps.logger.warn('re-sent fires the ring lost in a restart', { jobs, fires, pastTheirTime: late });
  }
  return { jobs, fires, late };
}

function ringEntry(job: Job, message: FireMessage, nowMs: number): RingEntry {
  return {
    message,
    delaySeconds: delaySecondsFor(message.scheduledTime, nowMs, MAX_DELAY_SECONDS),
    lane: isSlow(job, nowMs) ? 'slow' : 'fast',
  };
}
