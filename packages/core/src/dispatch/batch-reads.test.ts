import { makeJob } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import type { RegistryStore } from '../executors/registry-store.js';
import type { Group, Job } from '../jobs/job.js';
import type { GroupStore, JobStore, ReadOptions } from '../jobs/job-store.js';
import { BatchReads } from './batch-reads.js';

type Read = { readonly what: string; readonly consistency: 'strong' | 'eventual' };

/**
 * Stores whose eventually consistent reads answer `lagging` (what a replica a moment behind holds)
 * and whose strong reads answer `current`, recording every read.
 */
function stores(current: { jobs: Job[]; groups: Group[] }, lagging: { jobs: Job[]; groups: Group[] }) {
  const reads: Read[] = [];
  const pick = (read?: ReadOptions) => (read?.consistency === 'eventual' ? lagging : current);
  const jobs = {
    get: async (id: number) => {
      reads.push({ what: `job ${id}`, consistency: 'strong' });
      return current.jobs.find((j) => j.id === id);
    },
    getMany: async (ids: readonly number[], read?: ReadOptions) => {
      reads.push({ what: `jobs ${ids.join(',')}`, consistency: read?.consistency ?? 'strong' });
      return pick(read).jobs.filter((j) => ids.includes(j.id));
    },
  } as Partial<JobStore> as JobStore;
  const groups = {
    get: async (appName: string, read?: ReadOptions) => {
      reads.push({ what: `group ${appName}`, consistency: read?.consistency ?? 'strong' });
      return pick(read).groups.find((g) => g.appName === appName);
    },
  } as Partial<GroupStore> as GroupStore;
  const registry = { list: async () => [] } as Partial<RegistryStore> as RegistryStore;
  return { deps: { jobs, groups, registry }, reads };
}

const group = (appName: string) => ({ appName }) as Group;

describe('BatchReads', () => {
  it('reads the batch’s jobs once, eventually consistent, and answers every fire from that read', async () => {
    const job = makeJob({ id: 1, scheduleRevision: 3 });
    const { deps, reads } = stores({ jobs: [job], groups: [] }, { jobs: [job], groups: [] });
    const batch = new BatchReads(deps);
    batch.preloadJobs([1, 1]);
    expect(await batch.job(1, 3)).toBe(job);
    expect(await batch.job(1, 3)).toBe(job);
    expect(reads).toEqual([{ what: 'jobs 1', consistency: 'eventual' }]);
  });

  it('reads a job strongly, once, when the cheap read did not find it (made a moment ago)', async () => {
    const job = makeJob({ id: 1 });
    const { deps, reads } = stores({ jobs: [job], groups: [] }, { jobs: [], groups: [] });
    const batch = new BatchReads(deps);
    batch.preloadJobs([1]);
    expect(await Promise.all([batch.job(1), batch.job(1)])).toEqual([job, job]);
    expect(reads).toEqual([
      { what: 'jobs 1', consistency: 'eventual' },
      { what: 'job 1', consistency: 'strong' },
    ]);
  });

  it('reads a job strongly when the cheap read is older than the schedule its fire was planned from', async () => {
    const current = makeJob({ id: 1, scheduleRevision: 4 });
    const { deps, reads } = stores(
      { jobs: [current], groups: [] },
      { jobs: [makeJob({ id: 1, scheduleRevision: 3 })], groups: [] },
    );
    const batch = new BatchReads(deps);
    batch.preloadJobs([1]);
    // Planned from revision 4: the read of revision 3 lags; dropping the fire on it would lose it.
    expect(await batch.job(1, 4)).toBe(current);
    expect(reads.map((r) => r.consistency)).toEqual(['eventual', 'strong']);
  });

  it('trusts a cheap read newer than the fire’s schedule: the job was edited after the plan', async () => {
    const edited = makeJob({ id: 1, scheduleRevision: 5 });
    const { deps, reads } = stores({ jobs: [edited], groups: [] }, { jobs: [edited], groups: [] });
    const batch = new BatchReads(deps);
    batch.preloadJobs([1]);
    expect(await batch.job(1, 4)).toBe(edited);
    expect(reads.map((r) => r.consistency)).toEqual(['eventual']);
  });

  it('reads each job strongly when the batched read fails, and a job not preloaded strongly', async () => {
    const job = makeJob({ id: 1 });
    const other = makeJob({ id: 2 });
    const { deps, reads } = stores({ jobs: [job, other], groups: [] }, { jobs: [job, other], groups: [] });
    const failing = {
      ...deps,
      jobs: { ...deps.jobs, getMany: () => Promise.reject(new Error('throttled')) },
    };
    const batch = new BatchReads(failing);
    batch.preloadJobs([1]);
    expect(await batch.job(1)).toBe(job);
    expect(await batch.job(2)).toBe(other);
    expect(reads).toEqual([
      { what: 'job 1', consistency: 'strong' },
      { what: 'job 2', consistency: 'strong' },
    ]);
  });

  it('reads a group once, eventually consistent, and strongly only when that read did not find it', async () => {
    const { deps, reads } = stores(
      { jobs: [], groups: [group('old'), group('new')] },
      { jobs: [], groups: [group('old')] },
    );
    const batch = new BatchReads(deps);
    expect(await batch.group('old')).toEqual(group('old'));
    expect(await batch.group('new')).toEqual(group('new'));
    expect(await batch.group('new')).toEqual(group('new'));
    expect(await batch.group('gone')).toBeUndefined();
    expect(reads).toEqual([
      { what: 'group old', consistency: 'eventual' },
      { what: 'group new', consistency: 'eventual' },
      { what: 'group new', consistency: 'strong' },
      { what: 'group gone', consistency: 'eventual' },
      { what: 'group gone', consistency: 'strong' },
    ]);
  });
});
