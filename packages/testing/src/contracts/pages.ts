import type { Page } from '@tickring/core/jobs';
import { expect } from 'vitest';

/** The page sizes every paged read is walked at: single items, odd and even splits, one page. */
export const PAGE_SIZES = [1, 2, 3, 100] as const;

/**
 * Every page of a paged read, following the cursors: each page holds at most `limit` items, and
 * the walk ends (a read that hands out cursors forever fails here).
 */
export async function allPages<T>(
  limit: number,
  read: (cursor: string | undefined) => Promise<Page<T>>,
  maxPages = 500,
): Promise<Page<T>[]> {
  const pages: Page<T>[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    expect(page.items.length, `a page of limit ${limit}`).toBeLessThanOrEqual(limit);
    pages.push(page);
    cursor = page.nextCursor;
    if (pages.length > maxPages) throw new Error(`still a cursor after ${maxPages} pages of limit ${limit}`);
  } while (cursor !== undefined);
  return pages;
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function refusal(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a refusal, but it succeeded');
}
