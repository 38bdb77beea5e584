/**
 * Audit record ids are ULIDs: 10 characters of epoch ms, then 16 random ones (Crockford base32),
 * so their order is their records' time order and records of the same millisecond each keep their
 * own. Every AuditLog makes them the same way, and bounds a time range by them.
 */

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_CHARS = 10;

/** The random characters of an id: how many random bytes one takes (each gives one character). */
export const AUDIT_ID_RANDOM_CHARS = 16;

export const AUDIT_ID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** A ULID of `atMs` and the first {@link AUDIT_ID_RANDOM_CHARS} bytes of `random`. */
export function auditId(atMs: number, random: Uint8Array): string {
  let id = auditIdTime(atMs);
  for (let i = 0; i < AUDIT_ID_RANDOM_CHARS; i++) id += CROCKFORD[(random[i] ?? 0) & 31];
  return id;
}

/** The time part of an id: epoch ms in 10 base32 characters. */
export function auditIdTime(ms: number): string {
  let rest = Math.max(0, Math.min(Math.floor(ms), 2 ** 48 - 1));
  let out = '';
  for (let i = 0; i < TIME_CHARS; i++) {
    out = CROCKFORD[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** The epoch ms of an id (its time part). */
export function timeOfAuditId(id: string): number {
  let ms = 0;
  for (const char of id.slice(0, TIME_CHARS)) ms = ms * 32 + CROCKFORD.indexOf(char);
  return ms;
}

/** The lowest and highest ids of the records from `fromMs` to `toMs` (inclusive): a key range. */
export function auditIdRange(fromMs: number, toMs: number): { low: string; high: string } {
  return {
    low: `${auditIdTime(fromMs)}${'0'.repeat(AUDIT_ID_RANDOM_CHARS)}`,
    high: `${auditIdTime(toMs)}${'Z'.repeat(AUDIT_ID_RANDOM_CHARS)}`,
  };
}
