import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Tokens {
  readonly adminToken: string;
  readonly accessToken: string;
  /** Seals the access tokens groups have of their own (never shown; losing it voids them). */
  readonly tokenKey: string;
}

export const TOKENS_FILE = 'tokens.json';

function generate(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Tokens from the caller (or the environment), else the ones stored under the data dir, else new
 * ones, stored so a restart keeps them (never stored in in-memory mode).
 */
export function resolveTokens(given: Partial<Tokens>, dataDir: string | undefined): Tokens {
  const file = dataDir ? join(dataDir, TOKENS_FILE) : undefined;
  let stored: Partial<Tokens> = {};
  if (file && existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Tokens>;
  const tokens: Tokens = {
    adminToken: given.adminToken || stored.adminToken || generate(),
    accessToken: given.accessToken || stored.accessToken || generate(),
    tokenKey: given.tokenKey || stored.tokenKey || generate(),
  };
  const changed = (Object.keys(tokens) as (keyof Tokens)[]).some((name) => stored[name] !== tokens[name]);
  if (file && changed) {
    mkdirSync(dataDir as string, { recursive: true });
    writeFileSync(file, `${JSON.stringify(tokens, null, 2)}\n`, { mode: 0o600 });
  }
  return tokens;
}
