import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedLocalStack, startLocal } from '../../local/start-local.js';
import { adminApiCaller } from '../../test/api-call.js';
import { waitFor } from '../../test/stand-ins.js';

/**
 * Alert channels through the admin API on the embedded engine (answers checked against the
 * document): a change, a test message to a real HTTP receiver, a group's default channels, the
 * channels jobs and groups name (they must exist; a named channel is not deleted), and the history:
 * by state, a silence that sends nothing anywhere, a workflow run's alert.
 */

const suffix = randomUUID().slice(0, 8);
const APP = `alerts-${suffix}`;
const SECRET = 'a-webhook-secret-of-32-characters';

let stack: EmbeddedLocalStack;
let receiver: Server;
let base: string;
const received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
/** The status each path answers next (200 when none is left). */
const script: Record<string, number[]> = {};

const call = adminApiCaller(() => stack);

/** The check a receiver makes: `t=<s>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the shared secret. */
function signatureValid(header: string | string[] | undefined, body: string, secret: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(header));
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
}

async function newWebhook(path: string, fields: Record<string, unknown> = {}): Promise<string> {
  const reply = await call('POST', '/v1/alert-channels', {
    name: `hook ${path}`,
    kind: 'webhook',
    url: `${base}${path}`,
    secret: SECRET,
    bodyTemplate: '{"kind":"{{ alert.kind }}","text":"{{ text }}"}',
    ...fields,
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body.id;
}

const jobBody = {
  appName: APP,
  name: 'nightly',
  author: 'ops',
  executorHandler: 'demoJobHandler',
};

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = script[path]?.shift() ?? 200;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  stack = await startLocal({
    store: 'sqlite',
    port: 0,
    inMemory: true,
    logLevel: 'silent',
    demo: false,
    tickPeriodMs: 3_600_000,
  });
  expect(
    (await call('POST', '/v1/groups', { appName: APP, title: 'alerts', addressType: 'AUTO' })).status,
  ).toBe(201);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
});

describe('changing a channel (PATCH /v1/alert-channels/{id})', () => {
  it('changes the fields given, keeps the secret, and is audited', async () => {
    const id = await newWebhook('/edit');
    const changed = await call('PATCH', `/v1/alert-channels/${id}`, { name: 'ops', url: `${base}/edited` });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, name: 'ops', url: `${base}/edited`, signed: true, revision: 2 });
    expect(JSON.stringify(changed.body)).not.toContain(SECRET);
    expect((await call('GET', '/v1/alert-channels')).body.items).toContainEqual(changed.body);

    const audit = await call('GET', `/v1/audit?target=${encodeURIComponent(`alertChannel#${id}`)}`);
    const update = audit.body.items.find((r: { action: string }) => r.action === 'alertChannel.update');
    expect(update?.changes).toMatchObject({
      name: { before: `hook /edit`, after: 'ops' },
      url: { before: `${base}/edit`, after: `${base}/edited` },
    });

    const rotated = await call('PATCH', `/v1/alert-channels/${id}`, {
      secret: 'another-long-random-shared-secret',
    });
    expect(rotated.status).toBe(200);
    const after = await call('GET', `/v1/audit?target=${encodeURIComponent(`alertChannel#${id}`)}`);
    expect(JSON.stringify(after.body)).not.toContain('another-long-random-shared-secret');
  });

  it('names every problem at once (400), refuses a stale revision (409) and an unknown id (404)', async () => {
    const id = await newWebhook('/problems');
    const bad = await call('PATCH', `/v1/alert-channels/${id}`, {
      kind: 'slack',
      url: 'ftp://nowhere',
      bodyTemplate: '{{',
      secret: 'short',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.problems.map((p: { field: string }) => p.field)).toEqual([
      'kind',
      'url',
      'bodyTemplate',
      'secret',
    ]);
    expect(JSON.stringify(bad.body)).not.toContain('short');
    expect((await call('PATCH', `/v1/alert-channels/${id}`, { name: 'x', revision: 7 })).status).toBe(409);
    expect((await call('PATCH', '/v1/alert-channels/no-such-channel', { name: 'x' })).status).toBe(404);
  });
});

describe('testing a channel (POST /v1/alert-channels/{id}/test)', () => {
  it('posts one signed, templated test message to the receiver at once, and records no alert', async () => {
    const id = await newWebhook('/test-ok');
    const tested = await call('POST', `/v1/alert-channels/${id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ channelId: id, kind: 'webhook', delivered: true, status: 200 });
    const [post] = received.filter((r) => r.path === '/test-ok');
    expect(signatureValid(post?.headers['x-tickring-signature'], post?.body ?? '', SECRET)).toBe(true);
    expect(JSON.parse(post?.body ?? '')).toEqual({
      kind: 'test',
      text: 'Test message from tickring to alert channel hook /test-ok, sent by bootstrap',
    });
    expect((await call('GET', '/v1/alerts')).body.items).toEqual([]);
  });

  it("answers the receiver's status when it refuses, and a slack channel's JSON", async () => {
    script['/test-refused'] = [503];
    const refusing = await newWebhook('/test-refused');
    const refused = await call('POST', `/v1/alert-channels/${refusing}/test`);
    expect(refused.body).toMatchObject({ delivered: false, status: 503, error: 'HTTP 503' });
    const slack = await call('POST', '/v1/alert-channels', {
      name: 'chat',
      kind: 'slack',
      url: `${base}/slack`,
    });
    expect((await call('POST', `/v1/alert-channels/${slack.body.id}/test`)).body.delivered).toBe(true);
    const [post] = received.filter((r) => r.path === '/slack');
    expect(JSON.parse(post?.body ?? '')).toMatchObject({
      text: expect.stringContaining('Test message from tickring'),
      blocks: [{ type: 'section' }, { type: 'context' }],
    });
    expect((await call('POST', '/v1/alert-channels/no-such-channel/test')).status).toBe(404);
  });
});

describe('the channels groups and jobs name', () => {
  it("sets a group's default channels through the group body; GET shows them; a missing one is a 400", async () => {
    const id = await newWebhook('/group');
    const missing = await call('PUT', `/v1/groups/${APP}`, { alertChannels: [id, 'gone-channel'] });
    expect(missing.status).toBe(400);
    expect(missing.body.problems).toEqual([
      {
        field: 'alertChannels',
        message: expect.stringContaining('alert channel gone-channel, which does not exist'),
      },
    ]);
    const set = await call('PUT', `/v1/groups/${APP}`, { alertChannels: [id] });
    expect(set.body.alertChannels).toEqual([id]);
    expect((await call('GET', `/v1/groups/${APP}`)).body.alertChannels).toEqual([id]);
    const created = await call('POST', '/v1/groups', {
      appName: `more-${suffix}`,
      title: 'more',
      addressType: 'AUTO',
      alertChannels: [id],
    });
    expect([created.status, created.body.alertChannels]).toEqual([201, [id]]);
    expect((await call('DELETE', `/v1/alert-channels/${id}`)).body.message).toContain(`group ${APP}`);
    await call('PUT', `/v1/groups/${APP}`, { alertChannels: null });
    expect((await call('GET', `/v1/groups/${APP}`)).body.alertChannels).toEqual([]);
  });

  it("answers a job's missing channels beside its other problems (400), and refuses to delete a named channel (409)", async () => {
    const id = await newWebhook('/job');
    const bad = await call('POST', '/v1/jobs', {
      ...jobBody,
      scheduleType: 'CRON',
      scheduleConf: 'not a cron',
      alertChannels: [id, 'gone-1', 'gone-2'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.problems).toEqual([
      { field: 'scheduleConf', message: expect.any(String) },
      { field: 'alertChannels', message: expect.stringContaining('gone-1') },
      { field: 'alertChannels', message: expect.stringContaining('gone-2') },
    ]);
    const job = await call('POST', '/v1/jobs', { ...jobBody, alertChannels: [id] });
    expect([job.status, job.body.alertChannels]).toEqual([201, [id]]);
    const refused = await call('DELETE', `/v1/alert-channels/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(`job ${job.body.id} (nightly)`);
    expect((await call('PUT', `/v1/jobs/${job.body.id}`, { alertChannels: ['gone-3'] })).status).toBe(400);
    expect((await call('PUT', `/v1/jobs/${job.body.id}`, { alertChannels: null })).status).toBe(200);
    expect((await call('DELETE', `/v1/alert-channels/${id}`)).status).toBe(204);
  });
});

describe('the alert history (GET /v1/alerts)', () => {
  /** A job whose runs fail (its group has no executor), with its own alarm webhook at `own`. */
  async function failingJob(name: string, alertChannels: string[], own: string): Promise<number> {
    const job = await call('POST', '/v1/jobs', {
      ...jobBody,
      name,
      alertChannels,
      alarmWebhook: `${base}${own}`,
    });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    return job.body.id;
  }
  // biome-ignore lint/suspicious/noExplicitAny: API bodies are read field by field
  const alertOf = async (jobId: number): Promise<any> =>
    (await call('GET', `/v1/alerts?jobId=${jobId}`)).body.items[0];

  it("filters by state; a silenced alert sends nothing, on the job's own alarm path neither", async () => {
    const channel = await newWebhook('/routed');
    const sent = await failingJob('sent', [channel], '/own-sent');
    const silenced = await failingJob('silenced', [channel], '/own-silenced');
    const unrouted = await failingJob('unrouted', [], '/own-unrouted');
    const silence = await call('POST', '/v1/alert-silences', {
      jobId: silenced,
      to: new Date(Date.now() + 3_600_000).toISOString(),
      reason: 'maintenance',
    });
    expect(silence.status).toBe(201);
    for (const id of [sent, silenced, unrouted]) {
      expect((await call('POST', `/v1/jobs/${id}/trigger`, {})).status).toBe(202);
    }
    // The job's own path publishes right after recording: once the others' went out, so would the silenced one's.
    for (const id of [sent, unrouted]) {
      await waitFor(async () => (await alertOf(id))?.legacy?.first.state === 'delivered', {
        what: `job ${id}'s own alarm delivered`,
      });
    }
    const quiet = await waitFor(() => alertOf(silenced), { what: 'the silenced alert' });
    expect(quiet).toMatchObject({ state: 'silenced', silenceId: silence.body.id, deliveries: [] });
    expect(quiet.legacy).toBeUndefined();
    expect(received.map((r) => r.path).filter((p) => p.startsWith('/own-'))).toEqual(
      expect.arrayContaining(['/own-sent', '/own-unrouted']),
    );
    expect(received.filter((r) => r.path === '/own-silenced')).toEqual([]);

    const ours = new Set([sent, silenced, unrouted]);
    const byState = async (state: string) =>
      (await call('GET', `/v1/alerts?state=${state}`)).body.items
        .filter((a: { jobId: number }) => ours.has(a.jobId))
        .map((a: { jobId: number; state: string }) => [a.jobId, a.state]);
    expect(await byState('sent')).toEqual([[sent, 'sent']]);
    expect(await byState('silenced')).toEqual([[silenced, 'silenced']]);
    expect(await byState('unrouted')).toEqual([[unrouted, 'unrouted']]);
    const bad = await call('GET', '/v1/alerts?state=lost');
    expect([bad.status, bad.body.problems?.[0]?.field]).toEqual([400, 'state']);
    await call('DELETE', `/v1/alert-silences/${silence.body.id}`);
  });

  it("keeps a failed workflow run's workflow on the alert of its failed node's job", async () => {
    const job = await call('POST', '/v1/jobs', { ...jobBody, name: 'etl step' });
    const wf = await call('POST', '/v1/workflows', {
      name: 'etl',
      appName: APP,
      nodes: [{ key: 'only', jobId: job.body.id, executorParam: '{{ input.missing }}' }],
    });
    expect(wf.status, JSON.stringify(wf.body)).toBe(201);
    const run = await call('POST', `/v1/workflows/${wf.body.id}/trigger`, { input: {} });
    expect(run.status).toBe(202);
    const alert = await waitFor(() => alertOf(job.body.id), { what: "the workflow's alert" });
    expect(alert).toMatchObject({
      kind: 'runFailed',
      workflow: { id: wf.body.id, name: 'etl', runId: run.body.id },
    });
  });
});
