import { type CalendarGate, calendarsAllow } from '../calendars/calendar-schedule.js';
import type { CalendarStore } from '../calendars/calendar-store.js';
import type { Clock } from '../common/clock.js';
import type { Logger } from '../common/logger.js';
import type { RingEntry, RingQueue } from '../dispatch/ring-queue.js';
import { MAX_DELAY_SECONDS } from '../dispatch/ring-queue.js';
import { delaySecondsFor, type FireMessage, LOG_IDS_PER_PLAN } from '../dispatch/trigger.js';
import { isSlow, type Job } from '../jobs/job.js';
import type { JobStore, PlannableJob } from '../jobs/job-store.js';
import { TRIGGER_CODE } from '../runs/run.js';
import type { RunStore, StoredRun } from '../runs/run-store.js';
import { previewFireTimes } from '../schedule/index.js';
import { exceptionAt } from '../schedule/occurrences.js';
import { CalendarReads } from './calendar-reads.js';
import { scheduledFireMessage } from './run-tick.js';

export interface ReplanDeps {
  readonly jobs: Pick<JobStore, 'listLastPlans'>;
  readonly runs: Pick<RunStore, 'getMany' | 'dispatchedUnder' | 'list'>;
  readonly ring: RingQueue;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Where a job's calendars are read: the fires they remove were never sent, so none is re-sent. */
  readonly calendars?: Pick<CalendarStore, 'get'>;
}

export interface ReplanSettings {
  /** A claim older than this is taken over by a redelivered fire (the dispatcher's `claimStaleMs`). */
  readonly claimStaleMs: number;
}

export interface ReplanResult {
  /** Jobs with fires sent again. */
  readonly jobs: number;
  /** Fires sent again: never claimed, or claimed and never sent. */
  readonly fires: number;
  /** Of them, fires claimed by a dispatcher that died before sending them (sent once their claim is stale). */
  readonly heldByTheDead: number;
  /** Of them, fires whose time has passed: the dispatcher applies the job's misfire policy. */
  readonly pastTheirTime: number;
}

const PAGE_SIZE = 100;
/**
 * How far back a restart looks for fires claimed and never sent: their re-sent fire waits for the
 * claim to go stale (20 s), so a second crash meanwhile would lose it again; ten minutes covers a
 * run of crashes.
 */
export const HELD_LOOKBACK_MS = 600_000;
/** Scheduled trigger types: their fire can be rebuilt from the run (a manual one's overrides cannot). */
const SCHEDULED: ReadonlySet<string> = new Set(['CRON', 'FIX_RATE', 'ONCE', 'API']);

/**
 * The fires of a job's last two plans, as the tick planned them (a job is planned again up to 5 s
 * before its last plan ends, so fires of both may be on the ring): the schedule's times from
 * `lastPlanDue` up to `triggerLastTime`, the i-th with the i-th logId of the block before
 * `logIdBlock`; and from `prevPlanDue` up to (not including) `lastPlanDue`, with the block before.
 */
export function lastPlanFires(
  { job, logIdBlock, lastPlanDue, prevPlanDue }: PlannableJob,
  gate?: CalendarGate,
): FireMessage[] {
  if (lastPlanDue === undefined || logIdBlock === undefined) return [];
  const last = planFires(
    job,
    lastPlanDue,
    logIdBlock - LOG_IDS_PER_PLAN,
    (t) => t <= job.triggerLastTime,
    gate,
  );
  if (prevPlanDue === undefined) return last;
  const prev = planFires(job, prevPlanDue, logIdBlock - 2 * LOG_IDS_PER_PLAN, (t) => t < lastPlanDue, gate);
  return [...prev, ...last];
}

function planFires(
  job: Job,
  due: number,
  block: number,
  inPlan: (time: number) => boolean,
  gate: CalendarGate | undefined,
): FireMessage[] {
  const schedule = { type: job.scheduleType, conf: job.scheduleConf, timeZone: job.timeZone };
  const times = [due, ...previewFireTimes(schedule, due, LOG_IDS_PER_PLAN - 1)];
  // A fire keeps the logId of its place in the schedule; the ones its calendars remove, and the
  // occurrences skipped by a one-off exception, kept their slots but were never sent.
  return times
    .filter(inPlan)
    .map((time, slot) => scheduledFireMessage(job, time, block + slot))
    .filter((fire) => calendarsAllow(gate, fire.scheduledTime))
    .filter((fire) => exceptionAt(job.occurrenceExceptions, fire.scheduledTime)?.action !== 'skip');
}

/**
 * After a restart that lost the ring's messages (the local SQS stand-in keeps them in memory), sends
 * again the fires the ring may have held: those of each job's last two plans that no run claims, and
 * those of the last HELD_LOOKBACK_MS claimed by a dispatcher that died before sending them
 * (unfinished, listed in no dispatch record), whose redelivery was lost too. Fires re-sent keep their logIds: a fire claimed meanwhile
 * is a duplicate, a held one is sent once its claim is stale (the dispatcher takes it over), and one
 * whose time passed during the downtime follows the job's misfire policy at the dispatcher. The tick
 * plans on from each job's `nextTriggerTime` as ever, so nothing is planned twice.
 */
export async function replanLostFires(deps: ReplanDeps, settings: ReplanSettings): Promise<ReplanResult> {
  let jobs = 0;
  let heldByTheDead = 0;
  let pastTheirTime = 0;
  let fires = 0;
  let cursor: string | undefined;
  const calendars = new CalendarReads(deps.calendars);
  do {
    const page = await deps.jobs.listLastPlans(PAGE_SIZE, cursor);
    cursor = page.nextCursor;
    const found: RingEntry[] = [];
    for (const plannable of page.items) {
      const { job } = plannable;
      const planned = lastPlanFires(plannable, await calendars.gateOf(job));
      const logIds = planned.flatMap((fire) => (fire.logId === undefined ? [] : [fire.logId]));
      const claimed = new Set((await deps.runs.getMany(logIds)).map((run) => run.logId));
      const now = deps.clock.now();
      const unclaimed = planned
        .filter((fire) => fire.logId !== undefined && !claimed.has(fire.logId))
        .map((fire) => ringEntry(job, fire, fire.scheduledTime, now));
      // Sent a second past the claim's going stale (SQS delays are whole seconds, rounded down).
      const held = (await heldRuns(deps, job.id, now - HELD_LOOKBACK_MS)).map((run) =>
        ringEntry(
          job,
          scheduledFireMessage(job, run.scheduledTime, run.logId),
          run.claimAt + settings.claimStaleMs + 1_000,
          now,
        ),
      );
      heldByTheDead += held.length;
      if (unclaimed.length + held.length > 0) jobs++;
      found.push(...held, ...unclaimed);
    }
    pastTheirTime += found.filter((e) => e.message.scheduledTime < deps.clock.now()).length;
    if (found.length > 0) await deps.ring.enqueue(found);
    fires += found.length;
  } while (cursor);
  const result = { jobs, fires, heldByTheDead, pastTheirTime };
  if (fires > 0) deps.logger.warn('re-sent fires the ring lost in a restart', { ...result });
  return result;
}

/**
 * A job's scheduled runs triggered since `sinceMs` that were claimed and never sent: recorded as
 * sent, no result, listed in no dispatch record (their dispatcher died before sending them).
 */
async function heldRuns(deps: ReplanDeps, jobId: number, sinceMs: number): Promise<StoredRun[]> {
  const running: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.runs.list({ jobId, status: 'running', from: sinceMs, limit: PAGE_SIZE, cursor });
    running.push(...page.items.filter((r) => SCHEDULED.has(r.triggerType)).map((r) => r.logId));
    cursor = page.nextCursor;
  } while (cursor);
  const suspects = (await deps.runs.getMany(running)).filter(
    (r) => r.triggerCode === TRIGGER_CODE.success && r.handleCode === 0,
  );
  const held: StoredRun[] = [];
  for (const token of new Set(suspects.map((r) => r.claimToken))) {
    const sent = await deps.runs.dispatchedUnder(token);
    held.push(...suspects.filter((run) => run.claimToken === token && !sent.has(run.logId)));
  }
  return held;
}

/** A fire on the ring, visible at `visibleAt` (its time, or when its claim goes stale). */
function ringEntry(job: Job, message: FireMessage, visibleAt: number, nowMs: number): RingEntry {
  return {
    message,
    delaySeconds: delaySecondsFor(visibleAt, nowMs, MAX_DELAY_SECONDS),
    lane: isSlow(job, nowMs) ? 'slow' : 'fast',
  };
}
