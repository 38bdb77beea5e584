import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../common/errors.js';
import { consistentHashAddress, xxlHash } from './consistent-hash.js';
import { route } from './route.js';

/** Written by tools/xxl-routing-golden/generate.sh (Java, XXL-JOB's algorithm). */
interface Golden {
  virtualNodes: number;
  hashes: { key: string; hash: number }[];
  cases: { jobId: number; jobHash: number; addresses: string[]; expected: string; note?: string }[];
}

const golden = JSON.parse(
  readFileSync(new URL('./fixtures/consistent-hash-golden.json', import.meta.url), 'utf8'),
) as Golden;

const ips = (count: number) => Array.from({ length: count }, (_, i) => `http://10.0.0.${i + 1}:9999/`);

describe('consistent hash (XXL-JOB golden vectors)', () => {
  it('hashes a key to the first 4 MD5 bytes read little-endian as an unsigned 32-bit number', () => {
    expect(golden.hashes.length).toBeGreaterThanOrEqual(10);
    for (const { key, hash } of golden.hashes) {
      expect(xxlHash(key), key).toBe(hash);
    }
    // the high bit set stays positive (Java masks the long with 0xffffffffL)
    expect(golden.hashes.some(({ hash }) => hash > 0x7fffffff)).toBe(true);
  });

  it('hashes every golden job id the way Java does', () => {
    const wrong = golden.cases.filter((c) => xxlHash(String(c.jobId)) !== c.jobHash);
    expect(wrong).toEqual([]);
  });

  it('picks the address XXL-JOB picks for every golden vector', () => {
    expect(golden.cases.length).toBeGreaterThanOrEqual(300);
    const mismatches = golden.cases
      .map((c) => ({ ...c, actual: consistentHashAddress(c.jobId, c.addresses) }))
      .filter((c) => c.actual !== c.expected);
    expect(mismatches).toEqual([]);
  });

  it('wraps to the lowest ring node when the job hash is above every node', () => {
    const wrapping = golden.cases.filter((c) => c.note?.startsWith('wraps'));
    expect(wrapping.length).toBeGreaterThan(0);
    for (const c of wrapping) expect(consistentHashAddress(c.jobId, c.addresses)).toBe(c.expected);
  });

  it('keeps the later address when two virtual nodes share a ring key, as TreeMap.put does', () => {
    const colliding = golden.cases.filter((c) => c.note?.includes('collides'));
    expect(colliding.length).toBeGreaterThanOrEqual(2);
    for (const c of colliding) {
      expect(consistentHashAddress(c.jobId, c.addresses)).toBe(c.addresses[1]);
      expect(c.expected).toBe(c.addresses[1]);
    }
  });

  it('routes CONSISTENT_HASH through route() to the same address, with no state', async () => {
    for (const c of golden.cases.slice(0, 30)) {
      const result = await route({
        strategy: 'CONSISTENT_HASH',
        jobId: c.jobId,
        addresses: c.addresses,
        nowMs: 0,
        random: () => 0,
      });
      expect(result).toEqual({ kind: 'ONE', address: c.expected, trail: '' });
    }
  });

  it('moves only the jobs of an address that goes away', () => {
    const before = ips(10);
    const removed = 'http://10.0.0.4:9999/';
    const after = before.filter((a) => a !== removed);
    let moved = 0;
    for (let jobId = 1; jobId <= 2000; jobId++) {
      const was = consistentHashAddress(jobId, before);
      const now = consistentHashAddress(jobId, after);
      if (was === removed) moved++;
      else expect(now, `job ${jobId}`).toBe(was);
    }
    // roughly a tenth of the jobs lived on the removed address
    expect(moved).toBeGreaterThan(100);
    expect(moved).toBeLessThan(350);
  });

  it('spreads jobs over every address of the group', () => {
    const addresses = ips(5);
    const used = new Set(Array.from({ length: 500 }, (_, i) => consistentHashAddress(i + 1, addresses)));
    expect([...used].sort()).toEqual([...addresses].sort());
  });

  it('rejects an empty address list with a ValidationError', () => {
    expect(() => consistentHashAddress(1, [])).toThrow(ValidationError);
  });
});
