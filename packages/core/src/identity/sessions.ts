import { TooManyRequestsError, UnauthorizedError, ValidationError } from '../common/errors.js';
import { METRIC } from '../common/metrics.js';
import type { Principal } from './access.js';
import type { RequestSource } from './authenticate.js';
import { type IdentityDeps, type UserInfo, userInfo } from './deps.js';
import {
  afterFailure,
  formatCredential,
  lockedFor,
  normalizeUsername,
  sourceKey,
  usernameProblems,
} from './identity.js';
import { newId, newSecret, secretHash } from './password.js';
import type { SessionRecord, ThrottleRecord } from './principal-store.js';

/** The one answer to every refused sign-in: unknown user, wrong password, disabled user. */
export const LOGIN_FAILED_MESSAGE = 'username or password is wrong';

export interface LoginInput {
  readonly username: string;
  readonly password: string;
}

export interface LoginResult {
  /** The session credential (`trs_<id>_<secret>`): shown this once, kept only as a hash. */
  readonly token: string;
  readonly sessionId: string;
  /** The idle deadline now: each use (at most once a minute) moves it on. */
  readonly expiresAt: number;
  /** The session ends then, however much it is used. */
  readonly endsAt: number;
  readonly user: UserInfo;
}

/**
 * The keys failed sign-ins are counted under: the username (unless it cannot be one: no user has
 * it, and what was typed is not kept), and the source address when known.
 */
export function throttleKeys(username: string, ip: string): { user: string; keys: string[] } {
  const user = `user#${username}`;
  const address = sourceKey(ip);
  const keys = [
    ...(usernameProblems(username).length === 0 ? [user] : []),
    ...(address === undefined ? [] : [`ip#${address}`]),
  ];
  return { user, keys };
}

/**
 * Refuses (429) while a count of these keys is locked: after 5 failed sign-ins within 15 minutes,
 * for 1 s, 2 s, 4 s, ... at most 15 minutes after each further failure.
 */
export async function refuseWhileLocked(
  deps: IdentityDeps,
  keys: readonly string[],
): Promise<readonly ThrottleRecord[]> {
  const now = deps.clock.now();
  const counts = await deps.store.getThrottles(keys);
  const waitMs = Math.max(0, ...counts.map((count) => lockedFor(count, now)));
  if (waitMs <= 0) return counts;
  const seconds = Math.ceil(waitMs / 1000);
  deps.metrics.add(METRIC.failedLogins, 'Count', 1);
  deps.logger.warn('sign-in refused: too many failed attempts', {
    locked: counts.filter((count) => lockedFor(count, now) > 0).map((count) => count.key.split('#')[0]),
    retryAfterSeconds: seconds,
  });
  throw new TooManyRequestsError(
    `too many failed sign-ins; try again in ${seconds} second${seconds === 1 ? '' : 's'}`,
    seconds,
  );
}

/** Counts one failed attempt under each key (and in the FailedLogins metric). */
export async function countFailure(deps: IdentityDeps, keys: readonly string[]): Promise<void> {
  const now = deps.clock.now();
  await Promise.all(
    keys.map((key) => deps.store.updateThrottle(key, (current) => afterFailure(current, now))),
  );
  deps.metrics.add(METRIC.failedLogins, 'Count', 1);
}

/** How one can sign in here (public: it says whether a usable user exists, nothing more). */
export interface SignInOptions {
  /** Some user is not disabled: a username and password can sign in. */
  readonly passwords: boolean;
}

/** For a sign-in page: offer the username and password form only when it can work. */
export async function signInOptions(deps: Pick<IdentityDeps, 'store'>): Promise<SignInOptions> {
  return { passwords: await deps.store.hasEnabledUser() };
}

/**
 * Signs a user in: a new session, whose credential is answered this once. Unknown users, wrong
 * passwords and disabled users get the same 401 in about the same time (an unknown user's attempt
 * is hashed too); each failure is counted per username and per source address, and while either
 * count is locked attempts are refused (429) without being looked at. A success clears the
 * username's count (not the address's).
 */
export async function login(
  deps: IdentityDeps,
  input: LoginInput,
  source: RequestSource,
): Promise<LoginResult> {
  const { store, clock, logger } = deps;
  const username = normalizeUsername(input.username);
  const { user: userKey, keys } = throttleKeys(username, source.ip);
  const counts = await refuseWhileLocked(deps, keys);

  const user = usernameProblems(username).length === 0 ? await store.getUser(username) : undefined;
  const matches = await deps.passwords.verify(input.password, user?.passwordHash);
  if (!matches || user === undefined || user.disabled) {
    await countFailure(deps, keys);
    // The attempted name is logged only when it is a user's: a password typed into the wrong field stays out.
    logger.warn('sign-in failed', {
      ...(user === undefined ? { knownUser: false } : { username, knownUser: true, disabled: user.disabled }),
      ip: source.ip,
    });
    throw new UnauthorizedError(LOGIN_FAILED_MESSAGE);
  }

  const now = clock.now();
  if (counts.some((count) => count.key === userKey)) await store.clearThrottle(userKey);
  const id = newId();
  const secret = newSecret();
  const endsAt = now + deps.sessions.maxMs;
  const session: SessionRecord = {
    id,
    username,
    secretHash: secretHash(secret),
    createdAt: now,
    validFrom: now,
    lastUsedAt: now,
    idleUntil: Math.min(now + deps.sessions.idleMs, endsAt),
    endsAt,
    ip: source.ip,
    userAgent: source.userAgent.slice(0, 256),
  };
  await store.createSession(session);
  await store.recordLogin(username, now);
  logger.info('signed in', { username, sessionId: id, ip: source.ip });
  return {
    token: formatCredential('session', id, secret),
    sessionId: id,
    expiresAt: session.idleUntil,
    endsAt,
    user: { ...userInfo(user), lastLoginAt: now },
  };
}

/** Ends the caller's session. Only a session signs out (an API token is revoked instead). */
export async function logout(deps: IdentityDeps, principal: Principal): Promise<void> {
  if (principal.kind !== 'session' || principal.credentialId === undefined) {
    throw new ValidationError(
      'only a signed-in session can sign out; an API token is revoked with DELETE /v1/tokens/{id}, the bootstrap token rotated with POST /v1/tokens/bootstrap/rotate',
    );
  }
  await deps.store.deleteSession(principal.credentialId);
  deps.logger.info('signed out', { username: principal.id, sessionId: principal.credentialId });
}
