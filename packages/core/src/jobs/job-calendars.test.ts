import {
  FakeClock,
  MemoryAuditLog,
  MemoryCalendarStore,
  MemoryGroupStore,
  MemoryJobStore,
} from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { deleteCalendar, updateCalendar } from '../calendars/admin-calendars.js';
import type { Calendar } from '../calendars/calendar.js';
import { parseCalendarSpec } from '../calendars/calendar-validation.js';
import { ConflictError, problemsOf, RequestValidationError, type ValidationError } from '../common/errors.js';
import { silentLogger } from '../common/logger.js';
import { type AdminJobsDeps, createJob, previewSchedule, requireCalendars, updateJob } from './admin-jobs.js';
import { parseJobSpec } from './job-validation.js';

// Thursday 26 September 2030, 00:00 in Shanghai.
const NOW = Date.parse('2030-09-25T16:00:00Z');

const cn: Calendar = {
  id: 'cn',
  ...parseCalendarSpec({
    name: 'China',
    timeZone: 'Asia/Shanghai',
    excluded: [{ from: '2030-10-01', to: '2030-10-07', label: 'National Day' }],
    included: [{ date: '2030-09-28', label: 'Make-up day' }],
  }),
  version: 1,
  createdAt: NOW,
  updatedAt: NOW,
  updatedBy: 'ana',
};

async function setUp() {
  const clock = new FakeClock(NOW);
  const calendars = new MemoryCalendarStore();
  await calendars.create(cn);
  const groups = new MemoryGroupStore();
  await groups.create({
    appName: 'billing',
    title: 'Billing',
    addressType: 'AUTO',
    addressList: [],
    createdAt: NOW,
    updatedAt: NOW,
  });
  const jobs: AdminJobsDeps = {
    jobs: new MemoryJobStore({ shardCount: 1 }),
    groups,
    calendars,
    clock,
    logger: silentLogger,
  };
  const audit = new MemoryAuditLog({ clock, retentionDays: 365 });
  return {
    clock,
    calendars,
    jobs,
    audit,
    calendarDeps: { calendars, jobs, audit, clock, logger: silentLogger },
  };
}

const job = (fields: Record<string, unknown>) => ({
  appName: 'billing',
  name: 'report',
  author: 'ana',
  executorHandler: 'report',
  scheduleType: 'CRON',
  scheduleConf: '0 0 9 * * ?',
  timeZone: 'Asia/Shanghai',
  ...fields,
});

async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a refusal');
}

describe('a job’s calendars', () => {
  it('refuses every problem of the calendars’ shape at once, beside the bounds’', () => {
    const err = (() => {
      try {
        parseJobSpec(
          job({
            maxRuns: 0,
            calendars: {
              only: ['cn', 'Not An Id', ...Array.from({ length: 10 }, (_, i) => `c${i}`)],
              exclude: ['x', 'x'],
              also: [],
            },
          }),
        );
      } catch (e) {
        return e as Error;
      }
      throw new Error('expected a refusal');
    })();
    expect(problemsOf(err as ValidationError)).toEqual([
      { field: 'maxRuns', message: 'maxRuns must be between 1 and 2147483647; got 0' },
      { field: 'calendars.also', message: 'calendars.also is not a list of calendars (use only, exclude)' },
      { field: 'calendars.only', message: 'calendars.only may name at most 10 calendars; got 12' },
      {
        field: 'calendars.only',
        message: `calendars.only must hold calendar ids (lower-case letters, digits and '-'); not "Not An Id"`,
      },
      { field: 'calendars.exclude', message: 'calendars.exclude names "x" twice' },
    ]);
  });

  it('keeps no empty lists: {} and null mean none', () => {
    expect(parseJobSpec(job({ calendars: { only: [], exclude: [] } })).calendars).toBeUndefined();
    expect(parseJobSpec(job({ calendars: null })).calendars).toBeUndefined();
    expect(parseJobSpec(job({ calendars: { exclude: ['cn'] } })).calendars).toEqual({ exclude: ['cn'] });
  });

  it('refuses (400) calendars that do not exist, naming each in its list', async () => {
    const { jobs } = await setUp();
    const err = await refusal(
      createJob(jobs, job({ calendars: { only: ['cn', 'nope'], exclude: ['gone', 'missing'] } })),
    );
    expect(err).toBeInstanceOf(RequestValidationError);
    expect(problemsOf(err as ValidationError)).toEqual([
      {
        field: 'calendars.only',
        message:
          'calendars.only names calendars that do not exist: nope; create them first (POST /v1/calendars)',
      },
      {
        field: 'calendars.exclude',
        message:
          'calendars.exclude names calendars that do not exist: gone, missing; create them first (POST /v1/calendars)',
      },
    ]);
  });

  it('starts at the first fire its calendars allow, and re-plans with a new revision when they change', async () => {
    const { jobs, clock } = await setUp();
    clock.advance(Date.parse('2030-09-30T16:00:00Z') - NOW); // Tuesday 1 October, National Day, in Shanghai
    const made = await createJob(jobs, job({ triggerStatus: 'RUNNING', calendars: { only: ['cn'] } }));
    expect(new Date(made.triggerNextTime ?? 0).toISOString()).toBe('2030-10-08T01:00:00.000Z');
    const edited = await updateJob(jobs, made.id, { calendars: { exclude: ['cn'] } });
    // exclude ignores the weekly pattern: Tuesday 8 is still the first, but the plan is new.
    expect(edited.scheduleRevision).toBe(made.scheduleRevision + 1);
    const cleared = await updateJob(jobs, made.id, { calendars: null });
    expect(cleared.calendars).toBeUndefined();
    expect(new Date(cleared.triggerNextTime ?? 0).toISOString()).toBe('2030-10-01T01:00:00.000Z');
  });

  it('previews the fires made and, apart, the ones the calendars removed, and says when they allow no more', async () => {
    const { jobs } = await setUp();
    const schedule = { type: 'CRON' as const, conf: '0 0 9 * * ?', timeZone: 'Asia/Shanghai' };
    const gate = await requireCalendars(jobs, { only: ['cn'] });
    const preview = previewSchedule(schedule, NOW, 4, { ...(gate ? { calendars: gate } : {}) });
    expect(preview.fires.map((f) => new Date(f.time).toISOString().slice(0, 10))).toEqual([
      '2030-09-26',
      '2030-09-27',
      '2030-09-28',
      '2030-09-30',
    ]);
    expect(preview.skipped).toEqual([
      {
        time: Date.parse('2030-09-29T01:00:00Z'),
        calendarId: 'cn',
        list: 'only',
        date: '2030-09-29',
        reason: 'WEEKEND',
      },
    ]);
    const once = { type: 'ONCE' as const, conf: '2030-10-02T01:00:00Z', timeZone: 'UTC' };
    const removed = previewSchedule(once, NOW, 4, { ...(gate ? { calendars: gate } : {}) });
    expect(removed).toMatchObject({ fires: [], ends: 'calendar' });
    expect(removed.skipped).toEqual([expect.objectContaining({ date: '2030-10-02', label: 'National Day' })]);
  });
});

describe('a calendar change', () => {
  it('re-plans every running job naming it from now, with a new revision, each audited; leaves the others', async () => {
    const { jobs, clock, calendarDeps, audit } = await setUp();
    clock.advance(Date.parse('2030-09-30T16:00:00Z') - NOW); // Tuesday 1 October in Shanghai
    const running = await createJob(jobs, job({ triggerStatus: 'RUNNING', calendars: { only: ['cn'] } }));
    const stopped = await createJob(jobs, job({ calendars: { only: ['cn'] } }));
    const other = await createJob(jobs, job({ triggerStatus: 'RUNNING' }));
    expect(new Date(running.triggerNextTime ?? 0).toISOString()).toBe('2030-10-08T01:00:00.000Z');

    // The holidays move: 1 October becomes a working day again.
    const { id: _id, version: _v, createdAt: _c, updatedAt: _u, updatedBy: _b, ...spec } = cn;
    await updateCalendar(
      calendarDeps,
      'cn',
      { ...spec, excluded: [{ from: '2030-10-02', to: '2030-10-07' }] },
      1,
      'bo',
    );

    const after = await jobs.jobs.get(running.id);
    expect(new Date(after?.triggerNextTime ?? 0).toISOString()).toBe('2030-10-01T01:00:00.000Z');
    expect(after?.scheduleRevision).toBe(running.scheduleRevision + 1);
    expect(await jobs.jobs.get(stopped.id)).toEqual(stopped);
    expect(await jobs.jobs.get(other.id)).toEqual(other);
    const { items } = await audit.list({ limit: 10, from: 0, to: clock.now() + 1 });
    expect(items).toEqual([
      expect.objectContaining({
        action: 'job.calendarReplan',
        target: `job#${running.id}`,
        actor: expect.objectContaining({ kind: 'system' }),
        changes: {
          triggerNextTime: { before: '2030-10-08T01:00:00.000Z', after: '2030-10-01T01:00:00.000Z' },
          scheduleRevision: { before: running.scheduleRevision, after: running.scheduleRevision + 1 },
        },
        detail: { calendarId: 'cn', calendarVersion: 2, changedBy: 'bo' },
      }),
    ]);
  });

  it('stops a running job whose calendar now allows none of its fires, saying calendar', async () => {
    const { jobs, calendarDeps } = await setUp();
    const running = await createJob(jobs, job({ triggerStatus: 'RUNNING', calendars: { only: ['cn'] } }));
    const { id: _id, version: _v, createdAt: _c, updatedAt: _u, updatedBy: _b, ...spec } = cn;
    await updateCalendar(calendarDeps, 'cn', { ...spec, workingDays: [], included: [] }, 1, 'bo');
    expect(await jobs.jobs.get(running.id)).toMatchObject({
      triggerStatus: 'STOPPED',
      triggerNextTime: null,
      scheduleEnded: { reason: 'calendar', at: NOW },
    });
  });

  it('refuses (409) to delete a calendar a job names, naming the jobs', async () => {
    const { jobs, calendarDeps, calendars } = await setUp();
    const a = await createJob(jobs, job({ name: 'a', calendars: { only: ['cn'] } }));
    const b = await createJob(jobs, job({ name: 'b', calendars: { exclude: ['cn'] } }));
    const err = await refusal(deleteCalendar(calendarDeps, 'cn', undefined));
    expect(err).toBeInstanceOf(ConflictError);
    expect(err.message).toBe(
      `calendar cn is named by the schedule of jobs ${a.id} (a), ${b.id} (b); take it out of their calendars first`,
    );
    expect(await calendars.get('cn')).toBeDefined();
  });
});
