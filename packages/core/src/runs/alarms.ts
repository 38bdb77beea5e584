import type { Job } from '../jobs/job.js';
import type { DailyReport } from './report-days.js';
import type { Run } from './run.js';

/**
 * What an alarm is about: a run that failed for good (the default), a job its failure policy paused,
 * a job that succeeded again after a failure (recovery notice), a deadline passed without a success,
 * a fire the schedule owed that nothing explains (the dead-man check, see dead-man.ts).
 */
export const ALARM_KINDS = [
  'runFailed',
  'jobPaused',
  'jobRecovered',
  'deadlineMissed',
  'fireUnexplained',
] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];

export interface Alarm {
  /** Absent: runFailed. */
  readonly kind?: AlarmKind;
  readonly job: Pick<Job, 'id' | 'name' | 'appName' | 'alarmEmail' | 'alarmWebhook' | 'alertChannels'>;
  /** The run it is about; absent for a missed deadline (no run is). */
  readonly run?: Run;
  /** One line for people: what failed and how often it was tried. */
  readonly summary: string;
  /**
   * The workflow it is about. runFailed: a failed workflow run (`job` and `run` are its first failed
   * node's); deadlineMissed, fireUnexplained: the workflow's deadline or schedule (`job` is its
   * starter job, or without a schedule its first node's job, whose alarm paths it takes).
   */
  readonly workflow?: WorkflowAlarm;
  /** jobPaused: the pause as stored on the job. */
  readonly pause?: { readonly failures: number; readonly ofLast: number; readonly resumeAt?: number };
  /** deadlineMissed: the window that closed without a success (epoch ms) and the deadline as set. */
  readonly deadline?: { readonly from: number; readonly to: number; readonly text: string };
  /** fireUnexplained: the window checked, the unexplained fires in it and the first one (epoch ms). */
  readonly unexplained?: {
    readonly from: number;
    readonly to: number;
    readonly count: number;
    readonly first: number;
  };
  /**
   * The count of a closed alert window (the alert sweep's message on the job's own path): `count`
   * alarms of `kind` from `firstAt` to `lastAt`; `summary` names the first.
   */
  readonly window?: {
    readonly alertId: string;
    readonly count: number;
    readonly firstAt: number;
    readonly lastAt: number;
    readonly windowEnd: number;
  };
}

export interface WorkflowAlarm {
  readonly id: number;
  readonly name: string;
  /** runFailed: the failed run and its failed nodes; absent for an alarm about the workflow itself. */
  readonly runId?: string;
  readonly failedNodes?: readonly string[];
}

/** Where a failed run (after its last retry) is reported: SNS topic, the job's webhook, ... */
export interface AlarmPublisher {
  /** Resolves true when every channel took the alarm. */
  publish(alarm: Alarm): Promise<boolean>;
}

export interface ReportDelta {
  readonly running?: number;
  readonly success?: number;
  readonly fail?: number;
  /** Fires recorded as skipped (misfires: late or overtaken), never sent. */
  readonly skipped?: number;
}

/**
 * Daily run counters (XXL-JOB's xxl_job_log_report), keyed by UTC day. Best-effort: a crash may
 * under-count. Functions that count many runs wrap the store in a `BufferedReportStore`, whose
 * `add` only sums in memory until the function flushes it (once per request or batch).
 */
export interface ReportStore {
  /** Moves the day's counters, and those of the run's group when `appName` is given (a user who sees only some groups reads theirs). */
  add(day: string, delta: ReportDelta, appName?: string): Promise<void>;
  /**
   * Counters of each day from `fromDay` to `toDay` inclusive (missing days are zero): of every
   * group, or summed over `appNames`.
   */
  range(fromDay: string, toDay: string, appNames?: readonly string[]): Promise<DailyReport[]>;
}
