import type { Context, ScheduledEvent } from 'aws-lambda';
import { markLostRuns, redrivePendingOutcomes } from '../../shared/use-cases/monitors.js';
import { loadConfig, type MonitorsConfig } from './config.js';
import { buildMonitorsDeps, type MonitorsRuntime } from './deps.js';

/**
 * Started every minute by EventBridge: finishes as failed ("result lost") the runs still running
 * past their deadline on an executor that is gone, which sends them down the retry / alarm path;
 * then re-drives the outcomes (retry / alarm / children) of finished runs left pending by a process
 * that died between storing a result and acting on it. The daily counters of the sweep are written
 * once at its end, even when it fails half-way.
 */
export function createHandler(config: MonitorsConfig, runtime: Partial<MonitorsRuntime> = {}) {
  const { deps, settings, flushReports, flushMetrics } = buildMonitorsDeps(config, runtime);
  const sweep = async () => {
    try {
      return {
        lost: await markLostRuns(deps, settings),
        redrive: await redrivePendingOutcomes(deps, settings),
      };
    } finally {
      await flushReports();
    }
  };
  return async (event: ScheduledEvent, context: Context) => {
    const { lost: result, redrive } = await sweep();
    const summary = {
      overdue: result.overdue,
      lost: result.lost.length,
      alive: result.alive.length,
      redriven: redrive.redriven.length,
    };
    const attributes = {
      ...summary,
      errors: result.errors.length + redrive.errors.length,
      eventTime: event.time,
      requestId: context.awsRequestId,
    };
    if (result.lost.length > 0 || attributes.errors > 0 || summary.redriven > 0) {
      deps.logger.info('lost-run sweep', attributes);
    } else deps.logger.debug('lost-run sweep', attributes);
    flushMetrics();
    return summary;
  };
}

let lazy: ReturnType<typeof createHandler> | undefined;
export const handler = (event: ScheduledEvent, context: Context) => {
  lazy ??= createHandler(loadConfig(process.env));
  return lazy(event, context);
};
