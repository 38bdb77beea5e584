import { FakeClock, MemoryCalendarStore, MemoryJobStore, makeJob } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import type { Calendar } from '../calendars/calendar.js';
import { parseCalendarSpec } from '../calendars/calendar-validation.js';
import { ConflictError, problemsOf, ValidationError } from '../common/errors.js';
import { silentLogger } from '../common/logger.js';
import type { Job } from './job.js';
import {
  listOccurrences,
  moveOccurrence,
  OCCURRENCE_LEAD_MS,
  removeOccurrenceException,
  skipOccurrence,
} from './job-occurrences.js';

const NOW = Date.parse('2030-01-01T00:00:00Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function setup(job: Partial<Job> = {}) {
  const clock = new FakeClock(NOW);
  const jobs = new MemoryJobStore({ shardCount: 1 });
  // Hourly, running, its next fire the top of the next hour (not yet planned).
  await jobs.create(
    makeJob({
      id: 1,
      scheduleType: 'CRON',
      scheduleConf: '0 0 * * * ?',
      triggerNextTime: NOW + HOUR,
      ...job,
    }),
  );
  return { clock, jobs, deps: { jobs, groups: { get: async () => undefined }, clock, logger: silentLogger } };
}

async function problems(p: Promise<unknown>) {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ValidationError);
  return problemsOf(err as ValidationError);
}

describe('skipping an occurrence', () => {
  it('stores the skip with who and why, and steps the next fire over it when it was the next', async () => {
    const { deps } = await setup();
    const job = await skipOccurrence(deps, 1, { time: iso(NOW + HOUR), reason: 'holiday' }, 'ana');
    expect(job.occurrenceExceptions).toEqual([
      { at: NOW + HOUR, action: 'skip', reason: 'holiday', by: 'ana', createdAt: NOW },
    ]);
    expect(job.triggerNextTime).toBe(NOW + 2 * HOUR);
    expect(job.version).toBe(2);
    // Taken back, it is the next fire again.
    const restored = await removeOccurrenceException(deps, 1, String(NOW + HOUR));
    expect(restored.occurrenceExceptions).toBeUndefined();
    expect(restored.triggerNextTime).toBe(NOW + HOUR);
  });

  it('refuses a time that is no fire of the schedule, naming the nearest fires, and a bad reason, at once', async () => {
    const { deps } = await setup();
    const found = await problems(
      moveOccurrence(deps, 1, { time: iso(NOW + HOUR + 60_000), to: 'soon', reason: 7 }, 'ana'),
    );
    expect(found.map((p) => p.field)).toEqual(['to', 'reason']);
    const place = await problems(skipOccurrence(deps, 1, { time: iso(NOW + HOUR + 60_000) }, 'ana'));
    expect(place[0]?.message).toContain(
      `the nearest are ${iso(NOW + HOUR)} before and ${iso(NOW + 2 * HOUR)} after`,
    );
    const bad = await problems(skipOccurrence(deps, 1, { time: 'yesterday' }, 'ana'));
    expect(bad[0]).toMatchObject({ field: 'time' });
  });

  it('answers 409 for an occurrence planned already or too near', async () => {
    const { deps, clock } = await setup({ triggerNextTime: NOW + 2 * HOUR, triggerLastTime: NOW + HOUR });
    await expect(skipOccurrence(deps, 1, { time: iso(NOW + HOUR) }, 'ana')).rejects.toThrow(
      /planned already/,
    );
    clock.advance(2 * HOUR - OCCURRENCE_LEAD_MS + 1_000);
    await expect(skipOccurrence(deps, 1, { time: iso(NOW + 2 * HOUR) }, 'ana')).rejects.toBeInstanceOf(
      ConflictError,
    );
  });
});

describe('moving an occurrence', () => {
  it('keeps its scheduled time and makes its new time the next fire', async () => {
    const { deps } = await setup();
    const job = await moveOccurrence(
      deps,
      1,
      { time: iso(NOW + HOUR), to: iso(NOW + HOUR + 600_000) },
      'ana',
    );
    expect(job.occurrenceExceptions?.[0]).toMatchObject({
      at: NOW + HOUR,
      action: 'move',
      to: NOW + HOUR + 600_000,
    });
    expect(job.triggerNextTime).toBe(NOW + HOUR + 600_000);
  });

  it('refuses a new time outside the window between its neighbours, naming the window', async () => {
    const { deps } = await setup();
    const found = await problems(
      moveOccurrence(deps, 1, { time: iso(NOW + 2 * HOUR), to: iso(NOW + 3 * HOUR + 1) }, 'ana'),
    );
    expect(found[0]?.message).toContain(`after ${iso(NOW + HOUR)} and before ${iso(NOW + 3 * HOUR)}`);
    // A neighbour moved counts at its new time.
    await moveOccurrence(deps, 1, { time: iso(NOW + HOUR), to: iso(NOW + HOUR + 1_800_000) }, 'ana');
    const after = await problems(
      moveOccurrence(deps, 1, { time: iso(NOW + 2 * HOUR), to: iso(NOW + HOUR + 1_000_000) }, 'ana'),
    );
    expect(after[0]?.message).toContain(`after ${iso(NOW + HOUR + 1_800_000)}`);
  });
});

describe('listing occurrences', () => {
  it('shows a skipped one without a fire time and a moved one at its new time beside the others', async () => {
    const { deps } = await setup();
    await skipOccurrence(deps, 1, { time: iso(NOW + HOUR) }, 'ana');
    await moveOccurrence(deps, 1, { time: iso(NOW + 2 * HOUR), to: iso(NOW + 2 * HOUR + 60_000) }, 'ana');
    const { occurrences, exceptions } = await listOccurrences(deps, 1, { limit: 3 });
    expect(occurrences.map((o) => [o.time, o.fireAt, o.exception?.action, o.changeable])).toEqual([
      [NOW + HOUR, null, 'skip', true],
      [NOW + 2 * HOUR, NOW + 2 * HOUR + 60_000, 'move', true],
      [NOW + 3 * HOUR, NOW + 3 * HOUR, undefined, true],
    ]);
    expect(exceptions).toHaveLength(2);
  });
});

describe('an exception on a job that follows calendars', () => {
  // Working days Monday to Friday in Shanghai; 1–7 October 2030 off (National Day).
  const cnDays = Date.parse('2030-09-25T16:00:00Z');
  const cn: Calendar = {
    id: 'cn',
    ...parseCalendarSpec({
      name: 'China',
      timeZone: 'Asia/Shanghai',
      excluded: [{ from: '2030-10-01', to: '2030-10-07', label: 'National Day' }],
    }),
    version: 1,
    createdAt: cnDays,
    updatedAt: cnDays,
    updatedBy: 'ana',
  };

  it('steps the next fire over a skipped occurrence onto the next day the calendars allow, and back on undo', async () => {
    // Sunday 29 September, 11:00 in Shanghai; the next fire Monday 30 September 09:00.
    const now = Date.parse('2030-09-29T03:00:00Z');
    const monday = Date.parse('2030-09-30T01:00:00Z');
    const clock = new FakeClock(now);
    const jobs = new MemoryJobStore({ shardCount: 1 });
    const calendars = new MemoryCalendarStore();
    await calendars.create(cn);
    await jobs.create(
      makeJob({
        id: 1,
        scheduleType: 'CRON',
        scheduleConf: '0 0 9 * * ?',
        timeZone: 'Asia/Shanghai',
        calendars: { only: ['cn'] },
        triggerNextTime: monday,
      }),
    );
    const deps = { jobs, groups: { get: async () => undefined }, calendars, clock, logger: silentLogger };
    const skipped = await skipOccurrence(deps, 1, { time: iso(monday) }, 'ana');
    // Not 1 October (a holiday the calendar removes): Tuesday 8 October, 09:00 in Shanghai.
    expect(iso(skipped.triggerNextTime ?? 0)).toBe('2030-10-08T01:00:00.000Z');
    const restored = await removeOccurrenceException(deps, 1, iso(monday));
    expect(restored.triggerNextTime).toBe(monday);
  });
});
