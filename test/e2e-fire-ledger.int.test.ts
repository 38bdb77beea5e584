import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './e2e-stack.js';
import { waitFor } from './stand-ins.js';

/** The fire ledger end to end on the embedded engine: a job every second, stopped for a while, its executor gone for a while. */
describe('end to end on sqlite: the fire ledger explains every fire', () => {
  let e: E2eStack;

  beforeAll(async () => {
    e = await startE2eStack('fire-ledger', {}, { store: 'sqlite' });
  });

  afterAll(async () => {
    await e?.stop();
  });

  it('accounts for every fire of a job every second through a stop, a start and a dead executor', async () => {
    const appName = await e.createAutoGroup('e2e-ledger');
    const executor = await e.startExecutor(appName, { quick: async () => 'ok' });
    await e.waitForExecutor(appName, executor.address);
    const job = await e.createJob({
      appName,
      scheduleType: 'CRON',
      scheduleConf: '* * * * * ?',
      triggerStatus: 'RUNNING',
      executorHandler: 'quick',
    });
    const from = Date.parse(job.createdAt);
    const runsAtLeast = (n: number) =>
      waitFor(async () => ((await e.runsOf(job.id)).length >= n ? true : undefined), {
        what: `${n} runs of job ${job.id}`,
        timeoutMs: 30_000,
        intervalMs: 200,
      });
    await runsAtLeast(3);
    expect((await e.call('POST', `/v1/jobs/${job.id}/stop`)).status).toBe(200);
    await sleep(3_000);
    expect((await e.call('POST', `/v1/jobs/${job.id}/start`)).status).toBe(200);
    const before = (await e.runsOf(job.id)).length;
    await runsAtLeast(before + 2);
    // The executor goes away: its fires are still dispatched, and fail.
    await executor.stop();
    await sleep(3_000);
    expect((await e.call('POST', `/v1/jobs/${job.id}/stop`)).status).toBe(200);
    const to = Date.now();
    // Every run of the window has its result (a refused one is finished at once, a sent one when it answers or is lost).
    await sleep(1_500);

    const reply = await e.call(
      'GET',
      `/v1/jobs/${job.id}/ledger?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`,
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const { summary, entries } = reply.body;
    expect(summary.unexplained, JSON.stringify(entries)).toBe(0);
    expect(summary.notYetDue, JSON.stringify(entries)).toBe(0);
    expect(summary.paused, JSON.stringify(entries)).toBeGreaterThanOrEqual(2);
    expect(entries.find((x: { outcome: string }) => x.outcome === 'paused')).toMatchObject({
      stoppedBy: 'job.stop',
    });
    expect(reply.body.history).toBe('audit');
    // Every run of the job's schedule in the window is in the ledger, under its own logId.
    const listed = new Set(
      entries
        .filter((x: { logId: number | null }) => x.logId !== null)
        .map((x: { logId: number }) => x.logId),
    );
    const runs = (await e.runsOf(job.id)).filter((r) => r.scheduledTime >= from && r.scheduledTime < to);
    expect(runs.length).toBeGreaterThanOrEqual(before + 2);
    expect(runs.filter((r) => !listed.has(r.logId)).map((r) => [r.scheduledTime, r.triggerType])).toEqual([]);
    expect(summary.ran + summary.skipped, JSON.stringify(entries)).toBe(runs.length);

    const bad = await e.call(
      'GET',
      `/v1/jobs/${job.id}/ledger?from=later&to=${new Date(from).toISOString()}`,
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/from must be an ISO-8601 instant/);
    const tooLong = await e.call(
      'GET',
      `/v1/jobs/${job.id}/ledger?from=${new Date(to - 3 * 3_600_000).toISOString()}&to=${new Date(to).toISOString()}`,
    );
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body)).toMatch(/more than 10000 fires/);
    expect((await e.call('GET', `/v1/jobs/999999/ledger?from=${from}&to=${to}`)).status).toBe(404);
  });
});
