import type { Grant } from './access.js';
import { DAY_MS, type ThrottleState } from './identity.js';

/** Revoked and expired tokens stay listed this long (`listTokens`), then the stores delete them. */
export const TOKEN_KEPT_AFTER_END_MS = 30 * DAY_MS;

/** A person who signs in. Times are epoch ms. */
export interface UserRecord {
  /** Lower-case; the key. */
  readonly username: string;
  readonly displayName: string;
  readonly grant: Grant;
  /** `scrypt$...`; never leaves the use-cases. */
  readonly passwordHash: string;
  readonly disabled: boolean;
  /** Sessions valid from before this instant are over (a password, grant or disabled change moves it on). */
  readonly sessionsValidAfter: number;
  readonly passwordChangedAt: number;
  readonly lastLoginAt?: number;
  readonly createdAt: number;
  /** The principal name of who created the user (`bootstrap`, a username, `token:<name>`). */
  readonly createdBy: string;
  readonly updatedAt: number;
  /** Moves on with every change of the user; an update names the version it read. */
  readonly version: number;
}

/** A signed-in user's session. */
export interface SessionRecord {
  readonly id: string;
  readonly username: string;
  /** SHA-256 of the credential's secret part. */
  readonly secretHash: string;
  readonly createdAt: number;
  /** When the user last proved who they are in it: its sign-in, or a password change made through it. */
  readonly validFrom: number;
  /** Moved on at most once a minute. */
  readonly lastUsedAt: number;
  /** Its idle deadline when it was last used (lastUsedAt + the idle time, at most endsAt). */
  readonly idleUntil: number;
  /** It ends then, however much it is used. */
  readonly endsAt: number;
  readonly ip: string;
  readonly userAgent: string;
}

/** An API token (for automation). */
export interface TokenRecord {
  readonly id: string;
  /** Unique among active tokens (case-insensitively). */
  readonly name: string;
  readonly grant: Grant;
  /** SHA-256 of the credential's secret part. */
  readonly secretHash: string;
  readonly createdAt: number;
  readonly createdBy: string;
  readonly expiresAt: number;
  readonly revokedAt?: number;
  /** Moved on at most once a minute. */
  readonly lastUsedAt?: number;
}

/** Failed sign-ins counted under one key (`user#<name>`, `ip#<address>`). */
export interface ThrottleRecord extends ThrottleState {
  readonly key: string;
}

/** The bootstrap admin token once rotated: it replaces the configured one. */
export interface BootstrapRecord {
  readonly secretHash: string;
  readonly rotatedAt: number;
  readonly rotatedBy: string;
}

/**
 * Users, sessions, API tokens, failed-sign-in counts and the rotated bootstrap token. Writes
 * whose races matter are conditional: a user is created unless one exists (ConflictError), changed
 * only at the version read (ConflictError), a token named only while no active token has its name.
 */
export interface PrincipalStore {
  /** ConflictError when the username is taken. */
  createUser(user: UserRecord): Promise<void>;
  getUser(username: string): Promise<UserRecord | undefined>;
  /** Every user, by username. */
  listUsers(): Promise<UserRecord[]>;
  /** Whether some user is not disabled; reads no more users than it must to know. */
  hasEnabledUser(): Promise<boolean>;
  /**
   * Writes the user's fields (but lastLoginAt) if its version is still `expectedVersion`;
   * ConflictError when it moved on, NotFoundError when the user is gone.
   */
  updateUser(user: UserRecord, expectedVersion: number): Promise<void>;
  /** Notes a sign-in (no version change); a missing user is ignored. */
  recordLogin(username: string, at: number): Promise<void>;
  /** NotFoundError when there is no such user. */
  deleteUser(username: string): Promise<void>;

  createSession(session: SessionRecord): Promise<void>;
  getSession(id: string): Promise<SessionRecord | undefined>;
  /** Moves lastUsedAt and the idle deadline on; a session gone meanwhile is ignored. */
  touchSession(id: string, usedAt: number, idleUntil: number): Promise<void>;
  /** Sets validFrom (a password change made in this session keeps it); a session gone is ignored. */
  confirmSession(id: string, validFrom: number): Promise<void>;
  /** A missing session is ignored. */
  deleteSession(id: string): Promise<void>;

  /** ConflictError when an active token (not revoked, not expired at `now`) has the name. */
  createToken(token: TokenRecord, now: number): Promise<void>;
  getToken(id: string): Promise<TokenRecord | undefined>;
  /** Every token kept (revoked and expired ones for {@link TOKEN_KEPT_AFTER_END_MS}), newest first. */
  listTokens(): Promise<TokenRecord[]>;
  /** Moves lastUsedAt on; a token gone is ignored. */
  touchToken(id: string, usedAt: number): Promise<void>;
  /**
   * Revokes the token (a revoked one keeps its first revokedAt) and frees its name; NotFoundError
   * when there is no such token. Returns it as revoked.
   */
  revokeToken(id: string, at: number): Promise<TokenRecord>;

  /** The counts under these keys (absent: none). */
  getThrottles(keys: readonly string[]): Promise<ThrottleRecord[]>;
  /** Replaces the count under `key` by `next(current)`, retrying when another write came first. */
  updateThrottle(
    key: string,
    next: (current: ThrottleRecord | undefined) => Omit<ThrottleRecord, 'key'>,
  ): Promise<ThrottleRecord>;
  clearThrottle(key: string): Promise<void>;

  getBootstrap(): Promise<BootstrapRecord | undefined>;
  /**
   * Stores a new rotated bootstrap token if the current one is still the one rotated at
   * `previousRotatedAt` (undefined: none was); ConflictError when another rotation came first.
   */
  putBootstrap(record: BootstrapRecord, previousRotatedAt: number | undefined): Promise<void>;
}
