import { ENV } from '@tickring/core/config';
import type { JobContext } from '@tickring/executor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endToEndSuite } from './e2e-scenarios.js';
import { type E2eStack, startE2eStack, startRelay } from './e2e-stack.js';
import { waitFor } from './stand-ins.js';

/**
 * The end-to-end scenarios on the embedded engine (what `npm start` runs) that wait on a schedule
 * the longest; the others are in e2e-edits.int.test.ts (two files, so they run side by side). The AWS
 * adapters' own run is e2e-dynamodb.int.test.ts.
 */
endToEndSuite('sqlite', { scenarios: ['every-second', 'once'] });

describe('end to end: executor expiry (registry dead timeout 3 s)', () => {
  let e: E2eStack;

  beforeAll(async () => {
    e = await startE2eStack('expiry', { [ENV.registryDeadSeconds]: '3' });
  });

  afterAll(async () => {
    await e?.stop();
  });

  it('drops an executor that stops heartbeating from its AUTO group: its triggers then fail with "no online executor"', async () => {
    const appName = await e.createAutoGroup('e2e-expiry');
    const relay = await startRelay(e.stack.urls.api);
    const ran: number[] = [];
    const executor = await e.startExecutor(
      appName,
      { expiryJob: (ctx: JobContext) => void ran.push(ctx.logId) },
      { adminAddresses: relay.url, registryIntervalMs: 500 },
    );
    await e.waitForExecutor(appName, executor.address);
    const job = await e.createJob({ appName, executorHandler: 'expiryJob' });

    // Beating for longer than the dead timeout keeps it online, and a trigger runs there.
    const beats = () => relay.paths.filter((p) => p === '/api/registry').length;
    await waitFor(() => beats() >= 9, { what: '9 heartbeats (over 4 s)', timeoutMs: 15_000 });
    const okFire = await e.trigger(job.id);
    const [okRun] = await e.waitForRuns(job.id, 1, (r) => r.handleCode !== 0);
    expect(okRun).toMatchObject({
      dedupKey: okFire.dedupKey,
      triggerCode: 200,
      executorAddress: executor.address,
      handleCode: 200,
    });
    expect(ran).toEqual([okRun?.logId]);

    // The executor loses the admin (no more beats, and its registryRemove cannot get through), then dies.
    await relay.cut();
    const cutAt = Date.now();
    await executor.stop();
    await e.waitForExecutor(appName, executor.address, false, 15_000);
    const offlineAfterMs = Date.now() - cutAt;
    console.log(
      `[measure] executor offline ${offlineAfterMs} ms after its last chance to beat (dead timeout 3 s)`,
    );
    expect(offlineAfterMs).toBeGreaterThanOrEqual(1_000);
    // Dropped by age, not removed: the entry is still there, just too old.
    expect((await e.registry.list(appName)).map((r) => r.address)).toEqual([executor.address]);

    const failFire = await e.trigger(job.id);
    const failed = await waitFor(
      async () =>
        (await e.runsOf(job.id)).find((r) => r.dedupKey === failFire.dedupKey && r.triggerCode !== 0),
      { what: 'the trigger after the expiry recorded' },
    );
    expect(failed).toMatchObject({ triggerCode: 500, executorAddress: '', handleCode: 0 });
    expect(failed.triggerMsg).toContain(`no online executor in group ${appName}`);
    expect(ran).toEqual([okRun?.logId]);
  });
});
