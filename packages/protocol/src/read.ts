import { ProtocolError } from './errors.js';

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

export function asObject(raw: unknown, what: string): Json {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ProtocolError(`${what} must be a JSON object`, what);
  }
  return raw as Json;
}

/**
 * An integer field (a JSON number, or a numeric string as Gson reads a long); `null`, `''` or
 * absent becomes `fallback`, or is an error when there is none (Gson leaves Java primitives at 0).
 */
export function int(body: Json, field: string, fallback?: number, where = field): number {
  const value = body[field];
  if (value === undefined || value === null || value === '') {
    if (fallback === undefined) throw new ProtocolError(`${where} is required`, where);
    return fallback;
  }
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) {
    throw new ProtocolError(`${where} must be an integer, got ${JSON.stringify(value)}`, where);
  }
  return n;
}

/** A string field; `null` or absent becomes `fallback`. */
export function str(body: Json, field: string, fallback: string, where = field): string {
  const value = body[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string') {
    throw new ProtocolError(`${where} must be a string, got ${JSON.stringify(value)}`, where);
  }
  return value;
}
