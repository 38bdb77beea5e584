import { decodePageCursor, encodePageCursor } from '@tickring/core/common';

/** A memory store's page cursors are core's: where the page stopped, as base64url JSON. */
export { decodePageCursor as decodeCursor, encodePageCursor as encodeCursor };

/** The next page of `sorted` (the items past the cursor, in page order), with a cursor when more follow. */
export function pageOf<T>(
  sorted: readonly T[],
  limit: number,
  cursorOf: (last: T) => Record<string, unknown>,
): { items: T[]; nextCursor?: string } {
  const items = sorted.slice(0, Math.max(1, limit));
  const last = items.at(-1);
  return items.length < sorted.length && last !== undefined
    ? { items, nextCursor: encodePageCursor(cursorOf(last)) }
    : { items };
}
