import { ConflictError, NotFoundError } from '@tickring/core/common';
import type {
  BootstrapRecord,
  PrincipalStore,
  SessionRecord,
  ThrottleRecord,
  TokenRecord,
  UserRecord,
} from '@tickring/core/identity';
import { type PasswordHasher, scryptHasher } from '@tickring/core/identity';
import type { IdentityDeps } from '@tickring/core/identity/use-cases';
import { RecordingLogger, RecordingMetrics } from './dispatch-doubles.js';
import { FakeClock } from './fake-clock.js';

/**
 * The PrincipalStore contract in memory, with the adapter's conditions: a taken username or an
 * active token's name is a ConflictError, an update at another version too, a missing user a
 * NotFoundError. Records are copied in and out (nothing shared with the caller).
 */
export class MemoryPrincipalStore implements PrincipalStore {
  readonly users = new Map<string, UserRecord>();
  readonly sessions = new Map<string, SessionRecord>();
  readonly tokens = new Map<string, TokenRecord>();
  readonly tokenNames = new Map<string, { tokenId: string; until: number }>();
  readonly throttles = new Map<string, ThrottleRecord>();
  bootstrap: BootstrapRecord | undefined;
  /** Writes made, by method (to check that uses are noted at most once a minute). */
  readonly writes: string[] = [];

  async createUser(user: UserRecord): Promise<void> {
    if (this.users.has(user.username)) throw new ConflictError(`user ${user.username} already exists`);
    this.write('createUser');
    this.users.set(user.username, structuredClone(user));
  }
  async getUser(username: string): Promise<UserRecord | undefined> {
    return copy(this.users.get(username));
  }
  async listUsers(): Promise<UserRecord[]> {
    return [...this.users.values()].map((u) => structuredClone(u));
  }
  async hasEnabledUser(): Promise<boolean> {
    return [...this.users.values()].some((u) => !u.disabled);
  }
  async updateUser(user: UserRecord, expectedVersion: number): Promise<void> {
    const current = this.users.get(user.username);
    if (!current) throw new NotFoundError(`user ${user.username} does not exist`);
    if (current.version !== expectedVersion)
      throw new ConflictError(`user ${user.username} was changed meanwhile`);
    this.write('updateUser');
    const { lastLoginAt } = current;
    this.users.set(user.username, {
      ...structuredClone(user),
      ...(lastLoginAt === undefined ? {} : { lastLoginAt }),
    });
  }
  async recordLogin(username: string, at: number): Promise<void> {
    const user = this.users.get(username);
    if (!user) return;
    this.write('recordLogin');
    this.users.set(username, { ...user, lastLoginAt: at });
  }
  async deleteUser(username: string): Promise<void> {
    if (!this.users.delete(username)) throw new NotFoundError(`user ${username} does not exist`);
    this.write('deleteUser');
  }

  async createSession(session: SessionRecord): Promise<void> {
    if (this.sessions.has(session.id)) throw new ConflictError('session id taken');
    this.write('createSession');
    this.sessions.set(session.id, structuredClone(session));
  }
  async getSession(id: string): Promise<SessionRecord | undefined> {
    return copy(this.sessions.get(id));
  }
  async touchSession(id: string, usedAt: number, idleUntil: number): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.write('touchSession');
    this.sessions.set(id, { ...session, lastUsedAt: usedAt, idleUntil });
  }
  async confirmSession(id: string, validFrom: number): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.write('confirmSession');
    this.sessions.set(id, { ...session, validFrom });
  }
  async deleteSession(id: string): Promise<void> {
    this.write('deleteSession');
    this.sessions.delete(id);
  }

  async createToken(token: TokenRecord, now: number): Promise<void> {
    const key = token.name.toLowerCase();
    const claim = this.tokenNames.get(key);
    if (claim && claim.until > now) throw new ConflictError(`an active API token is named ${token.name}`);
    this.write('createToken');
    this.tokens.set(token.id, structuredClone(token));
    this.tokenNames.set(key, { tokenId: token.id, until: token.expiresAt });
  }
  async getToken(id: string): Promise<TokenRecord | undefined> {
    return copy(this.tokens.get(id));
  }
  async listTokens(): Promise<TokenRecord[]> {
    return [...this.tokens.values()].map((t) => structuredClone(t)).sort((a, b) => b.createdAt - a.createdAt);
  }
  async touchToken(id: string, usedAt: number): Promise<void> {
    const token = this.tokens.get(id);
    if (!token) return;
    this.write('touchToken');
    this.tokens.set(id, { ...token, lastUsedAt: usedAt });
  }
  async revokeToken(id: string, at: number): Promise<TokenRecord> {
    const token = this.tokens.get(id);
    if (!token) throw new NotFoundError(`API token ${id} does not exist`);
    this.write('revokeToken');
    const revoked = { ...token, revokedAt: token.revokedAt ?? at };
    this.tokens.set(id, revoked);
    const key = token.name.toLowerCase();
    if (this.tokenNames.get(key)?.tokenId === id) this.tokenNames.delete(key);
    return structuredClone(revoked);
  }

  async getThrottles(keys: readonly string[]): Promise<ThrottleRecord[]> {
    return keys.flatMap((key) => {
      const found = this.throttles.get(key);
      return found ? [{ ...found }] : [];
    });
  }
  async updateThrottle(
    key: string,
    next: (current: ThrottleRecord | undefined) => Omit<ThrottleRecord, 'key'>,
  ): Promise<ThrottleRecord> {
    this.write('updateThrottle');
    const record = { key, ...next(copy(this.throttles.get(key))) };
    this.throttles.set(key, record);
    return { ...record };
  }
  async clearThrottle(key: string): Promise<void> {
    this.write('clearThrottle');
    this.throttles.delete(key);
  }

  async getBootstrap(): Promise<BootstrapRecord | undefined> {
    return copy(this.bootstrap);
  }
  async putBootstrap(record: BootstrapRecord, previousRotatedAt: number | undefined): Promise<void> {
    if (this.bootstrap?.rotatedAt !== previousRotatedAt) throw new ConflictError('rotated meanwhile');
    this.write('putBootstrap');
    this.bootstrap = { ...record };
  }

  private write(what: string): void {
    this.writes.push(what);
  }
}

function copy<T>(value: T | undefined): T | undefined {
  return value === undefined ? undefined : structuredClone(value);
}

/** scrypt at a low cost: the same code as production, fast enough for many sign-ins in a test. */
export const fastPasswords: PasswordHasher = scryptHasher({ N: 2 ** 10, r: 8, p: 1 });

export const CONFIGURED_BOOTSTRAP = 'configured-bootstrap-token-0123456789';
export const IDLE_MS = 30 * 60_000;
export const MAX_MS = 12 * 3_600_000;

/** The identity use-cases over a store (memory by default), a fake clock, a recording logger and metrics. */
export function identityFixture(
  options: { store?: PrincipalStore; now?: number; bootstrapToken?: string } = {},
): IdentityDeps & {
  readonly clock: FakeClock;
  readonly logger: RecordingLogger;
  readonly metrics: RecordingMetrics;
} {
  return {
    store: options.store ?? new MemoryPrincipalStore(),
    passwords: fastPasswords,
    bootstrapToken: async () => options.bootstrapToken ?? CONFIGURED_BOOTSTRAP,
    clock: new FakeClock(options.now ?? Date.UTC(2030, 0, 1, 8, 0, 0)),
    logger: new RecordingLogger(),
    metrics: new RecordingMetrics(),
    sessions: { idleMs: IDLE_MS, maxMs: MAX_MS },
  };
}

/** Every string in the logger's lines (messages and attributes, deep), to look for secrets in. */
export function loggedText(logger: RecordingLogger): string {
  return JSON.stringify(logger.lines);
}
