import { runMonitorSweeps } from '@tickring/core/runs/use-cases';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { loadConfig, type MonitorsConfig } from './config.js';
import { buildMonitorsDeps, type MonitorsRuntime } from './deps.js';

/**
 * The backfill sweep steps running backfills once a second for the rest of the invocation, stopping
 * this long before its timeout (and at once when none is running).
 */
const BACKFILL_DRIVE_MARGIN_MS = 15_000;
/** …and for at most this long, so one invocation ends before the next minute's starts. */
const BACKFILL_DRIVE_MAX_MS = 45_000;

/**
 * Started every minute by EventBridge: finishes as failed ("result lost") the runs still running
 * past their deadline on an executor that is gone, which sends them down the retry / alarm path;
 * then re-drives the outcomes (retry / alarm / children) of finished runs left pending by a process
 * that died between storing a result and acting on it. Each sweep runs even when the other failed;
 * a failed sweep is logged, counted (`SweepFailures`, alarmed on) and named in `failedSweeps`
 * rather than failing the invocation. The daily counters and metrics are written once at the end.
 */
export function createHandler(config: MonitorsConfig, runtime: Partial<MonitorsRuntime> = {}) {
  const { deps, settings, flushReports, flushMetrics } = buildMonitorsDeps(config, runtime);
  const sweep = async (backfillsUntilMs: number) => {
    try {
      return await runMonitorSweeps(deps, settings, backfillsUntilMs);
    } finally {
      await flushReports();
      flushMetrics();
    }
  };
  return async (event: ScheduledEvent, context: Context) => {
    const now = deps.clock.now();
    const backfillsUntil = Math.min(
      now + BACKFILL_DRIVE_MAX_MS,
      now + context.getRemainingTimeInMillis() - BACKFILL_DRIVE_MARGIN_MS,
    );
    const {
      lost: result,
      redrive,
      workflows,
      jobPolicies,
      deadMan,
      backfills,
      alerts,
      failedSweeps,
    } = await sweep(backfillsUntil);
    const summary = {
      overdue: result?.overdue ?? 0,
      lost: result?.lost.length ?? 0,
      alive: result?.alive.length ?? 0,
      redriven: redrive?.redriven.length ?? 0,
      workflowRunsRedriven: workflows?.redriven ?? 0,
      jobsResumed: jobPolicies?.resumed.length ?? 0,
      deadlinesMissed:
        (jobPolicies?.deadlinesMissed.length ?? 0) + (jobPolicies?.workflows?.deadlinesMissed.length ?? 0),
      firesUnexplained: deadMan?.unexplained ?? 0,
      deadManAlarms: deadMan?.alarmed.length ?? 0,
      backfillFiresStarted: backfills?.started ?? 0,
      alertsDelivered: alerts?.delivered ?? 0,
      alertDeliveriesFailed: alerts?.failed ?? 0,
      failedSweeps: [...failedSweeps],
    };
    const attributes = {
      ...summary,
      errors:
        (result?.errors.length ?? 0) +
        (redrive?.errors.length ?? 0) +
        (jobPolicies?.errors.length ?? 0) +
        (jobPolicies?.workflows?.errors.length ?? 0) +
        (deadMan?.errors.length ?? 0),
      eventTime: event.time,
      requestId: context.awsRequestId,
    };
    if (
      summary.lost > 0 ||
      attributes.errors > 0 ||
      summary.redriven > 0 ||
      summary.workflowRunsRedriven > 0 ||
      summary.jobsResumed > 0 ||
      summary.deadlinesMissed > 0 ||
      summary.firesUnexplained > 0 ||
      summary.backfillFiresStarted > 0 ||
      alerts?.attempts ||
      failedSweeps.length > 0
    ) {
      deps.logger.info('lost-run sweep', attributes);
    } else deps.logger.debug('lost-run sweep', attributes);
    return summary;
  };
}

let lazy: ReturnType<typeof createHandler> | undefined;
export const handler = (event: ScheduledEvent, context: Context) => {
  lazy ??= createHandler(loadConfig(process.env));
  return lazy(event, context);
};
