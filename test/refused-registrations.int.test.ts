import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExecutor, type Executor, type ExecutorLogger } from '@tickring/executor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './e2e-stack.js';
import { waitFor } from './stand-ins.js';

/**
 * Executors that fail to register, made visible: real SDK executors (HTTP, the XXL-JOB protocol the
 * SDK speaks, with its XXL-JOB-APPNAME header) against the local stack on SQLite, one with a wrong
 * access token for its group, one with a typo in its app name and its group's own token (as an
 * XXL-JOB 3.5 executor configured so would). Each counts the refusals it was answered (the SDK
 * warns on each); GET /v1/executors then names both with the right reason and exactly that count.
 * The callback writes every refusal here (TICKRING_REFUSAL_WRITE_SECONDS=0); the throttle under a
 * flood is the recorder's unit test.
 */

interface RefusedView {
  appName: string;
  address: string;
  reason: string;
  hint: string;
  request: string;
  detail: string;
  count: number;
  firstSeen: string;
  lastSeen: string;
}

/** An executor that counts the registrations and removals the admin refused it. */
function refusalCounter() {
  const counted = { registry: 0, registryRemove: 0 };
  const logger: ExecutorLogger = {
    debug() {},
    info() {},
    warn(message) {
      if (message === 'registry not accepted by any admin') counted.registry++;
      if (message === 'registryRemove not accepted by any admin') counted.registryRemove++;
    },
    error() {},
  };
  return { counted, logger };
}

describe('refused executor registrations on the SQLite stack', () => {
  let e: E2eStack;
  let logRoot: string;
  let groupApp: string;
  let groupToken: string;
  const executors: Executor[] = [];

  const start = async (appName: string, accessToken: string, logger: ExecutorLogger) => {
    const executor = createExecutor({
      appName,
      adminAddresses: e.stack.urls.api,
      accessToken,
      host: '127.0.0.1',
      port: 0,
      logDir: join(logRoot, `${appName}-${executors.length}`),
      logRetentionDays: 0,
      logger,
      registryIntervalMs: 500,
    });
    executors.push(executor);
    await executor.start();
    return executor;
  };
  const refused = async (appName?: string): Promise<RefusedView[]> => {
    const query = appName === undefined ? '' : `?appName=${encodeURIComponent(appName)}`;
    const reply = await e.call('GET', `/v1/executors${query}`);
    expect(reply.status).toBe(200);
    return reply.body.refused;
  };

  beforeAll(async () => {
    e = await startE2eStack('refused', { TICKRING_REFUSAL_WRITE_SECONDS: '0' });
    logRoot = await mkdtemp(join(tmpdir(), 'tickring-refused-'));
    groupApp = await e.createAutoGroup('refused');
    const set = await e.call('PUT', `/v1/groups/${groupApp}/access-token`, {});
    expect(set.status).toBe(200);
    groupToken = set.body.accessToken;
  });

  afterAll(async () => {
    for (const executor of executors) await executor.stop().catch(() => undefined);
    await e?.stop();
    if (logRoot) await rm(logRoot, { recursive: true, force: true });
  });

  it('counts a wrong token and an unknown app name per executor, with the reason and its fix', async () => {
    const wrongToken = refusalCounter();
    const typo = refusalCounter();
    const withWrongToken = await start(groupApp, 'not-the-group-token', wrongToken.logger);
    const typoApp = `${groupApp}x`;
    const withTypo = await start(typoApp, groupToken, typo.logger);
    await waitFor(async () => wrongToken.counted.registry >= 3 && typo.counted.registry >= 3, {
      timeoutMs: 20_000,
      what: 'three refused registrations of each executor',
    });
    // Stopped, each sends its last registration's removal: refused too, under the same key.
    await withWrongToken.stop();
    await withTypo.stop();
    const expected = {
      wrongToken: wrongToken.counted.registry + wrongToken.counted.registryRemove,
      typo: typo.counted.registry + typo.counted.registryRemove,
    };
    expect(wrongToken.counted.registryRemove).toBe(1);

    const all = await refused();
    expect(all).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          appName: groupApp,
          address: withWrongToken.address,
          reason: 'wrong-token',
          request: 'registryRemove',
          detail: 'invalid request, accessToken or appname invalid.',
          count: expected.wrongToken,
        }),
        expect.objectContaining({
          appName: typoApp,
          address: withTypo.address,
          reason: 'unknown-app-name',
          count: expected.typo,
          hint: expect.stringContaining('No executor group has this app name'),
        }),
      ]),
    );
    for (const r of all) {
      expect(Date.parse(r.firstSeen)).toBeLessThanOrEqual(Date.parse(r.lastSeen));
      // Neither token, nor a part of the group's, is ever shown.
      expect(JSON.stringify(r)).not.toContain('not-the-group-token');
      expect(JSON.stringify(r)).not.toContain(groupToken.slice(0, 8));
    }

    // The group's page counts its own refusals; asking for it lists only them.
    const group = await e.call('GET', `/v1/executors?appName=${groupApp}`);
    expect(group.body.items[0]).toMatchObject({ appName: groupApp, executors: [], refusedRegistrations: 1 });
    expect((await refused(groupApp)).map((r) => r.address)).toEqual([withWrongToken.address]);
  });

  it('accepts the executor once it is fixed, and keeps the refusals it had for the day', async () => {
    const fixed = await start(groupApp, groupToken, refusalCounter().logger);
    await e.waitForExecutor(groupApp, fixed.address);
    const after = await refused(groupApp);
    expect(after.find((r) => r.address === fixed.address)).toBeUndefined();
    expect(after).toHaveLength(1);
  });
});
