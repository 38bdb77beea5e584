/** Business metrics, emitted by the functions as CloudWatch EMF; the domain only names them. */
export type MetricUnit = 'Count' | 'Milliseconds';

export interface Metrics {
  add(name: string, unit: MetricUnit, value: number): void;
}

export const noMetrics: Metrics = { add() {} };

export const METRIC = {
  firesEnqueued: 'FiresEnqueued',
  misfiresSkipped: 'MisfiresSkipped',
  /** Scheduled fires the dispatcher skipped because they reached it past the misfire threshold: the stack is behind. */
  firesSkippedOverload: 'FiresSkippedOverload',
  tickDuration: 'TickDuration',
  /** Due jobs the tick left due in an iteration: the dispatchers were behind (see tick/admission.ts). */
  plansDeferred: 'PlansDeferred',
  /** The tick's admission share each iteration, percent (100: every due job planned). */
  admissionSharePercent: 'AdmissionSharePercent',
  leaseTakeovers: 'LeaseTakeovers',
  runsDispatched: 'RunsDispatched',
  dispatchFailures: 'DispatchFailures',
  lateness: 'Lateness',
  callbacks: 'Callbacks',
  retries: 'Retries',
  alarms: 'Alarms',
  /** A monitor sweep (lost runs, pending outcomes) that failed as a whole: 1 per failed sweep. */
  sweepFailures: 'SweepFailures',
  /** A sign-in refused: unknown user, wrong password, disabled user, or locked out (1 per attempt). */
  failedLogins: 'FailedLogins',
  /** An audit record written (1 per accepted change through the admin API). */
  auditWrites: 'AuditWrites',
  /** An accepted change whose audit record could not be written (the change stands): 1 per record lost. */
  auditWriteFailures: 'AuditWriteFailures',
  /** Workflow runs started (from a schedule, a trigger, or out of the buffer), and how they ended. */
  workflowRunsStarted: 'WorkflowRunsStarted',
  workflowRunsSucceeded: 'WorkflowRunsSucceeded',
  workflowRunsFailed: 'WorkflowRunsFailed',
  workflowRunsCancelled: 'WorkflowRunsCancelled',
  /** Starts the overlap policy refused (SKIP, or BUFFER_ONE with one waiting). */
  workflowRunsSkipped: 'WorkflowRunsSkipped',
  workflowNodesFired: 'WorkflowNodesFired',
  /** From a node's fire (its upstream finishing) to its job run being sent, ms. */
  workflowNodeLateness: 'WorkflowNodeLateness',
  /** Jobs their failure policy paused (1 per pause). */
  jobsPausedByPolicy: 'JobsPausedByPolicy',
  /** Jobs the monitors started again after their cooling-off period (1 per resume). */
  jobsResumedByPolicy: 'JobsResumedByPolicy',
  /** Deadline windows that closed without a success (1 per job and window, alarmed once). */
  deadlinesMissed: 'DeadlinesMissed',
  /** Fires a schedule owed that no run, skip, pause, calendar or exception explains (the dead-man check). */
  firesUnexplained: 'FiresUnexplained',
} as const;
