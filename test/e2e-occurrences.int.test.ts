import type { JobContext } from '@tickring/executor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './e2e-stack.js';
import { waitFor } from './stand-ins.js';

/** One-off exceptions end to end on the embedded engine (what `npm start` runs). */
describe('end to end on sqlite: one-off exceptions', () => {
  let e: E2eStack;

  beforeAll(async () => {
    e = await startE2eStack('occurrences', {}, { store: 'sqlite' });
  });

  afterAll(async () => {
    await e?.stop();
  });

  it('skips one fire of an every-2-s job and runs a moved one at its new time with its own scheduled time', async () => {
    const appName = await e.createAutoGroup('e2e-occurrences');
    const calls: { logDateTime: number; at: number }[] = [];
    const executor = await e.startExecutor(appName, {
      everyTwo: async (ctx: JobContext) => void calls.push({ logDateTime: ctx.logDateTime, at: Date.now() }),
    });
    await e.waitForExecutor(appName, executor.address);
    const job = await e.createJob({
      appName,
      scheduleType: 'CRON',
      scheduleConf: '0/2 * * * * ?',
      executorHandler: 'everyTwo',
      triggerStatus: 'RUNNING',
    });
    // Past the 15 s lead within which a fire can no longer be changed (it may be planned already).
    const skipped = Math.ceil((Date.now() + 20_000) / 2_000) * 2_000;
    const moved = skipped + 4_000;
    const movedTo = moved + 1_000;
    const iso = (ms: number) => new Date(ms).toISOString();
    const skip = await e.call('POST', `/v1/jobs/${job.id}/occurrences/${iso(skipped)}/skip`, {
      reason: 'e2e',
    });
    expect(skip.status).toBe(200);
    const move = await e.call('POST', `/v1/jobs/${job.id}/occurrences/${iso(moved)}/move`, {
      to: iso(movedTo),
      reason: 'e2e',
    });
    expect(move.status).toBe(200);

    // Until every fire through the moved one, and one after it, has finished.
    const runs = await waitFor(
      async () => {
        const found = await e.runsOf(job.id);
        const finished = (r: (typeof found)[number]) => r.handleCode !== 0;
        const through = found.filter((r) => r.scheduledTime <= moved);
        const later = found.filter((r) => r.scheduledTime > moved);
        return through.every(finished) && later.some(finished) ? found : undefined;
      },
      { what: `the fires of job ${job.id} through the moved one and one after`, timeoutMs: 60_000 },
    );

    const scheduled = runs.map((r) => r.scheduledTime);
    expect(scheduled).not.toContain(skipped);
    // The fires around them ran as scheduled.
    expect(scheduled).toContain(skipped - 2_000);
    expect(scheduled).toContain(skipped + 2_000);
    expect(calls.map((c) => c.logDateTime)).not.toContain(skipped);
    // The moved fire: one run under its own scheduled time, its handler called no earlier than its new time.
    expect(runs.filter((r) => r.scheduledTime === moved)).toHaveLength(1);
    const movedCalls = calls.filter((c) => c.logDateTime === moved);
    expect(movedCalls).toHaveLength(1);
    expect(movedCalls[0]?.at).toBeGreaterThanOrEqual(movedTo);
  });
});
