import type { Clock } from '../common/clock.js';
import { ConflictError } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import type { Group } from '../jobs/job.js';
import type { GroupStore } from '../jobs/job-store.js';
import type { Alarm, AlarmPublisher } from '../runs/alarms.js';
import {
  ALERT_WINDOW_MS,
  type Alert,
  type AlertDelivery,
  alertIdOf,
  silenceMatches,
  windowStartOf,
  withDueAt,
} from './alert.js';
import type { AlertStore } from './alert-store.js';

export interface AlertRoutingDeps {
  readonly alerts: AlertStore;
  readonly groups: Pick<GroupStore, 'get'>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly windowMs?: number;
}

/** A job's channels when it names its own (even none: `[]`), else its group's default. */
export function channelsFor(
  job: { readonly alertChannels?: readonly string[] },
  group: Pick<Group, 'alertChannels'> | undefined,
): readonly string[] {
  return job.alertChannels ?? group?.alertChannels ?? [];
}

const CONFLICT_RETRIES = 5;

/**
 * Records an alarm as an alert: the first of its (job, kind) condition in the window is routed to
 * the job's (or its group's) channels, or silenced; later ones only count. Writes only the alert
 * (the outbox); the monitors' sweep delivers it, so the callback path never waits on a receiver.
 */
export async function recordAlarm(deps: AlertRoutingDeps, alarm: Alarm): Promise<Alert> {
  const kind = alarm.kind ?? 'runFailed';
  const now = deps.clock.now();
  const windowMs = deps.windowMs ?? ALERT_WINDOW_MS;
  const windowStart = windowStartOf(now, windowMs);
  const id = alertIdOf(alarm.job.id, kind, windowStart);
  for (let i = 0; ; i++) {
    try {
      const existing = await deps.alerts.getAlert(id);
      if (existing) {
        const next = withDueAt({
          ...existing,
          count: existing.count + 1,
          lastAt: now,
          revision: existing.revision + 1,
        });
        await deps.alerts.updateAlert(next, existing.revision);
        return next;
      }
      const job = alarm.job as Alarm['job'] & { readonly alertChannels?: readonly string[] };
      const group = job.alertChannels ? undefined : await deps.groups.get(job.appName);
      const channelIds = channelsFor(job, group);
      const silence = (await deps.alerts.listSilences()).find((s) =>
        silenceMatches(s, { jobId: job.id, appName: job.appName, kind }, now),
      );
      const state = silence ? 'silenced' : channelIds.length === 0 ? 'unrouted' : 'sent';
      const deliveries: AlertDelivery[] =
        state === 'sent'
          ? channelIds.map((channelId) => ({
              channelId,
              message: 'first',
              count: 1,
              state: 'pending',
              attempts: [],
              nextAttemptAt: now,
            }))
          : [];
      const alert = withDueAt({
        id,
        jobId: job.id,
        jobName: job.name,
        appName: job.appName,
        kind,
        windowStart,
        windowEnd: windowStart + windowMs,
        firstAt: now,
        lastAt: now,
        count: 1,
        summary: alarm.summary,
        ...(alarm.run ? { logId: alarm.run.logId } : {}),
        state,
        ...(silence ? { silenceId: silence.id } : {}),
        channelIds,
        deliveries,
        summaryQueued: false,
        revision: 1,
      });
      await deps.alerts.createAlert(alert);
      deps.logger.info('alert recorded', {
        alertId: id,
        jobId: job.id,
        kind,
        state,
        channels: channelIds.length,
      });
      return alert;
    } catch (err) {
      // Another writer counted or created it first: read again.
      if (err instanceof ConflictError && i < CONFLICT_RETRIES) continue;
      throw err;
    }
  }
}

/**
 * The alarm path with alert channels: the job's alarmEmail / alarmWebhook as before (`legacy`),
 * then the alert recorded for its channels. True only when both took it (a false makes the outcome
 * sweep publish again: at least once, a repeat only counts once more).
 */
export class RoutingAlarmPublisher implements AlarmPublisher {
  constructor(
    private readonly legacy: AlarmPublisher,
    private readonly deps: AlertRoutingDeps,
  ) {}

  async publish(alarm: Alarm): Promise<boolean> {
    const legacy = await this.legacy.publish(alarm);
    try {
      await recordAlarm(this.deps, alarm);
      return legacy;
    } catch (err) {
      this.deps.logger.error('alert not recorded', {
        jobId: alarm.job.id,
        kind: alarm.kind ?? 'runFailed',
        error: err instanceof Error ? err.message : String(err),
      });
      return false;
    }
  }
}
