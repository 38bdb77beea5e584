import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { METRICS_NAMESPACE } from '../../shared/observability/metrics.js';
import { METRIC } from '../../shared/ports/metrics.js';
import type { FunctionName } from '../../shared/schema/functions.js';

export type MetricKey = keyof typeof METRIC;

/**
 * Which functions emit each business metric (EMF through Powertools Metrics: namespace `Tickring`,
 * dimension `service` = the function's name). Read from the use-cases each function runs:
 * run-tick (scheduler-tick), dispatch-fire (dispatcher), executor-callbacks (callback) and
 * run-outcome, which the dispatcher (refused triggers), the callback (results) and the monitors
 * (lost runs) all end in; monitors (its sweeps).
 */
export const METRIC_EMITTERS: Readonly<Record<MetricKey, readonly FunctionName[]>> = {
  firesEnqueued: ['scheduler-tick'],
  // The tick's fires missed in a downtime; the dispatcher's late or out-of-order fires.
  misfiresSkipped: ['scheduler-tick', 'dispatcher'],
  tickDuration: ['scheduler-tick'],
  leaseTakeovers: ['scheduler-tick'],
  runsDispatched: ['dispatcher'],
  dispatchFailures: ['dispatcher'],
  lateness: ['dispatcher'],
  callbacks: ['callback'],
  retries: ['dispatcher', 'callback', 'monitors'],
  alarms: ['dispatcher', 'callback', 'monitors'],
  sweepFailures: ['monitors'],
  // Refused sign-ins (shared/use-cases/identity/sessions.ts).
  failedLogins: ['api'],
  // The admin API's audit log (shared/use-cases/audit.ts).
  auditWrites: ['api'],
  auditWriteFailures: ['api'],
};

export interface BusinessMetricOptions {
  readonly statistic?: string;
  readonly period?: Duration;
  readonly label?: string;
}

/** One business metric as one function emits it. */
export function businessMetric(
  key: MetricKey,
  service: FunctionName,
  options: BusinessMetricOptions = {},
): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: METRIC[key],
    dimensionsMap: { service },
    statistic: options.statistic ?? cloudwatch.Stats.SUM,
    period: options.period ?? Duration.minutes(1),
    // No default label: an alarm on a labelled metric renders as metric math instead of a plain metric.
    label: options.label,
  });
}

/** The metric once per function that emits it (a line per function on a graph). */
export function businessMetricPerEmitter(
  key: MetricKey,
  options: BusinessMetricOptions = {},
): cloudwatch.Metric[] {
  return METRIC_EMITTERS[key].map((service) =>
    businessMetric(key, service, { label: `${METRIC[key]} (${service})`, ...options }),
  );
}
