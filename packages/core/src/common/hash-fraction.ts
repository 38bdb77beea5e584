import { createHash } from 'node:crypto';

/**
 * A number in [0, 1) fixed by `key`: 48 bits of its SHA-256, exact in a double and the same in
 * every process. Where a decision must be spread evenly and repeat for the same inputs (a fire's
 * jitter, the tick's admission of a job's plan), without state.
 */
export function hashFraction(key: string): number {
  return createHash('sha256').update(key).digest().readUIntBE(0, 6) / 2 ** 48;
}
