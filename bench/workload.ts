import { type TickringClient, TickringConnectionError } from '@tickring/client';
import { mapLimit } from '@tickring/core/common';
import type { Job, JobStore } from '@tickring/core/jobs';
import { JOB_DEFAULTS } from '@tickring/core/jobs';
import { MAX_JOB_ID } from '@tickring/core/runs';
import type { Schedule } from '@tickring/core/schedule';
import type { JobSchedule } from './fire-count.js';
import { BENCH_HANDLER } from './fleet.js';

const API_CONCURRENCY = 8;
const STORE_CONCURRENCY = 32;
/**
 * Idle jobs get ids from here on, far above the admin API's sequence (which starts at 1) and below
 * MAX_JOB_ID, above which a job's logIds would not be safe integers.
 */
export const IDLE_JOB_ID_BASE = 1_000_000;
export const MAX_IDLE_JOBS = MAX_JOB_ID - IDLE_JOB_ID_BASE + 1;
/** When the running idle jobs would fire: never, as far as any bench is concerned. */
export const FAR_FUTURE = '2199-01-01T00:00:00Z';

/** How a ramp adds jobs to a stack that is already running (and may be overloaded). */
export interface MoreJobs {
  /** The first job's number in its name (`bench <n>`) and group round-robin. */
  readonly firstIndex: number;
  /**
   * Tries again (after a second) a create whose connection failed, at most this many times. An
   * overloaded stack's API may drop a connection; the create may then have been made all the same,
   * so a retry can make a job twice: `onRetry` is told, for the report.
   */
  readonly connectionRetries: number;
  readonly onRetry: (error: TickringConnectionError) => void;
}

/**
 * The measured jobs, created through the admin API (as a user would), spread round-robin over the
 * groups, routed FIRST; returns each job's schedule and first fire.
 */
export async function createBenchJobs(
  api: TickringClient,
  appNames: readonly string[],
  count: number,
  schedule: Schedule,
  more?: MoreJobs,
): Promise<JobSchedule[]> {
  const firstIndex = more?.firstIndex ?? 0;
  const create = async (i: number, attempt = 0): ReturnType<TickringClient['createJob']> => {
    try {
      return await api.createJob({
        body: {
          appName: appNames[i % appNames.length],
          name: `bench ${i}`,
          author: 'bench',
          scheduleType: schedule.type,
          scheduleConf: schedule.conf,
          timeZone: schedule.timeZone,
          misfireStrategy: 'DO_NOTHING',
          executorHandler: BENCH_HANDLER,
          executorRouteStrategy: 'FIRST',
          triggerStatus: 'RUNNING',
        },
      });
    } catch (err) {
      if (!(err instanceof TickringConnectionError) || !more || attempt >= more.connectionRetries) throw err;
      more.onRetry(err);
      await new Promise((r) => setTimeout(r, 1000));
      return create(i, attempt + 1);
    }
  };
  const replies = await mapLimit(
    Array.from({ length: count }, (_, i) => firstIndex + i),
    API_CONCURRENCY,
    (i) => create(i),
  );
  return replies.map((job) => {
    if (job.triggerNextTime === null) throw new Error(`job ${job.id} was created without a next fire`);
    return { jobId: job.id, schedule, firstFire: Date.parse(job.triggerNextTime) };
  });
}

/**
 * Jobs that are never due: half STOPPED (every second, were they running), half RUNNING with a ONCE
 * schedule in 2199, i.e. in the tick's due index but never inside its window. Written through the
 * production JobStore adapter (one conditional write each, 32 in flight), not the admin API: at
 * 100,000 jobs the API's id counter and checks would take several times longer and measure nothing
 * the bench is about.
 */
export async function createIdleJobs(store: JobStore, appName: string, count: number): Promise<void> {
  const farFuture = Date.parse(FAR_FUTURE);
  await mapLimit(
    Array.from({ length: count }, (_, i) => i),
    STORE_CONCURRENCY,
    (i) =>
      store.create(idleJob(IDLE_JOB_ID_BASE + i, appName, i % 2 === 0 ? 'STOPPED' : 'RUNNING', farFuture)),
  );
}

function idleJob(id: number, appName: string, status: 'STOPPED' | 'RUNNING', farFuture: number): Job {
  const now = Date.now();
  const running = status === 'RUNNING';
  return {
    id,
    appName,
    name: `idle ${id}`,
    author: 'bench',
    ...JOB_DEFAULTS,
    scheduleType: running ? 'ONCE' : 'CRON',
    scheduleConf: running ? FAR_FUTURE : '* * * * * ?',
    executorHandler: BENCH_HANDLER,
    glueUpdatetime: 0,
    triggerStatus: status,
    triggerLastTime: 0,
    triggerNextTime: running ? farFuture : null,
    slowUntil: 0,
    scheduleRevision: 1,
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
}
