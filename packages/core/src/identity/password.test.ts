import { describe, expect, it } from 'vitest';
import { newId, newSecret, SCRYPT_DEFAULTS, scryptHasher, secretHash, secretMatches } from './password.js';

const fast = scryptHasher({ N: 2 ** 10, r: 8, p: 1 });

describe('password hashing (scrypt)', () => {
  it('hashes with the production parameters and a random salt, and verifies the password', async () => {
    const hasher = scryptHasher();
    const hash = await hasher.hash('correct horse battery staple');
    const [scheme, n, r, p, salt, key] = hash.split('$');
    expect([scheme, Number(n), Number(r), Number(p)]).toEqual([
      'scrypt',
      SCRYPT_DEFAULTS.N,
      SCRYPT_DEFAULTS.r,
      SCRYPT_DEFAULTS.p,
    ]);
    expect(SCRYPT_DEFAULTS.N).toBeGreaterThanOrEqual(2 ** 15);
    expect(Buffer.from(salt ?? '', 'base64url')).toHaveLength(16);
    expect(Buffer.from(key ?? '', 'base64url')).toHaveLength(32);
    expect(hash).not.toContain('correct horse');
    expect(await hasher.verify('correct horse battery staple', hash)).toBe(true);
    expect(await hasher.verify('correct horse battery stapler', hash)).toBe(false);
  });

  it('salts each hash anew', async () => {
    const a = await fast.hash('the same password');
    const b = await fast.hash('the same password');
    expect(a).not.toBe(b);
    expect(await fast.verify('the same password', a)).toBe(true);
    expect(await fast.verify('the same password', b)).toBe(true);
  });

  it('reads the parameters from the stored hash (a hash made at another cost still verifies)', async () => {
    const stored = await scryptHasher({ N: 2 ** 11, r: 4, p: 2 }).hash('older cost settings');
    expect(stored.startsWith('scrypt$2048$4$2$')).toBe(true);
    expect(await fast.verify('older cost settings', stored)).toBe(true);
  });

  it('refuses a malformed or unreasonable stored hash instead of throwing', async () => {
    const good = await fast.hash('some password here');
    const parts = good.split('$');
    for (const bad of [
      '',
      'plaintext',
      `bcrypt$${parts.slice(1).join('$')}`,
      good.replace('scrypt$1024$', 'scrypt$1000$'), // not a power of two
      good.replace('scrypt$1024$', `scrypt$${2 ** 21}$`), // more memory than any hash of ours asks
      `${good}$extra`,
    ]) {
      expect(await fast.verify('some password here', bad), bad).toBe(false);
    }
  });

  it('checks a dummy hash for an unknown user (false, after the same work)', async () => {
    const hasher = scryptHasher({ N: 2 ** 12, r: 8, p: 1 });
    await hasher.verify('warm the dummy up', undefined);
    const known = await hasher.hash('a real password');
    expect(await hasher.verify('anything at all', undefined)).toBe(false);
    // Interleaved, so a neighbour's load falls on both alike.
    let unknown = 0;
    let wrong = 0;
    for (let i = 0; i < 10; i++) {
      let started = performance.now();
      await hasher.verify('a wrong password', undefined);
      unknown += performance.now() - started;
      started = performance.now();
      await hasher.verify('a wrong password', known);
      wrong += performance.now() - started;
    }
    // Both derive one scrypt key per attempt: of the same order, not next to nothing against a hash.
    expect(unknown).toBeGreaterThan(wrong / 4);
    expect(unknown).toBeLessThan(wrong * 4);
  });

  it('does not block the event loop while hashing', async () => {
    const hasher = scryptHasher();
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    await hasher.hash('correct horse battery staple');
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });
});

describe('secrets of sessions and tokens', () => {
  it('are 32 random bytes, base64url; ids 16 hex digits', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(newSecret()).not.toBe(secret);
    expect(newId()).toMatch(/^[0-9a-f]{16}$/);
  });

  it('are kept as their SHA-256 and matched against it', () => {
    const secret = newSecret();
    const hash = secretHash(secret);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(secret);
    expect(secretMatches(secret, hash)).toBe(true);
    expect(secretMatches(`${secret}x`, hash)).toBe(false);
    expect(secretMatches(newSecret(), hash)).toBe(false);
    expect(secretMatches(secret, 'not-a-hash')).toBe(false);
  });
});
