import { randomBytes } from 'node:crypto';
import type { Run } from '@tickring/core/runs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './e2e-stack.js';
import { type ProtocolExecutor, startProtocolExecutor } from './protocol-executor.js';
import { waitFor } from './stand-ins.js';

/**
 * Executors of both generations of the XXL-JOB protocol against one stack, in one run: two written
 * from the 3.5 description (`/trigger` only, `XXL-JOB-APPNAME` and the group's own token required
 * on every call, `{callbackList}` callbacks, `data` envelopes) in a group with its own token, and
 * one speaking 2.x/3.4 (`/run`, the global token) in another group. Scheduled, manual and broadcast
 * fires each run exactly once.
 */

const EVERY_SECOND = '* * * * * ?';
const finished = (r: Run) => r.handleCode !== 0 || r.triggerCode === 500;

describe('executors of XXL-JOB 2.x/3.4 and 3.5 side by side', () => {
  let e: E2eStack;
  let groupToken: string;
  const v35: ProtocolExecutor[] = [];
  let v2: ProtocolExecutor;
  const group35 = `gen35-${randomBytes(3).toString('hex')}`;
  let group2: string;

  beforeAll(async () => {
    e = await startE2eStack('generations');
    expect(
      (await e.call('POST', '/v1/groups', { appName: group35, title: '3.5', addressType: 'AUTO' })).status,
    ).toBe(201);
    const set = await e.call('PUT', `/v1/groups/${group35}/access-token`, {});
    expect(set.status).toBe(200);
    groupToken = set.body.accessToken;
    group2 = await e.createAutoGroup('gen2x');
    const admin = e.stack.urls.api;
    for (let i = 0; i < 2; i++) {
      v35.push(
        await startProtocolExecutor({
          generation: '3.5',
          appName: group35,
          adminAddress: admin,
          accessToken: groupToken,
        }),
      );
    }
    v2 = await startProtocolExecutor({
      appName: group2,
      adminAddress: admin,
      accessToken: e.stack.tokens.accessToken,
    });
    for (const ex of v35) await e.waitForExecutor(group35, ex.address);
    await e.waitForExecutor(group2, v2.address);
  });

  afterAll(async () => {
    for (const ex of [...v35, v2]) await ex?.stop();
    await e?.stop();
  });

  it("shows the group's own token once, and never again", async () => {
    expect(groupToken).toMatch(/^[\w-]{43}$/);
    const group = await e.call('GET', `/v1/groups/${group35}`);
    expect(group.body.accessTokenSetAt).toEqual(expect.any(String));
    expect(JSON.stringify(group.body)).not.toContain(groupToken);
    const list = await e.call('GET', '/v1/groups');
    expect(JSON.stringify(list.body)).not.toContain(groupToken);
    expect(JSON.stringify(list.body)).not.toContain(e.stack.tokens.accessToken);
  });

  it('refuses a 3.5 executor that presents the global token instead of its group token', async () => {
    const impostor = await startProtocolExecutor({
      generation: '3.5',
      appName: group35,
      adminAddress: e.stack.urls.api,
      accessToken: e.stack.tokens.accessToken,
    });
    try {
      await waitFor(() => impostor.lastBeatSentAt() !== undefined, { what: 'a registry call' });
      await new Promise((r) => setTimeout(r, 1_500));
      expect(impostor.registrations()).toBe(0);
      const executors = await e.call('GET', `/v1/executors?appName=${group35}`);
      const body = executors.body as {
        items: { executors: { address: string }[] }[];
        refused: { appName: string; address: string; reason: string; count: number }[];
      };
      // Not among the group's executors; listed as refused, with its reason, so its owner can find it.
      expect(JSON.stringify(body.items)).not.toContain(impostor.address);
      expect(body.refused).toContainEqual(
        expect.objectContaining({ appName: group35, address: impostor.address, reason: 'wrong-token' }),
      );
    } finally {
      await impostor.die();
    }
  });

  it('runs scheduled, manual and broadcast fires on 3.5 executors exactly once each, and a 2.x executor beside them', async () => {
    const scheduled35 = await e.createJob({
      appName: group35,
      scheduleType: 'CRON',
      scheduleConf: EVERY_SECOND,
      executorHandler: 'scheduled',
      executorRouteStrategy: 'ROUND',
      triggerStatus: 'RUNNING',
    });
    const scheduled2 = await e.createJob({
      appName: group2,
      scheduleType: 'CRON',
      scheduleConf: EVERY_SECOND,
      executorHandler: 'scheduled',
      triggerStatus: 'RUNNING',
    });
    const manual35 = await e.createJob({ appName: group35, scheduleType: 'NONE', executorHandler: 'manual' });
    const manual2 = await e.createJob({ appName: group2, scheduleType: 'NONE', executorHandler: 'manual' });
    const broadcast35 = await e.createJob({
      appName: group35,
      scheduleType: 'NONE',
      executorHandler: 'broadcast',
      executorRouteStrategy: 'SHARDING_BROADCAST',
    });
    for (let i = 0; i < 3; i++) {
      await e.trigger(manual35.id, { executorParam: `m${i}` });
      await e.trigger(manual2.id, { executorParam: `m${i}` });
    }
    await e.trigger(broadcast35.id);

    await e.waitForRuns(scheduled35.id, 4, finished, 60_000);
    await e.waitForRuns(scheduled2.id, 4, finished, 60_000);
    for (const job of [scheduled35, scheduled2]) {
      expect((await e.call('POST', `/v1/jobs/${job.id}/stop`)).status).toBe(200);
    }
    await new Promise((r) => setTimeout(r, 2_000));
    const runsOf = async (jobId: number, count: number) => e.waitForRuns(jobId, count, finished, 60_000);
    const all = {
      scheduled35: await runsOf(scheduled35.id, 4),
      scheduled2: await runsOf(scheduled2.id, 4),
      manual35: await runsOf(manual35.id, 3),
      manual2: await runsOf(manual2.id, 3),
      broadcast35: await runsOf(broadcast35.id, 2),
    };

    // Every run succeeded, and its logId reached exactly one executor exactly once.
    const receipts = [...v35, v2].flatMap((ex) => ex.receipts.map((r) => ({ ...r, by: ex.address })));
    for (const [what, runs] of Object.entries(all)) {
      for (const run of runs) {
        expect(run, `${what} run ${run.logId}: ${run.triggerMsg} / ${run.handleMsg}`).toMatchObject({
          triggerCode: 200,
          handleCode: 200,
        });
        expect(
          receipts.filter((r) => r.logId === run.logId),
          `${what} run ${run.logId}`,
        ).toHaveLength(1);
      }
    }
    expect(all.manual35.map((r) => r.executorParam).sort()).toEqual(['m0', 'm1', 'm2']);
    // The broadcast reached both 3.5 executors, one as shard 0 and the other as shard 1 of 2.
    const shards = all.broadcast35.map((run) => {
      const receipt = receipts.find((r) => r.logId === run.logId);
      return `${receipt?.by} ${receipt?.param.broadcastIndex}/${receipt?.param.broadcastTotal}`;
    });
    // Shards follow the group's addresses in sorted order, as XXL-JOB numbers them.
    const sorted = v35.map((ex) => ex.address).sort();
    expect(shards.sort()).toEqual(sorted.map((address, i) => `${address} ${i}/2`));
    // Both 3.5 executors got work (ROUND), on /trigger only after their first refused /run.
    for (const ex of v35) {
      expect(ex.receipts.length, ex.address).toBeGreaterThan(0);
      const runs = ex.requests.filter((r) => r.path === '/run');
      expect(runs.every((r) => r.msg === 'invalid request, uri-mapping(/run) not found.')).toBe(true);
      // One refusal per dispatcher instance that had not met the address yet, never one per fire.
      expect(runs.length).toBeLessThan(ex.receipts.length);
      expect(ex.requests.filter((r) => r.code !== 200 && r.path !== '/run')).toEqual([]);
    }
    // The 2.x executor was only ever sent /run.
    expect(v2.requests.filter((r) => r.path === '/trigger')).toEqual([]);
    expect(v2.receipts.length).toBe(all.scheduled2.length + all.manual2.length);
  });
});
