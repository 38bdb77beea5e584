import { createHash } from 'node:crypto';
import { ValidationError } from '../../common/errors.js';

/** Virtual nodes per address on the ring (`ExecutorRouteConsistentHash.VIRTUAL_NODE_NUM`). */
export const VIRTUAL_NODE_NUM = 100;

/**
 * XXL-JOB's ring hash: MD5 of the UTF-8 bytes, the first four digest bytes read little-endian, as an
 * unsigned 32-bit number (Java: a long masked with 0xffffffffL).
 *
 * One divergence, unreachable with real addresses: a string with an unpaired UTF-16 surrogate encodes
 * to U+FFFD here and to '?' in Java.
 */
export function xxlHash(key: string): number {
  return createHash('md5').update(key, 'utf8').digest().readUInt32LE(0);
}

/**
 * The address XXL-JOB's CONSISTENT_HASH picks for a job: a ring of {@link VIRTUAL_NODE_NUM} nodes per
 * address keyed `xxlHash("SHARD-" + address + "-NODE-" + i)`, filled in list order (on an equal key
 * the later address wins, as with `TreeMap.put`), then the first node at or after
 * `xxlHash(String(jobId))`, wrapping to the lowest node.
 */
export function consistentHashAddress(jobId: number, addresses: readonly string[]): string {
  if (addresses.length === 0) {
    throw new ValidationError('addresses must not be empty for CONSISTENT_HASH', 'addresses');
  }
  const { keys, owners } = ringOf(addresses);
  const jobHash = xxlHash(String(jobId));

  // TreeMap.ceilingEntry(jobHash): the first key >= jobHash, else the first key
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as number) < jobHash) lo = mid + 1;
    else hi = mid;
  }
  return owners[lo < keys.length ? lo : 0] as string;
}

interface Ring {
  /** ascending node hashes */
  keys: number[];
  /** the address owning keys[i] */
  owners: string[];
}

// A ring costs 100 MD5s per address; groups change rarely, so keep the last few (a pure memo).
const RING_CACHE_SIZE = 32;
const ringCache = new Map<string, Ring>();

function ringOf(addresses: readonly string[]): Ring {
  const cacheKey = JSON.stringify(addresses);
  const cached = ringCache.get(cacheKey);
  if (cached) return cached;

  const nodes = new Map<number, string>();
  for (const address of addresses) {
    for (let i = 0; i < VIRTUAL_NODE_NUM; i++) {
      nodes.set(xxlHash(`SHARD-${address}-NODE-${i}`), address);
    }
  }
  const keys = [...nodes.keys()].sort((a, b) => a - b);
  const ring: Ring = { keys, owners: keys.map((key) => nodes.get(key) as string) };

  if (ringCache.size >= RING_CACHE_SIZE) {
    const oldest = ringCache.keys().next();
    if (!oldest.done) ringCache.delete(oldest.value);
  }
  ringCache.set(cacheKey, ring);
  return ring;
}
