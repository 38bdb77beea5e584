import { type Clock, ConflictError, NotFoundError, systemClock } from '@tickring/core/common';
import type {
  BootstrapRecord,
  PrincipalStore,
  SessionRecord,
  ThrottleRecord,
  TokenRecord,
  UserRecord,
} from '@tickring/core/identity';
import { LOGIN_THROTTLE, TOKEN_KEPT_AFTER_END_MS } from '@tickring/core/identity';
import type { EmbeddedDatabase, SqlValue } from './database.js';
import { ExpirySweep } from './expiry-sweep.js';

export { TOKEN_KEPT_AFTER_END_MS };

/** The expiry column's value, epoch seconds (the DynamoDB adapter's TTL attribute). */
const ttl = (ms: number) => Math.ceil(ms / 1000);

const SCHEMA = `
CREATE TABLE IF NOT EXISTS principal_users (
  username TEXT PRIMARY KEY,
  disabled INTEGER NOT NULL,
  version INTEGER NOT NULL,
  last_login_at INTEGER,
  -- The rest of the user (lastLoginAt aside), as JSON.
  record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS principal_sessions (
  id TEXT PRIMARY KEY,
  username TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  valid_from INTEGER NOT NULL,
  last_used_at INTEGER NOT NULL,
  idle_until INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  ip TEXT NOT NULL,
  user_agent TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS principal_sessions_by_expiry ON principal_sessions (expires_at);
CREATE TABLE IF NOT EXISTS principal_tokens (
  id TEXT PRIMARY KEY,
  revoked_at INTEGER,
  last_used_at INTEGER,
  -- The rest of the token (revokedAt and lastUsedAt aside), as JSON.
  record TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS principal_tokens_by_expiry ON principal_tokens (expires_at);
-- The name of an active token (lower-case): taken until the token ends, freed by its revocation.
CREATE TABLE IF NOT EXISTS principal_token_names (
  name_key TEXT PRIMARY KEY,
  token_id TEXT NOT NULL,
  until INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS principal_token_names_by_expiry ON principal_token_names (expires_at);
CREATE TABLE IF NOT EXISTS principal_throttles (
  key TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  last_failure_at INTEGER NOT NULL,
  locked_until INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS principal_throttles_by_expiry ON principal_throttles (expires_at);
CREATE TABLE IF NOT EXISTS principal_bootstrap (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  secret_hash TEXT NOT NULL,
  rotated_at INTEGER NOT NULL,
  rotated_by TEXT NOT NULL
);
`;

const SESSION_COLUMNS =
  'id, username, secret_hash, created_at, valid_from, last_used_at, idle_until, ends_at, ip, user_agent';

interface UserRow {
  [column: string]: SqlValue;
  last_login_at: number | null;
  record: string;
}
interface SessionRow {
  [column: string]: SqlValue;
  id: string;
  username: string;
  secret_hash: string;
  created_at: number;
  valid_from: number;
  last_used_at: number;
  idle_until: number;
  ends_at: number;
  ip: string;
  user_agent: string;
}
interface TokenRow {
  [column: string]: SqlValue;
  id: string;
  revoked_at: number | null;
  last_used_at: number | null;
  record: string;
}
interface ThrottleRow {
  [column: string]: SqlValue;
  key: string;
  failures: number;
  last_failure_at: number;
  locked_until: number;
}

/** What a token row's JSON holds. */
type TokenDefinition = Omit<TokenRecord, 'id' | 'revokedAt' | 'lastUsedAt'>;

/**
 * Users, sessions, API tokens (and the names of active ones), failed-sign-in counts and the rotated
 * bootstrap token in SQLite, with the DynamoDB store's conditions. Secrets are stored only as
 * hashes (the use-cases hash them). Sessions, counts and ended tokens carry the DynamoDB adapter's
 * TTL (`expires_at`, epoch seconds) and are deleted by a sweep once past it; readers do not filter on
 * it (the use-cases check times themselves, as they must on DynamoDB, whose TTL deletes lazily).
 */
export class SqlitePrincipalStore implements PrincipalStore {
  private readonly sweep: ExpirySweep;

  constructor(private readonly options: { database: EmbeddedDatabase; clock?: Clock }) {
    options.database.ensureSchema('principals', SCHEMA);
    this.sweep = new ExpirySweep(
      options.database,
      ['principal_sessions', 'principal_tokens', 'principal_token_names', 'principal_throttles'],
      options.clock ?? systemClock,
    );
  }

  // -------------------------------------------------------------------------------------------
  // Users

  async createUser(user: UserRecord): Promise<void> {
    const { changes } = this.sql(
      'INSERT INTO principal_users (username, disabled, version, last_login_at, record) VALUES (?, ?, ?, ?, ?) ' +
        'ON CONFLICT (username) DO NOTHING',
    ).run(user.username, user.disabled ? 1 : 0, user.version, user.lastLoginAt ?? null, userJson(user));
    if (changes === 0) throw new ConflictError(`user ${user.username} already exists`);
  }

  async getUser(username: string): Promise<UserRecord | undefined> {
    const row = this.sql('SELECT last_login_at, record FROM principal_users WHERE username = ?').get<UserRow>(
      username,
    );
    return row ? userOf(row) : undefined;
  }

  async listUsers(): Promise<UserRecord[]> {
    return this.sql('SELECT last_login_at, record FROM principal_users ORDER BY username')
      .all<UserRow>()
      .map(userOf);
  }

  async hasEnabledUser(): Promise<boolean> {
    return this.sql('SELECT 1 AS found FROM principal_users WHERE disabled = 0 LIMIT 1').get() !== undefined;
  }

  async updateUser(user: UserRecord, expectedVersion: number): Promise<void> {
    // Every field but lastLoginAt, which sign-ins move without a version.
    const { changes } = this.sql(
      'UPDATE principal_users SET disabled = ?, version = ?, record = ? WHERE username = ? AND version = ?',
    ).run(user.disabled ? 1 : 0, user.version, userJson(user), user.username, expectedVersion);
    if (changes > 0) return;
    if ((await this.getUser(user.username)) === undefined) {
      throw new NotFoundError(`user ${user.username} does not exist`);
    }
    throw new ConflictError(
      `user ${user.username} was changed meanwhile (it is no longer at version ${expectedVersion}): read it again and retry`,
    );
  }

  async recordLogin(username: string, at: number): Promise<void> {
    this.sql('UPDATE principal_users SET last_login_at = ? WHERE username = ?').run(at, username);
  }

  async deleteUser(username: string): Promise<void> {
    const { changes } = this.sql('DELETE FROM principal_users WHERE username = ?').run(username);
    if (changes === 0) throw new NotFoundError(`user ${username} does not exist`);
  }

  // -------------------------------------------------------------------------------------------
  // Sessions

  async createSession(session: SessionRecord): Promise<void> {
    this.sweep.sweepIfDue();
    const { changes } = this.sql(
      `INSERT INTO principal_sessions (${SESSION_COLUMNS}, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ` +
        'ON CONFLICT (id) DO NOTHING',
    ).run(
      session.id,
      session.username,
      session.secretHash,
      session.createdAt,
      session.validFrom,
      session.lastUsedAt,
      session.idleUntil,
      session.endsAt,
      session.ip,
      session.userAgent,
      ttl(Math.min(session.idleUntil, session.endsAt)),
    );
    if (changes === 0) throw new ConflictError(`session id ${session.id} is taken`);
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    const row = this.sql(`SELECT ${SESSION_COLUMNS} FROM principal_sessions WHERE id = ?`).get<SessionRow>(
      id,
    );
    if (!row) return undefined;
    return {
      id: row.id,
      username: row.username,
      secretHash: row.secret_hash,
      createdAt: row.created_at,
      validFrom: row.valid_from,
      lastUsedAt: row.last_used_at,
      idleUntil: row.idle_until,
      endsAt: row.ends_at,
      ip: row.ip,
      userAgent: row.user_agent,
    };
  }

  async touchSession(id: string, usedAt: number, idleUntil: number): Promise<void> {
    this.sql(
      'UPDATE principal_sessions SET last_used_at = ?, idle_until = ?, expires_at = ? WHERE id = ?',
    ).run(usedAt, idleUntil, ttl(idleUntil), id);
  }

  async confirmSession(id: string, validFrom: number): Promise<void> {
    this.sql('UPDATE principal_sessions SET valid_from = ? WHERE id = ?').run(validFrom, id);
  }

  async deleteSession(id: string): Promise<void> {
    this.sql('DELETE FROM principal_sessions WHERE id = ?').run(id);
  }

  // -------------------------------------------------------------------------------------------
  // API tokens

  async createToken(token: TokenRecord, now: number): Promise<void> {
    this.sweep.sweepIfDue();
    const { database } = this.options;
    const nameKey = token.name.toLowerCase();
    database.transaction(() => {
      // The name is free once its token ended (expired, or revoked: then its row is gone).
      const claim = database.db
        .prepare('SELECT until FROM principal_token_names WHERE name_key = ?')
        .get<{ until: number }>(nameKey);
      if (claim !== undefined && claim.until > now) {
        throw new ConflictError(
          `an active API token is named ${token.name}; choose another name or revoke it first`,
        );
      }
      const { id, revokedAt, lastUsedAt, ...definition } = token;
      const { changes } = database.db
        .prepare(
          'INSERT INTO principal_tokens (id, revoked_at, last_used_at, record, expires_at) VALUES (?, ?, ?, ?, ?) ' +
            'ON CONFLICT (id) DO NOTHING',
        )
        .run(
          id,
          revokedAt ?? null,
          lastUsedAt ?? null,
          JSON.stringify(definition satisfies TokenDefinition),
          ttl((revokedAt ?? token.expiresAt) + TOKEN_KEPT_AFTER_END_MS),
        );
      if (changes === 0) throw new ConflictError(`API token id ${id} is taken`);
      database.db
        .prepare(
          'INSERT INTO principal_token_names (name_key, token_id, until, expires_at) VALUES (?, ?, ?, ?) ' +
            'ON CONFLICT (name_key) DO UPDATE SET token_id = excluded.token_id, until = excluded.until, ' +
            'expires_at = excluded.expires_at',
        )
        .run(nameKey, id, token.expiresAt, ttl(token.expiresAt));
    });
  }

  async getToken(id: string): Promise<TokenRecord | undefined> {
    const row = this.sql(
      'SELECT id, revoked_at, last_used_at, record FROM principal_tokens WHERE id = ?',
    ).get<TokenRow>(id);
    return row ? tokenOf(row) : undefined;
  }

  async listTokens(): Promise<TokenRecord[]> {
    return this.sql('SELECT id, revoked_at, last_used_at, record FROM principal_tokens')
      .all<TokenRow>()
      .map(tokenOf)
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  async touchToken(id: string, usedAt: number): Promise<void> {
    this.sql('UPDATE principal_tokens SET last_used_at = ? WHERE id = ?').run(usedAt, id);
  }

  async revokeToken(id: string, at: number): Promise<TokenRecord> {
    const { database } = this.options;
    return database.transaction(() => {
      // A revoked token keeps its first revokedAt.
      const row = database.db
        .prepare(
          'UPDATE principal_tokens SET revoked_at = COALESCE(revoked_at, ?), expires_at = ? WHERE id = ? ' +
            'RETURNING id, revoked_at, last_used_at, record',
        )
        .get<TokenRow>(at, ttl(at + TOKEN_KEPT_AFTER_END_MS), id);
      if (row === undefined) throw new NotFoundError(`API token ${id} does not exist`);
      const revoked = tokenOf(row);
      // Frees the name, if it is still this token's (not when a later token took it after this one ended).
      database.db
        .prepare('DELETE FROM principal_token_names WHERE name_key = ? AND token_id = ?')
        .run(revoked.name.toLowerCase(), id);
      return revoked;
    });
  }

  // -------------------------------------------------------------------------------------------
  // Failed sign-ins

  async getThrottles(keys: readonly string[]): Promise<ThrottleRecord[]> {
    if (keys.length === 0) return [];
    const rows = this.sql(
      'SELECT key, failures, last_failure_at, locked_until FROM principal_throttles ' +
        'WHERE key IN (SELECT value FROM json_each(?))',
    ).all<ThrottleRow>(JSON.stringify(keys));
    const byKey = new Map(rows.map((row) => [row.key, throttleOf(row)]));
    return [...new Set(keys)].flatMap((key) => byKey.get(key) ?? []);
  }

  async updateThrottle(
    key: string,
    next: (current: ThrottleRecord | undefined) => Omit<ThrottleRecord, 'key'>,
  ): Promise<ThrottleRecord> {
    this.sweep.sweepIfDue();
    const { database } = this.options;
    // Read, count and write in one write transaction: a concurrent failure counts on top of this one.
    const record = database.transaction(() => {
      const row = database.db
        .prepare('SELECT key, failures, last_failure_at, locked_until FROM principal_throttles WHERE key = ?')
        .get<ThrottleRow>(key);
      const state = next(row ? throttleOf(row) : undefined);
      database.db
        .prepare(
          'INSERT INTO principal_throttles (key, failures, last_failure_at, locked_until, expires_at) ' +
            'VALUES (?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, ' +
            'last_failure_at = excluded.last_failure_at, locked_until = excluded.locked_until, ' +
            'expires_at = excluded.expires_at',
        )
        .run(
          key,
          state.failures,
          state.lastFailureAt,
          state.lockedUntil,
          ttl(Math.max(state.lastFailureAt + LOGIN_THROTTLE.windowMs, state.lockedUntil)),
        );
      return {
        key,
        failures: state.failures,
        lastFailureAt: state.lastFailureAt,
        lockedUntil: state.lockedUntil,
      };
    });
    return record;
  }

  async clearThrottle(key: string): Promise<void> {
    this.sql('DELETE FROM principal_throttles WHERE key = ?').run(key);
  }

  // -------------------------------------------------------------------------------------------
  // The bootstrap token

  async getBootstrap(): Promise<BootstrapRecord | undefined> {
    const row = this.sql(
      'SELECT secret_hash, rotated_at, rotated_by FROM principal_bootstrap WHERE singleton = 1',
    ).get<{
      secret_hash: string;
      rotated_at: number;
      rotated_by: string;
    }>();
    return row
      ? { secretHash: row.secret_hash, rotatedAt: row.rotated_at, rotatedBy: row.rotated_by }
      : undefined;
  }

  async putBootstrap(record: BootstrapRecord, previousRotatedAt: number | undefined): Promise<void> {
    const values = [record.secretHash, record.rotatedAt, record.rotatedBy] as const;
    const { changes } =
      previousRotatedAt === undefined
        ? this.sql(
            'INSERT INTO principal_bootstrap (singleton, secret_hash, rotated_at, rotated_by) VALUES (1, ?, ?, ?) ' +
              'ON CONFLICT (singleton) DO NOTHING',
          ).run(...values)
        : this.sql(
            'UPDATE principal_bootstrap SET secret_hash = ?, rotated_at = ?, rotated_by = ? ' +
              'WHERE singleton = 1 AND rotated_at = ?',
          ).run(...values, previousRotatedAt);
    if (changes === 0) {
      throw new ConflictError(
        'the bootstrap token was rotated by another request meanwhile; rotate it again',
      );
    }
  }

  private sql(text: string) {
    return this.options.database.db.prepare(text);
  }
}

/** A user's JSON: every field but lastLoginAt (its own column). */
function userJson(user: UserRecord): string {
  const { lastLoginAt: _lastLoginAt, ...rest } = user;
  return JSON.stringify(rest);
}

function userOf(row: UserRow): UserRecord {
  return {
    ...(JSON.parse(row.record) as Omit<UserRecord, 'lastLoginAt'>),
    ...(row.last_login_at === null ? {} : { lastLoginAt: row.last_login_at }),
  };
}

function tokenOf(row: TokenRow): TokenRecord {
  const definition = JSON.parse(row.record) as TokenDefinition;
  return {
    id: row.id,
    ...definition,
    ...(row.revoked_at === null ? {} : { revokedAt: row.revoked_at }),
    ...(row.last_used_at === null ? {} : { lastUsedAt: row.last_used_at }),
  };
}

function throttleOf(row: ThrottleRow): ThrottleRecord {
  return {
    key: row.key,
    failures: row.failures,
    lastFailureAt: row.last_failure_at,
    lockedUntil: row.locked_until,
  };
}
