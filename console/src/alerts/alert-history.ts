// The alert history in words: kinds and states named for people, how an alert grouped its alarms
// ("12 times in 7 min"), each delivery's state with its attempts, and the listAlerts query of the
// URL's filters (job, kind, state, time). Pure.

import type { Alert } from '@tickring/client';
import { isQuickRange, parseJobId, QUICK_RANGES } from '../runs/filters';

export type AlertKind = Alert['kind'];
export type AlertState = Alert['state'];
export type AlertDelivery = Alert['deliveries'][number];
export type DeliveryAttempt = AlertDelivery['attempts'][number];

/** Every kind the API names (a Record, so a kind added to the API fails the build until named here). */
export const ALERT_KIND_LABELS: Readonly<Record<AlertKind, string>> = {
  runFailed: 'Run failed',
  jobPaused: 'Paused by its failure policy',
  jobRecovered: 'Recovered',
  deadlineMissed: 'Deadline missed',
  fireUnexplained: 'Fires unexplained',
};
export const ALERT_KINDS = Object.keys(ALERT_KIND_LABELS) as AlertKind[];

/** An alert's state: its word, what it means, and its badge's class (the word is always shown too). */
export const ALERT_STATES: Readonly<Record<AlertState, { label: string; meaning: string; badge: string }>> = {
  sent: { label: 'sent', meaning: 'routed to its channels', badge: 'status-running' },
  silenced: {
    label: 'silenced',
    meaning: 'a silence matched: recorded, sent nowhere (nor to the job’s alarm e-mail and webhook)',
    badge: 'status-skipped',
  },
  unrouted: {
    label: 'unrouted',
    meaning: 'neither the job nor its group names a channel: recorded, sent nowhere',
    badge: 'warn',
  },
};

export const ALERT_STATE_NAMES = Object.keys(ALERT_STATES) as AlertState[];

const DELIVERY_BADGES: Readonly<Record<AlertDelivery['state'], string>> = {
  pending: 'status-running',
  delivered: 'status-success',
  failed: 'status-fail',
};

/** "once", or "12 times in 7 min": the alarms the alert counted, over the time from its first to its last. */
export function groupingText(alert: Pick<Alert, 'count' | 'firstAt' | 'lastAt'>): string {
  if (alert.count <= 1) return 'once';
  return `${alert.count} times in ${spanText(Date.parse(alert.lastAt) - Date.parse(alert.firstAt))}`;
}

function spanText(ms: number): string {
  if (!Number.isFinite(ms) || ms < 1000) return 'under a second';
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 3600_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3600_000)} h`;
}

/** Whether the alert's window is still open: later alarms of its job and kind are counted into it. */
export function isCounting(alert: Pick<Alert, 'windowEnd'>, now: number = Date.now()): boolean {
  return Date.parse(alert.windowEnd) > now;
}

/** One channel's messages of an alert: the first alarm, and the window's count when it had more. */
export interface ChannelDeliveries {
  readonly channelId: string;
  readonly deliveries: readonly AlertDelivery[];
}

/** The deliveries by channel, channels in the order the alert names them, each's first message first. */
export function deliveriesByChannel(deliveries: readonly AlertDelivery[]): ChannelDeliveries[] {
  const byChannel = new Map<string, AlertDelivery[]>();
  for (const delivery of deliveries) {
    const list = byChannel.get(delivery.channelId) ?? [];
    list.push(delivery);
    byChannel.set(delivery.channelId, list);
  }
  return [...byChannel].map(([channelId, list]) => ({
    channelId,
    deliveries: list.sort((a, b) => (a.message === b.message ? 0 : a.message === 'first' ? -1 : 1)),
  }));
}

/** A delivery as shown: which message, its state's word and badge, and what its attempts came to. */
export interface DeliveryView {
  readonly message: string;
  readonly state: string;
  readonly badge: string;
  /** "2 attempts", "not tried yet". */
  readonly attempts: string;
  /** The last failed attempt's reason, while it matters (pending or failed). */
  readonly lastError?: string;
  /** pending: when it is tried next. */
  readonly nextAttemptAt?: string;
}

export function deliveryView(delivery: AlertDelivery): DeliveryView {
  const tries = delivery.attempts.length;
  const last = delivery.attempts.at(-1);
  return {
    message: delivery.message === 'first' ? 'First alarm' : `Count of the window (${delivery.count})`,
    state: delivery.state,
    badge: DELIVERY_BADGES[delivery.state],
    attempts: tries === 0 ? 'not tried yet' : `${tries} attempt${tries === 1 ? '' : 's'}`,
    ...(last && !last.ok && delivery.state !== 'delivered' ? { lastError: attemptText(last) } : {}),
    ...(delivery.state === 'pending' && delivery.nextAttemptAt !== undefined
      ? { nextAttemptAt: delivery.nextAttemptAt }
      : {}),
  };
}

/** One attempt's outcome: the receiver's status, or why no answer came. */
export function attemptText(attempt: DeliveryAttempt): string {
  if (attempt.ok) return attempt.status === undefined ? 'taken' : `HTTP ${attempt.status}`;
  if (attempt.error) return attempt.error;
  return attempt.status === undefined ? 'no answer' : `HTTP ${attempt.status}`;
}

/** The history's filters as read from the URL (strings, absent when not set). */
export interface AlertFilterValues {
  readonly jobId?: string;
  readonly kind?: string;
  readonly state?: string;
  readonly range?: string;
  readonly from?: string;
  readonly to?: string;
}

export interface AlertListQuery {
  jobId?: number;
  kind?: AlertKind;
  state?: AlertState;
  from?: string;
  to?: string;
}

function instant(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const at = Date.parse(value);
  return Number.isFinite(at) ? new Date(at).toISOString() : undefined;
}

/**
 * The listAlerts query of the URL's filters, as of `now`: a quick range counts back from now; with none,
 * `from`/`to` as given (any time when neither is: alerts are few, unlike runs). Values that do not
 * parse are left out.
 */
export function alertListQuery(filters: AlertFilterValues, now: number = Date.now()): AlertListQuery {
  const query: AlertListQuery = {};
  const jobId = parseJobId(filters.jobId);
  if (jobId !== undefined) query.jobId = jobId;
  const kind = ALERT_KINDS.find((k) => k === filters.kind);
  if (kind) query.kind = kind;
  const state = ALERT_STATE_NAMES.find((s) => s === filters.state);
  if (state) query.state = state;
  if (isQuickRange(filters.range)) {
    query.from = new Date(now - QUICK_RANGES[filters.range].ms).toISOString();
  } else {
    const from = instant(filters.from);
    const to = instant(filters.to);
    if (from !== undefined) query.from = from;
    if (to !== undefined) query.to = to;
  }
  return query;
}

export function hasAlertFilters(filters: AlertFilterValues): boolean {
  return Object.values(filters).some((v) => v !== undefined && v !== '');
}
