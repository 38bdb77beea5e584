import {
  MemoryAuditLog,
  MemoryCalendarStore,
  makeAuditEntry,
  memoryDispatchDeps,
  testCalendar,
  testJob,
  testRun,
} from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { NotFoundError, RequestValidationError } from '../common/errors.js';
import { METRIC } from '../common/metrics.js';
import type { Job } from '../jobs/job.js';
import { DEAD_MAN, sweepDeadMan } from './dead-man.js';
import { jobFireLedger } from './job-ledger.js';
import { runMonitorSweeps } from './monitors.js';
import { firstPlannedLogId, HANDLE_CODE, type Run, TRIGGER_CODE } from './run.js';

const NOW = Date.UTC(2030, 0, 2, 12, 30, 0); // a Wednesday
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** Job 7 every minute, running since long before; its runs and audit records in memory. */
function fixture() {
  const env = memoryDispatchDeps(NOW);
  env.jobs.jobs.set(
    7,
    testJob({
      id: 7,
      appName: 'app-a',
      scheduleConf: '0 * * * * ?',
      triggerStatus: 'RUNNING',
      triggerNextTime: NOW,
    }),
  );
  const audit = new MemoryAuditLog({ retentionDays: 30, clock: env.clock });
  const calendars = new MemoryCalendarStore();
  const deps = { ...env, audit, calendars };
  let logId = 1;
  const ran = (scheduledTime: number, fields: Partial<Run> = {}) =>
    env.runs.claim(
      testRun({
        logId: firstPlannedLogId(7) + logId++,
        jobId: 7,
        appName: 'app-a',
        dedupKey: `7#${scheduledTime}`,
        scheduledTime,
        triggerType: 'CRON',
        triggerCode: TRIGGER_CODE.success,
        handleCode: HANDLE_CODE.success,
        ...fields,
      }),
      'claim-token',
    );
  return { env, deps, audit, calendars, ran };
}

describe('jobFireLedger', () => {
  it('explains every fire of a window with a stop and a start in it, from the audit log', async () => {
    const { deps, audit, ran } = fixture();
    const from = NOW - 20 * MIN;
    // Stopped at 12:14:30 by a user, started again at 12:19:58 (first fire after 12:20:03).
    await audit.append(
      makeAuditEntry(NOW - 15 * MIN - 30_000, {
        action: 'job.stop',
        target: 'job#7',
        changes: { triggerStatus: { before: 'RUNNING', after: 'STOPPED' } },
      }),
    );
    await audit.append(
      makeAuditEntry(NOW - 10 * MIN - 2_000, {
        action: 'job.start',
        target: 'job#7',
        changes: { triggerStatus: { before: 'STOPPED', after: 'RUNNING' } },
      }),
    );
    for (let m = 20; m >= 16; m--) await ran(NOW - m * MIN);
    for (let m = 9; m >= 1; m--) await ran(NOW - m * MIN);
    const ledger = await jobFireLedger(deps, 7, { from: iso(from), to: iso(NOW) });
    expect(ledger.summary).toMatchObject({ ran: 14, paused: 5, unexplained: 0, notYetDue: 0 });
    expect(ledger.entries.find((e) => e.outcome === 'paused')).toMatchObject({
      scheduledTime: NOW - 15 * MIN,
      count: 5,
      until: NOW - 11 * MIN,
      stoppedBy: 'job.stop',
    });
    expect(ledger.history).toBe('audit');
    expect(ledger.definitionChangedInWindow).toBe(false);
  });

  it('follows a schedule edit inside the window with the definition before it', async () => {
    const { deps, audit, env, ran } = fixture();
    env.jobs.jobs.set(7, { ...(env.jobs.jobs.get(7) as Job), scheduleConf: '0 */5 * * * ?' });
    await audit.append(
      makeAuditEntry(NOW - 10 * MIN - 30_000, {
        action: 'job.update',
        target: 'job#7',
        changes: { scheduleConf: { before: '0 * * * * ?', after: '0 */5 * * * ?' } },
      }),
    );
    for (let m = 20; m >= 11; m--) await ran(NOW - m * MIN);
    await ran(NOW - 5 * MIN);
    await ran(NOW - 10 * MIN, {
      triggerCode: TRIGGER_CODE.skipped,
      handleCode: 0,
      triggerMsg: 'overtaken by …',
    });
    const ledger = await jobFireLedger(deps, 7, { from: iso(NOW - 20 * MIN), to: iso(NOW) });
    expect(ledger.definitionChangedInWindow).toBe(true);
    expect(ledger.summary).toMatchObject({ ran: 11, skipped: 1, unexplained: 0 });
  });

  it('names the calendar that removed fires, with its version', async () => {
    const { deps, env, calendars } = fixture();
    await calendars.create(
      testCalendar({ id: 'hol', timeZone: 'UTC', excluded: [{ from: '2030-01-02', label: 'Closed' }] }),
    );
    env.jobs.jobs.set(7, { ...(env.jobs.jobs.get(7) as Job), calendars: { exclude: ['hol'] } });
    const ledger = await jobFireLedger(deps, 7, { from: iso(NOW - 10 * MIN), to: iso(NOW) });
    expect(ledger.summary).toMatchObject({ calendar: 10, unexplained: 0 });
    expect(ledger.calendars).toEqual([{ id: 'hol', version: 1, versionsUsed: [1] }]);
  });

  it('reads each calendar as it was at the time, from its audit records: a holiday taken out mid-window', async () => {
    const { deps, env, audit, calendars, ran } = fixture();
    const changedAt = NOW - 5 * MIN;
    const before = testCalendar({
      id: 'hol',
      timeZone: 'UTC',
      excluded: [{ from: '2030-01-02', label: 'Closed' }],
    });
    // Now: version 2, the holiday taken out at 12:25; the job re-planned by that change a moment later.
    await calendars.create({ ...before, excluded: [], version: 2, updatedAt: changedAt });
    env.jobs.jobs.set(7, { ...(env.jobs.jobs.get(7) as Job), calendars: { exclude: ['hol'] } });
    await audit.append(
      makeAuditEntry(changedAt + 200, {
        action: 'calendar.update',
        target: 'calendar#hol',
        changes: {
          excluded: { before: before.excluded, after: [] },
          version: { before: 1, after: 2 },
          updatedAt: { before: iso(before.updatedAt), after: iso(changedAt) },
        },
      }),
    );
    await audit.append(
      makeAuditEntry(changedAt + 50, {
        action: 'job.calendarReplan',
        target: 'job#7',
        changes: {
          triggerNextTime: { before: iso(changedAt), after: iso(NOW - 4 * MIN) },
          scheduleRevision: { before: 1, after: 2 },
        },
      }),
    );
    for (let m = 4; m >= 1; m--) await ran(NOW - m * MIN);
    const ledger = await jobFireLedger(deps, 7, { from: iso(NOW - 10 * MIN), to: iso(NOW) });
    // 12:20 to 12:25 closed by version 1; 12:26 to 12:29 ran under version 2.
    expect(ledger.summary).toMatchObject({ calendar: 6, ran: 4, unexplained: 0 });
    expect(ledger.calendars).toEqual([{ id: 'hol', version: 2, versionsUsed: [1, 2] }]);
    expect(ledger.calendarsChangedInWindow).toEqual(['hol']);
  });

  it('reads a calendar the schedule named earlier in the window, though it names none now', async () => {
    const { deps, audit, calendars, ran } = fixture();
    await calendars.create(
      testCalendar({ id: 'hol', timeZone: 'UTC', excluded: [{ from: '2030-01-02', label: 'Closed' }] }),
    );
    await audit.append(
      makeAuditEntry(NOW - 5 * MIN - 30_000, {
        action: 'job.update',
        target: 'job#7',
        changes: {
          calendars: { before: { only: [], exclude: ['hol'] }, after: { only: [], exclude: [] } },
          triggerNextTime: { before: iso(NOW - 5 * MIN), after: iso(NOW - 5 * MIN) },
        },
      }),
    );
    for (let m = 5; m >= 1; m--) await ran(NOW - m * MIN);
    const ledger = await jobFireLedger(deps, 7, { from: iso(NOW - 10 * MIN), to: iso(NOW) });
    expect(ledger.summary).toMatchObject({ calendar: 5, ran: 5, unexplained: 0 });
    expect(ledger.calendars).toEqual([{ id: 'hol', version: 1, versionsUsed: [1] }]);
  });

  it('refuses a bad window naming every problem, and an unknown job', async () => {
    const { deps } = fixture();
    const err = await jobFireLedger(deps, 7, { from: 'yesterday', to: 'soon' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestValidationError);
    expect((err as RequestValidationError).problems.map((p) => p.field)).toEqual(['from', 'to']);
    await expect(jobFireLedger(deps, 8, { from: iso(NOW - MIN), to: iso(NOW) })).rejects.toThrow(
      NotFoundError,
    );
    const tooMany = await jobFireLedger(deps, 7, { from: iso(NOW - 30 * 86_400_000), to: iso(NOW) }).catch(
      (e: unknown) => e,
    );
    expect((tooMany as RequestValidationError).message).toMatch(/more than 10000 fires/);
  });
});

describe('sweepDeadMan', () => {
  it('alarms once per job and window however often it sweeps, and counts the unexplained fires', async () => {
    const { deps, env, ran } = fixture();
    const to = NOW - DEAD_MAN.graceMs;
    // Every fire of the window ran but two.
    for (let t = to - DEAD_MAN.windowMs; t < to; t += MIN)
      if (t !== NOW - 8 * MIN && t !== NOW - 7 * MIN) await ran(t);
    const first = await sweepDeadMan(deps);
    const second = await sweepDeadMan(deps);
    expect(first).toMatchObject({ jobs: 2, checked: 2, alarmed: [7], unexplained: 2, errors: [] });
    expect(second.alarmed).toEqual([]);
    expect(env.alarms.alarms).toHaveLength(1);
    expect(env.alarms.alarms[0]).toMatchObject({
      kind: 'fireUnexplained',
      job: { id: 7 },
      unexplained: { count: 2, first: NOW - 8 * MIN },
    });
    expect(env.metrics.sum(METRIC.firesUnexplained)).toBe(4);
  });

  it('raises nothing for a job whose fires all ran, or a stopped one', async () => {
    const { deps, env, ran } = fixture();
    for (let t = NOW - 20 * MIN; t < NOW; t += MIN) await ran(t);
    env.jobs.jobs.set(1, { ...(env.jobs.jobs.get(1) as Job), triggerStatus: 'STOPPED' });
    const result = await sweepDeadMan(deps);
    expect(result).toMatchObject({ jobs: 1, alarmed: [], unexplained: 0 });
    expect(env.alarms.alarms).toEqual([]);
  });

  it('runs as the monitors’ deadMan sweep; a failure is logged and counted like the others', async () => {
    const { deps, env } = fixture();
    const failing = { sweep: () => Promise.reject(new Error('audit unreachable')) };
    const settings = { registryDeadSeconds: 90, batchSize: 10, settleMs: 60_000 };
    const monitors = { ...deps, executors: env.transport };
    const result = await runMonitorSweeps({ ...monitors, deadManSweep: failing }, settings);
    expect(result.failedSweeps).toEqual(['deadMan']);
    expect(env.metrics.sum(METRIC.sweepFailures)).toBe(1);
    const ok = await runMonitorSweeps(
      { ...monitors, deadManSweep: { sweep: () => sweepDeadMan(deps) } },
      settings,
    );
    expect(ok.deadMan?.checked).toBe(2);
  });
});
