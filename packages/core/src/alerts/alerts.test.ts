import { FakeClock, MemoryAlertStore, testAlertChannel } from '@tickring/testing';
import { describe, expect, it, vi } from 'vitest';
import { RequestValidationError } from '../common/errors.js';
import { silentLogger } from '../common/logger.js';
import type { Group } from '../jobs/job.js';
import type { Alarm, AlarmPublisher } from '../runs/alarms.js';
import { checkAlertSilence } from './admin-alerts.js';
import { ALERT_WINDOW_MS, type Alert, LEGACY_CLAIM_MS } from './alert.js';
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

  it("keeps a failed workflow's id, name and run on the alert of its first failed node's job", async () => {
    const { deps } = setup(['g']);
    const workflow = { id: 3, name: 'etl', runId: 'wr-1', failedNodes: ['load'] };
    const alert = await recordAlarm(deps, { ...alarm(), workflow });
    expect([alert.jobId, alert.workflow]).toEqual([7, { id: 3, name: 'etl', runId: 'wr-1' }]);
    expect((await recordAlarm(deps, alarm())).workflow).toEqual(alert.workflow);
    expect('workflow' in (await recordAlarm(deps, alarm({ kind: 'jobPaused' })))).toBe(false);
  });

  it('keeps the workflow of an alarm about the workflow itself (a missed deadline): no run to name', async () => {
    const { deps } = setup(['g']);
    const alert = await recordAlarm(deps, {
      ...alarm({ kind: 'deadlineMissed' }),
      workflow: { id: 3, name: 'etl' },
    });
    expect(alert.workflow).toEqual({ id: 3, name: 'etl' });
  });

  it('keeps the legacy alarm path and adds the alert', async () => {
    const { deps, alerts } = setup(['g']);
    const legacyAlarms: Alarm[] = [];
    const legacy: AlarmPublisher = { publish: async (a) => legacyAlarms.push(a) > 0 };
    expect(await new RoutingAlarmPublisher(legacy, deps).publish(alarm())).toBe(true);
    expect([legacyAlarms.length, alerts.alerts.size]).toEqual([1, 1]);
  });
});

describe("the job's own alarm path (alarmEmail / alarmWebhook), grouped per window", () => {
  /** A legacy publisher whose answers are scripted per call (true when none is left); it records each call's time. */
  function legacyScript(answers: Array<boolean | Promise<boolean>> = []) {
    const calls: { at: number; alarm: Alarm }[] = [];
    return {
      calls,
      publisher(clock: FakeClock): AlarmPublisher {
        return {
          publish: async (alarm) => {
            calls.push({ at: clock.now(), alarm });
            return answers.shift() ?? true;
          },
        };
      },
    };
  }

  it("publishes only the window's first alarm there at once, counting the rest; a new window starts again", async () => {
    const { deps, clock, alerts } = setup();
    const legacy = legacyScript();
    const publisher = new RoutingAlarmPublisher(legacy.publisher(clock), deps);
    for (let i = 0; i < 5; i++) {
      expect(await publisher.publish(alarm())).toBe(true);
      clock.advance(1_000);
    }
    expect(legacy.calls.map((c) => c.at - T0)).toEqual([0]);
    const [first] = alerts.alerts.values();
    expect([first?.count, first?.legacy?.first.state]).toEqual([5, 'delivered']);
    clock.advance(ALERT_WINDOW_MS);
    await publisher.publish(alarm());
    expect(legacy.calls).toHaveLength(2);
  });

  it("makes a failed first publish again with the window's next alarm past the backoff, at most 3 attempts", async () => {
    const { deps, clock, alerts } = setup();
    const legacy = legacyScript([false, false, false]);
    const publisher = new RoutingAlarmPublisher(legacy.publisher(clock), deps);
    const results: boolean[] = [];
    for (const at of [0, 5_000, 11_000, 20_000, 45_000, 100_000]) {
      clock.advance(T0 + at - clock.now());
      results.push(await publisher.publish(alarm()));
    }
    // At 0 (failed: due again at +10 s), 11 s (failed: due at +41 s), 45 s (the third: failed for good).
    expect(legacy.calls.map((c) => c.at - T0)).toEqual([0, 11_000, 45_000]);
    expect(results).toEqual([false, true, false, true, false, false]);
    const stored = [...alerts.alerts.values()][0]!;
    expect([stored.count, stored.legacy?.first.state, stored.legacy?.first.attempts.length]).toEqual([
      6,
      'failed',
      3,
    ]);
  });

  it('publishes it once when alarms of the window come at the same time', async () => {
    const { deps, clock, alerts } = setup();
    let release: (ok: boolean) => void = () => {};
    const held = new Promise<boolean>((resolve) => {
      release = resolve;
    });
    const legacy = legacyScript([held]);
    const publisher = new RoutingAlarmPublisher(legacy.publisher(clock), deps);
    const publishing = [publisher.publish(alarm()), publisher.publish(alarm()), publisher.publish(alarm())];
    await Promise.all(publishing.slice(1));
    release(true);
    expect(await Promise.all(publishing)).toEqual([true, true, true]);
    expect(legacy.calls).toHaveLength(1);
    expect([...alerts.alerts.values()].map((a) => [a.count, a.legacy?.first.state])).toEqual([
      [3, 'delivered'],
    ]);
  });

  it('sends it again once the hold of a publisher that never finished lapses (at least once)', async () => {
    const { deps, clock } = setup();
    const legacy = legacyScript([new Promise<boolean>(() => {})]);
    const publisher = new RoutingAlarmPublisher(legacy.publisher(clock), deps);
    void publisher.publish(alarm());
    await vi.waitFor(() => expect(legacy.calls).toHaveLength(1));
    clock.advance(LEGACY_CLAIM_MS - 1);
    await publisher.publish(alarm());
    expect(legacy.calls).toHaveLength(1);
    clock.advance(1);
    expect(await publisher.publish(alarm())).toBe(true);
    expect(legacy.calls).toHaveLength(2);
  });

  it('sends nothing there while a silence matches, not even the count of the window', async () => {
    const { deps, clock, alerts, logger } = setup(['group-ch']);
    await alerts.createSilence({
      id: 's1',
      ...checkAlertSilence({ jobId: 7, to: T0 + ALERT_WINDOW_MS, reason: 'maintenance' }, T0),
      createdBy: 'ana',
      createdAt: T0,
    });
    const legacy = legacyScript();
    const publisher = new RoutingAlarmPublisher(legacy.publisher(clock), deps);
    expect(await publisher.publish(alarm())).toBe(true);
    clock.advance(60_000);
    expect(await publisher.publish(alarm())).toBe(true);
    clock.advance(ALERT_WINDOW_MS);
    const sender = scriptedSender([]);
    const sweepDeps = {
      alerts,
      clock,
      logger,
      sealer: noSealer,
      sender: sender.sender(clock),
      legacy: legacy.publisher(clock),
      sleep: (ms: number) => clock.sleep(ms),
    };
    expect(await driveAlertDeliveries(sweepDeps, clock.now() + 1)).toEqual({
      attempts: 0,
      delivered: 0,
      failed: 0,
    });
    expect([legacy.calls, sender.posts]).toEqual([[], []]);
    const [silenced] = alerts.alerts.values();
    expect([silenced?.state, silenced?.count, silenced?.legacy, silenced?.dueAt]).toEqual([
      'silenced',
      2,
      undefined,
      undefined,
    ]);
    // The silence over, the job's own path gets the next alarm again.
    await publisher.publish(alarm());
    expect(legacy.calls).toHaveLength(1);
  });

  it('publishes the alarm there alone when the alert cannot be recorded, and says false', async () => {
    const { deps, clock } = setup();
    const broken = Object.assign(Object.create(deps.alerts), {
      getAlert: async () => {
        throw new Error('store down');
      },
    });
    const legacy = legacyScript();
    const publisher = new RoutingAlarmPublisher(legacy.publisher(clock), { ...deps, alerts: broken });
    expect(await publisher.publish(alarm())).toBe(false);
    expect(legacy.calls).toHaveLength(1);
  });

  it("sends the window's count there once it closes, when it counted more than one", async () => {
    const { deps, clock, alerts, logger } = setup();
    const legacy = legacyScript();
    const publisher = new RoutingAlarmPublisher(legacy.publisher(clock), deps);
    await publisher.publish(alarm());
    clock.advance(60_000);
    await publisher.publish(alarm());
    await publisher.publish(alarm({ kind: 'jobPaused' }));
    const sweepDeps = {
      alerts,
      clock,
      logger,
      sealer: noSealer,
      sender: scriptedSender([]).sender(clock),
      legacy: legacy.publisher(clock),
      sleep: (ms: number) => clock.sleep(ms),
    };
    await driveAlertDeliveries(sweepDeps, clock.now() + 1);
    expect(legacy.calls).toHaveLength(2);
    // The window (10:00 to 10:10) closes.
    clock.advance(T0 - 2 * 60_000 + ALERT_WINDOW_MS - clock.now());
    const swept = await driveAlertDeliveries(sweepDeps, clock.now() + 1);
    expect(swept).toEqual({ attempts: 1, delivered: 1, failed: 0 });
    const summary = legacy.calls[2]!.alarm;
    expect(summary).toMatchObject({
      kind: 'runFailed',
      job: { id: 7, name: 'nightly', appName: 'orders', alarmEmail: '', alarmWebhook: '' },
      window: { count: 2, firstAt: T0, lastAt: T0 + 60_000 },
      summary:
        '2 runFailed alarms of job 7 (nightly) since 2030-01-01T10:02:00.000Z; the first: job 7 failed: exit 1',
    });
    expect(legacy.calls).toHaveLength(3);
    const stored = [...alerts.alerts.values()].map((a) => [a.kind, a.legacy?.summary?.state, a.dueAt]);
    expect(stored).toEqual([
      ['runFailed', 'delivered', undefined],
      ['jobPaused', undefined, undefined],
    ]);
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
    // Not a workflow's: null, so a template naming it renders null rather than failing.
    expect(renderAlertTemplate('{{ workflow }}', fields)).toEqual({ ok: 'null' });
  });

  it("gives a body template a workflow alert's workflow and run", () => {
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
      workflow: { id: 3, name: 'etl', runId: 'wr-1' },
    } as Alert;
    const fields = alertFields(alert, { message: 'first', count: 1 });
    expect(fields.workflow).toEqual({ id: 3, name: 'etl', runId: 'wr-1' });
    expect(renderAlertTemplate('{{ workflow.name }} {{ workflow.runId }}', fields)).toEqual({
      ok: 'etl wr-1',
    });
    const deadline = alertFields(
      { ...alert, kind: 'deadlineMissed', workflow: { id: 3, name: 'etl' } },
      { message: 'first', count: 1 },
    );
    expect(deadline.workflow).toEqual({ id: 3, name: 'etl', runId: null });
  });
});
