import type { Clock } from '../common/clock.js';
import { ConflictError } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import type { SecretSealer } from '../jobs/job-store.js';
import type { AlarmPublisher } from '../runs/alarms.js';
import {
  type Alert,
  type AlertDelivery,
  afterAttempt,
  type DeliveryAttempt,
  idempotencyKeyOf,
  type LegacyAlarmPath,
  needsLegacySummary,
  needsSummary,
  withDueAt,
} from './alert.js';
import type { AlertChannel } from './alert-channel.js';
import { sealContextOf } from './alert-channel.js';
import {
  type AlertFields,
  alertFields,
  alertText,
  IDEMPOTENCY_HEADER,
  renderAlertTemplate,
  SIGNATURE_HEADER,
  signBody,
  slackBody,
} from './alert-message.js';
import type { AlertStore } from './alert-store.js';

/** How an alert leaves: an HTTP POST (webhook, slack) or the alarm topic (email). */
export interface AlertSender {
  /** Resolves the answer's HTTP status; throws on a network error or timeout. */
  post(url: string, body: string, headers: Readonly<Record<string, string>>): Promise<number>;
  email(
    subject: string,
    text: string,
    attributes: { readonly channelId: string; readonly jobId: number; readonly appName: string },
  ): Promise<void>;
}

export interface AlertDeliveryDeps {
  readonly alerts: AlertStore;
  readonly sender: AlertSender;
  readonly sealer: SecretSealer;
  readonly clock: Clock;
  readonly logger: Logger;
  /**
   * The job's own alarm path (the topic or log, and the job's webhook), for a window's count there;
   * absent: such a count is recorded as failed attempts.
   */
  readonly legacy?: AlarmPublisher;
  /** Waits between passes (tests pass a fake). */
  readonly sleep?: (ms: number) => Promise<void>;
}

export interface AlertSweepResult {
  readonly attempts: number;
  readonly delivered: number;
  readonly failed: number;
}

const BATCH = 50;

/**
 * Works through the alerts due before `untilMs`: each pass sends what is due now, then waits for the
 * next due time; returns when nothing more is due before `untilMs`. At least once: an attempt is
 * recorded after it is made, so a crash in between sends it again (same idempotency key).
 */
export async function driveAlertDeliveries(
  deps: AlertDeliveryDeps,
  untilMs: number,
): Promise<AlertSweepResult> {
  const totals = { attempts: 0, delivered: 0, failed: 0 };
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (;;) {
    const now = deps.clock.now();
    const due = await deps.alerts.listDueAlerts(untilMs, BATCH);
    if (due.length === 0) return totals;
    const ready = due.filter((a) => (a.dueAt ?? Number.POSITIVE_INFINITY) <= now);
    for (const alert of ready) {
      const step = await deliverAlert(deps, alert);
      totals.attempts += step.attempts;
      totals.delivered += step.delivered;
      totals.failed += step.failed;
    }
    if (ready.length === 0) {
      const next = Math.min(...due.map((a) => a.dueAt ?? untilMs));
      if (next >= untilMs) return totals;
      await sleep(Math.max(0, next - deps.clock.now()));
    }
  }
}

/** One alert's due work: queue the window's count once it closed, make each due attempt, write once. */
export async function deliverAlert(deps: AlertDeliveryDeps, read: Alert): Promise<AlertSweepResult> {
  const now = deps.clock.now();
  let deliveries = [...read.deliveries];
  let summaryQueued = read.summaryQueued;
  if (needsSummary(read) && read.windowEnd <= now) {
    summaryQueued = true;
    for (const channelId of read.channelIds) {
      deliveries.push({
        channelId,
        message: 'summary',
        count: read.count,
        state: 'pending',
        attempts: [],
        nextAttemptAt: now,
      });
    }
  }
  const result = { attempts: 0, delivered: 0, failed: 0 };
  const channels = new Map<string, AlertChannel | undefined>();
  deliveries = await Promise.all(
    deliveries.map(async (delivery) => {
      if (delivery.state !== 'pending' || (delivery.nextAttemptAt ?? 0) > now) return delivery;
      if (!channels.has(delivery.channelId))
        channels.set(delivery.channelId, await deps.alerts.getChannel(delivery.channelId));
      const attempt = await attemptDelivery(deps, read, delivery, channels.get(delivery.channelId));
      result.attempts++;
      const next = afterAttempt(delivery, attempt);
      if (next.state === 'delivered') result.delivered++;
      if (next.state === 'failed') {
        result.failed++;
        deps.logger.warn('alert delivery failed for good', {
          alertId: read.id,
          channelId: delivery.channelId,
          message: delivery.message,
          attempts: next.attempts.length,
          error: attempt.error ?? null,
        });
      }
      return next;
    }),
  );
  const legacy = await legacySummaryStep(deps, read, now, result);
  const next = withDueAt({
    ...read,
    deliveries,
    summaryQueued,
    ...(legacy ? { legacy } : {}),
    revision: read.revision + 1,
  });
  try {
    await deps.alerts.updateAlert(next, read.revision);
  } catch (err) {
    // A new alarm counted meanwhile: the attempts made are sent again next pass (same idempotency key).
    if (!(err instanceof ConflictError)) throw err;
    deps.logger.info('alert changed during its delivery, tried again', { alertId: read.id });
  }
  return result;
}

/** The window's count on the job's own path: queued once the window closed, then attempted when due. */
async function legacySummaryStep(
  deps: AlertDeliveryDeps,
  read: Alert,
  now: number,
  result: { attempts: number; delivered: number; failed: number },
): Promise<LegacyAlarmPath | undefined> {
  let legacy = read.legacy;
  if (!legacy) return undefined;
  if (needsLegacySummary(read) && read.windowEnd <= now) {
    legacy = {
      ...legacy,
      summary: { message: 'summary', count: read.count, state: 'pending', attempts: [], nextAttemptAt: now },
    };
  }
  const summary = legacy.summary;
  if (summary?.state !== 'pending' || (summary.nextAttemptAt ?? 0) > now) return legacy;
  const attempt = await attemptLegacySummary(deps, read, legacy, summary.count);
  result.attempts++;
  const next = afterAttempt(summary, attempt);
  if (next.state === 'delivered') result.delivered++;
  if (next.state === 'failed') {
    result.failed++;
    deps.logger.warn('alert delivery failed for good', {
      alertId: read.id,
      channelId: null,
      message: 'summary',
      attempts: next.attempts.length,
      error: attempt.error ?? null,
    });
  }
  return { ...legacy, summary: next };
}

async function attemptDelivery(
  deps: AlertDeliveryDeps,
  alert: Alert,
  delivery: AlertDelivery,
  channel: AlertChannel | undefined,
): Promise<DeliveryAttempt> {
  if (!channel)
    return { at: deps.clock.now(), ok: false, error: `channel ${delivery.channelId} does not exist` };
  return sendToChannel(deps, channel, {
    fields: alertFields(alert, delivery),
    idempotencyKey: idempotencyKeyOf(alert, delivery),
    subject: `tickring ${alert.kind}: job ${alert.jobId} ${alert.jobName}`,
    jobId: alert.jobId,
    appName: alert.appName,
  });
}

/** One message for a channel: its fields (the body), the key a receiver dedupes on, an email's subject. */
export interface ChannelMessage {
  readonly fields: AlertFields;
  readonly idempotencyKey: string;
  readonly subject: string;
  readonly jobId: number;
  readonly appName: string;
}

/**
 * Sends one message through a channel as its kind says (webhook: the body or its template
 * rendered, signed when the channel has a secret; slack: incoming-webhook JSON; email: the alarm
 * topic) and says what happened. Never throws: a network error or a timeout is a failed attempt.
 */
export async function sendToChannel(
  deps: Pick<AlertDeliveryDeps, 'sender' | 'sealer' | 'clock'>,
  channel: AlertChannel,
  message: ChannelMessage,
): Promise<DeliveryAttempt> {
  const at = deps.clock.now();
  try {
    const { fields } = message;
    if (channel.kind === 'email') {
      await deps.sender.email(message.subject.slice(0, 99), fields.text, {
        channelId: channel.id,
        jobId: message.jobId,
        appName: message.appName,
      });
      return { at, ok: true };
    }
    let body: string;
    if (channel.kind === 'slack') body = JSON.stringify(slackBody(fields));
    else if (channel.bodyTemplate !== undefined) {
      const rendered = renderAlertTemplate(channel.bodyTemplate, fields);
      if ('error' in rendered) return { at, ok: false, error: `body template: ${rendered.error}` };
      body = rendered.ok;
    } else body = JSON.stringify(fields);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'tickring-alert',
      [IDEMPOTENCY_HEADER]: message.idempotencyKey,
    };
    if (channel.secretSealed !== undefined) {
      const secret = await deps.sealer.open(sealContextOf(channel.id), channel.secretSealed);
      headers[SIGNATURE_HEADER] = signBody(secret, body, at);
    }
    const status = await deps.sender.post(channel.url ?? '', body, headers);
    return status >= 200 && status < 300
      ? { at, ok: true, status }
      : { at, ok: false, status, error: `HTTP ${status}` };
  } catch (err) {
    return { at, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The window's count on the job's own path (its alarm topic or log, and its webhook). */
async function attemptLegacySummary(
  deps: AlertDeliveryDeps,
  alert: Alert,
  legacy: LegacyAlarmPath,
  count: number,
): Promise<DeliveryAttempt> {
  const at = deps.clock.now();
  if (!deps.legacy) return { at, ok: false, error: 'no alarm publisher wired to the delivery sweep' };
  const ok = await deps.legacy
    .publish({
      kind: alert.kind,
      job: {
        id: alert.jobId,
        name: alert.jobName,
        appName: alert.appName,
        alarmEmail: legacy.alarmEmail,
        alarmWebhook: legacy.alarmWebhook,
      },
      summary: alertText(alert, { message: 'summary', count }),
      window: {
        alertId: alert.id,
        count,
        firstAt: alert.firstAt,
        lastAt: alert.lastAt,
        windowEnd: alert.windowEnd,
      },
    })
    .catch((err: unknown) => {
      deps.logger.error("window count not published on the job's own path", {
        alertId: alert.id,
        error: err instanceof Error ? err.message : String(err),
      });
      return false;
    });
  return ok
    ? { at, ok }
    : { at, ok, error: 'a channel of the job did not take it (see "alarm not delivered")' };
}
