import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Group } from '@tickring/core/jobs';
import { OUTCOME_GRACE_MS } from '@tickring/core/runs';
import { createExecutor, type Executor, silentLogger } from '@tickring/executor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallbackStack, startCallbackStack } from '../../test/callback-stack.js';
import { waitFor } from '../../test/stand-ins.js';

/** An address nothing listens on: a port taken and released again. */
async function deadAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}/`;
}

const group = (appName: string, addressType: Group['addressType'], addressList: string[] = []): Group => ({
  appName,
  title: appName,
  addressType,
  addressList,
  createdAt: 0,
  updatedAt: 0,
});

describe('monitors function: lost runs, on the local stack', () => {
  let t: CallbackStack;
  let executor: Executor;
  let logDir: string;

  beforeAll(async () => {
    t = await startCallbackStack('mon', {
      monitorPeriodMs: 500,
      settings: { TICKRING_REGISTRY_DEAD_SECONDS: '2' },
    });
    logDir = await mkdtemp(join(tmpdir(), 'tickring-mon-'));
    // A live executor of the AUTO group, beating every 500 ms (well inside the 2 s dead timeout).
    executor = createExecutor({
      appName: 'mon-auto',
      adminAddresses: t.stack.urls.api,
      accessToken: t.stack.tokens.accessToken,
      port: 0,
      host: '127.0.0.1',
      logDir,
      registryIntervalMs: 500,
      logger: silentLogger,
    });
    await executor.start();
    await waitFor(async () => (await t.registry.list('mon-auto')).length === 1, { what: 'registration' });
  });

  afterAll(async () => {
    await executor?.stop();
    await t?.stop();
    await rm(logDir, { recursive: true, force: true });
  });

  it('fails overdue runs of offline executors ("result lost") and leaves those of online ones alone', async () => {
    const dead = await deadAddress();
    await t.groups.create(group('mon-auto', 'AUTO'));
    await t.groups.create(group('mon-manual', 'MANUAL', [executor.address, dead]));
    const autoJob = await t.createJob({
      appName: 'mon-auto',
      executorFailRetryCount: 1,
      retryBackoffSeconds: 1,
    });
    const manualJob = await t.createJob({ appName: 'mon-manual' });
    const overdue = Date.now() - 1_000;

    const autoGone = await t.createRun(autoJob, { executorAddress: dead, deadline: overdue });
    const autoLive = await t.createRun(autoJob, { executorAddress: executor.address, deadline: overdue });
    const manualLive = await t.createRun(manualJob, { executorAddress: executor.address, deadline: overdue });
    const manualGone = await t.createRun(manualJob, { executorAddress: dead, deadline: overdue });
    const lambdaRun = await t.createRun(manualJob, {
      executorAddress: 'lambda:tickring-gone',
      deadline: overdue,
    });
    // Within their deadline (no timeout: 10 minutes): only a gone http executor makes a run lost.
    const withinDeadline = Date.now() + 600_000;
    const liveNotYetDue = await t.createRun(autoJob, {
      executorAddress: executor.address,
      deadline: withinDeadline,
    });
    const lambdaNotYetDue = await t.createRun(manualJob, {
      executorAddress: 'lambda:tickring-gone',
      deadline: withinDeadline,
    });
    const goneNotYetDue = await t.createRun(autoJob, { executorAddress: dead, deadline: withinDeadline });

    for (const run of [autoGone, manualGone, lambdaRun, goneNotYetDue]) {
      const lost = await waitFor(
        async () => {
          const r = await t.runs.get(run.logId);
          return r?.handleCode ? r : undefined;
        },
        { what: `run ${run.logId} marked lost`, timeoutMs: 30_000 },
      );
      expect(lost.handleCode).toBe(500);
      expect(lost.handleMsg).toContain('result lost');
    }
    for (const run of [autoLive, manualLive, liveNotYetDue, lambdaNotYetDue]) {
      expect(await t.runs.get(run.logId)).toMatchObject({ handleCode: 0, handleMsg: '' });
    }
    expect((await t.runs.get(goneNotYetDue.logId))?.handleMsg).toBe(
      `result lost: executor ${dead} went offline while the run was running`,
    );
    // A lost run goes down the retry path like any failure.
    const retry = await waitFor(
      () => t.ring.messages.find((m) => m.body.dedupKey === `retry#${autoGone.logId}`),
      {
        what: 'the RETRY of the lost run',
      },
    );
    expect(retry.body).toMatchObject({
      jobId: autoJob.id,
      triggerType: 'RETRY',
      retry: { attempt: 2, retriesLeft: 0 },
    });
    // ... and without retries left, to the alarm: the job's two lost runs share its alert window, so
    // the topic gets the first of them (the other is counted).
    const alarmed = await waitFor(
      () =>
        t.alarms.messages.find((m) =>
          [manualGone.logId, lambdaRun.logId].includes((m.body.run as { logId: number }).logId),
        ),
      { what: 'the alarm for the lost MANUAL runs' },
    );
    expect(alarmed.body).toMatchObject({ kind: 'runFailed', job: { id: manualJob.id } });
  });

  it('re-drives the outcome of a run whose process died after storing its result', async () => {
    const child = await t.createJob({ appName: 'mon-redrive' });
    const failing = await t.createJob({ appName: 'mon-redrive', executorFailRetryCount: 1 });
    const parent = await t.createJob({ appName: 'mon-redrive', childJobIds: [child.id] });
    const plain = await t.createJob({ appName: 'mon-redrive' });
    // Results stored (and marked) past the grace period, by a callback that then died.
    const longAgo = Date.now() - OUTCOME_GRACE_MS - 1_000;
    const failed = await t.createRun(failing);
    await t.runs.complete(failed.logId, { handleCode: 500, handleMsg: 'boom', handleTime: longAgo });
    const succeeded = await t.createRun(parent);
    await t.runs.complete(succeeded.logId, { handleCode: 200, handleMsg: 'ok', handleTime: longAgo });
    // A plain success is stored without the mark: there is nothing to re-drive.
    const done = await t.createRun(plain);
    await t.runs.complete(
      done.logId,
      { handleCode: 200, handleMsg: 'ok', handleTime: longAgo },
      { markOutcomePending: false },
    );

    const retry = await waitFor(
      () => t.ring.messages.find((m) => m.body.dedupKey === `retry#${failed.logId}`),
      { what: 'the RETRY of the re-driven failure' },
    );
    expect(retry.body).toMatchObject({ jobId: failing.id, retry: { attempt: 2, retriesLeft: 0 } });
    const parentFire = await waitFor(
      () => t.ring.messages.find((m) => m.body.dedupKey === `parent#${succeeded.logId}#${child.id}`),
      { what: 'the PARENT fire of the re-driven success' },
    );
    expect(parentFire.body).toMatchObject({ jobId: child.id, triggerType: 'PARENT' });
    await waitFor(
      async () => {
        const pending = await t.runs.findOutcomePending(Date.now(), 500);
        return !pending.some((r) => r.logId === failed.logId || r.logId === succeeded.logId);
      },
      { what: 'the marks cleared' },
    );
    expect(
      t.ring.messages.filter((m) => m.body.jobId === plain.id || m.body.parentLogId === done.logId),
    ).toEqual([]);
  });

  it('marks a run lost once its executor stops beating for the dead timeout', async () => {
    const job = await t.createJob({ appName: 'mon-fading' });
    await t.groups.create(group('mon-fading', 'AUTO'));
    const address = 'http://127.0.0.1:9/fading/';
    const registration = { registryGroup: 'EXECUTOR', registryKey: 'mon-fading', registryValue: address };
    expect((await t.post('/api/registry', registration)).reply).toEqual({ code: 200 });
    const beatAt = Date.now();
    const run = await t.createRun(job, { executorAddress: address, deadline: Date.now() - 1_000 });
    const lost = await waitFor(
      async () => {
        const r = await t.runs.get(run.logId);
        return r?.handleCode ? r : undefined;
      },
      { what: 'the run marked lost', timeoutMs: 30_000 },
    );
    // Not before the heartbeat was older than the dead timeout.
    expect(lost.handleTime - beatAt).toBeGreaterThanOrEqual(1_900);
    expect(lost.handleMsg).toContain('result lost');
  });
});
