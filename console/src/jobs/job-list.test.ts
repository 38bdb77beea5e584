import type { Job, JobPage } from '@tickring/client';
import { describe, expect, it } from 'vitest';
import { hasClientFilter, matchesJob, readJobPage, triggerStatusOf } from './job-list';

function job(id: number, over: Partial<Job> = {}): Job {
  return {
    id,
    appName: 'my-app',
    name: `Job ${id}`,
    author: 'ops',
    executorHandler: id % 2 === 0 ? 'reportHandler' : 'cleanupHandler',
    executorParam: '',
    ...over,
  } as Job;
}

describe('matchesJob', () => {
  it('matches part of the handler, any case', () => {
    expect(matchesJob(job(2), { handler: 'REPORT' })).toBe(true);
    expect(matchesJob(job(1), { handler: 'report' })).toBe(false);
  });

  it('matches every word of the text in id, name, author, handler or parameter', () => {
    const nightly = job(42, { name: 'Nightly billing export', executorParam: 'region=eu' });
    expect(matchesJob(nightly, { q: 'billing NIGHTLY' })).toBe(true);
    expect(matchesJob(nightly, { q: 'region=eu' })).toBe(true);
    expect(matchesJob(nightly, { q: '#42' })).toBe(true);
    expect(matchesJob(nightly, { q: 'billing weekly' })).toBe(false);
    expect(matchesJob(nightly, { q: '  ' })).toBe(true);
  });

  it('knows when anything is filtered here', () => {
    expect(hasClientFilter({})).toBe(false);
    expect(hasClientFilter({ q: ' ' })).toBe(false);
    expect(hasClientFilter({ handler: 'x' })).toBe(true);
  });

  it('maps the URL status to the API’s', () => {
    expect(triggerStatusOf('running')).toBe('RUNNING');
    expect(triggerStatusOf('stopped')).toBe('STOPPED');
    expect(triggerStatusOf(undefined)).toBeUndefined();
  });
});

describe('readJobPage', () => {
  // 250 jobs in pages as the server gives them.
  const all = Array.from({ length: 250 }, (_, i) => job(i + 1));
  const reads: { cursor?: string; limit: number }[] = [];
  const readPage = async (query: { cursor?: string; limit: number }): Promise<JobPage> => {
    reads.push(query);
    const start = query.cursor ? Number(query.cursor) : 0;
    const items = all.slice(start, start + query.limit);
    const end = start + query.limit;
    return { items, nextCursor: end < all.length ? String(end) : null };
  };

  it('passes the server page through when nothing is filtered here', async () => {
    reads.length = 0;
    const page = await readJobPage(readPage, undefined, {});
    expect(page.items.map((j) => j.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(page.nextCursor).toBe('20');
    expect(reads).toEqual([{ limit: 20 }]);
  });

  it('reads server pages until a page of matches is full, and goes on from there', async () => {
    reads.length = 0;
    // Everything matches: the first server page of 100 fills the page (whole pages are kept).
    const page = await readJobPage(readPage, undefined, { q: 'job' }, { pageSize: 20 });
    expect(page.items).toHaveLength(100);
    expect(page.nextCursor).toBe('100');
    const rare = await readJobPage(readPage, undefined, { handler: 'report', q: '7' }, { pageSize: 20 });
    // Even ids containing a 7 in 1-250: read to the end (3 pages).
    expect(rare.items.every((j) => j.id % 2 === 0 && String(j.id).includes('7'))).toBe(true);
    expect(rare.nextCursor).toBeNull();
    expect(rare.scanned).toBe(250);
    expect(rare.stoppedEarly).toBe(false);
  });

  it('stops at its page limit and says so', async () => {
    const page = await readJobPage(readPage, undefined, { q: 'nothing matches this' }, { maxPages: 2 });
    expect(page.items).toEqual([]);
    expect(page.nextCursor).toBe('200');
    expect(page.scanned).toBe(200);
    expect(page.stoppedEarly).toBe(true);
  });
});
