import { randomBytes } from 'node:crypto';
import { noMetrics, silentLogger } from '@tickring/core/common';
import type { Alarm } from '@tickring/core/runs';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionEnv } from '../../local/function-env.js';
import { checked } from '../../test/openapi-check.js';
import { isolatedResources, TEST_REGION, type TestResources } from '../../test/stand-ins.js';
import { loadConfig } from './config.js';
import { createHandler } from './handler.js';

/**
 * The workflow routes through the real api handler (router, authentication, the authorisation
 * step, the audit log) on DynamoDB Local and the SQS stand-in. No dispatcher runs here: the nodes a
 * run fires stay on the ring, RUNNING. Every answer is checked against the OpenAPI document.
 */

interface Reply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: bodies are read field by field
  readonly body: any;
}

const ADMIN = randomBytes(24).toString('base64url');
const APP = 'wf-app';
const OTHER = 'wf-other';
const YEARLY = '0 0 0 1 1 ?';

let env: TestResources;
let handler: ReturnType<typeof createHandler>;
const alarms: Alarm[] = [];
let jobA: number;
let jobA2: number;
let jobOther: number;
let requests = 0;

async function call(
  method: string,
  path: string,
  body?: unknown,
  token: string | null = ADMIN,
): Promise<Reply> {
  const [rawPath = path, rawQuery = ''] = path.split('?');
  const query = Object.fromEntries(new URLSearchParams(rawQuery));
  const headers: Record<string, string> = { 'user-agent': 'api-workflows test' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const event = {
    version: '2.0',
    routeKey: 'ANY /v1/{proxy+}',
    rawPath,
    rawQueryString: rawQuery,
    queryStringParameters: query,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    requestContext: { http: { method, path: rawPath, sourceIp: '203.0.113.9' }, requestId: `r${++requests}` },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  const res = (await handler(event)) as { statusCode: number; body?: string };
  return checked(method, path, { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined });
}

async function ok(method: string, path: string, body: unknown, status: number): Promise<Reply['body']> {
  const reply = await call(method, path, body);
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBe(status);
  return reply.body;
}

async function newJob(appName: string, fields: Record<string, unknown> = {}): Promise<number> {
  const job = await ok(
    'POST',
    '/v1/jobs',
    { appName, name: `job of ${appName}`, author: 'test', executorHandler: 'noop', ...fields },
    201,
  );
  return job.id;
}

const twoNodes = (name: string, fields: Record<string, unknown> = {}) => ({
  name,
  appName: APP,
  nodes: [
    { key: 'extract', jobId: jobA },
    {
      key: 'load',
      jobId: jobA2,
      executorParam: '{{ nodes.extract.result }}',
      upstream: [{ key: 'extract' }],
    },
  ],
  ...fields,
});

beforeAll(async () => {
  env = await isolatedResources('api-wf');
  const fnEnv = functionEnv({
    region: TEST_REGION,
    endpoints: { dynamodb: env.endpoints.dynamodb, sqs: env.endpoints.sqs, lambda: 'http://127.0.0.1:1' },
    resources: env.resources,
    adminToken: ADMIN,
    accessToken: randomBytes(24).toString('base64url'),
    tokenKey: randomBytes(24).toString('base64url'),
    adminBaseUrl: 'http://127.0.0.1:1',
  });
  handler = createHandler(loadConfig(fnEnv), {
    clients: env.clients,
    logger: silentLogger,
    metrics: { ...noMetrics, flush() {} },
    alarms: {
      publish: async (alarm) => {
        alarms.push(alarm);
        return true;
      },
    },
  });
  for (const appName of [APP, OTHER]) {
    await ok('POST', '/v1/groups', { appName, title: appName, addressType: 'AUTO' }, 201);
  }
  jobA = await newJob(APP);
  jobA2 = await newJob(APP);
  jobOther = await newJob(OTHER);
}, 60_000);

afterAll(async () => {
  await env?.close();
});

describe('workflow definitions', () => {
  it('creates a workflow (201, version 1, STOPPED, no schedule job for NONE) and records it in the audit log', async () => {
    const created = await ok('POST', '/v1/workflows', twoNodes('etl'), 201);
    expect(created).toMatchObject({
      version: 1,
      name: 'etl',
      appName: APP,
      scheduleType: 'NONE',
      overlapPolicy: 'SKIP',
      triggerStatus: 'STOPPED',
      starterJobId: null,
      triggerNextTime: null,
      activeRuns: 0,
      bufferedRunId: null,
      nodes: [
        { key: 'extract', jobId: jobA, upstream: [] },
        { key: 'load', jobId: jobA2, upstream: [{ key: 'extract', condition: 'ON_SUCCESS' }] },
      ],
    });
    expect(await ok('GET', `/v1/workflows/${created.id}`, undefined, 200)).toEqual(created);
    const audit = await ok('GET', `/v1/audit?target=workflow%23${created.id}`, undefined, 200);
    expect(audit.items).toMatchObject([
      { action: 'workflow.create', appName: APP, target: `workflow#${created.id}` },
    ]);
  });

  it('answers 400 with every problem at once: a cycle named, an unknown upstream, a job of another group, a bad field', async () => {
    const reply = await call('POST', '/v1/workflows', {
      name: 'broken',
      appName: APP,
      overlapPolicy: 'SOMETIMES',
      nodes: [
        { key: 'root', jobId: jobA },
        { key: 'a', jobId: jobA, upstream: [{ key: 'c' }] },
        { key: 'b', jobId: jobA, upstream: [{ key: 'a' }] },
        { key: 'c', jobId: jobA, upstream: [{ key: 'b' }] },
        { key: 'd', jobId: jobOther, upstream: [{ key: 'root' }, { key: 'nowhere' }] },
        { key: 'e', jobId: 999_999 },
      ],
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('ValidationError');
    const problems = reply.body.problems as { field: string; message: string }[];
    const messages = problems.map((p) => `${p.field}: ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^overlapPolicy: overlapPolicy must be one of SKIP, BUFFER_ONE, ALLOW, CANCEL_PREVIOUS/,
        ),
        expect.stringMatching(/cycle: (a → c → b → a|a → b → c → a|b → a → c → b|c → b → a → c)/),
        'nodes[4].upstream[1].key: upstream "nowhere" is not a node of this workflow',
        `nodes[4].jobId: node d: job ${jobOther} belongs to group ${OTHER}, not the workflow's ${APP}`,
        'nodes[5].jobId: node e: job 999999 does not exist',
      ]),
    );
    // Nothing was created.
    const list = await ok('GET', `/v1/workflows?appName=${APP}&limit=100`, undefined, 200);
    expect(list.items.map((w: { name: string }) => w.name)).not.toContain('broken');
  });

  it('lists and reads only the groups a caller reaches: a viewer of one group sees nothing of another', async () => {
    const mine = await ok('POST', '/v1/workflows', twoNodes('mine'), 201);
    const theirs = await ok(
      'POST',
      '/v1/workflows',
      { name: 'theirs', appName: OTHER, nodes: [{ key: 'x', jobId: jobOther }] },
      201,
    );
    const token = await ok(
      'POST',
      '/v1/tokens',
      { name: 'other-viewer', role: 'viewer', groups: [OTHER], expiresInDays: 1 },
      201,
    );
    const viewer = token.token as string;
    const listed = await call('GET', '/v1/workflows?limit=100', undefined, viewer);
    expect(listed.status).toBe(200);
    const ids = listed.body.items.map((w: { id: number }) => w.id);
    expect(ids).toContain(theirs.id);
    expect(ids).not.toContain(mine.id);
    expect((await call('GET', `/v1/workflows?appName=${APP}`, undefined, viewer)).body.items).toEqual([]);
    const hidden = await call('GET', `/v1/workflows/${mine.id}`, undefined, viewer);
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe(`workflow ${mine.id} does not exist`);
    expect((await call('GET', `/v1/workflows/${theirs.id}`, undefined, viewer)).status).toBe(200);
    // A viewer may read but not change.
    expect((await call('POST', `/v1/workflows/${theirs.id}/trigger`, {}, viewer)).status).toBe(403);
  });

  it('updates to a new version; a stale version is refused with 409', async () => {
    const created = await ok('POST', '/v1/workflows', twoNodes('versioned'), 201);
    const edited = await ok(
      'PUT',
      `/v1/workflows/${created.id}`,
      {
        ...created,
        name: 'versioned v2',
        nodes: [
          ...created.nodes,
          { key: 'notify', jobId: jobA, upstream: [{ key: 'load', condition: 'ALWAYS' }] },
        ],
      },
      200,
    );
    expect(edited).toMatchObject({ id: created.id, version: 2, name: 'versioned v2' });
    expect(edited.nodes.map((n: { key: string }) => n.key)).toEqual(['extract', 'load', 'notify']);
    const stale = await call('PUT', `/v1/workflows/${created.id}`, { ...created, version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain('is at version 2');
  });

  it('manages the schedule job of a CRON workflow: start, stop, refused job edits, deleted with it', async () => {
    const created = await ok(
      'POST',
      '/v1/workflows',
      twoNodes('nightly', { scheduleType: 'CRON', scheduleConf: YEARLY, timeZone: 'Europe/Berlin' }),
      201,
    );
    expect(created).toMatchObject({ triggerStatus: 'STOPPED', triggerNextTime: null });
    const starter = created.starterJobId as number;
    expect(starter).toBeGreaterThan(0);
    expect(await ok('GET', `/v1/jobs/${starter}`, undefined, 200)).toMatchObject({
      workflowId: created.id,
      triggerStatus: 'STOPPED',
      scheduleType: 'CRON',
      scheduleConf: YEARLY,
    });

    const started = await ok('POST', `/v1/workflows/${created.id}/start`, undefined, 200);
    expect(started.triggerStatus).toBe('RUNNING');
    expect(Date.parse(started.triggerNextTime)).toBeGreaterThan(Date.now());
    const job = await ok('GET', `/v1/jobs/${starter}`, undefined, 200);
    expect(job).toMatchObject({ triggerStatus: 'RUNNING', triggerNextTime: started.triggerNextTime });

    for (const [method, path, body] of [
      ['PUT', `/v1/jobs/${starter}`, { executorParam: 'x' }],
      ['POST', `/v1/jobs/${starter}/stop`, undefined],
      ['DELETE', `/v1/jobs/${starter}`, undefined],
    ] as const) {
      const refused = await call(method, path, body);
      expect(refused.status, `${method} ${path}`).toBe(409);
      expect(refused.body.message).toContain(`is the schedule of workflow ${created.id}`);
    }
    // A job read with GET may be sent back (workflowId is read-only): still refused for this one only.
    expect(
      (await call('PUT', `/v1/jobs/${jobA}`, { ...(await ok('GET', `/v1/jobs/${jobA}`, undefined, 200)) }))
        .status,
    ).toBe(200);
    // A node cannot run a schedule job.
    const misuse = await call('POST', '/v1/workflows', {
      name: 'misuse',
      appName: APP,
      nodes: [{ key: 'x', jobId: starter }],
    });
    expect(misuse.status).toBe(400);
    expect(misuse.body.problems[0].message).toContain(`is the schedule of workflow ${created.id}`);

    const stopped = await ok('POST', `/v1/workflows/${created.id}/stop`, undefined, 200);
    expect(stopped).toMatchObject({ triggerStatus: 'STOPPED', triggerNextTime: null });
    expect(await ok('GET', `/v1/jobs/${starter}`, undefined, 200)).toMatchObject({
      triggerStatus: 'STOPPED',
    });

    await ok('DELETE', `/v1/workflows/${created.id}`, undefined, 204);
    expect((await call('GET', `/v1/workflows/${created.id}`)).status).toBe(404);
    expect((await call('GET', `/v1/jobs/${starter}`)).status).toBe(404);
  });

  it('gives its bounds and jitter to its schedule job, and shows the runs remaining', async () => {
    const created = await ok(
      'POST',
      '/v1/workflows',
      twoNodes('bounded', {
        scheduleType: 'CRON',
        scheduleConf: YEARLY,
        timeZone: 'Europe/Berlin',
        endAt: '2099-12-31T00:00:00Z',
        maxRuns: 3,
        jitterSeconds: 60,
      }),
      201,
    );
    expect(created).toMatchObject({
      startAt: null,
      endAt: '2099-12-31T00:00:00.000Z',
      maxRuns: 3,
      jitterSeconds: 60,
      runsRemaining: 3,
      scheduleEnded: null,
    });
    expect(await ok('GET', `/v1/jobs/${created.starterJobId}`, undefined, 200)).toMatchObject({
      endAt: '2099-12-31T00:00:00.000Z',
      maxRuns: 3,
      jitterSeconds: 60,
      runsRemaining: 3,
    });
    // A workflow read with GET goes back whole; null clears a bound on the schedule job too.
    const read = await ok('GET', `/v1/workflows/${created.id}`, undefined, 200);
    const updated = await ok('PUT', `/v1/workflows/${created.id}`, { ...read, maxRuns: null }, 200);
    expect(updated).toMatchObject({ maxRuns: null, runsRemaining: null, endAt: '2099-12-31T00:00:00.000Z' });
    expect(await ok('GET', `/v1/jobs/${created.starterJobId}`, undefined, 200)).toMatchObject({
      maxRuns: null,
      runsRemaining: null,
    });
    const refused = await call(
      'POST',
      '/v1/workflows',
      twoNodes('bad bounds', {
        scheduleType: 'CRON',
        scheduleConf: YEARLY,
        startAt: 'soon',
        jitterSeconds: -1,
      }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.problems.map((p: { field: string }) => p.field).sort()).toEqual([
      'jitterSeconds',
      'startAt',
    ]);
    await ok('DELETE', `/v1/workflows/${created.id}`, undefined, 204);
  });

  it('refuses to start a NONE schedule (400)', async () => {
    const created = await ok('POST', '/v1/workflows', twoNodes('manual only'), 201);
    const reply = await call('POST', `/v1/workflows/${created.id}/start`);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain('scheduleType NONE cannot be started');
  });
});

describe('workflow runs', () => {
  it('triggers a run (202): RUNNING, its root RUNNING, the rest PENDING; SKIP refuses a second while it runs', async () => {
    const wf = await ok('POST', '/v1/workflows', twoNodes('skipper'), 201);
    const run = await ok('POST', `/v1/workflows/${wf.id}/trigger`, { input: { date: '2030-01-01' } }, 202);
    expect(run).toMatchObject({
      workflowId: wf.id,
      version: 1,
      workflowName: 'skipper',
      appName: APP,
      status: 'RUNNING',
      input: { date: '2030-01-01' },
      trigger: { type: 'MANUAL', starterLogId: null, by: 'bootstrap' },
      finishedAt: null,
      failedNodes: [],
    });
    expect(
      run.nodes.map((n: { key: string; status: string; attempt: number }) => [n.key, n.status, n.attempt]),
    ).toEqual([
      ['extract', 'RUNNING', 1],
      ['load', 'PENDING', 0],
    ]);
    expect(await ok('GET', `/v1/workflow-runs/${run.id}`, undefined, 200)).toMatchObject({
      id: run.id,
      status: 'RUNNING',
      nodes: [
        { key: 'extract', status: 'RUNNING', logIds: [] },
        { key: 'load', status: 'PENDING' },
      ],
    });
    expect((await ok('GET', `/v1/workflows/${wf.id}`, undefined, 200)).activeRuns).toBe(1);

    const skipped = await call('POST', `/v1/workflows/${wf.id}/trigger`);
    expect(skipped.status).toBe(409);
    expect(skipped.body.message).toContain('overlap policy SKIP');

    const listed = await ok('GET', `/v1/workflow-runs?workflowId=${wf.id}`, undefined, 200);
    expect(listed.items).toMatchObject([
      { id: run.id, status: 'RUNNING', nodeCounts: { RUNNING: 1, PENDING: 1, SUCCEEDED: 0 } },
    ]);
    const running = await ok(
      'GET',
      `/v1/workflow-runs?status=RUNNING&appName=${APP}&limit=100`,
      undefined,
      200,
    );
    expect(running.items.map((r: { id: string }) => r.id)).toContain(run.id);
    // Not deleted while it runs.
    expect((await call('DELETE', `/v1/workflows/${wf.id}`)).status).toBe(409);
    const audit = await ok(
      'GET',
      `/v1/audit?target=workflow%23${wf.id}&action=workflow.trigger`,
      undefined,
      200,
    );
    expect(audit.items).toHaveLength(1);
  });

  it('buffers one run under BUFFER_ONE (QUEUED), starts it when the running one is cancelled; cancel leaves running nodes and refuses a retry until they finish', async () => {
    const wf = await ok('POST', '/v1/workflows', twoNodes('buffered', { overlapPolicy: 'BUFFER_ONE' }), 201);
    const first = await ok('POST', `/v1/workflows/${wf.id}/trigger`, undefined, 202);
    const second = await ok('POST', `/v1/workflows/${wf.id}/trigger`, {}, 202);
    expect(second.status).toBe('QUEUED');
    expect(second.startedAt).toBeNull();
    expect(second.nodes.map((n: { status: string }) => n.status)).toEqual(['PENDING', 'PENDING']);
    expect((await ok('GET', `/v1/workflows/${wf.id}`, undefined, 200)).bufferedRunId).toBe(second.id);
    const third = await call('POST', `/v1/workflows/${wf.id}/trigger`);
    expect(third.status).toBe(409);
    expect(third.body.message).toContain('overlap policy BUFFER_ONE');

    const cancelled = await ok('POST', `/v1/workflow-runs/${first.id}/cancel`, undefined, 200);
    expect(cancelled.status).toBe('CANCELLED');
    expect(cancelled.finishedAt).not.toBeNull();
    expect(cancelled.nodes).toMatchObject([
      { key: 'extract', status: 'RUNNING' },
      { key: 'load', status: 'CANCELLED', reason: 'the run was cancelled' },
    ]);
    // The buffered run's turn came.
    expect(await ok('GET', `/v1/workflow-runs/${second.id}`, undefined, 200)).toMatchObject({
      status: 'RUNNING',
      nodes: [
        { key: 'extract', status: 'RUNNING' },
        { key: 'load', status: 'PENDING' },
      ],
    });
    const again = await call('POST', `/v1/workflow-runs/${first.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('has ended already (CANCELLED)');

    const retry = await call('POST', `/v1/workflow-runs/${first.id}/retry`);
    expect(retry.status).toBe(409);
    expect(retry.body.message).toBe(
      'node extract of the cancelled run is still running; retry once it has finished',
    );
    const audit = await ok('GET', `/v1/audit?target=workflowRun%23${first.id}`, undefined, 200);
    expect(audit.items).toMatchObject([
      {
        action: 'workflowRun.cancel',
        appName: APP,
        changes: { status: { before: 'RUNNING', after: 'CANCELLED' } },
      },
    ]);
  });

  it('retries a FAILED run: its failed node runs again as a new attempt (a parameter that cannot be rendered fails it again)', async () => {
    const wf = await ok(
      'POST',
      '/v1/workflows',
      {
        name: 'unrenderable',
        appName: APP,
        nodes: [{ key: 'only', jobId: jobA, executorParam: '{{ input.missing }}' }],
      },
      201,
    );
    const run = await ok('POST', `/v1/workflows/${wf.id}/trigger`, { input: {} }, 202);
    const failed = await ok('GET', `/v1/workflow-runs/${run.id}`, undefined, 200);
    expect(failed).toMatchObject({
      status: 'FAILED',
      failedNodes: ['only'],
      nodes: [{ status: 'FAILED', attempt: 1 }],
    });
    expect(failed.nodes[0].result).toContain('input.missing');
    expect(failed.finishedAt).not.toBeNull();
    // Ended here, in the api: alarmed through the api's publisher.
    expect(alarms.filter((a) => a.workflow?.runId === run.id)).toMatchObject([
      { workflow: { id: wf.id, failedNodes: ['only'] }, job: { appName: APP } },
    ]);

    expect((await call('POST', `/v1/workflow-runs/${run.id}/retry`)).status).toBe(200);
    expect(await ok('GET', `/v1/workflow-runs/${run.id}`, undefined, 200)).toMatchObject({
      status: 'FAILED',
      nodes: [{ key: 'only', status: 'FAILED', attempt: 2 }],
    });
    const ended = await call('POST', `/v1/workflow-runs/${run.id}/cancel`);
    expect(ended.status).toBe(409);
  });

  it('answers 404 for a run that does not exist, 400 for an id that cannot be one', async () => {
    const missing = await call('GET', '/v1/workflow-runs/wr-does-not-exist');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('workflow run wr-does-not-exist does not exist (or it expired)');
    expect((await call('POST', '/v1/workflow-runs/wr-does-not-exist/cancel')).status).toBe(404);
    expect((await call('GET', '/v1/workflow-runs/not-a-run')).status).toBe(400);
  });
});
