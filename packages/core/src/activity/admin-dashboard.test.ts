import { FakeClock, makeJob } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../common/errors.js';
import type { RegistryEntry } from '../executors/registry-store.js';
import type { Group, Job } from '../jobs/job.js';
import type { JobQuery } from '../jobs/job-store.js';
import { type AdminDashboardDeps, dashboard } from './admin-dashboard.js';

const NOW = Date.UTC(2030, 0, 10, 15, 30);

function group(appName: string, fields: Partial<Group> = {}): Group {
  return {
    appName,
    title: appName,
    addressType: 'AUTO',
    addressList: [],
    createdAt: 0,
    updatedAt: 0,
    ...fields,
  };
}

function fakes(options: {
  jobs?: Job[];
  groups?: Group[];
  entries?: RegistryEntry[];
  counters?: Record<string, { running?: number; success?: number; fail?: number; skipped?: number }>;
}) {
  const jobQueries: JobQuery[] = [];
  const ranges: [string, string][] = [];
  const jobs = options.jobs ?? [];
  const deps: AdminDashboardDeps = {
    jobs: {
      // Pages of 2, the cursor being the offset: the dashboard must walk every page.
      list: async (query) => {
        jobQueries.push(query);
        const start = Number(query.cursor ?? 0);
        const end = start + 2;
        return { items: jobs.slice(start, end), nextCursor: end < jobs.length ? String(end) : undefined };
      },
    },
    groups: {
      get: async (appName) => options.groups?.find((g) => g.appName === appName),
      list: async () => options.groups ?? [],
    },
    registry: { list: async (appName) => (options.entries ?? []).filter((e) => e.appName === appName) },
    reports: {
      range: async (fromDay, toDay) => {
        ranges.push([fromDay, toDay]);
        const days: string[] = [];
        for (let t = Date.parse(fromDay); t <= Date.parse(toDay); t += 86_400_000) {
          days.push(new Date(t).toISOString().slice(0, 10));
        }
        return days.map((day) => ({
          day,
          running: 0,
          success: 0,
          fail: 0,
          skipped: 0,
          ...options.counters?.[day],
        }));
      },
    },
    clock: new FakeClock(NOW),
  };
  return { deps, jobQueries, ranges };
}

describe('dashboard', () => {
  it('reads the last `days` days, today included, oldest first', async () => {
    const { deps, ranges } = fakes({
      counters: {
        '2030-01-09': { success: 3, fail: 1, skipped: 4 },
        '2030-01-10': { running: 2, skipped: 1 },
      },
    });
    const result = await dashboard(deps, { registryDeadSeconds: 90 }, 3);
    expect(ranges).toEqual([['2030-01-08', '2030-01-10']]);
    expect(result.fromDay).toBe('2030-01-08');
    expect(result.toDay).toBe('2030-01-10');
    expect(result.series).toEqual([
      { day: '2030-01-08', running: 0, success: 0, fail: 0, skipped: 0 },
      { day: '2030-01-09', running: 0, success: 3, fail: 1, skipped: 4 },
      { day: '2030-01-10', running: 2, success: 0, fail: 0, skipped: 1 },
    ]);
    // Skipped fires are counted apart: never sent, they are not runs of the period.
    expect(result.totals).toMatchObject({ runs: 6, running: 2, success: 3, fail: 1, skipped: 5 });
  });

  it('reads today only for days=1', async () => {
    const { deps, ranges } = fakes({});
    await dashboard(deps, { registryDeadSeconds: 90 }, 1);
    expect(ranges).toEqual([['2030-01-10', '2030-01-10']]);
  });

  it('counts every job over all pages, and the running ones', async () => {
    const jobs = [1, 2, 3, 4, 5].map((id) => makeJob({ id, triggerStatus: id % 2 ? 'RUNNING' : 'STOPPED' }));
    const { deps, jobQueries } = fakes({ jobs });
    const { totals } = await dashboard(deps, { registryDeadSeconds: 90 }, 7);
    expect(totals).toMatchObject({ jobs: 5, runningJobs: 3 });
    expect(jobQueries.map((q) => q.cursor)).toEqual([undefined, '2', '4']);
  });

  it('counts distinct online executor addresses over every group', async () => {
    const { deps } = fakes({
      groups: [
        group('a'),
        group('b'),
        group('m', { addressType: 'MANUAL', addressList: ['http://never:1/'] }),
      ],
      entries: [
        { appName: 'a', address: 'http://shared:1/', updatedAt: NOW - 1_000 },
        { appName: 'b', address: 'http://shared:1/', updatedAt: NOW - 2_000 },
        { appName: 'b', address: 'http://b:1/', updatedAt: NOW - 3_000 },
        { appName: 'b', address: 'http://stale:1/', updatedAt: NOW - 100_000 },
      ],
    });
    const { totals } = await dashboard(deps, { registryDeadSeconds: 90 }, 7);
    expect(totals.onlineExecutors).toBe(2);
  });

  it.each([0, 91, 2.5, Number.NaN])('refuses days=%s, naming days', async (days) => {
    const { deps } = fakes({});
    const err = await dashboard(deps, { registryDeadSeconds: 90 }, days).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err).toMatchObject({ field: 'days' });
  });
});
