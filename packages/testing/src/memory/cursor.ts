import { ValidationError } from '@tickring/core/common';

/** A memory store's page cursor: where the page stopped, as base64url JSON (opaque to callers). */
export function encodeCursor(position: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The position of a cursor this store gave out; ValidationError for anything else. */
export function decodeCursor(cursor: string | undefined): Record<string, unknown> | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new ValidationError('cursor is not a cursor this API returned', 'cursor');
}

/** The next page of `sorted` (the items past the cursor, in page order), with a cursor when more follow. */
export function pageOf<T>(
  sorted: readonly T[],
  limit: number,
  cursorOf: (last: T) => Record<string, unknown>,
): { items: T[]; nextCursor?: string } {
  const items = sorted.slice(0, Math.max(1, limit));
  const last = items.at(-1);
  return items.length < sorted.length && last !== undefined
    ? { items, nextCursor: encodeCursor(cursorOf(last)) }
    : { items };
}
