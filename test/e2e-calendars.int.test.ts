import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './e2e-stack.js';
import { waitFor } from './stand-ins.js';

/** A schedule that follows a calendar, end to end on the embedded engine (what `npm start` runs). */
describe('end to end on sqlite: a calendar change re-plans the jobs that follow it', () => {
  let e: E2eStack;

  beforeAll(async () => {
    e = await startE2eStack('calendars', {}, { store: 'sqlite' });
  });

  afterAll(async () => {
    await e?.stop();
  });

  it('makes no fire on days the calendar removes; once the calendar allows today, fires start', async () => {
    const appName = await e.createAutoGroup('e2e-calendars');
    const executor = await e.startExecutor(appName, { calendarJob: () => undefined });
    await e.waitForExecutor(appName, executor.address);
    // Today and the next two days (UTC) taken out: no midnight passes during the test.
    const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const id = `closed-${Date.now().toString(36)}`;
    const allWeek = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'];
    const spec = { name: 'Closed for now', timeZone: 'UTC', workingDays: allWeek, included: [] };
    const calendar = await e.call('POST', '/v1/calendars', {
      id,
      ...spec,
      excluded: [{ from: day(0), to: day(2), label: 'Closed' }],
    });
    expect(calendar.status).toBe(201);

    const job = await e.createJob({
      appName,
      scheduleType: 'CRON',
      scheduleConf: '* * * * * ?',
      calendars: { only: [id] },
      executorHandler: 'calendarJob',
      triggerStatus: 'RUNNING',
    });
    // Its next fire is the first second of the first day the calendar allows.
    expect(job.triggerNextTime).toBe(`${day(3)}T00:00:00.000Z`);
    // Past the 5 s a start waits before its first fire: none came.
    const quietFrom = Date.now();
    await waitFor(() => Date.now() >= quietFrom + 7_000, { what: 'a quiet period', timeoutMs: 12_000 });
    expect(await e.runsOf(job.id)).toEqual([]);

    // The closure is lifted: the job is re-planned from the save, with a new revision.
    const lifted = await e.call('PUT', `/v1/calendars/${id}`, { ...spec, excluded: [], expectedVersion: 1 });
    expect(lifted.status).toBe(200);
    const replanned = (await e.call('GET', `/v1/jobs/${job.id}`)).body;
    expect(replanned.scheduleRevision).toBe(job.scheduleRevision + 1);
    expect(Date.parse(replanned.triggerNextTime)).toBeLessThan(Date.parse(`${day(1)}T00:00:00.000Z`));
    const runs = await e.waitForRuns(job.id, 2, (r) => r.handleCode !== 0, 30_000);
    expect(runs.every((r) => r.scheduledTime >= Date.parse(lifted.body.updatedAt))).toBe(true);

    const audit = await e.call('GET', `/v1/audit?target=${encodeURIComponent(`job#${job.id}`)}`);
    expect(audit.body.items).toContainEqual(
      expect.objectContaining({
        action: 'job.calendarReplan',
        detail: expect.objectContaining({ calendarId: id }),
      }),
    );
    // A calendar a job follows cannot be deleted.
    const refused = await e.call('DELETE', `/v1/calendars/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(`job ${job.id}`);
  });
});
