import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type LocalStack, startLocal } from '../../local/start-local.js';
import { checked } from '../../test/openapi-check.js';

/** The admin API end to end: HTTP → local gateway → api handler → DynamoDB Local. */

let stack: LocalStack;
const suffix = randomUUID().slice(0, 8);
const APP = `api-app-${suffix}`;
const OTHER_APP = `api-other-${suffix}`;
const YEARLY = '0 0 0 1 1 ?';

interface Reply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are read field by field
  body: any;
}

async function call(
  method: string,
  path: string,
  body?: unknown,
  init: { headers?: Record<string, string>; rawBody?: string; auth?: boolean } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.auth !== false && !('authorization' in headers))
    headers.authorization = `Bearer ${stack.tokens.adminToken}`;
  if (body !== undefined || init.rawBody !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${stack.urls.api}${path}`, {
    method,
    headers,
    body: init.rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  return checked(method, path, {
    status: res.status,
    headers: res.headers,
    body: text ? JSON.parse(text) : undefined,
  });
}

function expectError(reply: Reply, status: number, error: string, field?: string): void {
  expect({ status: reply.status, error: reply.body?.error }).toEqual({ status, error });
  expect(typeof reply.body.message).toBe('string');
  if (field) {
    expect(reply.body.field).toBe(field);
    expect(reply.body.message).toContain(field);
  }
}

const baseJob = { appName: APP, name: 'report', author: 'ops', executorHandler: 'demoJobHandler' };

async function createJob(fields: Record<string, unknown> = {}): Promise<Reply['body']> {
  const reply = await call('POST', '/v1/jobs', { ...baseJob, ...fields });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

beforeAll(async () => {
  stack = await startLocal({
    standIns: inject('standIns'),
    port: 0,
    inMemory: true,
    demo: false,
    logLevel: 'silent',
    resourcePrefix: `api-${suffix}-`,
    tickPeriodMs: 3_600_000,
  });
  expect(
    (await call('POST', '/v1/groups', { appName: APP, title: 'API tests', addressType: 'AUTO' })).status,
  ).toBe(201);
});

afterAll(async () => {
  await stack?.stop();
});

describe('authentication', () => {
  it('answers 401 without an Authorization header', async () => {
    expectError(await call('GET', '/v1/jobs', undefined, { auth: false }), 401, 'UnauthorizedError');
  });

  it('answers 401 for a wrong token', async () => {
    const reply = await call('GET', '/v1/jobs', undefined, {
      headers: { authorization: 'Bearer wrong-token' },
    });
    expectError(reply, 401, 'UnauthorizedError');
    expect(reply.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('answers 401 for a scheme other than Bearer', async () => {
    const basic = `Basic ${Buffer.from(`admin:${stack.tokens.adminToken}`).toString('base64')}`;
    expectError(
      await call('GET', '/v1/jobs', undefined, { headers: { authorization: basic } }),
      401,
      'UnauthorizedError',
    );
    const bare = stack.tokens.adminToken;
    expectError(
      await call('GET', '/v1/jobs', undefined, { headers: { authorization: bare } }),
      401,
      'UnauthorizedError',
    );
  });

  it('answers 401 before revealing whether a route exists', async () => {
    expectError(await call('GET', '/v1/no-such-route', undefined, { auth: false }), 401, 'UnauthorizedError');
  });

  it('guards every route', async () => {
    const routes = [
      ['GET', '/v1/groups'],
      ['POST', '/v1/groups'],
      ['GET', `/v1/groups/${APP}`],
      ['PUT', `/v1/groups/${APP}`],
      ['DELETE', `/v1/groups/${APP}`],
      ['GET', '/v1/jobs'],
      ['POST', '/v1/jobs'],
      ['GET', '/v1/jobs/1'],
      ['PUT', '/v1/jobs/1'],
      ['DELETE', '/v1/jobs/1'],
      ['POST', '/v1/jobs/1/start'],
      ['POST', '/v1/jobs/1/stop'],
      ['GET', '/v1/schedule/preview?scheduleType=NONE'],
    ] as const;
    for (const [method, path] of routes) {
      const reply = await call(method, path, method === 'POST' || method === 'PUT' ? {} : undefined, {
        auth: false,
      });
      expect(reply.status, `${method} ${path}`).toBe(401);
    }
  });
});

describe('sign-in options', () => {
  it('tell anyone, without a token, whether passwords can sign in: only while a user who is not disabled exists', async () => {
    const options = (init = {}) => call('GET', '/v1/sign-in-options', undefined, { auth: false, ...init });
    // A fresh deployment: no users yet, only tokens work.
    expect(await options()).toMatchObject({ status: 200, body: { passwords: false } });
    const username = `signin-${suffix}`;
    const created = await call('POST', '/v1/users', {
      username,
      password: 'a long enough passphrase 1',
      role: 'viewer',
      groups: '*',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const enabled = await options();
    expect(enabled.status).toBe(200);
    expect(enabled.body).toEqual({ passwords: true });
    // A wrong token does not matter on a public route.
    expect((await options({ headers: { authorization: 'Bearer nope' } })).body).toEqual({ passwords: true });

    expect((await call('PUT', `/v1/users/${username}`, { disabled: true })).status).toBe(200);
    expect((await options()).body).toEqual({ passwords: false });
    expect((await call('DELETE', `/v1/users/${username}`)).status).toBe(204);
    expect((await options()).body).toEqual({ passwords: false });
  });
});

describe('routing', () => {
  it('answers 404 for an unknown route', async () => {
    expectError(await call('GET', '/v1/no-such-route'), 404, 'NotFoundError');
  });

  it('answers 400 listing every problem of a request before any use-case runs', async () => {
    const reply = await call('GET', '/v1/logs?limit=ten&status=done&jobId=0');
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      error: 'ValidationError',
      message:
        'jobId must be an integer >= 1; got 0; status must be one of running, success, fail, skipped; got "done"; limit must be an integer between 1 and 100; got "ten"',
      field: 'jobId',
      problems: [
        { field: 'jobId', message: 'jobId must be an integer >= 1; got 0' },
        { field: 'status', message: 'status must be one of running, success, fail, skipped; got "done"' },
        { field: 'limit', message: 'limit must be an integer between 1 and 100; got "ten"' },
      ],
    });
  });

  it('answers 405 for another method on the open document, once the token is good', async () => {
    expect((await call('POST', '/v1/openapi.json', {}, { auth: false })).status).toBe(401);
    expectError(await call('POST', '/v1/openapi.json', {}), 405, 'MethodNotAllowedError');
  });

  it('answers 405 with Allow for a method the route does not take', async () => {
    const reply = await call('PATCH', '/v1/jobs/1', {});
    expectError(reply, 405, 'MethodNotAllowedError');
    expect(reply.headers.get('allow')).toBe('GET, PUT, DELETE');
  });

  it('answers 400 for a malformed JSON body', async () => {
    expectError(
      await call('POST', '/v1/jobs', undefined, { rawBody: '{"name": ' }),
      400,
      'ValidationError',
      'body',
    );
  });

  it('answers 400 for a body that is not an object', async () => {
    expectError(await call('POST', '/v1/jobs', [1, 2]), 400, 'ValidationError', 'body');
    expectError(await call('POST', '/v1/groups'), 400, 'ValidationError', 'body');
  });
});

describe('groups', () => {
  const manual = (appName: string) => ({
    appName,
    title: 'Manual group',
    addressType: 'MANUAL',
    addressList: ['http://127.0.0.1:9999', 'https://exec.example.com/'],
  });

  it('creates a MANUAL group (201) and reads it back', async () => {
    const appName = `man-${suffix}`;
    const reply = await call('POST', '/v1/groups', manual(appName));
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      appName,
      title: 'Manual group',
      addressType: 'MANUAL',
      addressList: ['http://127.0.0.1:9999/', 'https://exec.example.com/'],
    });
    expect(new Date(reply.body.createdAt).toISOString()).toBe(reply.body.createdAt);
    const got = await call('GET', `/v1/groups/${appName}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(reply.body);
  });

  it('lists groups as {items}', async () => {
    const reply = await call('GET', '/v1/groups');
    expect(reply.status).toBe(200);
    expect(reply.body.items.map((g: { appName: string }) => g.appName)).toContain(APP);
  });

  it('answers 409 for an appName that exists', async () => {
    const reply = await call('POST', '/v1/groups', { appName: APP, title: 'again', addressType: 'AUTO' });
    expectError(reply, 409, 'ConflictError');
  });

  it('answers 404 for a group that does not exist', async () => {
    expectError(await call('GET', `/v1/groups/none-${suffix}`), 404, 'NotFoundError');
    expectError(await call('PUT', `/v1/groups/none-${suffix}`, { title: 'x' }), 404, 'NotFoundError');
    expectError(await call('DELETE', `/v1/groups/none-${suffix}`), 404, 'NotFoundError');
  });

  it.each([
    ['an appName shorter than 4', { appName: 'abc' }, 'appName'],
    ['an appName longer than 64', { appName: 'a'.repeat(65) }, 'appName'],
    ['an appName with spaces', { appName: 'my app' }, 'appName'],
    ['a missing title', { title: undefined }, 'title'],
    ['a title longer than 64', { title: 't'.repeat(65) }, 'title'],
    ['an unknown addressType', { addressType: 'STATIC' }, 'addressType'],
    ['a MANUAL group without addresses', { addressList: [] }, 'addressList'],
    ['an address that is not http(s)', { addressList: ['tcp://10.0.0.1:9999'] }, 'addressList'],
    ['an AUTO group with addresses', { addressType: 'AUTO' }, 'addressList'],
    ['an unknown field', { adressList: [] }, 'adressList'],
  ])('answers 400 for %s', async (_label, change, field) => {
    const reply = await call('POST', '/v1/groups', { ...manual(`bad-${suffix}`), ...change });
    expectError(reply, 400, 'ValidationError', field);
  });

  it('updates the given fields and refuses a rename', async () => {
    const appName = `upd-${suffix}`;
    const before = (await call('POST', '/v1/groups', manual(appName))).body;
    const reply = await call('PUT', `/v1/groups/${appName}`, { title: 'Renamed title' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ appName, title: 'Renamed title', addressList: before.addressList });
    expect(reply.body.createdAt).toBe(before.createdAt);
    expectError(
      await call('PUT', `/v1/groups/${appName}`, { appName: `x-${appName}` }),
      400,
      'ValidationError',
      'appName',
    );
    const auto = await call('PUT', `/v1/groups/${appName}`, { addressType: 'AUTO' });
    expect(auto.body).toMatchObject({ addressType: 'AUTO', addressList: [] });
  });

  it('refuses to delete a group that jobs use (409), and deletes an unused one (204)', async () => {
    const appName = `del-${suffix}`;
    await call('POST', '/v1/groups', { appName, title: 'to delete', addressType: 'AUTO' });
    const job = await createJob({ appName });
    expectError(await call('DELETE', `/v1/groups/${appName}`), 409, 'ConflictError');
    expect((await call('DELETE', `/v1/jobs/${job.id}`)).status).toBe(204);
    const deleted = await call('DELETE', `/v1/groups/${appName}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expectError(await call('GET', `/v1/groups/${appName}`), 404, 'NotFoundError');
  });

  it("lists an AUTO group's online executors as its addressList, and takes the group back in an edit", async () => {
    const appName = `auto-${suffix}`;
    expect(
      (await call('POST', '/v1/groups', { appName, title: 'Auto', addressType: 'AUTO' })).body.addressList,
    ).toEqual([]);
    const registry = await fetch(`${stack.urls.api}/api/registry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'XXL-JOB-ACCESS-TOKEN': stack.tokens.accessToken },
      body: JSON.stringify({
        registryGroup: 'EXECUTOR',
        registryKey: appName,
        registryValue: 'http://10.1.2.3:9999/',
      }),
    });
    expect(await registry.json()).toEqual({ code: 200 });
    const shown = await call('GET', `/v1/groups/${appName}`);
    expect(shown.body.addressList).toEqual(['http://10.1.2.3:9999/']);
    const listed = await call('GET', '/v1/groups');
    expect(listed.body.items.find((g: { appName: string }) => g.appName === appName).addressList).toEqual([
      'http://10.1.2.3:9999/',
    ]);
    const edited = await call('PUT', `/v1/groups/${appName}`, { ...shown.body, title: 'Auto, renamed' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Auto, renamed', addressList: ['http://10.1.2.3:9999/'] });
  });

  it("takes XXL-JOB's comma-separated addressList", async () => {
    const reply = await call('POST', '/v1/groups', {
      appName: `csv-${suffix}`,
      title: 'CSV',
      addressType: 'MANUAL',
      addressList: 'http://10.0.0.1:9999,http://10.0.0.2:9999',
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(reply.body.addressList).toEqual(['http://10.0.0.1:9999/', 'http://10.0.0.2:9999/']);
  });
});

describe('jobs: create and read', () => {
  it('creates a job with an integer id and XXL-JOB defaults (201)', async () => {
    const before = Date.now();
    const job = await createJob();
    expect(Number.isInteger(job.id) && job.id > 0).toBe(true);
    expect(job).toMatchObject({
      ...baseJob,
      alarmEmail: '',
      alarmWebhook: '',
      scheduleType: 'NONE',
      scheduleConf: '',
      timeZone: 'UTC',
      misfireStrategy: 'DO_NOTHING',
      executorRouteStrategy: 'FIRST',
      executorParam: '',
      executorBlockStrategy: 'SERIAL_EXECUTION',
      executorTimeout: 0,
      executorFailRetryCount: 0,
      retryBackoffSeconds: 10,
      glueType: 'BEAN',
      glueSource: '',
      childJobIds: [],
      triggerStatus: 'STOPPED',
      triggerNextTime: null,
      triggerLastTime: null,
      version: 1,
    });
    expect(job).not.toHaveProperty('slowUntil');
    for (const field of ['createdAt', 'updatedAt', 'glueUpdatetime']) {
      expect(Date.parse(job[field])).toBeGreaterThanOrEqual(before - 1000);
      expect(job[field]).toMatch(/Z$/);
    }
    const got = await call('GET', `/v1/jobs/${job.id}`);
    expect(got.status).toBe(200);
    // One job's GET adds where it stands against its deadline (null without one) and what its
    // history costs to keep (a NONE schedule makes no fire: nothing kept).
    const { deadlineStatus, retention, ...same } = got.body;
    expect(same).toEqual(job);
    expect(deadlineStatus).toBeNull();
    expect(retention).toMatchObject({ days: 30, estimatedRecords: 0 });
  });

  it('allocates distinct ids', async () => {
    const a = await createJob();
    const b = await createJob();
    expect(b.id).not.toBe(a.id);
  });

  it('starts a job created RUNNING: triggerNextTime is its first fire after now + 5 s', async () => {
    const now = Date.now();
    const job = await createJob({
      scheduleType: 'CRON',
      scheduleConf: '* * * * * ?',
      triggerStatus: 'RUNNING',
    });
    expect(job.triggerStatus).toBe('RUNNING');
    const next = Date.parse(job.triggerNextTime);
    expect(next).toBeGreaterThan(now + 5_000);
    expect(next).toBeLessThan(now + 10_000);
    await call('POST', `/v1/jobs/${job.id}/stop`);
  });

  it('refuses to create a RUNNING job whose schedule is NONE', async () => {
    const reply = await call('POST', '/v1/jobs', { ...baseJob, triggerStatus: 'RUNNING' });
    expectError(reply, 400, 'ValidationError', 'scheduleType');
    expect(reply.body.message).toContain('NONE cannot be started');
  });

  it('answers 400 for a non-numeric id and 404 for a missing job', async () => {
    expectError(await call('GET', '/v1/jobs/abc'), 400, 'ValidationError', 'id');
    expectError(await call('GET', '/v1/jobs/0'), 400, 'ValidationError', 'id');
    expectError(await call('GET', '/v1/jobs/99999999'), 404, 'NotFoundError');
  });
});

describe('jobs: validation', () => {
  it.each([
    ['an unknown scheduleType', { scheduleType: 'HOURLY' }, 'scheduleType'],
    ['an unknown misfireStrategy', { misfireStrategy: 'FIRE_ALL' }, 'misfireStrategy'],
    ['an unknown executorRouteStrategy', { executorRouteStrategy: 'NEAREST' }, 'executorRouteStrategy'],
    ['an unknown executorBlockStrategy', { executorBlockStrategy: 'CONCURRENT' }, 'executorBlockStrategy'],
    ['an unknown glueType', { glueType: 'GLUE_RUBY' }, 'glueType'],
    ['an unknown triggerStatus', { triggerStatus: 'PAUSED' }, 'triggerStatus'],
    ['a bad cron', { scheduleType: 'CRON', scheduleConf: '61 * * * * ?' }, 'scheduleConf'],
    ['a cron with both day fields', { scheduleType: 'CRON', scheduleConf: '0 0 0 1 * 2' }, 'scheduleConf'],
    ['a FIX_RATE below 1', { scheduleType: 'FIX_RATE', scheduleConf: '0' }, 'scheduleConf'],
    [
      'a time zone that does not exist',
      { scheduleType: 'CRON', scheduleConf: YEARLY, timeZone: 'Mars/Base' },
      'timeZone',
    ],
    ['a BEAN job without executorHandler', { executorHandler: '' }, 'executorHandler'],
    ['a missing name', { name: undefined }, 'name'],
    ['a blank name', { name: '  ' }, 'name'],
    ['a missing author', { author: undefined }, 'author'],
    ['a missing appName', { appName: undefined }, 'appName'],
    ['a group that does not exist', { appName: `nope-${suffix}` }, 'appName'],
    ['a negative executorTimeout', { executorTimeout: -1 }, 'executorTimeout'],
    ['a negative executorFailRetryCount', { executorFailRetryCount: -2 }, 'executorFailRetryCount'],
    ['a negative retryBackoffSeconds', { retryBackoffSeconds: -10 }, 'retryBackoffSeconds'],
    ['a fractional executorTimeout', { executorTimeout: 2.5 }, 'executorTimeout'],
    [
      'a numeric string for executorFailRetryCount',
      { executorFailRetryCount: '3' },
      'executorFailRetryCount',
    ],
    ['childJobIds that is not an array', { childJobIds: '1,2' }, 'childJobIds'],
    ['childJobIds with a non-integer', { childJobIds: [1, 'b'] }, 'childJobIds'],
    ['a child that does not exist', { childJobIds: [99999998] }, 'childJobIds'],
    ['an unknown field', { executorHandlr: 'x' }, 'executorHandlr'],
    ['an executorParam over 2048 characters', { executorParam: 'p'.repeat(2049) }, 'executorParam'],
    ['a malformed alarmEmail', { alarmEmail: 'ops@example.com, not-an-email' }, 'alarmEmail'],
    ['an alarmWebhook that is not http(s)', { alarmWebhook: 'ftp://hooks.example.com' }, 'alarmWebhook'],
    ['a name that is not a string', { name: 42 }, 'name'],
  ])('answers 400 for %s', async (_label, change, field) => {
    const reply = await call('POST', '/v1/jobs', { ...baseJob, ...change });
    expectError(reply, 400, 'ValidationError', field);
  });

  it('accepts the boundaries: executorParam of 2048, FIX_RATE of 1, zero retries and backoff', async () => {
    const job = await createJob({
      executorParam: 'p'.repeat(2048),
      scheduleType: 'FIX_RATE',
      scheduleConf: '1',
      executorFailRetryCount: 0,
      retryBackoffSeconds: 0,
      alarmEmail: 'a@example.com,b@example.com',
      alarmWebhook: 'https://hooks.example.com/tickring',
      timeZone: 'America/New_York',
    });
    expect(job).toMatchObject({ scheduleType: 'FIX_RATE', scheduleConf: '1', retryBackoffSeconds: 0 });
  });

  it("refuses the job's own id among its children", async () => {
    const job = await createJob();
    const reply = await call('PUT', `/v1/jobs/${job.id}`, { childJobIds: [job.id] });
    expectError(reply, 400, 'ValidationError', 'childJobIds');
  });

  it('refuses a child cycle A → B → A at save time', async () => {
    const a = await createJob({ name: 'A' });
    const b = await createJob({ name: 'B', childJobIds: [a.id] });
    const reply = await call('PUT', `/v1/jobs/${a.id}`, { childJobIds: [b.id] });
    expectError(reply, 400, 'ValidationError', 'childJobIds');
    expect(reply.body.message).toContain(`${a.id} → ${b.id} → ${a.id}`);
  });

  it('refuses a longer cycle A → B → C → A', async () => {
    const a = await createJob({ name: 'A' });
    const c = await createJob({ name: 'C', childJobIds: [a.id] });
    const b = await createJob({ name: 'B', childJobIds: [c.id] });
    expectError(
      await call('PUT', `/v1/jobs/${a.id}`, { childJobIds: [b.id] }),
      400,
      'ValidationError',
      'childJobIds',
    );
  });

  it('accepts children that share a descendant', async () => {
    const leaf = await createJob({ name: 'leaf' });
    const left = await createJob({ name: 'left', childJobIds: [leaf.id] });
    const right = await createJob({ name: 'right', childJobIds: [leaf.id] });
    const root = await createJob({ name: 'root', childJobIds: [left.id, right.id] });
    expect(root.childJobIds).toEqual([left.id, right.id]);
  });
});

describe('jobs: update, start, stop, delete', () => {
  it('merges a partial update, bumps version and keeps the schedule state', async () => {
    const job = await createJob({ scheduleType: 'CRON', scheduleConf: YEARLY, triggerStatus: 'RUNNING' });
    const reply = await call('PUT', `/v1/jobs/${job.id}`, { name: 'renamed', executorParam: 'a=1' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      ...job,
      name: 'renamed',
      executorParam: 'a=1',
      version: job.version + 1,
      updatedAt: reply.body.updatedAt,
    });
    expect(reply.body.triggerNextTime).toBe(job.triggerNextTime);
    expect(reply.body.scheduleRevision).toBe(job.scheduleRevision);
    expect(reply.body.glueUpdatetime).toBe(job.glueUpdatetime);
    await call('POST', `/v1/jobs/${job.id}/stop`);
  });

  it('accepts a job read with GET and sent back whole', async () => {
    const job = await createJob();
    const reply = await call('PUT', `/v1/jobs/${job.id}`, { ...job, author: 'someone else' });
    expect(reply.status).toBe(200);
    expect(reply.body.author).toBe('someone else');
  });

  it('re-plans the next fire from now when a running job’s schedule changes', async () => {
    const job = await createJob({ scheduleType: 'CRON', scheduleConf: YEARLY, triggerStatus: 'RUNNING' });
    const now = Date.now();
    const reply = await call('PUT', `/v1/jobs/${job.id}`, { scheduleType: 'FIX_RATE', scheduleConf: '30' });
    expect(reply.status).toBe(200);
    const next = Date.parse(reply.body.triggerNextTime);
    expect(next).toBeGreaterThan(now + 5_000);
    expect(next).toBeLessThan(now + 40_000);
    expect(reply.body.scheduleRevision).toBe(job.scheduleRevision + 1);
    await call('POST', `/v1/jobs/${job.id}/stop`);
  });

  it('moves glueUpdatetime when the glue changes', async () => {
    const job = await createJob();
    await new Promise((r) => setTimeout(r, 5));
    const reply = await call('PUT', `/v1/jobs/${job.id}`, { glueType: 'GLUE_SHELL', glueSource: 'echo hi' });
    expect(Date.parse(reply.body.glueUpdatetime)).toBeGreaterThan(Date.parse(job.glueUpdatetime));
  });

  it('answers 409 when the body carries a stale version', async () => {
    const job = await createJob();
    await call('PUT', `/v1/jobs/${job.id}`, { name: 'first' });
    expectError(
      await call('PUT', `/v1/jobs/${job.id}`, { name: 'second', version: job.version }),
      409,
      'ConflictError',
    );
  });

  it('answers 400 when the body names another id', async () => {
    const job = await createJob();
    expectError(await call('PUT', `/v1/jobs/${job.id}`, { id: job.id + 1000 }), 400, 'ValidationError', 'id');
  });

  it('validates an update as a whole', async () => {
    const job = await createJob();
    expectError(
      await call('PUT', `/v1/jobs/${job.id}`, { scheduleType: 'CRON' }),
      400,
      'ValidationError',
      'scheduleConf',
    );
    expectError(await call('PUT', `/v1/jobs/${job.id}`, { bogus: 1 }), 400, 'ValidationError', 'bogus');
    expectError(
      await call('PUT', `/v1/jobs/${job.id}`, { appName: OTHER_APP }),
      400,
      'ValidationError',
      'appName',
    );
    expectError(await call('PUT', '/v1/jobs/99999999', { name: 'x' }), 404, 'NotFoundError');
  });

  it('starts and stops a job, bumping the schedule revision each time', async () => {
    const job = await createJob({ scheduleType: 'CRON', scheduleConf: YEARLY });
    const started = await call('POST', `/v1/jobs/${job.id}/start`);
    expect(started.status).toBe(200);
    expect(started.body.triggerStatus).toBe('RUNNING');
    expect(Date.parse(started.body.triggerNextTime)).toBeGreaterThan(Date.now());
    expect(started.body.scheduleRevision).toBe(job.scheduleRevision + 1);

    const again = await call('POST', `/v1/jobs/${job.id}/start`);
    expect(again.body.version).toBe(started.body.version);

    const stopped = await call('POST', `/v1/jobs/${job.id}/stop`);
    expect(stopped.body).toMatchObject({ triggerStatus: 'STOPPED', triggerNextTime: null });
    expect(stopped.body.scheduleRevision).toBe(job.scheduleRevision + 2);
  });

  it('refuses to start a NONE job or one whose schedule never fires after now', async () => {
    const none = await createJob();
    const reply = await call('POST', `/v1/jobs/${none.id}/start`);
    expectError(reply, 400, 'ValidationError', 'scheduleType');
    const once = await createJob({ scheduleType: 'ONCE', scheduleConf: '2020-01-01T00:00:00Z' });
    expectError(await call('POST', `/v1/jobs/${once.id}/start`), 400, 'ValidationError', 'scheduleConf');
    expectError(await call('POST', '/v1/jobs/99999999/start'), 404, 'NotFoundError');
    expectError(await call('POST', '/v1/jobs/x/stop'), 400, 'ValidationError', 'id');
  });

  it('deletes a job (204), then answers 404', async () => {
    const job = await createJob();
    expect((await call('DELETE', `/v1/jobs/${job.id}`)).status).toBe(204);
    expectError(await call('GET', `/v1/jobs/${job.id}`), 404, 'NotFoundError');
    expectError(await call('DELETE', `/v1/jobs/${job.id}`), 404, 'NotFoundError');
  });
});

describe('jobs: list', () => {
  const LIST_APP = `api-list-${suffix}`;
  const ids: number[] = [];

  beforeAll(async () => {
    await call('POST', '/v1/groups', { appName: LIST_APP, title: 'list', addressType: 'AUTO' });
    for (let i = 0; i < 5; i++) ids.push((await createJob({ appName: LIST_APP, name: `list ${i}` })).id);
    await call('PUT', `/v1/jobs/${ids[0]}`, {
      scheduleType: 'CRON',
      scheduleConf: YEARLY,
      triggerStatus: 'RUNNING',
    });
  });

  it('lists a group’s jobs as {items, nextCursor}, paging with the cursor', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `appName=${LIST_APP}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const reply = await call('GET', `/v1/jobs?${query}`);
      expect(reply.status).toBe(200);
      expect(reply.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...reply.body.items.map((j: { id: number }) => j.id));
      cursor = reply.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(seen.sort((a, b) => a - b)).toEqual(ids);
  });

  it('filters by triggerStatus', async () => {
    const reply = await call('GET', `/v1/jobs?appName=${LIST_APP}&triggerStatus=RUNNING`);
    expect(reply.body.items.map((j: { id: number }) => j.id)).toEqual([ids[0]]);
  });

  it('lists every job without an appName', async () => {
    const reply = await call('GET', '/v1/jobs?limit=100');
    expect(reply.status).toBe(200);
    expect(reply.body.items.length).toBeGreaterThan(0);
    expect(reply.body).toHaveProperty('nextCursor');
  });

  it.each(['0', '101', 'ten', '1.5'])('answers 400 naming limit for limit=%s', async (limit) => {
    expectError(await call('GET', `/v1/jobs?limit=${limit}`), 400, 'ValidationError', 'limit');
  });

  it('answers 400 for an unknown triggerStatus or a bad cursor', async () => {
    expectError(await call('GET', '/v1/jobs?triggerStatus=PAUSED'), 400, 'ValidationError', 'triggerStatus');
    expectError(await call('GET', '/v1/jobs?cursor=not-a-cursor'), 400, 'ValidationError', 'cursor');
  });
});

describe('schedule preview', () => {
  const preview = (query: Record<string, string>) =>
    call('GET', `/v1/schedule/preview?${new URLSearchParams(query).toString()}`);

  it('lists the next 5 fires of a cron as ISO-8601 UTC by default', async () => {
    const reply = await preview({
      scheduleType: 'CRON',
      scheduleConf: '0 0/5 * * * ?',
      from: '2030-01-01T00:01:00Z',
    });
    expect(reply.status).toBe(200);
    const times = [
      '2030-01-01T00:05:00.000Z',
      '2030-01-01T00:10:00.000Z',
      '2030-01-01T00:15:00.000Z',
      '2030-01-01T00:20:00.000Z',
      '2030-01-01T00:25:00.000Z',
    ];
    expect(reply.body.times).toEqual(times);
    // Without jitter each fire runs at its time; UTC has no clock change to mark; the schedule goes on.
    expect(reply.body.fires.map((f: { time: string; fireAt: string }) => [f.time, f.fireAt])).toEqual(
      times.map((t) => [t, t]),
    );
    expect(reply.body.fires.map((f: { dst?: unknown }) => f.dst ?? null)).toEqual(times.map(() => null));
    expect(reply.body.dst.transitions).toEqual([]);
    expect(reply.body.ends ?? null).toBeNull();
  });

  it('reads the cron in the given time zone', async () => {
    const reply = await preview({
      scheduleType: 'CRON',
      scheduleConf: '0 0 9 * * ?',
      timeZone: 'Asia/Shanghai',
      from: '2030-01-01T00:30:00Z',
      count: '2',
    });
    expect(reply.body.times).toEqual(['2030-01-01T01:00:00.000Z', '2030-01-02T01:00:00.000Z']);
  });

  it('spaces FIX_RATE fires by the rate', async () => {
    const reply = await preview({ scheduleType: 'FIX_RATE', scheduleConf: '90', count: '3' });
    const times = reply.body.times.map((t: string) => Date.parse(t));
    expect(times).toHaveLength(3);
    expect(times[1] - times[0]).toBe(90_000);
    expect(times[2] - times[1]).toBe(90_000);
  });

  it('returns fewer times when the schedule ends', async () => {
    const reply = await preview({
      scheduleType: 'ONCE',
      scheduleConf: '2030-06-01T12:00:00Z',
      from: '2030-01-01T00:00:00Z',
    });
    expect(reply.body.times).toEqual(['2030-06-01T12:00:00.000Z']);
    expect((await preview({ scheduleType: 'NONE' })).body.times).toEqual([]);
  });

  it.each([
    [{ scheduleType: 'CRON', scheduleConf: 'not a cron' }, 'scheduleConf'],
    [{ scheduleType: 'FIX_RATE', scheduleConf: '0' }, 'scheduleConf'],
    [{ scheduleType: 'CRON', scheduleConf: '0 * * * * ?', timeZone: 'Nowhere/City' }, 'timeZone'],
    [{ scheduleType: 'WEEKLY' }, 'scheduleType'],
    [{ scheduleConf: '0 * * * * ?' }, 'scheduleType'],
    [{ scheduleType: 'CRON', scheduleConf: '0 * * * * ?', count: '0' }, 'count'],
    [{ scheduleType: 'CRON', scheduleConf: '0 * * * * ?', count: '101' }, 'count'],
    [{ scheduleType: 'CRON', scheduleConf: '0 * * * * ?', from: 'yesterday' }, 'from'],
  ])('answers 400 for %j naming %s', async (query, field) => {
    expectError(await preview(query), 400, 'ValidationError', field);
  });
});
