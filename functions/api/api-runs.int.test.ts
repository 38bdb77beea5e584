import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExecutor, type Executor, type JobHandler, silentLogger } from '@tickring/executor';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type LocalStack, startLocal } from '../../local/start-local.js';
import { checked } from '../../test/openapi-check.js';
import { waitFor } from '../../test/stand-ins.js';

/**
 * Runs through the admin API end to end: HTTP → local gateway → api handler → DynamoDB Local / SQS
 * ring → the real dispatcher → a real SDK executor → the real callback function, and back out
 * through the API (log list, log output proxied to the executor's /log, kill, executors, dashboard).
 */

let stack: LocalStack;
let logRoot: string;
let executor: Executor;
let callbackProxy: CallbackProxy;
const suffix = randomUUID().slice(0, 8);
const APP = `runs-app-${suffix}`;
/** A group nobody registers in: its triggers fail with "no online executor". */
const EMPTY_APP = `runs-empty-${suffix}`;
const DEAD_SECONDS = 5;
const executors: Executor[] = [];
/** logIds whose handler saw its signal aborted (the kill reached it). */
const aborted = new Set<number>();
/** logIds whose handler has started. */
const started = new Set<number>();
let jobsCreated = 0;

interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are read field by field
  body: any;
}

async function call(method: string, path: string, body?: unknown, auth = true): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = `Bearer ${stack.tokens.adminToken}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${stack.urls.api}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return checked(method, path, { status: res.status, body: text ? JSON.parse(text) : undefined });
}

function expectError(reply: Reply, status: number, error: string, field?: string): void {
  expect({ status: reply.status, error: reply.body?.error }, JSON.stringify(reply.body)).toEqual({
    status,
    error,
  });
  expect(typeof reply.body.message).toBe('string');
  if (field) {
    expect(reply.body.field).toBe(field);
    expect(reply.body.message).toContain(field);
  }
}

async function createJob(fields: Record<string, unknown>): Promise<{ id: number; executorParam: string }> {
  const reply = await call('POST', '/v1/jobs', { appName: APP, name: 'runs test', author: 'ops', ...fields });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  jobsCreated++;
  return reply.body;
}

interface Fire {
  readonly jobId: number;
  readonly dedupKey: string;
  readonly logId: number;
  readonly logIds: readonly number[];
}

async function trigger(jobId: number, body?: unknown): Promise<Fire> {
  const reply = await call('POST', `/v1/jobs/${jobId}/trigger`, body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  expect(reply.body.logIds).toEqual([reply.body.logId]);
  return reply.body;
}

/** The run of a manual trigger, read by the logId the trigger answered, once it is recorded and `done` holds. */
// biome-ignore lint/suspicious/noExplicitAny: a run view, read field by field
async function runOf(fire: Fire, done: (run: any) => boolean = () => true) {
  return waitFor(
    async () => {
      const reply = await call('GET', `/v1/logs/${fire.logId}`);
      if (reply.status === 404) return undefined; // not recorded by the dispatcher yet
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ logId: fire.logId, jobId: fire.jobId, dedupKey: fire.dedupKey });
      return done(reply.body) ? reply.body : undefined;
    },
    { what: `the run ${fire.logId} of ${fire.dedupKey}`, timeoutMs: 60_000, intervalMs: 200 },
  );
}

/** Forwards everything to the stack and remembers the logIds of the results executors report. */
interface CallbackProxy {
  readonly url: string;
  readonly reported: Map<number, string>;
  close(): void;
}

async function startCallbackProxy(target: string): Promise<CallbackProxy> {
  const reported = new Map<number, string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
      }
      const method = req.method ?? 'GET';
      const init = { method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body }) };
      void fetch(`${target}${req.url ?? '/'}`, init)
        .then(async (upstream) => {
          const text = await upstream.text();
          if (req.url?.endsWith('/api/callback')) {
            for (const item of JSON.parse(body.toString('utf8')) as { logId: number; handleMsg: string }[]) {
              reported.set(item.logId, item.handleMsg);
            }
          }
          res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    reported,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const handlers: Record<string, JobHandler> = {
  echoLines: (ctx) => {
    for (let i = 1; i <= 5; i++) ctx.log('line %d of 5, param=%s', i, ctx.param);
    return `echoed ${ctx.param}`;
  },
  waitForKill: async (ctx) => {
    started.add(ctx.logId);
    ctx.log('waiting up to 60 s for a kill');
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 60_000);
      ctx.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
    if (ctx.signal.aborted) aborted.add(ctx.logId);
    return 'waited 60 s';
  },
};

async function startExecutor(appName: string, adminAddresses: string): Promise<Executor> {
  const ex = createExecutor({
    appName,
    adminAddresses,
    accessToken: stack.tokens.accessToken,
    host: '127.0.0.1',
    port: 0,
    logDir: join(logRoot, `${appName}-${executors.length}`),
    registryIntervalMs: 1_000,
    logger: silentLogger,
  });
  for (const [name, handler] of Object.entries(handlers)) ex.register(name, handler);
  executors.push(ex);
  await ex.start();
  return ex;
}

beforeAll(async () => {
  stack = await startLocal({
    standIns: inject('standIns'),
    port: 0,
    inMemory: true,
    logLevel: 'silent',
    resourcePrefix: `runs-${suffix}-`,
    demo: false,
    settings: { TICKRING_REGISTRY_DEAD_SECONDS: String(DEAD_SECONDS) },
    tickPeriodMs: 3_600_000,
  });
  logRoot = await mkdtemp(join(tmpdir(), 'tickring-api-runs-'));
  callbackProxy = await startCallbackProxy(stack.urls.api);
  for (const appName of [APP, EMPTY_APP]) {
    expect((await call('POST', '/v1/groups', { appName, title: 'runs', addressType: 'AUTO' })).status).toBe(
      201,
    );
  }
  executor = await startExecutor(APP, callbackProxy.url);
});

afterAll(async () => {
  await Promise.allSettled(executors.map((ex) => ex.stop()));
  callbackProxy?.close();
  await stack?.stop();
  if (logRoot) await rm(logRoot, { recursive: true, force: true });
});

describe('GET /v1/executors', () => {
  it('lists the registered executor of an AUTO group as online, with its last heartbeat', async () => {
    const group = await waitFor(
      async () => {
        const reply = await call('GET', `/v1/executors?appName=${APP}`);
        expect(reply.status).toBe(200);
        const [only] = reply.body.items;
        return only?.executors.some((e: { online: boolean }) => e.online) ? only : undefined;
      },
      { what: 'the executor online', timeoutMs: 30_000 },
    );
    expect(group).toMatchObject({ appName: APP, title: 'runs', addressType: 'AUTO' });
    expect(group.executors).toEqual([
      { address: executor.address, online: true, lastHeartbeat: expect.any(String) },
    ]);
    const beat = Date.parse(group.executors[0].lastHeartbeat);
    expect(new Date(beat).toISOString()).toBe(group.executors[0].lastHeartbeat);
    expect(Date.now() - beat).toBeLessThan(DEAD_SECONDS * 1000);
  });

  it('lists every group without appName, and answers 404 for a group that does not exist', async () => {
    const reply = await call('GET', '/v1/executors');
    expect(reply.status).toBe(200);
    const byApp = Object.fromEntries(
      reply.body.items.map((g: { appName: string; executors: unknown[] }) => [g.appName, g.executors]),
    );
    expect(byApp[EMPTY_APP]).toEqual([]);
    expect(byApp[APP]).toHaveLength(1);
    expectError(await call('GET', `/v1/executors?appName=nope-${suffix}`), 404, 'NotFoundError');
  });
});

describe('manual trigger and the run log', () => {
  let job: { id: number; executorParam: string };
  // biome-ignore lint/suspicious/noExplicitAny: a run view
  let run: any;

  beforeAll(async () => {
    job = await createJob({ executorHandler: 'echoLines', executorParam: 'job-param' });
  });

  it('answers 202 with the fire’s key and its run’s logId, and the run is recorded under it, listed, and succeeds', async () => {
    const before = Date.now();
    const reply = await call('POST', `/v1/jobs/${job.id}/trigger`, { executorParam: 'override' });
    expect(reply.status).toBe(202);
    expect(reply.body).toEqual({
      jobId: job.id,
      dedupKey: expect.stringMatching(/^manual#[0-9a-f-]{36}$/),
      scheduledTime: expect.any(String),
      logId: expect.any(Number),
      logIds: [reply.body.logId],
    });
    expect(Date.parse(reply.body.scheduledTime)).toBeGreaterThanOrEqual(before - 1);

    run = await runOf(reply.body, (r) => r.status === 'success');
    expect(run).toMatchObject({
      jobId: job.id,
      appName: APP,
      status: 'success',
      triggerType: 'MANUAL',
      dedupKey: reply.body.dedupKey,
      scheduledTime: reply.body.scheduledTime,
      executorAddress: executor.address,
      executorHandler: 'echoLines',
      executorParam: 'override',
      shard: '0/1',
      attempt: 1,
      triggerCode: 200,
      handleCode: 200,
      handleMsg: 'echoed override',
      alarmStatus: 'DEFAULT',
      parentLogId: null,
    });
    expect(run.logId).toBe(reply.body.logId);
    const listed = await call('GET', `/v1/logs?jobId=${job.id}`);
    expect(listed.body.items).toContainEqual(run);
    for (const field of ['triggerTime', 'dispatchedAt', 'handleTime']) {
      expect(new Date(run[field]).toISOString(), field).toBe(run[field]);
    }
    expect(run.triggerMsg).toContain('Trigger type: MANUAL');
  });

  it('applies the override to that run only: the job keeps its executorParam', async () => {
    const reply = await call('GET', `/v1/jobs/${job.id}`);
    expect(reply.body.executorParam).toBe('job-param');
  });

  it('shows one run by logId as the list does', async () => {
    const reply = await call('GET', `/v1/logs/${run.logId}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(run);
  });

  it('filters the log list by appName and status', async () => {
    const ok = await call('GET', `/v1/logs?appName=${APP}&status=success&limit=100`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.items.map((r: { logId: number }) => r.logId)).toContain(run.logId);
    expect(ok.body.items.every((r: { status: string }) => r.status === 'success')).toBe(true);
    const failed = await call('GET', `/v1/logs?appName=${APP}&status=fail&limit=100`);
    expect(failed.body.items.map((r: { logId: number }) => r.logId)).not.toContain(run.logId);
    const none = await call(
      'GET',
      `/v1/logs?jobId=${job.id}&to=2000-01-01T00:00:00Z&from=1999-12-01T00:00:00Z`,
    );
    expect(none.body).toEqual({ items: [], nextCursor: null });
  });

  it('serves the run’s output line by line from its executor, ending once everything is read', async () => {
    const first = await call('GET', `/v1/logs/${run.logId}/output?fromLineNum=1`);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ fromLineNum: 1, isEnd: false });
    const lines: string[] = first.body.logContent.replace(/\n$/, '').split('\n');
    expect(lines).toHaveLength(first.body.toLineNum);
    for (let i = 1; i <= 5; i++) {
      expect(first.body.logContent).toContain(`line ${i} of 5, param=override`);
    }

    const third = await call('GET', `/v1/logs/${run.logId}/output?fromLineNum=3`);
    expect(third.body).toMatchObject({ fromLineNum: 3, toLineNum: first.body.toLineNum, isEnd: false });
    expect(third.body.logContent).toBe(`${lines.slice(2).join('\n')}\n`);

    const rest = await call('GET', `/v1/logs/${run.logId}/output?fromLineNum=${first.body.toLineNum + 1}`);
    expect(rest.body).toEqual({
      fromLineNum: first.body.toLineNum + 1,
      toLineNum: first.body.toLineNum,
      logContent: '',
      isEnd: true,
    });
  });

  it('defaults fromLineNum to 1', async () => {
    const reply = await call('GET', `/v1/logs/${run.logId}/output`);
    expect(reply.body.fromLineNum).toBe(1);
  });

  it('fires a job with a NONE schedule that is stopped (as XXL-JOB does)', async () => {
    const reply = await call('GET', `/v1/jobs/${job.id}`);
    expect(reply.body).toMatchObject({ scheduleType: 'NONE', triggerStatus: 'STOPPED' });
    const second = await runOf(await trigger(job.id), (r) => r.status === 'success');
    expect(second.executorParam).toBe('job-param');
  });
});

describe('kill', () => {
  it('stops a running handler and marks the run failed "killed by user", which is neither retried nor alarmed', async () => {
    const job = await createJob({
      executorHandler: 'waitForKill',
      executorFailRetryCount: 2,
      retryBackoffSeconds: 0,
    });
    const fire = await trigger(job.id);
    const running = await runOf(fire, (r) => r.status === 'running' && r.triggerCode === 200);
    await waitFor(() => started.has(running.logId), { what: 'the handler to start', timeoutMs: 30_000 });

    const reply = await call('POST', `/v1/logs/${running.logId}/kill`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({
      logId: running.logId,
      status: 'fail',
      handleCode: 500,
      handleMsg: 'killed by user',
      executorMsg: expect.any(String),
    });
    await waitFor(() => aborted.has(running.logId), {
      what: 'the handler to see the kill',
      timeoutMs: 10_000,
    });

    // The executor reports its own "killed" result; it finds the run finished and is ignored.
    const reported = await waitFor(() => callbackProxy.reported.get(running.logId), {
      what: 'the executor’s callback for the killed run',
      timeoutMs: 30_000,
    });
    expect(reported).toContain('[job running, killed]');
    const after = await call('GET', `/v1/logs/${running.logId}`);
    expect(after.body).toMatchObject({
      status: 'fail',
      handleCode: 500,
      handleMsg: 'killed by user',
      alarmStatus: 'NOT_NEEDED',
      retriesLeft: 2,
    });
    const runs = await call('GET', `/v1/logs?jobId=${job.id}`);
    expect(runs.body.items.map((r: { logId: number }) => r.logId)).toEqual([running.logId]);
  });

  it('answers 409 for a run that has finished', async () => {
    const job = await createJob({ executorHandler: 'echoLines' });
    const done = await runOf(await trigger(job.id), (r) => r.status === 'success');
    const reply = await call('POST', `/v1/logs/${done.logId}/kill`);
    expectError(reply, 409, 'ConflictError');
    expect(reply.body.message).toContain('finished already');
  });
});

describe('runs no executor accepted', () => {
  // biome-ignore lint/suspicious/noExplicitAny: a run view
  let refused: any;

  beforeAll(async () => {
    const reply = await call('POST', '/v1/jobs', {
      appName: EMPTY_APP,
      name: 'nowhere',
      author: 'ops',
      executorHandler: 'echoLines',
    });
    jobsCreated++;
    refused = await runOf(await trigger(reply.body.id), (r) => r.triggerCode === 500);
  });

  it('records the refused trigger as failed, with no executor address', () => {
    expect(refused).toMatchObject({ status: 'fail', executorAddress: null, handleCode: 0 });
    expect(refused.triggerMsg).toContain(`no online executor in group ${EMPTY_APP}`);
  });

  it('answers 409 for its output and for a kill, saying why', async () => {
    const output = await call('GET', `/v1/logs/${refused.logId}/output`);
    expectError(output, 409, 'ConflictError');
    expect(output.body.message).toContain('no executor accepted it');
    expectError(await call('POST', `/v1/logs/${refused.logId}/kill`), 409, 'ConflictError');
  });
});

describe('output from executors that cannot serve it', () => {
  it('answers 502 naming the executor when it does not answer', async () => {
    const other = await startExecutor(APP, callbackProxy.url);
    const job = await createJob({ executorHandler: 'echoLines' });
    const run = await runOf(
      await trigger(job.id, { addressList: [other.address] }),
      (r) => r.status === 'success',
    );
    expect(run.executorAddress).toBe(other.address);
    expect((await call('GET', `/v1/logs/${run.logId}/output`)).status).toBe(200);

    await other.stop();
    const reply = await call('GET', `/v1/logs/${run.logId}/output`);
    expectError(reply, 502, 'ExecutorCallError');
    expect(reply.body.message).toContain(other.address);
    expect(reply.body.message).toContain(`run ${run.logId}`);
  });

  it('answers 409 pointing at CloudWatch for a run on a Lambda executor', async () => {
    const job = await createJob({ executorHandler: 'demoJobHandler' });
    const fire = await trigger(job.id, { addressList: ['lambda:executor-runner'] });
    const run = await runOf(fire, (r) => r.triggerCode === 200);
    expect(run.executorAddress).toBe('lambda:executor-runner');
    const reply = await call('GET', `/v1/logs/${run.logId}/output`);
    expectError(reply, 409, 'ConflictError');
    expect(reply.body.message).toContain('log output is not available for Lambda executors');
    expect(reply.body.message).toContain('CloudWatch');
    await runOf(fire, (r) => r.status !== 'running'); // settled before the dashboard counts
  });
});

describe('GET /v1/dashboard', () => {
  it('counts the jobs, the online executors and every run of the period, day by day', async () => {
    // The runs as the log shows them; the daily counters follow as callbacks arrive.
    const logs = await call('GET', '/v1/logs?limit=100');
    const runs: { status: string }[] = logs.body.items;
    const count = (status: string) => runs.filter((r) => r.status === status).length;
    expect(count('success')).toBeGreaterThanOrEqual(3);
    expect(count('fail')).toBeGreaterThanOrEqual(2);

    const board = await waitFor(
      async () => {
        const reply = await call('GET', '/v1/dashboard?days=7');
        expect(reply.status).toBe(200);
        const { totals } = reply.body;
        return totals.success === count('success') && totals.fail === count('fail') && totals.running === 0
          ? reply.body
          : undefined;
      },
      { what: 'the daily counters to match the log', timeoutMs: 30_000 },
    );
    expect(board.totals).toEqual({
      jobs: jobsCreated,
      runningJobs: 0,
      runs: runs.length,
      running: 0,
      success: count('success'),
      fail: count('fail'),
      skipped: 0,
      onlineExecutors: 1,
    });
    expect(board.days).toBe(7);
    expect(board.series).toHaveLength(7);
    type Day = { day: string; running: number; success: number; fail: number; skipped: number };
    const series: Day[] = board.series;
    const sum = (key: 'running' | 'success' | 'fail' | 'skipped') => series.reduce((n, d) => n + d[key], 0);
    expect({
      running: sum('running'),
      success: sum('success'),
      fail: sum('fail'),
      skipped: sum('skipped'),
    }).toEqual({
      running: 0,
      success: count('success'),
      fail: count('fail'),
      skipped: 0,
    });
    // Oldest first, one entry per day, ending today (UTC).
    const days = series.map((d) => d.day);
    expect(days.at(-1)).toBe(board.toDay);
    expect(days[0]).toBe(board.fromDay);
    for (let i = 1; i < days.length; i++) {
      expect(Date.parse(days[i] as string) - Date.parse(days[i - 1] as string)).toBe(86_400_000);
    }
    expect([
      new Date(Date.now() - 60_000).toISOString().slice(0, 10),
      new Date().toISOString().slice(0, 10),
    ]).toContain(board.toDay);

    const one = await call('GET', '/v1/dashboard?days=1');
    expect(one.body.series).toHaveLength(1);
    expect((await call('GET', '/v1/dashboard')).body.series).toHaveLength(7);
  });
});

describe('input validation', () => {
  it.each([
    ['/v1/logs?limit=0', 'limit'],
    ['/v1/logs?limit=101', 'limit'],
    ['/v1/logs?limit=ten', 'limit'],
    ['/v1/logs?status=done', 'status'],
    ['/v1/logs?from=yesterday', 'from'],
    ['/v1/logs?to=2030-01-01', 'to'],
    ['/v1/logs?from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z', 'from'],
    ['/v1/logs?jobId=abc', 'jobId'],
    ['/v1/logs?jobId=0', 'jobId'],
    ['/v1/logs?cursor=not-a-cursor', 'cursor'],
    ['/v1/logs/abc', 'logId'],
    ['/v1/logs/0', 'logId'],
    ['/v1/logs/1.5/output', 'logId'],
    ['/v1/logs/1/output?fromLineNum=0', 'fromLineNum'],
    ['/v1/logs/1/output?fromLineNum=x', 'fromLineNum'],
    ['/v1/dashboard?days=0', 'days'],
    ['/v1/dashboard?days=91', 'days'],
    ['/v1/dashboard?days=week', 'days'],
  ])('GET %s answers 400 naming %s', async (path, field) => {
    expectError(await call('GET', path), 400, 'ValidationError', field);
  });

  it.each([
    [
      'an addressList entry that is not http(s) or lambda:',
      { addressList: ['ftp://10.0.0.1/'] },
      'addressList',
    ],
    ['an addressList that is not a list', { addressList: 42 }, 'addressList'],
    ['an executorParam over 2048 characters', { executorParam: 'p'.repeat(2049) }, 'executorParam'],
    ['an unknown field', { executorParams: 'x' }, 'executorParams'],
    ['a body that is not an object', [1], 'body'],
  ])('POST /v1/jobs/{id}/trigger answers 400 for %s', async (_label, body, field) => {
    const job = await createJob({ executorHandler: 'echoLines' });
    expectError(await call('POST', `/v1/jobs/${job.id}/trigger`, body), 400, 'ValidationError', field);
  });

  it('answers 400 for a malformed trigger body and a job id that is not a number', async () => {
    expectError(
      await call('POST', '/v1/jobs/1/trigger', '{"executorParam":'),
      400,
      'ValidationError',
      'body',
    );
    expectError(await call('POST', '/v1/jobs/x/trigger', {}), 400, 'ValidationError', 'id');
  });

  it('answers 404 for an unknown job or logId', async () => {
    expectError(await call('POST', '/v1/jobs/99999999/trigger', {}), 404, 'NotFoundError');
    expectError(await call('GET', '/v1/logs/99999999'), 404, 'NotFoundError');
    expectError(await call('GET', '/v1/logs/99999999/output'), 404, 'NotFoundError');
    expectError(await call('POST', '/v1/logs/99999999/kill'), 404, 'NotFoundError');
  });

  it('answers 401 on every new route without a token', async () => {
    const routes = [
      ['GET', '/v1/executors'],
      ['POST', '/v1/jobs/1/trigger'],
      ['GET', '/v1/logs'],
      ['GET', '/v1/logs/1'],
      ['GET', '/v1/logs/1/output'],
      ['POST', '/v1/logs/1/kill'],
      ['GET', '/v1/dashboard'],
    ] as const;
    for (const [method, path] of routes) {
      const reply = await call(method, path, method === 'POST' ? {} : undefined, false);
      expectError(reply, 401, 'UnauthorizedError');
    }
  });
});
