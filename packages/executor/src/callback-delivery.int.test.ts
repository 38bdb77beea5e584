import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminDriver } from '../test-support/admin-driver.js';
import { FakeAdmin } from '../test-support/fake-admin.js';
import { FAST, TOKEN } from '../test-support/harness.js';
import { waitFor } from '../test-support/wait-for.js';
import { createExecutor, type Executor } from './executor.js';
import { silentLogger } from './logger.js';

let logDir: string;
const admins: FakeAdmin[] = [];
const executors: Executor[] = [];

beforeEach(async () => {
  logDir = await mkdtemp(join(tmpdir(), 'tickring-delivery-'));
});

afterEach(async () => {
  for (const ex of executors.splice(0)) await ex.stop();
  for (const admin of admins.splice(0)) await admin.close();
  await rm(logDir, { recursive: true, force: true });
});

async function startAdmin(opts: { contextPath?: string } = {}) {
  const admin = await FakeAdmin.start({ token: TOKEN, ...opts });
  admins.push(admin);
  return admin;
}

async function startExecutor(adminAddresses: string[], extra: { callbackRetryIntervalMs?: number } = {}) {
  const ex = createExecutor({
    appName: 'delivery-test',
    adminAddresses,
    accessToken: TOKEN,
    port: 0,
    host: '127.0.0.1',
    logDir,
    logger: silentLogger,
    ...FAST,
    ...extra,
  });
  ex.register('ok', (ctx) => `ran ${ctx.logId}`);
  await ex.start();
  executors.push(ex);
  return { ex, driver: new AdminDriver(ex.address, TOKEN) };
}

const spooled = async () =>
  (await readdir(join(logDir, 'callbacklog')).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));

describe('callback delivery', () => {
  it('spools results while the admin answers HTTP 500 and delivers them when it is back', async () => {
    const admin = await startAdmin();
    const { driver } = await startExecutor([admin.baseUrl]);
    admin.mode = 'down';
    await driver.run({ jobId: 1, logId: 1001, executorHandler: 'ok' });
    await driver.run({ jobId: 2, logId: 1002, executorHandler: 'ok' });
    await waitFor(async () => (await spooled()).length >= 1, { message: 'a spool file' });
    await waitFor(async () => (await driver.idleBeat(2)).json.code === 200);
    expect(admin.callbacks).toEqual([]);
    admin.mode = 'up';
    await waitFor(() => admin.callbackFor(1001) && admin.callbackFor(1002), { message: 'both callbacks' });
    expect(admin.callbackFor(1001)).toMatchObject({ handleCode: 200, handleMsg: 'ran 1001' });
    await waitFor(async () => (await spooled()).length === 0, { message: 'spool emptied' });
  });

  it('keeps spooled results across a restart: a new executor on the same logDir delivers them', async () => {
    const admin = await startAdmin();
    const first = await startExecutor([admin.baseUrl], { callbackRetryIntervalMs: 60_000 });
    await admin.close();
    await first.driver.run({ jobId: 1, logId: 2001, executorHandler: 'ok' });
    await waitFor(async () => (await spooled()).length === 1, { message: 'a spool file' });
    await first.ex.stop();

    await admin.reopen();
    expect(admin.callbacks).toEqual([]);
    await startExecutor([admin.baseUrl], { callbackRetryIntervalMs: 60_000 });
    const cb = await waitFor(() => admin.callbackFor(2001), { message: 'callback after restart' });
    expect(cb).toMatchObject({ logId: 2001, handleCode: 200, handleMsg: 'ran 2001' });
    await waitFor(async () => (await spooled()).length === 0, { message: 'spool emptied' });
  });

  it('tries the admin addresses in turn and stops at the first that accepts', async () => {
    const down = await startAdmin();
    down.mode = 'refuse';
    const up = await startAdmin({ contextPath: '/xxl-job-admin' });
    up.envelope = 'data';
    const closed = await startAdmin();
    await closed.close();
    const { driver } = await startExecutor([closed.baseUrl, down.baseUrl, `${up.baseUrl}/`]);
    await driver.run({ jobId: 1, logId: 3001, executorHandler: 'ok' });
    await waitFor(() => up.callbackFor(3001), { message: 'callback on the third admin' });
    expect(down.callbacks).toEqual([]);
    expect(up.requests.find((r) => r.path === 'callback')?.headers['xxl-job-access-token']).toBe(TOKEN);
    expect(await spooled()).toEqual([]);
  });

  it('flushes results on stop, spooling them if no admin answers', async () => {
    const admin = await startAdmin();
    const { ex, driver } = await startExecutor([admin.baseUrl], { callbackRetryIntervalMs: 60_000 });
    admin.mode = 'down';
    await driver.run({ jobId: 1, logId: 4001, executorHandler: 'ok' });
    await ex.stop();
    expect(await spooled()).toHaveLength(1);
  });
});
