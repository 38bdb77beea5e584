import { ProtocolError } from './errors.js';

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

export function asObject(raw: unknown, what: string): Json {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ProtocolError(`${what} must be a JSON object`, what);
  }
  return raw as Json;
}

/** Whether a field counts as absent: missing, `null` (what Gson omits), or `''`. */
function absent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * An integer field (a JSON number, or a numeric string as Gson reads a long); `null`, `''` or
 * absent becomes `fallback`, or is an error when there is none (Gson leaves Java primitives at 0).
 */
export function int(body: Json, field: string, fallback?: number, where = field): number {
  const value = body[field];
  if (absent(value)) {
    if (fallback === undefined) throw new ProtocolError(`${where} is required`, where);
    return fallback;
  }
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) {
    throw new ProtocolError(`${where} must be an integer, got ${describeValue(value)}`, where);
  }
  return n;
}

/**
 * An integer field XXL-JOB spells two ways (`logDateTim` ≤ 3.4, `logDateTime` 3.5): `first` when it
 * is present, else `second`, else `fallback`. Only the spelling read is checked, so a stray bad
 * value under the other name does not reject a good body.
 */
export function intEitherSpelling(
  body: Json,
  first: string,
  second: string,
  fallback: number,
  prefix = '',
): number {
  return absent(body[first])
    ? int(body, second, fallback, `${prefix}${second}`)
    : int(body, first, fallback, `${prefix}${first}`);
}

/** A string field; `null` or absent becomes `fallback`. */
export function str(body: Json, field: string, fallback: string, where = field): string {
  const value = body[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string') {
    throw new ProtocolError(`${where} must be a string, got ${describeValue(value)}`, where);
  }
  return value;
}

/**
 * A short, never-throwing rendering of a bad value for an error message: JSON where it can be
 * (a BigInt or a cyclic object cannot), cut to 64 characters, since answers echo the message back.
 */
export function describeValue(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = typeof value === 'bigint' ? `${value}n` : Object.prototype.toString.call(value);
  }
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}
