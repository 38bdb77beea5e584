import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { groupAddresses } from '@tickring/core/executors/use-cases';
import { dayOf } from '@tickring/core/runs';
import { createExecutor, type Executor, silentLogger } from '@tickring/executor';
import type { TriggerParam } from '@tickring/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallbackStack, startCallbackStack } from '../../test/callback-stack.js';
import { recordConsumedCapacity } from '../../test/consumed-capacity.js';
import { waitFor } from '../../test/stand-ins.js';

const DEAD_SECONDS = 2;

describe('callback function (executor-facing XXL-JOB API) on the local stack', () => {
  let t: CallbackStack;
  let logRoot: string;
  const executors: Executor[] = [];
  const hooks: Server[] = [];

  beforeAll(async () => {
    t = await startCallbackStack('cb', {
      settings: { TICKRING_REGISTRY_DEAD_SECONDS: String(DEAD_SECONDS) },
    });
    logRoot = await mkdtemp(join(tmpdir(), 'tickring-cb-'));
  });

  afterAll(async () => {
    for (const executor of executors) await executor.stop().catch(() => undefined);
    for (const hook of hooks) {
      hook.closeAllConnections();
      hook.close();
    }
    await t?.stop();
    await rm(logRoot, { recursive: true, force: true });
  });

  async function startExecutor(
    appName: string,
    adminPath = '',
    registryIntervalMs = 600_000,
  ): Promise<Executor> {
    const executor = createExecutor({
      appName,
      adminAddresses: `${t.stack.urls.api}${adminPath}`,
      accessToken: t.stack.tokens.accessToken,
      port: 0,
      host: '127.0.0.1',
      logDir: join(logRoot, appName),
      registryIntervalMs,
      logger: silentLogger,
    });
    executor.register('echo', async (ctx) => `echo ${ctx.param}`);
    executor.register('explode', async () => {
      throw new Error('kaboom');
    });
    executors.push(executor);
    await executor.start();
    return executor;
  }

  const runOf = (logId: number) => t.runs.get(logId);

  describe('protocol answers (always HTTP 200, XXL-JOB envelope)', () => {
    it('answers a non-POST request "invalid request, HttpMethod not support."', async () => {
      const response = await fetch(`${t.stack.urls.api}/api/callback`, {
        headers: { 'XXL-JOB-ACCESS-TOKEN': t.stack.tokens.accessToken },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ code: 500, msg: 'invalid request, HttpMethod not support.' });
    });

    it('names an unknown uri, answers an empty body and a blank registry field as the Java admin does', async () => {
      expect(await t.post('/xxl-job-admin/api/jobinfo', {})).toEqual({
        status: 200,
        reply: { code: 500, msg: 'invalid request, uri-mapping(jobinfo) not found.' },
      });
      expect((await t.post('/api/callback', '')).reply).toEqual({ code: 500, msg: 'requestBody empty.' });
      expect(
        (
          await t.post('/api/registry', {
            registryGroup: 'EXECUTOR',
            registryKey: 'cb-x',
            registryValue: ' ',
          })
        ).reply,
      ).toEqual({ code: 500, msg: 'Illegal Argument.' });
    });
  });

  describe('tokens fail closed', () => {
    it('refuses a missing or wrong token with code 500 and writes nothing', async () => {
      const job = await t.createJob();
      const run = await t.createRun(job);
      const registration = {
        registryGroup: 'EXECUTOR',
        registryKey: 'cb-untrusted',
        registryValue: 'http://evil:1/',
      };
      const callback = [
        { logId: run.logId, logDateTim: run.triggerTime, handleCode: 200, handleMsg: 'forged' },
      ];
      const headerSets: Record<string, string>[] = [
        {},
        { 'XXL-JOB-ACCESS-TOKEN': 'wrong' },
        { 'XXL-JOB-ACCESS-TOKEN': '' },
      ];
      for (const headers of headerSets) {
        expect(await t.post('/api/registry', registration, headers)).toEqual({
          status: 200,
          reply: { code: 500, msg: 'The access token is wrong.' },
        });
        expect((await t.post('/api/callback', callback, headers)).reply).toEqual({
          code: 500,
          msg: 'The access token is wrong.',
        });
      }
      expect(await t.registry.list('cb-untrusted')).toEqual([]);
      expect(await runOf(run.logId)).toMatchObject({ handleCode: 0, handleMsg: '' });
    });
  });

  describe('registry', () => {
    it('stores a heartbeat with its time; the executor is in its AUTO group until the dead timeout passes', async () => {
      const appName = 'cb-auto-app';
      await t.groups.create({
        appName,
        title: 'auto',
        addressType: 'AUTO',
        addressList: [],
        createdAt: 0,
        updatedAt: 0,
      });
      const before = Date.now();
      const executor = await startExecutor(appName);
      const group = await t.groups.get(appName);
      if (!group) throw new Error('group missing');
      const clock = { now: () => Date.now(), sleep: async () => {} };
      const addresses = () => groupAddresses({ registry: t.registry, clock }, group, DEAD_SECONDS);

      expect(
        await waitFor(async () => ((await addresses()).length ? addresses() : undefined), {
          what: 'registration',
        }),
      ).toEqual([executor.address]);
      const { Item } = await t.stack.clients.doc.send(
        new GetCommand({
          TableName: t.stack.resources.tables.registry,
          Key: { appName, address: executor.address },
        }),
      );
      expect(Item?.updatedAt).toBeGreaterThanOrEqual(before);
      // TTL: three dead timeouts after the beat.
      expect(Item?.expiresAt).toBe(Math.floor(Number(Item?.updatedAt) / 1000) + 3 * DEAD_SECONDS);

      await waitFor(async () => (await addresses()).length === 0, {
        what: 'expiry after the dead timeout',
        timeoutMs: 15_000,
      });
      // A MANUAL group uses its own list, whatever the registry says.
      expect(
        await groupAddresses(
          { registry: t.registry, clock },
          { ...group, addressType: 'MANUAL', addressList: ['http://m:1/'] },
          2,
        ),
      ).toEqual(['http://m:1/']);
    });

    it('removes the executor at once on registryRemove (here under the /xxl-job-admin context path)', async () => {
      const appName = 'cb-leaving-app';
      const executor = await startExecutor(appName, '/xxl-job-admin');
      await waitFor(async () => (await t.registry.list(appName)).length === 1, { what: 'registration' });
      await executor.stop();
      expect(await t.registry.list(appName)).toEqual([]);
    });
  });

  describe('results', () => {
    it("completes the run from a real executor's callback (bare array, logDateTim) and counts it", async () => {
      const appName = 'cb-exec-app';
      const executor = await startExecutor(appName);
      const job = await t.createJob({ appName, executorHandler: 'echo' });
      const run = await t.createRun(job, { executorAddress: executor.address });
      const trigger: TriggerParam = {
        jobId: job.id,
        executorHandler: 'echo',
        executorParams: 'hi',
        executorBlockStrategy: 'SERIAL_EXECUTION',
        executorTimeout: 0,
        logId: run.logId,
        logDateTime: run.triggerTime,
        glueType: 'BEAN',
        glueSource: '',
        glueUpdatetime: 0,
        broadcastIndex: 0,
        broadcastTotal: 1,
      };
      const accepted = await fetch(`${executor.address}run`, {
        method: 'POST',
        headers: { 'XXL-JOB-ACCESS-TOKEN': t.stack.tokens.accessToken },
        body: JSON.stringify(trigger),
      });
      expect(await accepted.json()).toMatchObject({ code: 200 });

      const done = await waitFor(
        async () => {
          const r = await runOf(run.logId);
          return r?.handleCode ? r : undefined;
        },
        { what: 'the callback' },
      );
      expect(done).toMatchObject({ handleCode: 200, handleMsg: 'echo hi' });
      expect(done.handleTime).toBeGreaterThan(0);
      const [report] = await t.reports.range(dayOf(run.triggerTime), dayOf(run.triggerTime));
      expect(report?.success).toBeGreaterThanOrEqual(1);
    });

    it('stores a plain success with one write of its run (no outcome-pending mark, no clear), and counts the batch with one write per day', async () => {
      const capacity = recordConsumedCapacity(t.stack.clients.doc);
      const { runs: runsTable } = t.stack.resources.tables;
      const job = await t.createJob();
      const runs = [await t.createRun(job), await t.createRun(job), await t.createRun(job)];
      const since = capacity.records.length;
      const reply = await t.post(
        '/api/callback',
        runs.map((r) => ({ logId: r.logId, logDateTim: r.triggerTime, handleCode: 200, handleMsg: 'ok' })),
      );
      expect(reply.reply).toEqual({ code: 200 });
      const writes = capacity.slice(since).filter((r) => r.command === 'UpdateItemCommand');
      const logIds = runs.map((r) => r.logId).sort((a, b) => a - b);
      const runWrites = writes.filter(
        (r) => r.input.TableName === runsTable && logIds.includes(Number((r.input.Key as { sk: number }).sk)),
      );
      expect(runWrites.map((r) => (r.input.Key as { sk: number }).sk).sort((a, b) => a - b)).toEqual(logIds);
      // Each result: the run (1 unit), no index entry.
      for (const write of runWrites) {
        expect(write.tableWcu).toBe(1);
        expect(Object.values(write.indexWcu).filter((units) => units > 0)).toEqual([]);
      }
      const day = dayOf(runs[0]?.triggerTime ?? 0);
      const counterWrites = writes.filter((r) => (r.input.Key as { pk?: string }).pk === `report#${day}`);
      expect(counterWrites).toHaveLength(1);
      for (const run of runs) {
        const { Item } = await t.stack.clients.doc.send(
          new GetCommand({
            TableName: runsTable,
            Key: { pk: `J#${job.id}`, sk: run.logId },
            ConsistentRead: true,
          }),
        );
        expect(Item).toMatchObject({ handleCode: 200, handleMsg: 'ok' });
        expect(Item).not.toHaveProperty('outcomeBucket');
      }
    });

    it('completes a run from the 3.5 {callbackList} body with logDateTime, and cuts a long message at 15,000', async () => {
      const job = await t.createJob();
      const run = await t.createRun(job);
      const reply = await t.post('/xxl-job-admin/api/callback', {
        callbackList: [
          { logId: run.logId, logDateTime: run.triggerTime, handleCode: 200, handleMsg: 'x'.repeat(20_000) },
        ],
      });
      expect(reply).toEqual({ status: 200, reply: { code: 200 } });
      const done = await runOf(run.logId);
      expect(done?.handleCode).toBe(200);
      expect(done?.handleMsg).toBe(`${'x'.repeat(15_000)}...`);
    });

    it('ignores a repeat callback for a finished run', async () => {
      const job = await t.createJob();
      const run = await t.createRun(job);
      const first = [{ logId: run.logId, logDateTim: run.triggerTime, handleCode: 200, handleMsg: 'first' }];
      expect((await t.post('/api/callback', first)).reply).toEqual({ code: 200 });
      const repeat = [{ logId: run.logId, logDateTim: run.triggerTime, handleCode: 500, handleMsg: 'again' }];
      expect((await t.post('/api/callback', repeat)).reply).toEqual({ code: 200 });
      expect(await runOf(run.logId)).toMatchObject({ handleCode: 200, handleMsg: 'first', alarmStatus: 0 });
    });

    it('reports an unknown logId in the reply and still takes the rest of the batch', async () => {
      const job = await t.createJob();
      const run = await t.createRun(job);
      const unknown = run.logId + 1_000_000;
      const reply = await t.post('/api/callback', [
        { logId: unknown, logDateTim: 0, handleCode: 200, handleMsg: '' },
        { logId: run.logId, logDateTim: run.triggerTime, handleCode: 200, handleMsg: 'ok' },
      ]);
      expect(reply).toEqual({ status: 200, reply: { code: 200, msg: `unknown logId ignored: ${unknown}` } });
      expect((await runOf(run.logId))?.handleCode).toBe(200);
    });

    it('schedules a RETRY on the ring after the backoff while retries are left', async () => {
      const job = await t.createJob({ executorFailRetryCount: 2, retryBackoffSeconds: 2 });
      const run = await t.createRun(job);
      const sentAt = Date.now();
      const reply = await t.post('/api/callback', [
        { logId: run.logId, logDateTim: run.triggerTime, handleCode: 500, handleMsg: 'failed once' },
      ]);
      expect(reply.reply).toEqual({ code: 200 });
      const retry = await waitFor(
        () => t.ring.messages.find((m) => m.body.dedupKey === `retry#${run.logId}`),
        {
          what: 'the RETRY message',
        },
      );
      expect(retry.body).toMatchObject({
        jobId: job.id,
        triggerType: 'RETRY',
        retry: { attempt: 2, ofLogId: run.logId, retriesLeft: 1 },
      });
      expect(retry.body.scheduledTime - sentAt).toBeGreaterThanOrEqual(2_000);
      expect(retry.body.scheduledTime - sentAt).toBeLessThan(4_000);
      // The ring kept it invisible for the backoff (whole seconds).
      expect(retry.receivedAt - retry.sentAt).toBeGreaterThanOrEqual(1_900);
      expect(await runOf(run.logId)).toMatchObject({ handleCode: 500, alarmStatus: 1 });
      expect(t.alarms.messages.filter((m) => (m.body.run as { logId: number }).logId === run.logId)).toEqual(
        [],
      );
    });

    it('raises the alarm after the last failure: the SNS topic and the job webhook get it, the run says sent', async () => {
      const hook = await webhookServer(200);
      const job = await t.createJob({
        executorFailRetryCount: 0,
        alarmWebhook: hook.url,
        alarmEmail: 'ops@example.com',
      });
      const run = await t.createRun(job);
      await t.post('/api/callback', [
        { logId: run.logId, logDateTim: run.triggerTime, handleCode: 502, handleMsg: 'job execute timeout' },
      ]);
      const posted = await waitFor(() => hook.bodies[0], { what: 'the webhook POST' });
      expect(posted).toMatchObject({
        type: 'tickring.alarm',
        job: { id: job.id, alarmEmail: 'ops@example.com' },
        run: { logId: run.logId, handleCode: 502, handleMsg: 'job execute timeout' },
      });
      const published = await waitFor(
        () => t.alarms.messages.find((m) => (m.body.run as { logId: number }).logId === run.logId),
        { what: 'the SNS alarm' },
      );
      expect(published.body).toMatchObject({
        type: 'tickring.alarm',
        summary: expect.stringContaining(`log ${run.logId}`),
      });
      await waitFor(async () => (await runOf(run.logId))?.alarmStatus === 2, { what: 'alarm status sent' });
      expect(t.ring.messages.filter((m) => m.body.jobId === job.id)).toEqual([]);
    });

    it('stores alarm status 3 when the webhook refuses the alarm', async () => {
      const hook = await webhookServer(503);
      const job = await t.createJob({ alarmWebhook: hook.url });
      const run = await t.createRun(job);
      await t.post('/api/callback', [{ logId: run.logId, logDateTim: 0, handleCode: 500, handleMsg: 'no' }]);
      await waitFor(async () => (await runOf(run.logId))?.alarmStatus === 3, { what: 'alarm status failed' });
      expect(hook.bodies).toHaveLength(1);
    });

    it('triggers each child job with a PARENT message after a success', async () => {
      const childA = await t.createJob();
      const childB = await t.createJob();
      const parent = await t.createJob({ childJobIds: [childA.id, childB.id] });
      const run = await t.createRun(parent);
      await t.post('/api/callback', [{ logId: run.logId, logDateTim: 0, handleCode: 200, handleMsg: 'ok' }]);
      const parents = await waitFor(
        () => {
          const found = t.ring.messages.filter((m) => m.body.parentLogId === run.logId);
          return found.length >= 2 ? found : undefined;
        },
        { what: 'two PARENT messages' },
      );
      expect(parents.map((m) => [m.body.jobId, m.body.triggerType, m.body.dedupKey]).sort()).toEqual(
        [
          [childA.id, 'PARENT', `parent#${run.logId}#${childA.id}`],
          [childB.id, 'PARENT', `parent#${run.logId}#${childB.id}`],
        ].sort(),
      );
    });
  });

  async function webhookServer(status: number): Promise<{ url: string; bodies: unknown[] }> {
    const bodies: unknown[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.statusCode = status;
        res.end();
      });
    });
    hooks.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/alarm`, bodies };
  }
});
