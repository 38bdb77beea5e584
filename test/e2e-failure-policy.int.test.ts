import type { JobContext } from '@tickring/executor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack, startWebhook } from './e2e-stack.js';
import { waitFor } from './stand-ins.js';

/** A failure policy end to end on the embedded engine (what `npm start` runs), with a real webhook receiver. */
describe('end to end on sqlite: a failure policy pauses a failing job', () => {
  let e: E2eStack;

  beforeAll(async () => {
    e = await startE2eStack('failure-policy', {}, { store: 'sqlite' });
  });

  afterAll(async () => {
    await e?.stop();
  });

  it('stops a job whose handler always fails after 2 final failures, shows why, and tells the webhook once', async () => {
    const hook = await startWebhook();
    try {
      const appName = await e.createAutoGroup('e2e-policy');
      const executor = await e.startExecutor(appName, {
        alwaysFails: (ctx: JobContext) => {
          throw new Error(`boom on log ${ctx.logId}`);
        },
      });
      await e.waitForExecutor(appName, executor.address);
      const job = await e.createJob({
        appName,
        // Running, but its own fires are far off: the two runs are triggered here.
        scheduleType: 'CRON',
        scheduleConf: '0 0 3 1 1 ?',
        triggerStatus: 'RUNNING',
        executorHandler: 'alwaysFails',
        alarmWebhook: hook.url,
        failurePolicy: { pauseAfter: { consecutive: 2 } },
      });
      expect(job).toMatchObject({ failurePolicy: { pauseAfter: { consecutive: 2 } }, pausedBy: null });

      await e.trigger(job.id);
      await e.waitForRuns(job.id, 1);
      expect((await e.call('GET', `/v1/jobs/${job.id}`)).body.triggerStatus).toBe('RUNNING');
      await e.trigger(job.id);
      await e.waitForRuns(job.id, 2);

      await waitFor(
        async () => (await e.call('GET', `/v1/jobs/${job.id}`)).body.triggerStatus === 'STOPPED',
        {
          what: 'the job paused by its failure policy',
          timeoutMs: 10_000,
        },
      );
      const paused = (await e.call('GET', `/v1/jobs/${job.id}`)).body;
      expect(paused).toMatchObject({
        triggerStatus: 'STOPPED',
        triggerNextTime: null,
        pausedBy: { reason: 'failurePolicy', failures: 2, ofLast: 2, resumeAt: null },
      });

      const kinds = () => hook.bodies.map((b) => (b as { kind: string }).kind);
      await waitFor(() => kinds().includes('jobPaused'), { what: 'the pause notice at the webhook' });
      expect(kinds().filter((k) => k === 'jobPaused')).toHaveLength(1);
      const notice = hook.bodies.find((b) => (b as { kind: string }).kind === 'jobPaused');
      expect(notice).toMatchObject({
        type: 'tickring.alarm',
        job: { id: job.id },
        pause: { failures: 2, ofLast: 2 },
      });

      // A user's start clears the reason.
      const started = await e.call('POST', `/v1/jobs/${job.id}/start`);
      expect(started.body).toMatchObject({ triggerStatus: 'RUNNING', pausedBy: null });
    } finally {
      await hook.close();
    }
  });
});
