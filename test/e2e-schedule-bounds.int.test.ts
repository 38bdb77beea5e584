import { jitterOffsetMs } from '@tickring/core/schedule';
import type { JobContext } from '@tickring/executor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './e2e-stack.js';
import { waitFor } from './stand-ins.js';

/** A bounded, jittered schedule end to end on the embedded engine (what `npm start` runs). */
describe('end to end on sqlite: maxRuns and jitter', () => {
  let e: E2eStack;

  beforeAll(async () => {
    e = await startE2eStack('bounds', {}, { store: 'sqlite' });
  });

  afterAll(async () => {
    await e?.stop();
  });

  it('fires a job with maxRuns 3 exactly 3 times, each at its jittered time, then stops it with its reason, audited', async () => {
    const appName = await e.createAutoGroup('e2e-bounds');
    const started: { scheduled: number; at: number }[] = [];
    const executor = await e.startExecutor(appName, {
      boundedJob: (ctx: JobContext) => void started.push({ scheduled: ctx.logDateTime, at: Date.now() }),
    });
    await e.waitForExecutor(appName, executor.address);
    const job = await e.createJob({
      appName,
      scheduleType: 'CRON',
      scheduleConf: '0/2 * * * * ?',
      maxRuns: 3,
      jitterSeconds: 1,
      executorHandler: 'boundedJob',
      triggerStatus: 'RUNNING',
    });
    expect(job).toMatchObject({ maxRuns: 3, runsRemaining: 3, jitterSeconds: 1, scheduleEnded: null });

    const runs = await e.waitForRuns(job.id, 3, (r) => r.handleCode !== 0, 30_000);
    await waitFor(async () => (await e.call('GET', `/v1/jobs/${job.id}`)).body.triggerStatus === 'STOPPED', {
      what: 'the job stopped by its schedule',
      timeoutMs: 10_000,
    });
    const stopped = (await e.call('GET', `/v1/jobs/${job.id}`)).body;
    expect(stopped).toMatchObject({
      triggerStatus: 'STOPPED',
      triggerNextTime: null,
      runsRemaining: 0,
      scheduleEnded: { reason: 'maxRuns' },
    });
    // Each run keeps its scheduled time (2 s apart) and records the offset of (job, scheduled time).
    expect(runs.map((r) => r.scheduledTime % 2_000)).toEqual([0, 0, 0]);
    expect(runs.map((r) => r.jitterMs ?? 0)).toEqual(
      runs.map((r) => jitterOffsetMs(job.id, r.scheduledTime, 1)),
    );
    expect(runs.map((r) => r.handleCode)).toEqual([200, 200, 200]);
    // An executor never starts a run before its jittered time.
    for (const run of runs) {
      const start = started.find((s) => s.scheduled === run.scheduledTime);
      expect(start?.at).toBeGreaterThanOrEqual(run.scheduledTime + (run.jitterMs ?? 0) - 5);
    }

    // No fourth run, however long we wait past the next slot.
    const quietFrom = Date.now();
    await waitFor(() => Date.now() >= quietFrom + 4_000, { what: 'a quiet period', timeoutMs: 9_000 });
    expect(await e.runsOf(job.id)).toHaveLength(3);

    const audit = await e.call('GET', `/v1/audit?target=${encodeURIComponent(`job#${job.id}`)}`);
    expect(audit.body.items).toContainEqual(
      expect.objectContaining({
        action: 'job.scheduleEnded',
        actor: expect.objectContaining({ kind: 'system' }),
      }),
    );

    // Used up: a start is refused until the same update raises maxRuns.
    const refused = await e.call('POST', `/v1/jobs/${job.id}/start`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/maxRuns 3 is used up/);
    const raised = await e.call('PUT', `/v1/jobs/${job.id}`, { maxRuns: 4, triggerStatus: 'RUNNING' });
    expect(raised.status).toBe(200);
    expect(raised.body).toMatchObject({ triggerStatus: 'RUNNING', runsRemaining: 1, scheduleEnded: null });
  });
});
