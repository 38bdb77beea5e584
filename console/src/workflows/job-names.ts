import type { Job } from '@tickring/client';
import { api } from '../lib/api';
import { useLoad } from '../lib/hooks';

/** Most pages of the group's jobs read to find the nodes' jobs (100 each), then one read per job left. */
const MAX_PAGES = 5;
const MAX_SINGLE_READS = 20;

/**
 * The names of the jobs a workflow's nodes run (by id): the group's jobs page by page until each
 * is found, then the few left one by one (a job of another group, or deleted, stays unnamed).
 */
export async function readJobNames(appName: string, jobIds: readonly number[]): Promise<Map<number, Job>> {
  const wanted = new Set(jobIds);
  const found = new Map<number, Job>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && appName !== '' && found.size < wanted.size; page++) {
    const answer = await api().listJobs({ query: { appName, limit: 100, ...(cursor ? { cursor } : {}) } });
    for (const job of answer.items) if (wanted.has(job.id)) found.set(job.id, job);
    if (answer.nextCursor === null) break;
    cursor = answer.nextCursor;
  }
  const missing = [...wanted].filter((id) => !found.has(id)).slice(0, MAX_SINGLE_READS);
  const single = await Promise.all(
    missing.map((id) =>
      api()
        .getJob({ path: { id } })
        .then(
          (job) => job,
          () => undefined,
        ),
    ),
  );
  for (const job of single) if (job) found.set(job.id, job);
  return found;
}

/** The jobs of these ids (read again when the ids change). */
export function useJobs(appName: string, jobIds: readonly number[]): Map<number, Job> {
  const ids = [...new Set(jobIds)].sort((a, b) => a - b);
  const loaded = useLoad(() => readJobNames(appName, ids), `jobs:${appName}:${ids.join(',')}`);
  return loaded.data ?? EMPTY;
}

const EMPTY = new Map<number, Job>();
