/** A list read page by page up to a number of items, for the `ls` commands that take --limit and --cursor. */

export interface PageOf<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
}

/**
 * Reads pages from `cursor` until `limit` items (or the end), each asking no more than is still
 * wanted (at most 100), so the cursor answered continues exactly after the last item returned.
 */
export async function readUpTo<T>(
  limit: number,
  cursor: string | undefined,
  list: (page: { readonly limit: number; readonly cursor?: string }) => Promise<PageOf<T>>,
): Promise<{ items: T[]; nextCursor: string | null }> {
  const items: T[] = [];
  let next = cursor;
  let nextCursor: string | null = null;
  do {
    const page = await list({
      limit: Math.min(100, limit - items.length),
      ...(next ? { cursor: next } : {}),
    });
    items.push(...page.items);
    nextCursor = page.nextCursor;
    next = nextCursor ?? undefined;
  } while (next && items.length < limit);
  return { items, nextCursor };
}
