import type { Job } from './job.js';
import type { JobStore } from './job-store.js';

const PAGE = 100;

/**
 * Every job (any status, any group) that `keep` accepts, read page by page: on DynamoDB a scan of
 * the jobs table. For the rare checks that must see them all (what names a calendar or an alert
 * channel before it is deleted or changed).
 */
export async function jobsWhere(jobs: Pick<JobStore, 'list'>, keep: (job: Job) => boolean): Promise<Job[]> {
  const kept: Job[] = [];
  let cursor: string | undefined;
  do {
    const page = await jobs.list({ limit: PAGE, ...(cursor ? { cursor } : {}) });
    kept.push(...page.items.filter(keep));
    cursor = page.nextCursor;
  } while (cursor);
  return kept;
}
