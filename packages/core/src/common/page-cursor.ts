import { ValidationError } from './errors.js';

/** A page cursor: where a page stopped, as base64url JSON (opaque to callers). */
export function encodePageCursor(position: Readonly<Record<string, unknown>>): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/**
 * The position of a cursor made by {@link encodePageCursor} (undefined for none); ValidationError
 * for anything that is not one.
 */
export function decodePageCursor(cursor: string | undefined): Record<string, unknown> | undefined {
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
