/**
 * Password hashing (scrypt, memory-hard) and the hashing of high-entropy secrets (SHA-256), both
 * compared in constant time. Hashing runs on libuv's thread pool (`crypto.scrypt` with a callback),
 * so the event loop is not blocked while a password is checked.
 */
import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/**
 * The cost of a new password hash as log2 N (the api's `passwordHashCost` setting): by default 2^15,
 * 2^15 × 8 × 128 B = 32 MiB per hash, ~50–100 ms on a Lambda core (OWASP's minimum is 2^17 × 8 ÷ 4).
 * At the least, 2^10 (1 MiB, a few ms), it is still scrypt: for test stacks that sign many users in.
 * At the most, 2^20: what a stored hash may ask for.
 */
export const SCRYPT_COST = { default: 15, min: 10, max: 20 } as const;
export const SCRYPT_DEFAULTS: ScryptParams = { N: 2 ** SCRYPT_COST.default, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** The most a stored hash may ask for: a hash of other parameters is read, within reason. */
const MAX_N = 2 ** SCRYPT_COST.max;

/** Checks passwords against stored hashes. */
export interface PasswordHasher {
  /** `scrypt$N$r$p$<salt>$<hash>` (base64url), with a new random salt. */
  hash(password: string): Promise<string>;
  /**
   * Whether the password is the one hashed. With no stored hash (an unknown user), a dummy hash
   * is checked anyway, so the answer takes as long and is false.
   */
  verify(password: string, encoded: string | undefined): Promise<boolean>;
}

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const { N, r, p } = params;
  return new Promise((resolve, reject) => {
    scrypt(
      Buffer.from(password, 'utf8'),
      salt,
      KEY_BYTES,
      // Room for the 128·N·r bytes scrypt needs, and some.
      { N, r, p, maxmem: 256 * N * r + 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

function encode(params: ScryptParams, salt: Buffer, key: Buffer): string {
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

function decode(encoded: string): { params: ScryptParams; salt: Buffer; key: Buffer } | undefined {
  const [scheme, n, r, p, salt, key, ...rest] = encoded.split('$');
  if (scheme !== 'scrypt' || salt === undefined || key === undefined || rest.length > 0) return undefined;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const sane =
    Number.isInteger(params.N) &&
    params.N >= 2 &&
    params.N <= MAX_N &&
    (params.N & (params.N - 1)) === 0 &&
    Number.isInteger(params.r) &&
    params.r >= 1 &&
    params.r <= 32 &&
    Number.isInteger(params.p) &&
    params.p >= 1 &&
    params.p <= 16;
  if (!sane) return undefined;
  return { params, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') };
}

/** scrypt with these parameters (tests use a lower N; a hash records its own parameters). */
export function scryptHasher(params: ScryptParams = SCRYPT_DEFAULTS): PasswordHasher {
  let dummy: Promise<string> | undefined;
  const hash = async (password: string) => {
    const salt = randomBytes(SALT_BYTES);
    return encode(params, salt, await derive(password, salt, params));
  };
  const matches = async (password: string, encoded: string) => {
    const stored = decode(encoded);
    if (stored === undefined) return false;
    const key = await derive(password, stored.salt, stored.params);
    return key.length === stored.key.length && timingSafeEqual(key, stored.key);
  };
  return {
    hash,
    async verify(password, encoded) {
      if (encoded !== undefined) return matches(password, encoded);
      dummy ??= hash(randomBytes(32).toString('base64url'));
      await matches(password, await dummy);
      return false;
    },
  };
}

/** 32 random bytes, base64url (43 characters): the secret part of a credential. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** A record id: 16 hex digits (64 random bits); ids are not secret, records are written unless one exists. */
export function newId(): string {
  return randomBytes(8).toString('hex');
}

/** How a high-entropy secret is kept: its SHA-256, hex. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether `secret` hashes to `hash`, compared in constant time. */
export function secretMatches(secret: string, hash: string): boolean {
  const given = Buffer.from(secretHash(secret), 'hex');
  const stored = Buffer.from(hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
