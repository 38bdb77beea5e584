import { decodePageCursor, encodePageCursor, ValidationError } from '@tickring/core/common';

/** An SQLite store's page cursors are core's: where the page stopped, as base64url JSON. */
export { decodePageCursor as decodeCursor, encodePageCursor as encodeCursor };

/** A safe integer of a decoded cursor; ValidationError otherwise (a cursor of another list, or forged). */
export function cursorInteger(value: unknown): number {
  if (!Number.isSafeInteger(value))
    throw new ValidationError('cursor is not a cursor of this query', 'cursor');
  return value as number;
}

/**
 * A page of rows read with `LIMIT limit + 1`: the extra row only tells that more follow, so a page
 * never ends with a cursor to nothing.
 */
export function pageOfRows<R, T>(
  rows: readonly R[],
  limit: number,
  itemOf: (row: R) => T,
  positionOf: (last: R) => Record<string, string | number | undefined>,
): { items: T[]; nextCursor?: string } {
  const kept = rows.slice(0, limit);
  const last = kept.at(-1);
  const items = kept.map(itemOf);
  return rows.length > limit && last !== undefined
    ? { items, nextCursor: encodePageCursor(positionOf(last)) }
    : { items };
}

/** The page size a read asks SQLite for: at least one item (as the other stores), plus one to see past. */
export function pageLimit(limit: number): number {
  return Math.max(1, Math.floor(limit));
}
