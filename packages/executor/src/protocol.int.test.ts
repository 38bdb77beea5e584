import { existsSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogResult } from '@tickring/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, TOKEN } from '../test-support/harness.js';
import { gate, waitFor } from '../test-support/wait-for.js';
import { createExecutor } from './executor.js';
import type { JobContext } from './job-context.js';
import { logDay } from './job-log.js';
import { silentLogger } from './logger.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('executor protocol server', () => {
  it('answers /beat with an empty body exactly {"code":200} as text/html', async () => {
    h = await startHarness();
    const res = await h.driver.beat();
    expect(res.status).toBe(200);
    expect(res.text).toBe('{"code":200}');
    expect(res.contentType).toBe('text/html;charset=UTF-8');
  });

  it('runs a trigger with null fields, calls back with the token, and serves its log', async () => {
    const calls: Array<{ param: string; shard: string }> = [];
    h = await startHarness({
      register: (ex) =>
        ex.register('demoJobHandler', (ctx) => {
          calls.push({ param: ctx.param, shard: `${ctx.shardIndex}/${ctx.shardTotal}` });
          ctx.log('hello from %s', 'the handler');
          return 'all good';
        }),
    });
    const logDateTime = Date.now();
    const res = await h.driver.run({
      jobId: 5,
      logId: 101,
      logDateTime,
      executorParams: null,
      glueSource: null,
    });
    expect(res.text).toBe('{"code":200}');
    const cb = await waitFor(() => h?.admin.callbackFor(101), { message: 'callback 101' });
    expect(cb).toEqual({ logId: 101, logDateTim: logDateTime, handleCode: 200, handleMsg: 'all good' });
    expect(calls).toEqual([{ param: '', shard: '0/1' }]);
    const request = h.admin.requests.find((r) => r.path === 'callback');
    expect(request?.headers['xxl-job-access-token']).toBe(TOKEN);
    expect(request?.headers['content-type']).toBe('application/json;charset=UTF-8');

    const log = await h.driver.log(logDateTime, 101, 1);
    expect(log.json.code).toBe(200);
    const content = log.json.content as LogResult;
    expect(log.json.data).toEqual(content);
    expect(content.fromLineNum).toBe(1);
    expect(content.isEnd).toBe(false);
    expect(content.logContent).toContain('hello from the handler');
    expect(content.logContent.split('\n').length - 1).toBe(content.toLineNum);

    const tail = await h.driver.send<LogResult>('/log', {
      logDateTime,
      logId: 101,
      fromLineNum: content.toLineNum,
    });
    expect(tail.json.content?.logContent).toContain('Result: handleCode=200');
    expect(tail.json.content?.logContent.split('\n')).toHaveLength(2);
  });

  it('serves /trigger as an alias of /run', async () => {
    h = await startHarness({ register: (ex) => ex.register('demoJobHandler', () => {}) });
    const res = await h.driver.send('/trigger', { jobId: 1, logId: 7, executorHandler: 'demoJobHandler' });
    expect(res.json).toEqual({ code: 200 });
    await waitFor(() => h?.admin.callbackFor(7));
  });

  it('answers a /log for an unknown run with isEnd true', async () => {
    h = await startHarness();
    const res = await h.driver.log(Date.now(), 999_999, 1);
    expect(res.json.content).toEqual({
      fromLineNum: 1,
      toLineNum: 0,
      logContent: 'readLog fail, logFile not exists',
      isEnd: true,
    });
  });

  it('answers /idleBeat 500 while a job runs and 200 once it is done, and /kill stops it', async () => {
    const started = gate();
    h = await startHarness({
      register: (ex) =>
        ex.register('slow', (ctx: JobContext) => {
          started.open();
          return new Promise((_, reject) =>
            ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
          );
        }),
    });
    expect((await h.driver.idleBeat(3)).json).toEqual({ code: 200 });
    await h.driver.run({ jobId: 3, logId: 31, executorHandler: 'slow' });
    await started.promise;
    expect((await h.driver.idleBeat(3)).json).toEqual({
      code: 500,
      msg: 'job thread is running or has trigger queue.',
    });
    expect((await h.driver.kill(3)).json).toEqual({ code: 200 });
    const cb = await waitFor(() => h?.admin.callbackFor(31));
    expect(cb).toMatchObject({
      handleCode: 500,
      handleMsg: 'scheduling center kill job. [job running, killed]',
    });
    expect((await h.driver.idleBeat(3)).json).toEqual({ code: 200 });
    expect((await h.driver.kill(3)).json).toEqual({ code: 200, msg: 'job thread already killed.' });
  });

  it('runs a logId sent twice only once', async () => {
    let runs = 0;
    h = await startHarness({
      register: (ex) =>
        ex.register('demoJobHandler', () => {
          runs++;
        }),
    });
    const [a, b] = await Promise.all([h.driver.run({ logId: 55 }), h.driver.run({ logId: 55 })]);
    expect([a.json, b.json]).toContainEqual({ code: 500, msg: 'repeate trigger job, logId:55' });
    expect([a.json, b.json]).toContainEqual({ code: 200 });
    await waitFor(() => h?.admin.callbackFor(55));
    expect((await h.driver.run({ logId: 55 })).json.msg).toBe('repeate trigger job, logId:55');
    await waitFor(async () => (await h?.driver.idleBeat(1))?.json.code === 200);
    expect(runs).toBe(1);
    expect(h.admin.callbacks.filter((c) => c.logId === 55)).toHaveLength(1);
  });

  it('refuses a wrong or missing token with "The access token is wrong." and runs nothing', async () => {
    let runs = 0;
    h = await startHarness({
      register: (ex) =>
        ex.register('demoJobHandler', () => {
          runs++;
        }),
    });
    const wrong = await h.driver.send('/run', { jobId: 1, logId: 1 }, { token: 'nope' });
    const missing = await h.driver.send('/run', { jobId: 1, logId: 2 }, { token: null });
    const beat = await h.driver.send('/beat', undefined, { token: null });
    for (const res of [wrong, missing, beat]) {
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ code: 500, msg: 'The access token is wrong.' });
    }
    const upper = await h.driver.send('/beat', undefined, { tokenHeader: 'XXL-JOB-ACCESS-TOKEN' });
    expect(upper.json).toEqual({ code: 200 });
    expect(runs).toBe(0);
    expect(h.admin.callbacks).toEqual([]);
  });

  it('answers non-POST, unknown paths, bad JSON and unknown handlers as the Java executor', async () => {
    h = await startHarness();
    expect((await h.driver.send('/beat', undefined, { method: 'GET' })).json).toEqual({
      code: 500,
      msg: 'invalid request, HttpMethod not support.',
    });
    expect((await h.driver.send('/nope', {})).json).toEqual({
      code: 500,
      msg: 'invalid request, uri-mapping(/nope) not found.',
    });
    expect((await h.driver.run({ executorHandler: 'missing', logId: 3 })).json).toEqual({
      code: 500,
      msg: 'job handler [missing] not found.',
    });
    expect((await h.driver.send('/run', { logId: 4 })).json).toEqual({
      code: 500,
      msg: 'invalid request, jobId is required',
    });
    expect((await h.driver.send('/kill')).json.code).toBe(500);
  });

  it('registers at start and on every beat, and removes the registration on stop', async () => {
    h = await startHarness({ contextPath: '/xxl-job-admin' });
    const expected = { registryGroup: 'EXECUTOR', registryKey: 'tickring-test', registryValue: h.ex.address };
    expect(h.ex.address).toBe(`http://127.0.0.1:${h.ex.port}/`);
    expect(h.ex.port).toBeGreaterThan(0);
    await waitFor(() => (h?.admin.registrations.length ?? 0) >= 2, { message: 'two registry beats' });
    expect(h.admin.registrations[0]).toEqual(expected);
    const registry = h.admin.requests.find((r) => r.path === 'registry');
    expect(registry?.headers['xxl-job-access-token']).toBe(TOKEN);
    await h.ex.stop();
    expect(h.admin.removals).toEqual([expected]);
  });

  it('registers the configured address instead of the bound one', async () => {
    h = await startHarness({ address: 'http://executor.example.internal:9999/' });
    await waitFor(() => h?.admin.registrations[0]);
    expect(h.admin.registrations[0]?.registryValue).toBe('http://executor.example.internal:9999/');
  });

  it('refuses to be created without a token unless allowNoToken is set, and then accepts any request', async () => {
    const base = { appName: 'open-app', adminAddresses: 'http://127.0.0.1:1', port: 0, host: '127.0.0.1' };
    expect(() => createExecutor(base)).toThrow(/accessToken is required/);
    expect(() => createExecutor({ ...base, accessToken: '  ' })).toThrow(/accessToken is required/);
    h = await startHarness({ accessToken: undefined, allowNoToken: true });
    expect((await h.driver.send('/beat', undefined, { token: null })).json).toEqual({ code: 200 });
    expect(h.admin.requests.every((r) => r.headers['xxl-job-access-token'] === undefined)).toBe(true);
  });

  it('refuses new triggers during stop and lets the running one finish', async () => {
    const release = gate();
    const started = gate();
    h = await startHarness({
      register: (ex) =>
        ex.register('slow', async () => {
          started.open();
          await release.promise;
          return 'finished in time';
        }),
      logger: silentLogger,
    });
    await h.driver.run({ jobId: 8, logId: 81, executorHandler: 'slow' });
    await started.promise;
    const stopping = h.ex.stop();
    setTimeout(release.open, 50);
    await stopping;
    expect(h.admin.callbackFor(81)).toMatchObject({ handleCode: 200, handleMsg: 'finished in time' });
    expect(h.admin.removals).toHaveLength(1);
  });

  it('removes run logs older than logRetentionDays at start, and keeps them when retention is below 3', async () => {
    const today = logDay(Date.now());
    const makeDir = async () => {
      const dir = await mkdtemp(join(tmpdir(), 'tickring-retention-'));
      await mkdir(join(dir, '2001-01-01'));
      await mkdir(join(dir, today));
      return dir;
    };
    h = await startHarness({ logDir: await makeDir(), logRetentionDays: 3 });
    const logDir = h.logDir;
    await waitFor(() => !existsSync(join(logDir, '2001-01-01')), { message: 'old log folder removed' });
    expect(existsSync(join(logDir, today))).toBe(true);
    await h.close();

    h = await startHarness({ logDir: await makeDir(), logRetentionDays: 2 });
    await h.driver.beat();
    expect(existsSync(join(h.logDir, '2001-01-01'))).toBe(true);
  });
});
