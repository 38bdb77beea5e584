import type { Page } from '../jobs/job-store.js';
import type { Clock } from './clock.js';

/** How long one list request reads on past empty pages (a cursor follows an empty page only after it). */
export const LIST_READ_ON_MS = 5_000;

/**
 * Reads pages from `cursor` on while they come back empty with a cursor (a filter that matched
 * nothing in what one read covered), until one has items, the list ends, or {@link LIST_READ_ON_MS}
 * have passed: only then is an empty page with a cursor the answer.
 */
export async function readOnPastEmptyPages<T>(
  clock: Clock,
  cursor: string | undefined,
  read: (cursor: string | undefined) => Promise<Page<T>>,
): Promise<Page<T>> {
  const until = clock.now() + LIST_READ_ON_MS;
  for (let at = cursor; ; ) {
    const page = await read(at);
    if (page.items.length > 0 || page.nextCursor === undefined || clock.now() >= until) return page;
    at = page.nextCursor;
  }
}
