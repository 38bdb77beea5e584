import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares in time independent of where the strings differ and of their lengths. */
export function constantTimeEquals(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}
