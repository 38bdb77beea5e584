import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type LocalStack, startLocal } from '../../local/start-local.js';
import { callApi, type ApiReply as Reply } from '../../test/api-call.js';
import { CHEAP_PASSWORD_HASHING } from '../../test/password-hashing.js';

/**
 * The audit log end to end: changes made through the API by a user and a token, each written once
 * with who, from where, what and the changed fields; refused requests write nothing; secrets never
 * appear.
 */

const suffix = randomUUID().slice(0, 8);
const APP = `audit-app-${suffix}`;
const PASSWORD = 'operator passphrase 42';
const AGENT = 'audit-trail-test/1.0';

let stack: LocalStack;
let operator: string;
let viewer: string;
const operatorName = `op-${suffix}`;

function call(method: string, path: string, body?: unknown, token = stack.tokens.adminToken): Promise<Reply> {
  return callApi(stack.urls.api, method, path, body, { token, headers: { 'user-agent': AGENT } });
}

async function records(query: string): Promise<Reply['body'][]> {
  const reply = await call('GET', `/v1/audit?${query}`);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.items;
}

beforeAll(async () => {
  stack = await startLocal({
    standIns: inject('standIns'),
    port: 0,
    inMemory: true,
    logLevel: 'silent',
    resourcePrefix: `audit-${suffix}-`,
    demo: false,
    tickPeriodMs: 3_600_000,
    settings: CHEAP_PASSWORD_HASHING,
  });
  expect(
    (await call('POST', '/v1/groups', { appName: APP, title: 'audit', addressType: 'AUTO' })).status,
  ).toBe(201);
  for (const [username, role] of [
    [operatorName, 'operator'],
    [`viewer-${suffix}`, 'viewer'],
  ] as const) {
    const created = await call('POST', '/v1/users', { username, password: PASSWORD, role, groups: [APP] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
  const signIn = async (username: string) =>
    (await call('POST', '/v1/sessions', { username, password: PASSWORD })).body.token as string;
  operator = await signIn(operatorName);
  viewer = await signIn(`viewer-${suffix}`);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

describe('the audit log', () => {
  let jobId: number;

  it('records a job created and edited by a user: who, from where, and the changed fields', async () => {
    const created = await call(
      'POST',
      '/v1/jobs',
      {
        appName: APP,
        name: 'nightly',
        author: 'ops',
        executorHandler: 'report',
        scheduleType: 'CRON',
        scheduleConf: '0 0 2 * * ?',
      },
      operator,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    jobId = created.body.id;
    const edited = await call('PUT', `/v1/jobs/${jobId}`, { scheduleConf: '0 30 2 * * ?' }, operator);
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);

    const [update, create, ...more] = await records(`target=job%23${jobId}`);
    expect(more).toEqual([]);
    expect(create).toMatchObject({
      action: 'job.create',
      target: `job#${jobId}`,
      appName: APP,
      actor: { kind: 'session', name: operatorName },
      source: { ip: expect.any(String), userAgent: AGENT },
    });
    expect(create.changes.scheduleConf).toEqual({ after: '0 0 2 * * ?' });
    expect(update).toMatchObject({ action: 'job.update', target: `job#${jobId}`, appName: APP });
    expect(update.changes.scheduleConf).toEqual({ before: '0 0 2 * * ?', after: '0 30 2 * * ?' });
    expect(update.changes.name).toBeUndefined(); // unchanged fields are not listed
    expect(Date.parse(update.at)).toBeGreaterThanOrEqual(Date.parse(create.at));
  });

  it('writes nothing for a refused request: not allowed, not valid, not found', async () => {
    const before = await records(`target=job%23${jobId}`);
    expect((await call('PUT', `/v1/jobs/${jobId}`, { author: 'viewer' }, viewer)).status).toBe(403);
    expect((await call('PUT', `/v1/jobs/${jobId}`, { executorTimeout: -1 }, operator)).status).toBe(400);
    expect((await call('POST', `/v1/jobs/${jobId}/stop`, undefined, 'trk_nobody_nothing')).status).toBe(401);
    expect((await call('DELETE', '/v1/jobs/987654321', undefined, operator)).status).toBe(404);
    expect(await records(`target=job%23${jobId}`)).toEqual(before);
    expect(await records('target=job%23987654321')).toEqual([]);
  });

  it('gives each of concurrent edits its own record', async () => {
    const authors = Array.from({ length: 8 }, (_, i) => `author-${i}`);
    const replies = await Promise.all(
      authors.map((author) => call('PUT', `/v1/jobs/${jobId}`, { author }, operator)),
    );
    expect(replies.map((r) => r.status)).toEqual(authors.map(() => 200));
    const updates = (await records(`target=job%23${jobId}&action=job.update&limit=100`)).filter(
      (r) => r.changes.author !== undefined,
    );
    expect(updates).toHaveLength(authors.length);
    expect(new Set(updates.map((r) => r.id)).size).toBe(authors.length);
    expect(new Set(updates.map((r) => r.changes.author.after))).toEqual(new Set(authors));
  });

  it('records start, stop, trigger and a user change each once, and shows no secret', async () => {
    expect((await call('POST', `/v1/jobs/${jobId}/start`, undefined, operator)).status).toBe(200);
    expect((await call('POST', `/v1/jobs/${jobId}/stop`, undefined, operator)).status).toBe(200);
    const fire = await call('POST', `/v1/jobs/${jobId}/trigger`, { executorParam: 'once' }, operator);
    expect(fire.status).toBe(202);
    const actions = (await records(`target=job%23${jobId}&limit=100`)).map((r) => r.action);
    expect(actions.filter((a) => a === 'job.start')).toHaveLength(1);
    expect(actions.filter((a) => a === 'job.stop')).toHaveLength(1);
    const [trigger] = await records(`target=job%23${jobId}&action=job.trigger`);
    expect(trigger.detail).toMatchObject({
      request: { executorParam: 'once' },
      result: { logId: fire.body.logId, logIds: fire.body.logIds },
    });

    const token = await call('POST', '/v1/tokens', {
      name: `ci-${suffix}`,
      role: 'viewer',
      groups: [APP],
      expiresInDays: 7,
    });
    expect(token.status, JSON.stringify(token.body)).toBe(201);
    const password = await call('PUT', `/v1/users/${operatorName}`, { password: 'another long passphrase' });
    expect(password.status, JSON.stringify(password.body)).toBe(200);
    const [tokenRecord] = await records(`target=token%23${token.body.id}`);
    const [userRecord] = await records(`target=user%23${operatorName}&action=user.update`);
    expect(tokenRecord).toMatchObject({ action: 'token.create', actor: { kind: 'bootstrap' } });
    expect(userRecord.changes.password).toEqual({ after: '[redacted]' });
    const everything = JSON.stringify(await records('limit=100'));
    expect(everything).not.toContain(token.body.token);
    expect(everything).not.toContain('another long passphrase');
    expect(everything).not.toContain(PASSWORD);
    expect(everything).not.toMatch(/scrypt\$/);
  });

  it('shows a viewer only the records of their groups, and no user or token records', async () => {
    const seen = await records('limit=100');
    const asViewer = await call('GET', '/v1/audit?limit=100', undefined, viewer);
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.items.length).toBeGreaterThan(0);
    expect(asViewer.body.items.every((r: { appName?: string }) => r.appName === APP)).toBe(true);
    expect(seen.some((r) => r.target.startsWith('token#'))).toBe(true);
  });
});
