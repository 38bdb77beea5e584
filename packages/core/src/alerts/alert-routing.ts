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
  type AlertWorkflow,
  afterAttempt,
  alertIdOf,
  type DeliveryAttempt,
  LEGACY_CLAIM_MS,
  type LegacyAlarmPath,
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

/** What an alert keeps of a workflow alarm: the workflow and its run (the failed nodes are in the summary). */
function workflowOf(workflow: NonNullable<Alarm['workflow']>): AlertWorkflow {
  return {
    id: workflow.id,
    name: workflow.name,
    ...(workflow.runId === undefined ? {} : { runId: workflow.runId }),
  };
}

/**
 * Records an alarm as an alert: the first of its (job, kind) condition in the window is routed to
 * the job's (or its group's) channels, or silenced; later ones only count. Writes only the alert
 * (the outbox); the monitors' sweep delivers it, so the callback path never waits on a receiver.
 */
export async function recordAlarm(deps: AlertRoutingDeps, alarm: Alarm): Promise<Alert> {
  return (await record(deps, alarm, false)).alert;
}

interface Recorded {
  readonly alert: Alert;
  /** This alarm took the job's own path's first message of the window: its caller sends it. */
  readonly legacyTaken: boolean;
}

/** The job's own path's first message may be sent now: pending, and nobody holds it. */
function legacyFirstDue(legacy: LegacyAlarmPath | undefined, now: number): legacy is LegacyAlarmPath {
  return legacy?.first.state === 'pending' && (legacy.first.nextAttemptAt ?? 0) <= now;
}

/** Held by a publisher for LEGACY_CLAIM_MS: taken in the same conditional write that counts the alarm. */
function heldBy(legacy: LegacyAlarmPath, now: number): LegacyAlarmPath {
  return { ...legacy, first: { ...legacy.first, nextAttemptAt: now + LEGACY_CLAIM_MS } };
}

async function record(deps: AlertRoutingDeps, alarm: Alarm, withLegacy: boolean): Promise<Recorded> {
  const kind = alarm.kind ?? 'runFailed';
  const now = deps.clock.now();
  const windowMs = deps.windowMs ?? ALERT_WINDOW_MS;
  const windowStart = windowStartOf(now, windowMs);
  const id = alertIdOf(alarm.job.id, kind, windowStart);
  for (let i = 0; ; i++) {
    try {
      const existing = await deps.alerts.getAlert(id);
      if (existing) {
        const take = withLegacy && legacyFirstDue(existing.legacy, now);
        const next = withDueAt({
          ...existing,
          count: existing.count + 1,
          lastAt: now,
          ...(take && existing.legacy ? { legacy: heldBy(existing.legacy, now) } : {}),
          revision: existing.revision + 1,
        });
        await deps.alerts.updateAlert(next, existing.revision);
        return { alert: next, legacyTaken: take };
      }
      const job = alarm.job as Alarm['job'] & { readonly alertChannels?: readonly string[] };
      const group = job.alertChannels ? undefined : await deps.groups.get(job.appName);
      const channelIds = channelsFor(job, group);
      const silence = (await deps.alerts.listSilences()).find((s) =>
        silenceMatches(s, { jobId: job.id, appName: job.appName, kind }, now),
      );
      const state = silence ? 'silenced' : channelIds.length === 0 ? 'unrouted' : 'sent';
      const onLegacyPath = withLegacy && state !== 'silenced';
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
        ...(alarm.workflow ? { workflow: workflowOf(alarm.workflow) } : {}),
        state,
        ...(silence ? { silenceId: silence.id } : {}),
        channelIds,
        deliveries,
        summaryQueued: false,
        // The window's first on the job's own path: held by this alarm, whose caller publishes it.
        // A silence holds it back too: the window sends nothing there, not even its count.
        ...(onLegacyPath
          ? {
              legacy: heldBy(
                {
                  alarmEmail: job.alarmEmail,
                  alarmWebhook: job.alarmWebhook,
                  first: { message: 'first', count: 1, state: 'pending', attempts: [] },
                },
                now,
              ),
            }
          : {}),
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
      return { alert, legacyTaken: onLegacyPath };
    } catch (err) {
      // Another writer counted or created it first: read again.
      if (err instanceof ConflictError && i < CONFLICT_RETRIES) continue;
      throw err;
    }
  }
}

/**
 * The alarm path with alert channels: the alarm recorded as its window's alert (for the job's or
 * its group's channels), and the job's own path (alarmEmail / alarmWebhook: `legacy`) grouped the
 * same way: only the window's first alarm is published there at once (the window's count follows
 * from the delivery sweep when it closes). A failed first publish is made again by the window's next
 * alarm past the backoff (at most 3 attempts). A window whose alert a silence matched sends nothing
 * there at all (its alarms are only counted). The alert store failing, the alarm goes to `legacy`
 * alone, as before alerts (no silence can be read then). True when the alarm was taken: recorded,
 * and the window's first on the job's own path sent (or being sent, or silenced), not given up.
 */
export class RoutingAlarmPublisher implements AlarmPublisher {
  constructor(
    private readonly legacy: AlarmPublisher,
    private readonly deps: AlertRoutingDeps,
  ) {}

  async publish(alarm: Alarm): Promise<boolean> {
    const kind = alarm.kind ?? 'runFailed';
    let recorded: Recorded;
    try {
      recorded = await record(this.deps, alarm, true);
    } catch (err) {
      this.deps.logger.error("alert not recorded: the alarm goes to the job's own path alone", {
        jobId: alarm.job.id,
        kind,
        error: err instanceof Error ? err.message : String(err),
      });
      await this.publishLegacy(alarm);
      return false;
    }
    const { alert } = recorded;
    if (!recorded.legacyTaken) return alert.legacy?.first.state !== 'failed';
    const at = this.deps.clock.now();
    const ok = await this.publishLegacy(alarm);
    await this.settleLegacyFirst(
      alert.id,
      ok ? { at, ok } : { at, ok, error: 'a channel of the job did not take it (see "alarm not delivered")' },
    );
    return ok;
  }

  private async publishLegacy(alarm: Alarm): Promise<boolean> {
    return this.legacy.publish(alarm).catch((err: unknown) => {
      this.deps.logger.error("alarm not published on the job's own path", {
        jobId: alarm.job.id,
        kind: alarm.kind ?? 'runFailed',
        error: err instanceof Error ? err.message : String(err),
      });
      return false;
    });
  }

  /** Records the first message's attempt (written at the alert's revision; a counted alarm meanwhile: read again). */
  private async settleLegacyFirst(alertId: string, attempt: DeliveryAttempt): Promise<void> {
    for (let i = 0; i <= CONFLICT_RETRIES; i++) {
      try {
        const read = await this.deps.alerts.getAlert(alertId);
        if (read?.legacy?.first.state !== 'pending') return;
        const next = withDueAt({
          ...read,
          legacy: { ...read.legacy, first: afterAttempt(read.legacy.first, attempt) },
          revision: read.revision + 1,
        });
        await this.deps.alerts.updateAlert(next, read.revision);
        return;
      } catch (err) {
        if (err instanceof ConflictError && i < CONFLICT_RETRIES) continue;
        // Not recorded: once its hold lapses, the window's next alarm publishes it again (at least once).
        this.deps.logger.error("first alarm on the job's own path not recorded", {
          alertId,
          ok: attempt.ok,
          error: err instanceof Error ? err.message : String(err),
        });
        return;
      }
    }
  }
}
