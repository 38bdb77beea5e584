import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpAlertSender } from '@tickring/aws/sns';
import { createAlertChannel, driveAlertDeliveries, recordAlarm } from '@tickring/core/alerts/use-cases';
import { silentLogger } from '@tickring/core/common';
import { AesGcmSecretSealer } from '@tickring/core/executors';
import { FakeClock, MemoryAlertStore } from '@tickring/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const SECRET = 'a-webhook-secret-of-32-characters';
const T0 = Date.UTC(2030, 0, 1, 10, 2, 0);

interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A real HTTP receiver: records each POST and answers the scripted status of its path (200 when none is left). */
function receiver(script: Record<string, number[]>) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = script[path]?.shift() ?? 200;
      res.end();
    });
  });
  return { server, received };
}

/** The check a receiver makes: `t=<s>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the shared secret. */
function signatureValid(header: string | string[] | undefined, body: string, secret: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(header));
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
}

describe('alert delivery to a real HTTP receiver', () => {
  let http: ReturnType<typeof receiver>;
  let base: string;
  beforeEach(async () => {
    http = receiver({ '/hook': [500] });
    await new Promise<void>((r) => http.server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((r) => http.server.close(() => r())));

  it('signs webhook bodies with the channel secret, retries a 500 under the same idempotency key, and posts Slack JSON', async () => {
    const clock = new FakeClock(T0);
    const alerts = new MemoryAlertStore();
    const sealer = new AesGcmSecretSealer(async () => 'the-token-key');
    const admin = { alerts, sealer, clock };
    const hook = await createAlertChannel(
      admin,
      {
        name: 'ops',
        kind: 'webhook',
        url: `${base}/hook`,
        secret: SECRET,
        bodyTemplate: '{"job":{{ job.id }},"text":"{{ text }}"}',
      },
      'ana',
    );
    const slack = await createAlertChannel(
      admin,
      { name: 'chat', kind: 'slack', url: `${base}/slack` },
      'ana',
    );
    expect(hook).toMatchObject({ signed: true });
    expect(JSON.stringify(hook)).not.toContain(SECRET);
    expect(JSON.stringify([...alerts.channels.values()])).not.toContain(SECRET);

    await recordAlarm(
      { alerts, clock, logger: silentLogger, groups: { get: async () => undefined } },
      {
        job: {
          id: 7,
          name: 'nightly',
          appName: 'orders',
          alarmEmail: '',
          alarmWebhook: '',
          alertChannels: [hook.id, slack.id],
        },
        summary: 'job 7 failed: exit 1',
      },
    );
    const result = await driveAlertDeliveries(
      {
        alerts,
        sealer,
        clock,
        logger: silentLogger,
        sender: httpAlertSender({ email: async () => {} }),
        sleep: (ms) => clock.sleep(ms),
      },
      T0 + 55_000,
    );

    expect(result).toEqual({ attempts: 3, delivered: 2, failed: 0 });
    const hooks = http.received.filter((r) => r.path === '/hook');
    expect(hooks).toHaveLength(2);
    for (const post of hooks) {
      expect(signatureValid(post.headers['x-tickring-signature'], post.body, SECRET)).toBe(true);
      expect(
        signatureValid(post.headers['x-tickring-signature'], post.body, 'another-secret-of-some-length'),
      ).toBe(false);
      expect(JSON.parse(post.body)).toEqual({ job: 7, text: 'job 7 failed: exit 1' });
    }
    expect(hooks[0]!.headers['idempotency-key']).toBe(hooks[1]!.headers['idempotency-key']);
    const [slackPost] = http.received.filter((r) => r.path === '/slack');
    expect(slackPost!.headers['x-tickring-signature']).toBeUndefined();
    expect(JSON.parse(slackPost!.body)).toMatchObject({
      text: 'job 7 failed: exit 1',
      blocks: [{ type: 'section' }, { type: 'context' }],
    });
    const [stored] = alerts.alerts.values();
    expect(stored!.deliveries.map((d) => [d.state, d.attempts.map((a) => a.status)])).toEqual([
      ['delivered', [500, 200]],
      ['delivered', [200]],
    ]);
  });
});
