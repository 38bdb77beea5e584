import { ValidationError } from '../common/errors.js';
import {
  type AdminExecutorsDeps,
  type ExecutorSettings,
  listExecutors,
} from '../executors/admin-executors.js';
import { ALL_GROUPS, isVisible, type VisibleGroups } from '../identity/access.js';
import type { JobStore } from '../jobs/job-store.js';
import type { ReportStore } from '../runs/alarms.js';
import { dayOf } from '../runs/run.js';

export interface AdminDashboardDeps extends AdminExecutorsDeps {
  readonly jobs: Pick<JobStore, 'list'>;
  readonly reports: Pick<ReportStore, 'range'>;
}

export const DASHBOARD_DAYS = { min: 1, max: 90, default: 7 } as const;

export interface DailyRuns {
  /** UTC day, YYYY-MM-DD. */
  readonly day: string;
  readonly running: number;
  readonly success: number;
  readonly fail: number;
  /** Fires of the day recorded as skipped (misfires: late or overtaken), never sent. */
  readonly skipped: number;
}

export interface Dashboard {
  /** First and last day of the period (UTC, inclusive; the last is today). */
  readonly fromDay: string;
  readonly toDay: string;
  readonly totals: {
    readonly jobs: number;
    /** Jobs whose schedule is on (triggerStatus RUNNING). */
    readonly runningJobs: number;
    /** Runs triggered in the period (running + success + fail). */
    readonly runs: number;
    readonly running: number;
    readonly success: number;
    readonly fail: number;
    /** Fires of the period recorded as skipped (not among `runs`). */
    readonly skipped: number;
    /** Distinct executor addresses seen within the dead timeout, over every group. */
    readonly onlineExecutors: number;
  };
  /** One entry per day of the period, oldest first, days without runs as zeros. */
  readonly series: readonly DailyRuns[];
}

const DAY_MS = 86_400_000;
const JOB_PAGE = 100;

/**
 * XXL-JOB's dashboard: job and executor counts, and the daily running/success/fail chart from the
 * daily report counters (kept as runs start and finish, and as fires are skipped) for the last
 * `days` days, today included;
 * of the groups the caller sees (their own daily counters when that is not every group).
 */
export async function dashboard(
  deps: AdminDashboardDeps,
  settings: ExecutorSettings,
  days: number,
  visible: VisibleGroups = ALL_GROUPS,
): Promise<Dashboard> {
  if (!Number.isSafeInteger(days) || days < DASHBOARD_DAYS.min || days > DASHBOARD_DAYS.max) {
    throw new ValidationError(
      `days must be an integer ${DASHBOARD_DAYS.min}..${DASHBOARD_DAYS.max}; got ${days}`,
      'days',
    );
  }
  const now = deps.clock.now();
  const toDay = dayOf(now);
  const fromDay = dayOf(now - (days - 1) * DAY_MS);
  const [jobs, series, groups] = await Promise.all([
    countJobs(deps, visible),
    visible === ALL_GROUPS
      ? deps.reports.range(fromDay, toDay)
      : deps.reports.range(fromDay, toDay, [...visible]),
    listExecutors(deps, settings, undefined, visible),
  ]);
  const online = new Set(
    groups.flatMap((g) => g.executors.filter((e) => e.online === true).map((e) => e.address)),
  );
  const sum = (key: 'running' | 'success' | 'fail' | 'skipped') => series.reduce((n, d) => n + d[key], 0);
  const running = sum('running');
  const success = sum('success');
  const fail = sum('fail');
  const skipped = sum('skipped');
  return {
    fromDay,
    toDay,
    totals: {
      ...jobs,
      runs: running + success + fail,
      running,
      success,
      fail,
      skipped,
      onlineExecutors: online.size,
    },
    series: series.map(({ day, running, success, fail, skipped }) => ({
      day,
      running,
      success,
      fail,
      skipped,
    })),
  };
}

/** Every job, page by page (XXL-JOB counts them on each dashboard view too). */
async function countJobs(
  deps: Pick<AdminDashboardDeps, 'jobs'>,
  visible: VisibleGroups,
): Promise<{ jobs: number; runningJobs: number }> {
  let jobs = 0;
  let runningJobs = 0;
  let cursor: string | undefined;
  do {
    const page = await deps.jobs.list({ limit: JOB_PAGE, cursor });
    const seen = page.items.filter((job) => isVisible(visible, job.appName));
    jobs += seen.length;
    runningJobs += seen.filter((j) => j.triggerStatus === 'RUNNING').length;
    cursor = page.nextCursor;
  } while (cursor);
  return { jobs, runningJobs };
}
