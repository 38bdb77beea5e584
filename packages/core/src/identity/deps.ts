import type { Clock } from '../common/clock.js';
import { RequestValidationError } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import type { Metrics } from '../common/metrics.js';
import type { Problem } from './identity.js';
import type { PasswordHasher } from './password.js';
import type { PrincipalStore, TokenRecord, UserRecord } from './principal-store.js';

/** What the identity use-cases need: the store, password hashing, the configured bootstrap token. */
export interface IdentityDeps {
  readonly store: PrincipalStore;
  readonly passwords: PasswordHasher;
  /** The bootstrap admin token configured for the deployment (empty: none; it fails closed). */
  readonly bootstrapToken: () => Promise<string>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly sessions: {
    /** A session unused this long is over (sliding). */
    readonly idleMs: number;
    /** A session is over this long after its sign-in, however much it is used. */
    readonly maxMs: number;
  };
}

/** lastUsedAt of sessions and tokens moves on at most this often (one write a minute per credential). */
export const TOUCH_INTERVAL_MS = 60_000;

/** A user as the use-cases give it out: everything but the password hash. */
export type UserInfo = Omit<UserRecord, 'passwordHash'>;

export function userInfo(user: UserRecord): UserInfo {
  const { passwordHash: _hash, ...info } = user;
  return info;
}

export type TokenStatus = 'active' | 'expired' | 'revoked';

/** An API token as the use-cases give it out: no secret (and no hash of it), with its status now. */
export type TokenInfo = Omit<TokenRecord, 'secretHash'> & { readonly status: TokenStatus };

export function tokenInfo(token: TokenRecord, now: number): TokenInfo {
  const { secretHash: _hash, ...info } = token;
  const status: TokenStatus =
    token.revokedAt !== undefined ? 'revoked' : now >= token.expiresAt ? 'expired' : 'active';
  return { ...info, status };
}

/** Refuses an input for every problem found (a 400 listing them all). */
export function rejectProblems(problems: readonly Problem[]): void {
  const [first, ...rest] = problems;
  if (first) throw new RequestValidationError([first, ...rest]);
}
