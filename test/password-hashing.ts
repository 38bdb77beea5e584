import { ENV, SETTINGS } from '@tickring/core/config';

/**
 * Settings of a test stack whose users sign in: new passwords hashed at scrypt's least cost (2^10,
 * still scrypt, a few ms) instead of production's 2^15 (about 0.3 s of CPU a hash on the test machine;
 * the access matrix alone hashes dozens). Hashing at the production cost is password.test.ts's.
 */
export const CHEAP_PASSWORD_HASHING: Readonly<Record<string, string>> = {
  [ENV.passwordHashCost]: String(SETTINGS.passwordHashCost.min),
};
