import { METRICS_NAMESPACE } from '@tickring/aws/observability';
import type { FunctionName } from '@tickring/aws/topology';
import { METRIC } from '@tickring/core/common';
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';

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
  // Scheduled fires that reached the dispatcher past the misfire threshold (the stack is behind),
  // and those of jobs the tick left due past it (its admission control, see core tick/admission.ts).
  firesSkippedOverload: ['scheduler-tick', 'dispatcher'],
  tickDuration: ['scheduler-tick'],
  plansDeferred: ['scheduler-tick'],
  admissionSharePercent: ['scheduler-tick'],
  leaseTakeovers: ['scheduler-tick'],
  runsDispatched: ['dispatcher'],
  dispatchFailures: ['dispatcher'],
  lateness: ['dispatcher'],
  callbacks: ['callback'],
  retries: ['dispatcher', 'callback', 'monitors'],
  alarms: ['dispatcher', 'callback', 'monitors', 'api'],
  // The monitors' sweeps; the tick's ring backlog read.
  sweepFailures: ['monitors', 'scheduler-tick'],
  // Refused sign-ins (shared/use-cases/identity/sessions.ts).
  failedLogins: ['api'],
  // The admin API's audit log (shared/use-cases/audit.ts).
  auditWrites: ['api'],
  auditWriteFailures: ['api'],
  // The workflow engine (shared/use-cases/workflow-engine.ts): starts in the api (trigger) and the
  // dispatcher (schedules); ends wherever a node's outcome lands; cancels in the api (and the
  // dispatcher, CANCEL_PREVIOUS); the monitors' stalled-run sweep starts buffered runs.
  workflowRunsStarted: ['api', 'dispatcher', 'callback', 'monitors'],
  workflowRunsSucceeded: ['dispatcher', 'callback', 'monitors', 'api'],
  workflowRunsFailed: ['dispatcher', 'callback', 'monitors', 'api'],
  workflowRunsCancelled: ['api', 'dispatcher'],
  workflowRunsSkipped: ['api', 'dispatcher'],
  workflowNodesFired: ['api', 'dispatcher', 'callback', 'monitors'],
  workflowNodeLateness: ['dispatcher'],
  // A job's failure policy (core runs/run-outcome.ts): wherever a run's final outcome lands; the
  // monitors' jobPolicies sweep starts paused jobs again and checks deadlines.
  jobsPausedByPolicy: ['dispatcher', 'callback', 'monitors'],
  jobsResumedByPolicy: ['monitors'],
  deadlinesMissed: ['monitors'],
  // The monitors' deadMan sweep: fires owed that nothing explains (core runs/dead-man.ts).
  firesUnexplained: ['monitors'],
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

export type BusinessTotalOptions = Omit<BusinessMetricOptions, 'statistic'>;

/**
 * A count summed over every function that emits it (METRIC_EMITTERS), as one metric-math line:
 * SUM of each emitter's Sum per period, an emitter without data counting as 0. For graphs and
 * alarms on "how many in all", whichever function counted them. Counts only (Sum): a percentile
 * does not add up across functions.
 */
export function businessMetricTotal(key: MetricKey, options: BusinessTotalOptions = {}): cloudwatch.IMetric {
  const period = options.period ?? Duration.minutes(1);
  // Ids unique per metric and function: a graph or alarm may hold several totals side by side.
  const usingMetrics = Object.fromEntries(
    METRIC_EMITTERS[key].map((service) => [
      `${key}_${service.replace(/[^A-Za-z0-9]/g, '_')}`,
      businessMetric(key, service, { period }),
    ]),
  );
  return new cloudwatch.MathExpression({
    expression: `SUM([${Object.keys(usingMetrics)
      .map((id) => `FILL(${id}, 0)`)
      .join(', ')}])`,
    usingMetrics,
    period,
    label: options.label ?? METRIC[key],
  });
}
