import { FakeClock, MemoryAlertStore, testAlertChannel } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../common/errors.js';
import { silentLogger } from '../common/logger.js';
import type { Group } from '../jobs/job.js';
import type { Alarm, AlarmPublisher } from '../runs/alarms.js';
import { checkAlertSilence } from './admin-alerts.js';
import { ALERT_WINDOW_MS, type Alert } from './alert.js';
import { checkAlertChannel } from './alert-channel.js';
import { type AlertSender, driveAlertDeliveries } from './alert-delivery.js';
import { alertFields, renderAlertTemplate } from './alert-message.js';
import { RoutingAlarmPublisher, recordAlarm } from './alert-routing.js';

const T0 = Date.UTC(2030, 0, 1, 10, 2, 0);

function setup(groupChannels?: string[]) {
  const clock = new FakeClock(T0);
  const alerts = new MemoryAlertStore();
  const logger = silentLogger;
  const group = { appName: 'orders', alertChannels: groupChannels } as unknown as Group;
  const deps = { alerts, clock, logger, groups: { get: async () => group } };
  return { clock, alerts, logger, deps };
}

function alarm(fields: { alertChannels?: string[]; kind?: Alarm['kind'] } = {}): Alarm {
  return {
    kind: fields.kind,
    job: {
      id: 7,
      name: 'nightly',
      appName: 'orders',
      alarmEmail: '',
      alarmWebhook: '',
      ...(fields.alertChannels ? { alertChannels: fields.alertChannels } : {}),
    },
    summary: 'job 7 failed: exit 1',
  };
}

/** A sender whose answers are scripted per call; it records every POST. */
function scriptedSender(statuses: number[]) {
  const posts: { url: string; body: string; headers: Readonly<Record<string, string>>; at: number }[] = [];
  const emails: string[] = [];
  return {
    posts,
    emails,
    sender(clock: FakeClock): AlertSender {
      return {
        async post(url, body, headers) {
          posts.push({ url, body, headers, at: clock.now() });
          return statuses.shift() ?? 200;
        },
        async email(_subject, text) {
          emails.push(text);
        },
      };
    },
  };
}

const noSealer = {
  seal: async () => 'sealed',
  open: async () => {
    throw new Error('no secret in these tests');
  },
};

describe('routing and grouping', () => {
  it('records one alert per job and kind per window, counting the repeats', async () => {
    const { deps, clock, alerts } = setup();
    await recordAlarm(deps, alarm({ alertChannels: ['a'] }));
    clock.advance(60_000);
    await recordAlarm(deps, alarm({ alertChannels: ['a'] }));
    await recordAlarm(deps, alarm({ alertChannels: ['a'], kind: 'jobPaused' }));
    const stored = [...alerts.alerts.values()];
    expect(stored.map((a) => [a.kind, a.count])).toEqual([
      ['runFailed', 2],
      ['jobPaused', 1],
    ]);
    const failed = stored[0]!;
    expect(failed.deliveries).toHaveLength(1);
    expect(failed.lastAt).toBe(T0 + 60_000);
    clock.advance(ALERT_WINDOW_MS);
    await recordAlarm(deps, alarm({ alertChannels: ['a'] }));
    expect(alerts.alerts.size).toBe(3);
  });

  it("routes to the job's channels, else its group's; [] on the job routes nowhere", async () => {
    const own = setup(['group-ch']);
    expect((await recordAlarm(own.deps, alarm({ alertChannels: ['job-ch'] }))).channelIds).toEqual([
      'job-ch',
    ]);
    const inherited = setup(['group-ch']);
    expect((await recordAlarm(inherited.deps, alarm())).channelIds).toEqual(['group-ch']);
    const none = setup(['group-ch']);
    const unrouted = await recordAlarm(none.deps, alarm({ alertChannels: [] }));
    expect([unrouted.state, unrouted.dueAt]).toEqual(['unrouted', undefined]);
  });

  it('records a silenced alert without deliveries while a matching silence lasts', async () => {
    const { deps, alerts, clock } = setup(['group-ch']);
    await alerts.createSilence({
      id: 's1',
      jobId: 7,
      ...checkAlertSilence({ jobId: 7, to: T0 + 60_000, reason: 'deploy' }, T0),
      createdBy: 'ana',
      createdAt: T0,
    });
    const silenced = await recordAlarm(deps, alarm());
    expect([silenced.state, silenced.silenceId, silenced.deliveries]).toEqual(['silenced', 's1', []]);
    clock.advance(ALERT_WINDOW_MS);
    expect((await recordAlarm(deps, alarm())).state).toBe('sent');
  });

  it('keeps the legacy alarm path and adds the alert', async () => {
    const { deps, alerts } = setup(['g']);
    const legacyAlarms: Alarm[] = [];
    const legacy: AlarmPublisher = { publish: async (a) => legacyAlarms.push(a) > 0 };
    expect(await new RoutingAlarmPublisher(legacy, deps).publish(alarm())).toBe(true);
    expect([legacyAlarms.length, alerts.alerts.size]).toEqual([1, 1]);
  });
});

describe('delivery', () => {
  async function routed(statuses: number[]) {
    const s = setup();
    await s.alerts.createChannel(
      testAlertChannel({ id: 'a', bodyTemplate: undefined, secretSealed: undefined }),
    );
    const script = scriptedSender(statuses);
    const deliveryDeps = {
      alerts: s.alerts,
      clock: s.clock,
      logger: s.logger,
      sealer: noSealer,
      sender: script.sender(s.clock),
      sleep: (ms: number) => s.clock.sleep(ms),
    };
    return { ...s, script, deliveryDeps };
  }

  it('tries three times with backoff, then records the delivery failed with every attempt', async () => {
    const { deps, deliveryDeps, script, alerts } = await routed([500, 503, 502]);
    const alert = await recordAlarm(deps, alarm({ alertChannels: ['a'] }));
    const result = await driveAlertDeliveries(deliveryDeps, T0 + 55_000);
    expect(result).toEqual({ attempts: 3, delivered: 0, failed: 1 });
    expect(script.posts.map((p) => p.at - T0)).toEqual([0, 10_000, 40_000]);
    const [delivery] = (await alerts.getAlert(alert.id))!.deliveries;
    expect(delivery?.state).toBe('failed');
    expect(delivery?.attempts.map((a) => a.status)).toEqual([500, 503, 502]);
    expect(new Set(script.posts.map((p) => p.headers['idempotency-key'])).size).toBe(1);
  });

  it('delivers on a later attempt and leaves nothing due', async () => {
    const { deps, deliveryDeps, alerts } = await routed([500, 200]);
    const alert = await recordAlarm(deps, alarm({ alertChannels: ['a'] }));
    expect(await driveAlertDeliveries(deliveryDeps, T0 + 55_000)).toEqual({
      attempts: 2,
      delivered: 1,
      failed: 0,
    });
    const stored = (await alerts.getAlert(alert.id))!;
    expect([stored.deliveries[0]?.state, stored.dueAt]).toEqual(['delivered', undefined]);
  });

  it("sends the window's count once the window closes, instead of one message per alarm", async () => {
    const { deps, deliveryDeps, script, clock } = await routed([]);
    await recordAlarm(deps, alarm({ alertChannels: ['a'] }));
    await driveAlertDeliveries(deliveryDeps, clock.now() + 1);
    for (let i = 0; i < 2; i++) {
      clock.advance(60_000);
      await recordAlarm(deps, alarm({ alertChannels: ['a'] }));
      await driveAlertDeliveries(deliveryDeps, clock.now() + 1);
    }
    expect(script.posts).toHaveLength(1);
    clock.advance(ALERT_WINDOW_MS);
    await driveAlertDeliveries(deliveryDeps, clock.now() + 1);
    expect(script.posts).toHaveLength(2);
    const summary = JSON.parse(script.posts[1]!.body);
    expect(summary.alert).toMatchObject({ message: 'summary', count: 3 });
    expect(summary.text).toBe(
      '3 runFailed alarms of job 7 (nightly) since 2030-01-01T10:02:00.000Z; the first: job 7 failed: exit 1',
    );
  });

  it('records a missing channel as a failed attempt rather than dropping the alert', async () => {
    const { deps, deliveryDeps, alerts } = await routed([]);
    const alert = await recordAlarm(deps, alarm({ alertChannels: ['gone'] }));
    await driveAlertDeliveries(deliveryDeps, T0 + 55_000);
    const [delivery] = (await alerts.getAlert(alert.id))!.deliveries;
    expect(delivery?.attempts.map((a) => a.error)).toEqual(Array(3).fill('channel gone does not exist'));
  });
});

describe('checks and templates', () => {
  it('names every problem of a channel at once and never repeats the secret', () => {
    const err = (() => {
      try {
        checkAlertChannel({
          name: '',
          kind: 'slack',
          url: 'ftp://x',
          secret: 'short-secret',
          bodyTemplate: '{{',
        });
      } catch (e) {
        return e as RequestValidationError;
      }
      throw new Error('accepted');
    })();
    expect(err).toBeInstanceOf(RequestValidationError);
    expect(err.problems.map((p) => p.field)).toEqual(['name', 'url', 'bodyTemplate', 'secret']);
    expect(err.message).not.toContain('short-secret');
  });

  it('names every problem of a silence at once', () => {
    expect(() => checkAlertSilence({ kind: 'nope', to: 'soon', reason: '' }, T0)).toThrow(
      /kind must be one of .*; to must be an ISO-8601 instant or epoch ms; reason must be 1 to 500 characters/,
    );
  });

  it('fills a body template from the alert fields and names a missing field', () => {
    const alert = {
      id: 'x',
      jobId: 7,
      jobName: 'n',
      appName: 'orders',
      kind: 'runFailed',
      firstAt: T0,
      lastAt: T0,
      windowEnd: T0,
      summary: 's',
      count: 1,
    } as Alert;
    const fields = alertFields(alert, { message: 'first', count: 1 });
    expect(renderAlertTemplate('{"job":{{ job.id }},"t":"{{ alert.kind }}"}', fields)).toEqual({
      ok: '{"job":7,"t":"runFailed"}',
    });
    expect(renderAlertTemplate('{{ job.constructor }}', fields)).toEqual({
      error: 'job.constructor is not a field of the alert',
    });
  });
});
