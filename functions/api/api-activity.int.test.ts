import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoReportStore, DynamoRunStore } from '@tickring/aws/dynamodb';
import { HANDLE_CODE, TRIGGER_CODE } from '@tickring/core/runs';
import { createExecutor, type Executor, silentLogger } from '@tickring/executor';
import { makeRun } from '@tickring/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type LocalStack, startLocal } from '../../local/start-local.js';
import { checked } from '../../test/openapi-check.js';
import { waitFor } from '../../test/stand-ins.js';

/**
 * GET /v1/activity over real runs (HTTP → api handler → the runs as the dispatcher and the callback
 * recorded them on DynamoDB Local), as each kind of caller sees it, checked against the runs list;
 * and the dashboard's skipped fires per group.
 */

let stack: LocalStack;
let executor: Executor;
let logRoot: string;
const suffix = randomUUID().slice(0, 8);
/** Has an executor: its runs succeed, fail or stay running. */
const A = `act-a-${suffix}`;
/** Has none: its triggers are refused (failed, no result message, no handle time). */
const B = `act-b-${suffix}`;
const LONG_FAILURE = `report source unavailable: ${'x'.repeat(1_500)}`;
let releaseHold: () => void = () => {};
const held = new Promise<void>((resolve) => {
  releaseHold = resolve;
});

interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are read field by field
  body: any;
}

async function call(
  method: string,
  path: string,
  body?: unknown,
  token: string | null = null,
): Promise<Reply> {
  const headers: Record<string, string> = {};
  const bearer = token ?? stack.tokens.adminToken;
  if (bearer !== '') headers.authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${stack.urls.api}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return checked(method, path, { status: res.status, body: text ? JSON.parse(text) : undefined });
}

async function ok(method: string, path: string, body?: unknown, token: string | null = null) {
  const reply = await call(method, path, body, token);
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
  return reply.body;
}

async function job(appName: string, executorHandler: string): Promise<number> {
  return (
    await ok('POST', '/v1/jobs', {
      appName,
      name: `${executorHandler} job`,
      author: 'activity',
      executorHandler,
      executorFailRetryCount: 0,
    })
  ).id;
}

let tokens = 0;
async function token(role: string, groups: string[]): Promise<string> {
  const created = await ok('POST', '/v1/tokens', {
    name: `act-${role}-${suffix}-${++tokens}`,
    role,
    groups,
    expiresInDays: 1,
  });
  return created.token;
}

// biome-ignore lint/suspicious/noExplicitAny: a run view
type RunView = any;
const ms = (iso: string | null) => (iso === null ? 0 : Date.parse(iso));

/** The nearest-rank percentile, written out independently of the domain's. */
function nearestRank(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1] ?? null;
}

/** What GET /v1/activity should answer for these runs, in the frame it answered with. */
// biome-ignore lint/suspicious/noExplicitAny: an activity view
function expected(activity: any, runs: RunView[]) {
  const from = ms(activity.from);
  const buckets = Array.from({ length: activity.buckets.length }, (_, i) => {
    const start = from + i * activity.bucketMs;
    const inBucket = runs.filter(
      (r) => ms(r.scheduledTime) >= start && ms(r.scheduledTime) < start + activity.bucketMs,
    );
    const lateness = inBucket
      .filter((r) => r.dispatchedAt !== null)
      .map((r) => ms(r.dispatchedAt) - ms(r.scheduledTime));
    const count = (status: string) => inBucket.filter((r) => r.status === status).length;
    return {
      start: new Date(start).toISOString(),
      success: count('success'),
      fail: count('fail'),
      running: count('running'),
      latenessP50Ms: nearestRank(lateness, 50),
      latenessP99Ms: nearestRank(lateness, 99),
    };
  });
  const lastFailures = runs
    .filter((r) => r.status === 'fail')
    .sort((a, b) => ms(b.scheduledTime) - ms(a.scheduledTime) || b.logId - a.logId)
    .slice(0, 10)
    .map((r) => ({
      logId: r.logId,
      jobId: r.jobId,
      jobName: r.jobName,
      appName: r.appName,
      handleMsg: r.handleMsg.length > 1_000 ? `${r.handleMsg.slice(0, 1_000)}...` : r.handleMsg,
      handleTime: r.handleTime,
      scheduledTime: r.scheduledTime,
    }));
  return {
    buckets,
    inProgress: runs.filter((r) => r.status === 'running').length,
    lastFailures,
    sampled: runs.length,
    truncated: false,
  };
}

/** Every run the stack recorded (a fresh stack: only this file's). */
let runs: RunView[] = [];
const of = (appName: string) => runs.filter((r) => r.appName === appName);

beforeAll(async () => {
  stack = await startLocal({
    standIns: inject('standIns'),
    port: 0,
    inMemory: true,
    logLevel: 'silent',
    resourcePrefix: `act-${suffix}-`,
    demo: false,
    tickPeriodMs: 3_600_000,
  });
  logRoot = await mkdtemp(join(tmpdir(), 'tickring-activity-'));
  for (const appName of [A, B])
    await ok('POST', '/v1/groups', { appName, title: 'activity', addressType: 'AUTO' });
  executor = createExecutor({
    appName: A,
    adminAddresses: stack.urls.api,
    accessToken: stack.tokens.accessToken,
    host: '127.0.0.1',
    port: 0,
    logDir: logRoot,
    registryIntervalMs: 1_000,
    logger: silentLogger,
  });
  executor.register('fine', async () => 'done');
  executor.register('boom', async (ctx) => {
    ctx.fail(ctx.param === 'long' ? LONG_FAILURE : 'boom');
  });
  executor.register('hold', async (ctx) => {
    await Promise.race([held, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
    return 'released';
  });
  await executor.start();
  await waitFor(async () => (await call('GET', `/v1/groups/${A}`)).body.addressList.length > 0, {
    what: 'the executor online',
    timeoutMs: 20_000,
  });

  const [fine, boom, hold, refused] = [
    await job(A, 'fine'),
    await job(A, 'boom'),
    await job(A, 'hold'),
    await job(B, 'fine'),
  ];
  const fires = [
    ...(await Promise.all([1, 2, 3].map(() => ok('POST', `/v1/jobs/${fine}/trigger`)))),
    await ok('POST', `/v1/jobs/${boom}/trigger`),
    await ok('POST', `/v1/jobs/${boom}/trigger`, { executorParam: 'long' }),
    await ok('POST', `/v1/jobs/${hold}/trigger`),
    await ok('POST', `/v1/jobs/${refused}/trigger`),
    await ok('POST', `/v1/jobs/${refused}/trigger`),
  ];
  // Each run settled: finished, or (the held one) sent and running.
  await waitFor(
    async () => {
      const page = await call('GET', '/v1/logs?limit=100');
      // The held run stays running once sent; every other one has its result.
      const settled = page.body.items.filter(
        (r: RunView) =>
          r.status !== 'running' || (r.jobId === hold && r.triggerCode === 200 && r.executorAddress !== null),
      );
      if (settled.length < fires.length) return undefined;
      runs = page.body.items;
      return true;
    },
    { what: 'every run recorded and settled', timeoutMs: 60_000, intervalMs: 200 },
  );
  expect(runs.map((r) => r.logId).sort()).toEqual(fires.map((f) => f.logId).sort());
}, 120_000);

afterAll(async () => {
  releaseHold();
  await executor?.stop();
  await stack?.stop();
  if (logRoot) await rm(logRoot, { recursive: true, force: true });
});

describe('GET /v1/activity', () => {
  it('counts every run of the last hour per minute of its scheduled time, as the runs list shows them', async () => {
    const before = Date.now();
    const activity = await ok('GET', '/v1/activity');
    expect(activity).toMatchObject({ window: '1h', bucketMs: 60_000 });
    const from = ms(activity.from);
    const to = ms(activity.to);
    expect(from % 60_000).toBe(0);
    expect(to - from).toBe(60 * 60_000);
    expect(to).toBeGreaterThan(before);
    expect(to - 60_000).toBeLessThanOrEqual(Date.now());
    expect(activity).toEqual({
      window: '1h',
      bucketMs: 60_000,
      from: activity.from,
      to: activity.to,
      ...expected(activity, runs),
    });

    // The figures themselves, not only their agreement with the list.
    const sum = (key: string) =>
      activity.buckets.reduce((n: number, b: Record<string, number>) => n + (b[key] ?? 0), 0);
    expect({ success: sum('success'), fail: sum('fail'), running: sum('running') }).toEqual({
      success: 3,
      fail: 4,
      running: 1,
    });
    expect(activity).toMatchObject({ inProgress: 1, sampled: 8, truncated: false });
    const busy = activity.buckets.filter(
      (b: { success: number; fail: number; running: number }) => b.success + b.fail + b.running > 0,
    );
    for (const bucket of busy) {
      expect(bucket.latenessP50Ms).toBeGreaterThanOrEqual(0);
      expect(bucket.latenessP99Ms).toBeGreaterThanOrEqual(bucket.latenessP50Ms);
    }
    const quiet = activity.buckets.filter(
      (b: { success: number; fail: number; running: number }) => b.success + b.fail + b.running === 0,
    );
    expect(quiet.length).toBeGreaterThanOrEqual(58);
    expect(
      quiet.every(
        (b: { latenessP50Ms: unknown; latenessP99Ms: unknown }) =>
          b.latenessP50Ms === null && b.latenessP99Ms === null,
      ),
    ).toBe(true);

    // The last failures, newest first: the refused ones without a result, the long message cut.
    expect(activity.lastFailures).toHaveLength(4);
    const refused = activity.lastFailures.filter((f: { appName: string }) => f.appName === B);
    expect(refused).toHaveLength(2);
    for (const f of refused) expect(f).toMatchObject({ handleMsg: '', handleTime: null });
    const long = activity.lastFailures.find((f: { handleMsg: string }) =>
      f.handleMsg.startsWith('report source'),
    );
    expect(long.handleMsg).toBe(`${LONG_FAILURE.slice(0, 1_000)}...`);
  });

  it('reads 6 and 24 hours in 5 and 15 minute buckets, with the same runs', async () => {
    for (const [window, bucketMs, count] of [
      ['6h', 300_000, 72],
      ['24h', 900_000, 96],
    ] as const) {
      const activity = await ok('GET', `/v1/activity?window=${window}`);
      expect(activity).toMatchObject({ window, bucketMs, sampled: 8, inProgress: 1 });
      expect(activity.buckets).toHaveLength(count);
      expect(ms(activity.from) % bucketMs).toBe(0);
      expect(activity).toEqual({
        window,
        bucketMs,
        from: activity.from,
        to: activity.to,
        ...expected(activity, runs),
      });
    }
  });

  it('shows a viewer of one group its runs and failures only, and nothing of another group', async () => {
    const viewerA = await token('viewer', [A]);
    const mine = await ok('GET', '/v1/activity', undefined, viewerA);
    expect(mine).toMatchObject({ sampled: 6, inProgress: 1, truncated: false });
    expect(mine).toEqual({
      window: '1h',
      bucketMs: 60_000,
      from: mine.from,
      to: mine.to,
      ...expected(mine, of(A)),
    });
    expect(mine.lastFailures.map((f: { appName: string }) => f.appName)).toEqual([A, A]);
    expect(JSON.stringify(mine)).not.toContain(B);

    // Asking for the other group by name reads as empty: no runs, no failures.
    const theirs = await ok('GET', `/v1/activity?appName=${B}`, undefined, viewerA);
    expect(theirs).toMatchObject({ sampled: 0, inProgress: 0, lastFailures: [], truncated: false });
    expect(
      theirs.buckets.every(
        (b: { success: number; fail: number; running: number }) => b.success + b.fail + b.running === 0,
      ),
    ).toBe(true);

    const operatorB = await token('operator', [B]);
    const onlyB = await ok('GET', '/v1/activity', undefined, operatorB);
    expect(onlyB).toMatchObject({ sampled: 2, inProgress: 0 });
    expect(onlyB).toEqual({
      window: '1h',
      bucketMs: 60_000,
      from: onlyB.from,
      to: onlyB.to,
      ...expected(onlyB, of(B)),
    });
    expect(onlyB.lastFailures.map((f: { appName: string }) => f.appName)).toEqual([B, B]);

    // Several groups seen: each one's runs, summed.
    const both = await ok(
      'GET',
      '/v1/activity',
      undefined,
      await token('viewer', [A, B, `act-none-${suffix}`]),
    );
    expect(both).toMatchObject({ sampled: 8, inProgress: 1 });

    // The admin asking for one group gets what its viewer gets.
    const adminA = await ok('GET', `/v1/activity?appName=${A}`);
    expect(adminA).toEqual({
      window: '1h',
      bucketMs: 60_000,
      from: adminA.from,
      to: adminA.to,
      ...expected(adminA, of(A)),
    });
  });

  it('answers 400 naming window for a window it does not know, and 401 without a token', async () => {
    for (const window of ['2h', '1H', '']) {
      const reply = await call('GET', `/v1/activity?window=${encodeURIComponent(window)}`);
      if (window === '') {
        // An empty query value is no value: the default window.
        expect(reply.status).toBe(200);
        continue;
      }
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ error: 'ValidationError', field: 'window' });
      expect(reply.body.message).toContain('1h, 6h, 24h');
    }
    expect((await call('GET', '/v1/activity', undefined, '')).status).toBe(401);
  });
});

describe('GET /v1/dashboard: skipped fires', () => {
  it('totals each day’s skipped fires, of every group or of the caller’s groups only', async () => {
    const reports = new DynamoReportStore({
      doc: stack.clients.doc,
      controlTable: stack.resources.tables.control,
    });
    const today = new Date().toISOString().slice(0, 10);
    await reports.add(today, { skipped: 2 }, A);
    await reports.add(today, { skipped: 5 }, B);
    const skipped = async (bearer: string | null) => {
      const board = await ok('GET', '/v1/dashboard?days=2', undefined, bearer);
      const series = board.series.reduce((n: number, d: { skipped: number }) => n + d.skipped, 0);
      expect(series).toBe(board.totals.skipped);
      // Never sent, so not among the runs.
      expect(board.totals.runs).toBe(board.totals.running + board.totals.success + board.totals.fail);
      return board.totals.skipped;
    };
    expect(await skipped(null)).toBe(7);
    expect(await skipped(await token('viewer', [`act-dash-${suffix}`, A]))).toBe(2);
    expect(await skipped(await token('operator', [B]))).toBe(5);
  });
});

// Last in the file: the busy group's runs would change what the admin's activity counts above.
describe('GET /v1/activity: a viewer of two groups beside a busy third', () => {
  /** Every run /v1/logs lists for the query (and caller), page after page. */
  async function allLogs(query: string, bearer: string | null = null): Promise<RunView[]> {
    const all: RunView[] = [];
    let cursor: string | null = null;
    do {
      const next = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = await ok('GET', `/v1/logs?limit=100${query}${next}`, undefined, bearer);
      all.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return all;
  }

  it('counts exactly the two groups’ runs, as /v1/logs lists them, however many the third has', async () => {
    const busy = `act-busy-${suffix}`;
    await ok('POST', '/v1/groups', { appName: busy, title: 'activity', addressType: 'AUTO' });
    const busyJob = await job(busy, 'fine');
    // 1,500 finished runs of the busy group, sent now (after A's and B's), 50 to a dispatcher
    // record, written as the dispatcher writes them: newer than every run of the viewer's groups.
    const BUSY_RUNS = 1_500;
    const store = new DynamoRunStore({
      doc: stack.clients.doc,
      runsTable: stack.resources.tables.runs,
      controlTable: stack.resources.tables.control,
      retentionDays: 30,
    });
    const logIds = await store.allocateLogIds(busyJob, BUSY_RUNS);
    const chunks = Array.from({ length: BUSY_RUNS / 50 }, (_, i) => logIds.slice(i * 50, i * 50 + 50));
    await Promise.all(
      chunks.map(async (chunk, i) => {
        const at = Date.now();
        const token = store.newClaimToken(at);
        const sent = chunk.map((logId) =>
          makeRun({
            logId,
            jobId: busyJob,
            appName: busy,
            jobName: 'fine job',
            dedupKey: `busy#${logId}`,
            scheduledTime: at,
            triggerTime: at,
            dispatchedAt: at + 3,
            executorAddress: 'http://127.0.0.1:9/',
            triggerCode: TRIGGER_CODE.success,
            handleCode: HANDLE_CODE.success,
            handleMsg: 'ok',
            handleTime: at + 10,
          }),
        );
        expect(await store.createFire(`busy#${suffix}#${i}`, sent, token)).toEqual({ created: true });
        await store.recordDispatch(
          token,
          sent.map((r) => ({ logId: r.logId, appName: busy, deadline: at + 600_000 })),
        );
      }),
    );
    // The busy runs are in the window, listed as the runs list lists them: the admin counts them.
    const everyone = await ok('GET', '/v1/activity');
    expect(everyone).toMatchObject({ sampled: runs.length + BUSY_RUNS, truncated: false });

    const listed = [...(await allLogs(`&appName=${A}`)), ...(await allLogs(`&appName=${B}`))];
    expect(listed).toHaveLength(8);
    const viewer = await token('viewer', [A, B]);
    const theirs = await ok('GET', '/v1/activity', undefined, viewer);
    expect(theirs).toMatchObject({ sampled: listed.length, inProgress: 1, truncated: false });
    expect(theirs).toEqual({
      window: '1h',
      bucketMs: 60_000,
      from: theirs.from,
      to: theirs.to,
      ...expected(theirs, listed),
    });
    expect(JSON.stringify(theirs)).not.toContain(busy);

    // The viewer's own runs list agrees: their two groups, nothing of the busy one.
    const viewed = await allLogs('', viewer);
    expect(viewed.map((r) => r.logId).sort()).toEqual(listed.map((r) => r.logId).sort());
  });
});
