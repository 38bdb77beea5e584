import type { FunctionName } from '@tickring/aws/topology';
import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { RingQueue } from './ring-queues.js';
import { businessMetric, businessMetricTotal } from './tickring-metrics.js';

export interface SchedulerAlarmsProps {
  readonly functions: Readonly<Record<FunctionName, lambda.IFunction>>;
  readonly queues: readonly RingQueue[];
  readonly topic: sns.ITopic;
  /** Lateness p99 above this many ms alarms. @default 1000 */
  readonly latenessP99Ms?: number;
  /** Share of failed triggers (percent) above which the dispatch alarm fires. @default 10 */
  readonly dispatchFailurePercent?: number;
}

/**
 * Alarms on the scheduler itself, all sent to the alarm topic: the tick stopped, a dead-letter
 * queue holds messages, fires dispatched late, fires skipped because the scheduler is overloaded,
 * too many triggers fail, a monitor sweep keeps
 * failing, an audit record is lost, sign-ins are refused in bulk, a workflow run fails, a function errs.
 */
export class SchedulerAlarms extends Construct {
  readonly alarms: cloudwatch.Alarm[] = [];

  constructor(scope: Construct, id: string, props: SchedulerAlarmsProps) {
    super(scope, id);
    const action = new actions.SnsAction(props.topic);
    const add = (alarm: cloudwatch.Alarm) => {
      alarm.addAlarmAction(action);
      alarm.addOkAction(action);
      this.alarms.push(alarm);
    };

    // EventBridge starts two ticks a minute; none for three minutes means nothing is scheduling.
    // No data at all (the rule disabled, the function gone) is the same thing: breaching.
    add(
      new cloudwatch.Alarm(this, 'TickNotRunning', {
        alarmDescription: 'scheduler-tick was not invoked for 3 minutes: no job is being scheduled',
        metric: props.functions['scheduler-tick'].metricInvocations({
          statistic: cloudwatch.Stats.SUM,
          period: Duration.minutes(1),
        }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
        evaluationPeriods: 3,
        datapointsToAlarm: 3,
        treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      }),
    );

    for (const ring of props.queues) {
      add(
        new cloudwatch.Alarm(this, `${ring.definition.logicalName}DlqNotEmpty`, {
          alarmDescription: `${ring.definition.deadLetter.baseName} holds messages: fires the dispatcher gave up on after ${ring.definition.deadLetter.maxReceiveCount} receives`,
          metric: ring.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
            statistic: cloudwatch.Stats.MAXIMUM,
            period: Duration.minutes(1),
          }),
          threshold: 0,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
    }

    const latenessMs = props.latenessP99Ms ?? 1000;
    add(
      new cloudwatch.Alarm(this, 'LatenessP99', {
        alarmDescription: `p99 of dispatch lateness (fire time to executor call) above ${latenessMs} ms over 5 minutes`,
        metric: businessMetric('lateness', 'dispatcher', { statistic: 'p99', period: Duration.minutes(5) }),
        threshold: latenessMs,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );

    // Scheduled fires reaching the dispatcher too late to be sent: the stack is behind its schedule.
    // Sustained only (3 of 5 minutes): one restart's late re-deliveries skip fires for a minute and
    // recover on their own. No data: nothing skipped.
    add(
      new cloudwatch.Alarm(this, 'SchedulerOverloaded', {
        alarmDescription:
          'scheduler overloaded: scheduled fires were skipped for coming more than 5 s late (reaching the dispatcher, or left due by the tick while the dispatchers were behind) in 3 of the last 5 minutes (FiresSkippedOverload); see the skipped runs of the jobs, the admission share, the ring queues and the dispatcher on the dashboard',
        metric: businessMetricTotal('firesSkippedOverload', { period: Duration.minutes(1) }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 5,
        datapointsToAlarm: 3,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );

    // Failed triggers over all triggers (accepted + failed): RunsDispatched counts accepted ones only.
    const percent = props.dispatchFailurePercent ?? 10;
    const period = Duration.minutes(5);
    add(
      new cloudwatch.Alarm(this, 'DispatchFailureRate', {
        alarmDescription: `more than ${percent}% of triggers failed over 5 minutes (DispatchFailures / (RunsDispatched + DispatchFailures))`,
        metric: new cloudwatch.MathExpression({
          expression:
            'IF((FILL(ok, 0) + FILL(failed, 0)) > 0, 100 * FILL(failed, 0) / (FILL(ok, 0) + FILL(failed, 0)), 0)',
          usingMetrics: {
            ok: businessMetric('runsDispatched', 'dispatcher', { period }),
            failed: businessMetric('dispatchFailures', 'dispatcher', { period }),
          },
          period,
          label: 'failed triggers (%)',
        }),
        threshold: percent,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );

    // The monitors answer even when a sweep fails (so the other still runs): their Errors alarm no
    // longer sees it. A sweep runs every minute and a one-off failure (a throttled read) is simply
    // retried; failures in two 5-minute periods in a row mean a sweep is stuck, and lost runs stay
    // running, pending retries / alarms / children are never re-driven. No data: no failure.
    add(
      new cloudwatch.Alarm(this, 'MonitorSweepFailed', {
        alarmDescription:
          'a monitor sweep (lostRuns or pendingOutcomes) failed in each of the last two 5-minute periods: see the monitors log "monitor sweep failed"',
        metric: businessMetric('sweepFailures', 'monitors', { period: Duration.minutes(5) }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 2,
        datapointsToAlarm: 2,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );

    // A change that was made but not written to the audit log: the record of who did it is missing.
    add(
      new cloudwatch.Alarm(this, 'AuditWriteFailed', {
        alarmDescription:
          'an accepted change could not be written to the audit log in the last 5 minutes: see the api log "audit record not written"',
        metric: businessMetric('auditWriteFailures', 'api', { period: Duration.minutes(5) }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    // A workflow run failed (a node failed with no ON_FAILURE branch that handled it), counted by
    // whichever function decided its end: the sum over all of them. The run itself is also alarmed
    // through its first failed node's job (like a job run's failure); this is the operator's count.
    add(
      new cloudwatch.Alarm(this, 'WorkflowRunFailed', {
        alarmDescription:
          'a workflow run failed in the last 5 minutes (WorkflowRunsFailed): see the workflow runs in the console, or the log "workflow run ended"',
        metric: businessMetricTotal('workflowRunsFailed', { period: Duration.minutes(5) }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    // A job's deadline passed without a success: each job's own alarm channels were told (a
    // deadlineMissed alarm); this is the operator's count, once per job and deadline window.
    add(
      new cloudwatch.Alarm(this, 'DeadlineMissed', {
        alarmDescription:
          'a job missed its deadline in the last 5 minutes (DeadlinesMissed): no success by its deadline; see the job page in the console, or the log "deadline missed"',
        metric: businessMetric('deadlinesMissed', 'monitors', { period: Duration.minutes(5) }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    // A schedule owed fires that did not happen (the dead-man check): each job's own alarm channels were
    // told (a fireUnexplained alarm, once per job and 15 minutes); this is the operator's count.
    add(
      new cloudwatch.Alarm(this, 'FiresUnexplained', {
        alarmDescription:
          'fires a schedule owed did not happen in the last 5 minutes (FiresUnexplained): no run, skip, pause, calendar or exception explains them; see GET /v1/jobs/{id}/ledger, or the log "fires unexplained"',
        metric: businessMetric('firesUnexplained', 'monitors', { period: Duration.minutes(5) }),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    // Many refused sign-ins: someone guessing passwords (each is also slowed and locked out per user and address).
    add(
      new cloudwatch.Alarm(this, 'FailedLoginsSpike', {
        alarmDescription: 'more than 50 refused sign-ins in 5 minutes: someone may be guessing passwords',
        metric: businessMetric('failedLogins', 'api', { period: Duration.minutes(5) }),
        threshold: 50,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );

    for (const [name, fn] of Object.entries(props.functions)) {
      add(
        new cloudwatch.Alarm(this, `${name}Errors`, {
          alarmDescription: `${name} failed invocations (errors, timeouts) in the last 5 minutes`,
          metric: fn.metricErrors({ statistic: cloudwatch.Stats.SUM, period: Duration.minutes(5) }),
          threshold: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
    }
  }
}
