// The jobs list's filters. The API filters by group (appName) and trigger status; handler and text
// are filtered here, in the browser, over the pages read (several server pages per console page, so
// a filter that matches few jobs still fills a page). Pure: the page reader is passed in.

import type { Job, JobPage } from '@tickring/client';

export interface ClientFilter {
  /** Part of the handler's name, any case. */
  readonly handler?: string | undefined;
  /** Words found in the id, name, author, handler or parameter, any case (all of them). */
  readonly q?: string | undefined;
}

export function hasClientFilter(filter: ClientFilter): boolean {
  return Boolean(filter.handler?.trim() || filter.q?.trim());
}

export function matchesJob(job: Job, filter: ClientFilter): boolean {
  const handler = filter.handler?.trim().toLowerCase();
  if (handler && !job.executorHandler.toLowerCase().includes(handler)) return false;
  const words = (filter.q ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const text = [`#${job.id}`, String(job.id), job.name, job.author, job.executorHandler, job.executorParam]
    .join('\n')
    .toLowerCase();
  return words.every((word) => text.includes(word));
}

/** The URL's status filter (running/stopped) as the API's triggerStatus. */
export function triggerStatusOf(status: string | undefined): 'RUNNING' | 'STOPPED' | undefined {
  if (status === 'running') return 'RUNNING';
  if (status === 'stopped') return 'STOPPED';
  return undefined;
}

export interface ListedPage {
  readonly items: Job[];
  readonly nextCursor: string | null;
  /** How many jobs were read to find these (more than shown when filtered here). */
  readonly scanned: number;
  /** Whether the scan stopped at its limit before the page was full (more may match further on). */
  readonly stoppedEarly: boolean;
}

/**
 * One page of the list from `cursor`: the server's page as it is, or, with a handler/text filter,
 * the matches of up to `maxPages` server pages of 100 (until `pageSize` match); the next cursor is the
 * server's where the scan stopped, so Older goes on from there.
 */
export async function readJobPage(
  readPage: (query: { cursor?: string; limit: number }) => Promise<JobPage>,
  cursor: string | undefined,
  filter: ClientFilter,
  { pageSize = 20, maxPages = 5 }: { pageSize?: number; maxPages?: number } = {},
): Promise<ListedPage> {
  if (!hasClientFilter(filter)) {
    const page = await readPage({ ...(cursor ? { cursor } : {}), limit: pageSize });
    return {
      items: page.items,
      nextCursor: page.nextCursor,
      scanned: page.items.length,
      stoppedEarly: false,
    };
  }
  const items: Job[] = [];
  let next: string | null | undefined = cursor;
  let scanned = 0;
  for (let pages = 0; pages < maxPages; pages++) {
    const page: JobPage = await readPage({ ...(next ? { cursor: next } : {}), limit: 100 });
    scanned += page.items.length;
    items.push(...page.items.filter((job) => matchesJob(job, filter)));
    next = page.nextCursor;
    if (next === null || items.length >= pageSize) break;
  }
  return { items, nextCursor: next ?? null, scanned, stoppedEarly: next !== null && items.length < pageSize };
}
