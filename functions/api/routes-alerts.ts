import { API } from '@tickring/api/contract';
import { created, noContent, ok } from '@tickring/api/http';
import type { Alert, AlertChannelView, AlertMessageProgress, AlertSilence } from '@tickring/core/alerts';
import {
  type AdminAlertsDeps,
  createAlertChannel,
  createAlertSilence,
  deleteAlertChannel,
  deleteAlertSilence,
  listAlertChannels,
  testAlertChannel,
  updateAlertChannel,
} from '@tickring/core/alerts/use-cases';
import type { Caller, GuardedRouter } from './authorize.js';
import { iso } from './views.js';

/** Alerting: channels and silences (admin), the history. Each handler calls one use-case or store read. */
export function addAlertRoutes(r: GuardedRouter, deps: AdminAlertsDeps): void {
  r.route(API.listAlertChannels, async () => ok({ items: (await listAlertChannels(deps)).map(channelView) }))
    .route(API.createAlertChannel, async (req, caller) =>
      created(channelView(await createAlertChannel(deps, req.body, by(caller)))),
    )
    .route(API.updateAlertChannel, async (req) =>
      ok(channelView(await updateAlertChannel(deps, req.params.id, req.body))),
    )
    .route(API.testAlertChannel, async (req, caller) => {
      const result = await testAlertChannel(deps, req.params.id, by(caller));
      return ok({ ...result, at: iso(result.at) });
    })
    .route(API.deleteAlertChannel, async (req) => noContent(await deleteAlertChannel(deps, req.params.id)))
    .route(API.listAlertSilences, async () =>
      ok({ items: (await deps.alerts.listSilences()).map(silenceView) }),
    )
    .route(API.createAlertSilence, async (req, caller) =>
      created(silenceView(await createAlertSilence(deps, req.body, by(caller)))),
    )
    .route(API.deleteAlertSilence, async (req) => noContent(await deleteAlertSilence(deps, req.params.id)))
    .route(API.listAlerts, async ({ query }) => {
      const page = await deps.alerts.listAlerts({
        ...(query.jobId === undefined ? {} : { jobId: query.jobId }),
        ...(query.kind === undefined ? {} : { kind: query.kind }),
        ...(query.state === undefined ? {} : { state: query.state }),
        ...(query.from === undefined ? {} : { from: Date.parse(query.from) }),
        ...(query.to === undefined ? {} : { to: Date.parse(query.to) }),
        limit: query.limit,
        ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
      });
      return ok({ items: page.items.map(alertView), nextCursor: page.nextCursor ?? null });
    });
}

const by = (caller: Caller) => caller.principal?.name ?? 'anonymous';

export function channelView(channel: AlertChannelView) {
  return { ...channel, createdAt: iso(channel.createdAt), updatedAt: iso(channel.updatedAt) };
}

export function silenceView(silence: AlertSilence) {
  return { ...silence, from: iso(silence.from), to: iso(silence.to), createdAt: iso(silence.createdAt) };
}

/**
 * An alert as the API shows it: times as ISO-8601 UTC, the sweep's bookkeeping left out, and of
 * the job's own path only its messages (not the job's alarm addresses it keeps).
 */
export function alertView(alert: Alert) {
  const {
    windowStart: _w,
    channelIds: _c,
    summaryQueued: _s,
    dueAt: _d,
    revision: _r,
    legacy,
    ...rest
  } = alert;
  return {
    ...rest,
    firstAt: iso(alert.firstAt),
    lastAt: iso(alert.lastAt),
    windowEnd: iso(alert.windowEnd),
    deliveries: alert.deliveries.map(messageView),
    ...(legacy
      ? {
          legacy: {
            first: messageView(legacy.first),
            ...(legacy.summary ? { summary: messageView(legacy.summary) } : {}),
          },
        }
      : {}),
  };
}

function messageView<M extends AlertMessageProgress>(message: M) {
  return {
    ...message,
    attempts: message.attempts.map((a) => ({ ...a, at: iso(a.at) })),
    ...(message.nextAttemptAt === undefined ? {} : { nextAttemptAt: iso(message.nextAttemptAt) }),
  };
}
