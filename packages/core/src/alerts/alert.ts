import type { AlarmKind } from '../runs/alarms.js';

/** One alert per (job, kind) condition per window: later alarms of the window only count. */
export const ALERT_WINDOW_MS = 10 * 60_000;
/**
 * Waits before the 2nd and 3rd attempt of a delivery: three attempts over 40 s, within the minute
 * the monitors' sweep loops for; then the delivery is failed (its attempts kept).
 */
export const ALERT_RETRY_DELAYS_MS = [10_000, 30_000] as const;
/** A delivery attempt's answer is waited for this long. */
export const ALERT_SEND_TIMEOUT_MS = 5_000;
/**
 * How long a publisher holds the job's own first alarm of a window while it sends it: the window's
 * other alarms meanwhile only count (past it, a publisher that crashed has let go).
 */
export const LEGACY_CLAIM_MS = 30_000;

/** sent: routed to channels; silenced: a silence matched (nothing sent anywhere); unrouted: no channel named. */
export const ALERT_STATES = ['sent', 'silenced', 'unrouted'] as const;
export type AlertState = (typeof ALERT_STATES)[number];
export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface DeliveryAttempt {
  readonly at: number;
  readonly ok: boolean;
  /** The HTTP status, when an answer came. */
  readonly status?: number;
  readonly error?: string;
}

/** One message of an alert to one channel: the first alarm of the window, or the window's count. */
export interface AlertDelivery extends AlertMessageProgress {
  readonly channelId: string;
}

/** One message (the first alarm, or the window's count) and its attempts, wherever it goes. */
export interface AlertMessageProgress {
  readonly message: 'first' | 'summary';
  /** Alarms counted in the message (1 for the first). */
  readonly count: number;
  readonly state: DeliveryState;
  readonly attempts: readonly DeliveryAttempt[];
  /** pending: when the next attempt is due. */
  readonly nextAttemptAt?: number;
}

/** An alert: a (job, kind) condition within one window, what was done with it, and its deliveries. */
export interface Alert {
  /** `{jobId}#{kind}#{windowStart}`: the same condition in the same window is the same alert. */
  readonly id: string;
  readonly jobId: number;
  readonly jobName: string;
  readonly appName: string;
  readonly kind: AlarmKind;
  readonly windowStart: number;
  readonly windowEnd: number;
  readonly firstAt: number;
  readonly lastAt: number;
  /** Alarms of the condition in the window. */
  readonly count: number;
  /** The first alarm's line for people. */
  readonly summary: string;
  /** The first alarm's run, when it had one. */
  readonly logId?: number;
  /** The first alarm's workflow run, when a failed workflow raised it (its first failed node's job). */
  readonly workflow?: AlertWorkflow;
  /** sent: routed to channels; silenced: a silence matched (its id); unrouted: no channel named. */
  readonly state: AlertState;
  readonly silenceId?: string;
  readonly channelIds: readonly string[];
  readonly deliveries: readonly AlertDelivery[];
  /** The window's count went out (or was not needed). */
  readonly summaryQueued: boolean;
  /**
   * The job's own alarm path, grouped too; absent on an alert recorded without it, and on a silenced
   * one (a silence sends nothing there either).
   */
  readonly legacy?: LegacyAlarmPath;
  /** When the delivery sweep has work on it; absent: none left. */
  readonly dueAt?: number;
  readonly revision: number;
}

/** The workflow an alert is about: its id and name, and the run (absent: about the workflow itself, a deadline or its schedule). */
export interface AlertWorkflow {
  readonly id: number;
  readonly name: string;
  readonly runId?: string;
}

/**
 * The job's own alarm path (the SNS alarm topic or the log, and the job's alarmWebhook), grouped
 * like the channels: the first alarm of the window, then the window's count once it closed.
 */
export interface LegacyAlarmPath {
  /** The job's settings at the first alarm, for the window's count. */
  readonly alarmEmail: string;
  readonly alarmWebhook: string;
  /**
   * The first alarm, sent by the alarm path itself (it holds the run). While pending, the window's
   * next alarm past `nextAttemptAt` sends it (and moves that on by LEGACY_CLAIM_MS as it does, so
   * alarms at the same time send it once); retried on the channels' backoff, at most 3 attempts.
   */
  readonly first: AlertMessageProgress;
  /** The window's count, sent by the delivery sweep once the window closed (more than one alarm). */
  readonly summary?: AlertMessageProgress;
}

export function alertIdOf(jobId: number, kind: AlarmKind, windowStart: number): string {
  return `${jobId}#${kind}#${windowStart}`;
}

export function windowStartOf(atMs: number, windowMs = ALERT_WINDOW_MS): number {
  return Math.floor(atMs / windowMs) * windowMs;
}

/** The sweep's next work on an alert: a pending attempt, or the window's count once it closed. */
export function dueAtOf(alert: Omit<Alert, 'dueAt'>): number | undefined {
  let due: number | undefined;
  for (const d of alert.deliveries) {
    if (d.state === 'pending' && d.nextAttemptAt !== undefined)
      due = Math.min(due ?? d.nextAttemptAt, d.nextAttemptAt);
  }
  if (needsSummary(alert) || needsLegacySummary(alert))
    due = Math.min(due ?? alert.windowEnd, alert.windowEnd);
  const legacySummary = alert.legacy?.summary;
  if (legacySummary?.state === 'pending' && legacySummary.nextAttemptAt !== undefined)
    due = Math.min(due ?? legacySummary.nextAttemptAt, legacySummary.nextAttemptAt);
  return due;
}

export function needsSummary(alert: Omit<Alert, 'dueAt'>): boolean {
  return alert.state === 'sent' && !alert.summaryQueued && alert.count > 1;
}

/** The job's own path owes the window's count: it counted more than one alarm and the count has not been queued. */
export function needsLegacySummary(alert: Omit<Alert, 'dueAt'>): boolean {
  return alert.legacy !== undefined && alert.legacy.summary === undefined && alert.count > 1;
}

/** The alert with `dueAt` worked out again (drop it when there is nothing left to do). */
export function withDueAt(alert: Omit<Alert, 'dueAt'> & { dueAt?: number }): Alert {
  const { dueAt: _old, ...rest } = alert;
  const due = dueAtOf(rest);
  return due === undefined ? rest : { ...rest, dueAt: due };
}

/** After an attempt: delivered, due again after the next backoff step, or failed after the last one. */
export function afterAttempt(delivery: AlertDelivery, attempt: DeliveryAttempt): AlertDelivery;
export function afterAttempt(delivery: AlertMessageProgress, attempt: DeliveryAttempt): AlertMessageProgress;
export function afterAttempt(delivery: AlertMessageProgress, attempt: DeliveryAttempt): AlertMessageProgress {
  const attempts = [...delivery.attempts, attempt];
  const { nextAttemptAt: _next, ...rest } = delivery;
  if (attempt.ok) return { ...rest, attempts, state: 'delivered' };
  const wait = ALERT_RETRY_DELAYS_MS[attempts.length - 1];
  if (wait === undefined) return { ...rest, attempts, state: 'failed' };
  return { ...rest, attempts, state: 'pending', nextAttemptAt: attempt.at + wait };
}

/** The idempotency key a receiver dedupes on: the same message of an alert to a channel, whatever the attempt. */
export function idempotencyKeyOf(
  alert: Pick<Alert, 'id'>,
  delivery: Pick<AlertDelivery, 'channelId' | 'message'>,
): string {
  return `${alert.id}#${delivery.channelId}#${delivery.message}`;
}

/** A silence: alerts matching it (every given field) between `from` and `to` are recorded, not sent. */
export interface AlertSilence {
  readonly id: string;
  readonly jobId?: number;
  readonly appName?: string;
  readonly kind?: AlarmKind;
  readonly from: number;
  readonly to: number;
  readonly reason: string;
  readonly createdBy: string;
  readonly createdAt: number;
}

export function silenceMatches(
  silence: AlertSilence,
  alert: { readonly jobId: number; readonly appName: string; readonly kind: AlarmKind },
  atMs: number,
): boolean {
  return (
    atMs >= silence.from &&
    atMs < silence.to &&
    (silence.jobId === undefined || silence.jobId === alert.jobId) &&
    (silence.appName === undefined || silence.appName === alert.appName) &&
    (silence.kind === undefined || silence.kind === alert.kind)
  );
}
