import type { JobContext } from '@tickring/executor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './e2e-stack.js';
import { waitFor } from './stand-ins.js';

/** A backfill end to end on the embedded engine (what `npm start` runs), beside the live schedule. */
describe('end to end on sqlite: a backfill', () => {
  let e: E2eStack;

  beforeAll(async () => {
    // The monitors' backfill sweep drives running backfills; fired every 2 s here so the first comes soon.
    e = await startE2eStack('backfill', {}, { store: 'sqlite', monitorPeriodMs: 2_000 });
  });

  afterAll(async () => {
    await e?.stop();
  });

  it('runs the last 30 s of an every-5-s job, two at a time, each with its scheduled time, while the schedule goes on', async () => {
    const appName = await e.createAutoGroup('e2e-backfill');
    const seen: number[] = [];
    const executor = await e.startExecutor(appName, {
      reportDate: async (ctx: JobContext) => {
        seen.push(ctx.logDateTime);
        // Long enough for the runs of a pair to overlap.
        await new Promise((resolve) => setTimeout(resolve, 300));
      },
    });
    await e.waitForExecutor(appName, executor.address);
    const job = await e.createJob({
      appName,
      scheduleType: 'CRON',
      scheduleConf: '0/5 * * * * ?',
      executorHandler: 'reportDate',
      triggerStatus: 'RUNNING',
    });
    const to = Math.floor(Date.now() / 1000) * 1000;
    const from = to - 30_000;
    const started = await e.call('POST', `/v1/jobs/${job.id}/backfill`, {
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      parallelism: 2,
    });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ state: 'RUNNING', total: 6, parallelism: 2 });
    const id: string = started.body.id;

    await waitFor(async () => (await e.call('GET', `/v1/backfills/${id}`)).body.endedAt !== null, {
      what: 'the backfill ended',
      timeoutMs: 30_000,
    });
    const done = (await e.call('GET', `/v1/backfills/${id}`)).body;
    expect(done).toMatchObject({
      state: 'COMPLETED',
      total: 6,
      dispatched: 6,
      succeeded: 6,
      failed: 0,
      running: 0,
    });

    // Each backfill run kept its own scheduled time, which its handler saw as logDateTime.
    const runs = await e.runsOf(job.id);
    const backfilled = runs
      .filter((r) => r.triggerType === 'BACKFILL')
      .sort((a, b) => a.scheduledTime - b.scheduledTime);
    const expected = Array.from({ length: 6 }, (_, i) => Math.ceil(from / 5000) * 5000 + i * 5000);
    expect(backfilled.map((r) => r.scheduledTime)).toEqual(expected);
    expect(backfilled.every((r) => r.handleCode === 200)).toBe(true);
    for (const time of expected) expect(seen).toContain(time);
    // Never more than two of them running at once: each started after all but one of those before had ended.
    for (const [i, run] of backfilled.entries()) {
      const overlapping = backfilled.filter(
        (o, j) => j !== i && o.dispatchedAt <= run.dispatchedAt && o.handleTime > run.dispatchedAt,
      );
      expect(overlapping.length).toBeLessThanOrEqual(1);
    }

    // The live schedule kept running beside it: a fire every 5 s, none skipped, each on its own time.
    await waitFor(
      async () =>
        (await e.runsOf(job.id)).filter((r) => r.triggerType === 'CRON' && r.handleCode === 200).length >= 3,
      { what: 'three live fires', timeoutMs: 30_000 },
    );
    const live = (await e.runsOf(job.id))
      .filter((r) => r.triggerType !== 'BACKFILL')
      .sort((a, b) => a.scheduledTime - b.scheduledTime);
    expect(live.every((r) => r.triggerType === 'CRON' && r.triggerCode !== 600)).toBe(true);
    expect(
      live.slice(1).map((r, i) => r.scheduledTime - (live[i] as { scheduledTime: number }).scheduledTime),
    ).toEqual(live.slice(1).map(() => 5_000));

    const audit = await e.call('GET', `/v1/audit?target=${encodeURIComponent(`job#${job.id}`)}`);
    expect(audit.body.items).toContainEqual(expect.objectContaining({ action: 'job.backfill' }));
  });

  it('answers every problem of a request at once (400), a second active backfill 409, and audits a cancel with who', async () => {
    const appName = await e.createAutoGroup('e2e-backfill-api');
    const job = await e.createJob({
      appName,
      scheduleType: 'CRON',
      scheduleConf: '0 0 * * * ?',
      executorHandler: 'none',
    });
    const now = Date.now();
    const bad = await e.call('POST', `/v1/jobs/${job.id}/backfill`, {
      from: new Date(now).toISOString(),
      to: new Date(now + 3_600_000).toISOString(),
      parallelism: 0,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.problems.map((p: { field: string }) => p.field).sort()).toEqual(['parallelism']);
    const semantic = await e.call('POST', `/v1/jobs/${job.id}/backfill`, {
      from: new Date(now).toISOString(),
      to: new Date(now + 3_600_000).toISOString(),
    });
    expect(semantic.status).toBe(400);
    expect(semantic.body.message).toContain('to must not be in the future');

    const range = { from: new Date(now - 5 * 3_600_000).toISOString(), to: new Date(now).toISOString() };
    const preview = await e.call('POST', `/v1/jobs/${job.id}/backfill/preview`, range);
    expect(preview.body).toMatchObject({ total: 5, tooMany: false });
    // No executor runs its handler: the first fire fails, so keep one running by a slow rate.
    const first = await e.call('POST', `/v1/jobs/${job.id}/backfill`, { ...range, ratePerMinute: 1 });
    expect(first.status).toBe(202);
    const second = await e.call('POST', `/v1/jobs/${job.id}/backfill`, range);
    expect(second.status).toBe(409);
    expect(second.body.message).toContain(first.body.id);

    const cancelled = await e.call('POST', `/v1/backfills/${first.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ state: 'CANCELLED', cancelledBy: expect.any(String) });
    const listed = await e.call('GET', `/v1/jobs/${job.id}/backfills`);
    expect(listed.body.items.map((b: { id: string }) => b.id)).toEqual([first.body.id]);
    expect((await e.call('GET', '/v1/backfills/bf-999999-zz-0000')).status).toBe(404);
    const audit = await e.call('GET', `/v1/audit?target=${encodeURIComponent(`backfill#${first.body.id}`)}`);
    expect(audit.body.items).toContainEqual(
      expect.objectContaining({
        action: 'backfill.cancel',
        actor: expect.objectContaining({ name: 'bootstrap' }),
        changes: expect.objectContaining({ state: { before: 'RUNNING', after: 'CANCELLED' } }),
      }),
    );
  });

  it('backfills a workflow’s schedule: a BACKFILL workflow run per past fire, its nodes seeing the scheduled time', async () => {
    const appName = await e.createAutoGroup('e2e-backfill-wf');
    const params: string[] = [];
    const executor = await e.startExecutor(appName, {
      step: async (ctx: JobContext) => void params.push(ctx.param),
    });
    await e.waitForExecutor(appName, executor.address);
    const node = await e.createJob({ appName, scheduleType: 'NONE', executorHandler: 'step' });
    const created = await e.call('POST', '/v1/workflows', {
      name: 'e2e backfill',
      appName,
      scheduleType: 'CRON',
      scheduleConf: '0/5 * * * * ?',
      overlapPolicy: 'SKIP',
      nodes: [{ key: 'only', jobId: node.id, executorParam: '{{ input.scheduledTime }}' }],
    });
    expect(created.status).toBe(201);
    const workflowId: number = created.body.id;
    const to = Math.floor(Date.now() / 5000) * 5000;
    const range = { from: new Date(to - 15_000).toISOString(), to: new Date(to).toISOString() };
    // Refused through its schedule job, with where to go instead.
    const viaJob = await e.call('POST', `/v1/jobs/${created.body.starterJobId}/backfill`, range);
    expect(viaJob.status).toBe(400);
    expect(viaJob.body.message).toContain(`POST /v1/workflows/${workflowId}/backfill`);

    const started = await e.call('POST', `/v1/workflows/${workflowId}/backfill`, {
      ...range,
      parallelism: 2,
    });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ workflowId, total: 3, parallelism: 2 });
    await waitFor(
      async () => (await e.call('GET', `/v1/backfills/${started.body.id}`)).body.endedAt !== null,
      {
        what: 'the workflow backfill ended',
        timeoutMs: 30_000,
      },
    );
    expect((await e.call('GET', `/v1/backfills/${started.body.id}`)).body).toMatchObject({
      state: 'COMPLETED',
      succeeded: 3,
      failed: 0,
    });
    const expected = [to - 15_000, to - 10_000, to - 5_000].map((t) => new Date(t).toISOString());
    const runs = (await e.call('GET', `/v1/workflow-runs?workflowId=${workflowId}`)).body.items as {
      status: string;
      trigger: { type: string; scheduledTime: string | null };
      input: { scheduledTime?: string };
    }[];
    const backfilled = runs.filter((r) => r.trigger.type === 'BACKFILL');
    expect(backfilled.map((r) => r.trigger.scheduledTime).sort()).toEqual(expected);
    expect(
      backfilled.every((r) => r.status === 'SUCCEEDED' && r.input.scheduledTime === r.trigger.scheduledTime),
    ).toBe(true);
    expect([...params].sort()).toEqual(expected);
    const listed = await e.call('GET', `/v1/workflows/${workflowId}/backfills`);
    expect(listed.body.items.map((b: { id: string }) => b.id)).toEqual([started.body.id]);
  });
});
