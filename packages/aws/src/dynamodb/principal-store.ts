import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '@tickring/core/common';
import type {
  BootstrapRecord,
  PrincipalStore,
  SessionRecord,
  ThrottleRecord,
  TokenRecord,
  UserRecord,
} from '@tickring/core/identity';
import {
  ALL_GROUPS,
  type Grant,
  LOGIN_THROTTLE,
  type Role,
  TOKEN_KEPT_AFTER_END_MS,
} from '@tickring/core/identity';
import { batchGetAll, type Item, isConditionFailed } from './util.js';

/** The partitions of the principals table: one per kind of item (`sk` is its id). */
const PK = {
  user: 'user',
  session: 'session',
  token: 'token',
  /** The name of an active token: `sk` = the name, lower-case; `tokenId`, `until` (the token's expiry). */
  tokenName: 'tokenName',
  throttle: 'throttle',
  bootstrap: 'bootstrap',
} as const;
const BOOTSTRAP_SK = 'current';
/** Attempts at a conditional read-modify-write before giving up. */
const THROTTLE_ATTEMPTS = 8;

/** The TTL attribute, epoch seconds. */
const ttl = (ms: number) => Math.ceil(ms / 1000);

/**
 * The principals table (see `TABLES.principals`): users (`user` / username), sessions (`session` /
 * id), API tokens (`token` / id) and the names of active ones (`tokenName` / name), failed-sign-in
 * counts (`throttle` / `user#<name>`, `ip#<address>`) and the rotated bootstrap token (`bootstrap` /
 * `current`). Secrets are stored only as hashes. Sessions, counts and ended tokens expire (TTL
 * `expiresAt`, epoch seconds; the use-cases check times themselves, TTL deletes lazily).
 */
export class DynamoPrincipalStore implements PrincipalStore {
  constructor(private readonly options: { doc: DynamoDBDocumentClient; table: string }) {}

  // -------------------------------------------------------------------------------------------
  // Users

  async createUser(user: UserRecord): Promise<void> {
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.table,
          Item: userItem(user),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) throw new ConflictError(`user ${user.username} already exists`);
      throw err;
    }
  }

  async getUser(username: string): Promise<UserRecord | undefined> {
    const item = await this.get(PK.user, username);
    return item ? userOf(item) : undefined;
  }

  async listUsers(): Promise<UserRecord[]> {
    return (await this.query(PK.user)).map(userOf);
  }

  /**
   * One Query of the users' partition counting those not disabled (nothing of them comes back), a
   * page of {@link USER_PAGE} users at a time, until one is found or the partition ends.
   */
  async hasEnabledUser(): Promise<boolean> {
    let start: Item | undefined;
    do {
      const page = await this.options.doc.send(
        new QueryCommand({
          TableName: this.options.table,
          KeyConditionExpression: 'pk = :pk',
          FilterExpression: 'attribute_not_exists(disabled) OR disabled <> :disabled',
          ExpressionAttributeValues: { ':pk': PK.user, ':disabled': true },
          // A public route asks this: whole pages (up to 1 MB each, usually one for all users), read
          // eventually consistent (half the units; a first user shows within a second).
          Select: 'COUNT',
          ExclusiveStartKey: start,
        }),
      );
      if ((page.Count ?? 0) > 0) return true;
      start = page.LastEvaluatedKey;
    } while (start);
    return false;
  }

  async updateUser(user: UserRecord, expectedVersion: number): Promise<void> {
    try {
      await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.table,
          Key: { pk: PK.user, sk: user.username },
          UpdateExpression:
            'SET displayName = :displayName, #role = :role, groups = :groups, glue = :glue, ' +
            'passwordHash = :passwordHash, disabled = :disabled, sessionsValidAfter = :sessionsValidAfter, ' +
            'passwordChangedAt = :passwordChangedAt, updatedAt = :updatedAt, version = :version',
          ConditionExpression: 'attribute_exists(pk) AND version = :expected',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: {
            ':displayName': user.displayName,
            ':role': user.grant.role,
            ':groups': groupsItem(user.grant.groups),
            ':glue': user.grant.glue,
            ':passwordHash': user.passwordHash,
            ':disabled': user.disabled,
            ':sessionsValidAfter': user.sessionsValidAfter,
            ':passwordChangedAt': user.passwordChangedAt,
            ':updatedAt': user.updatedAt,
            ':version': user.version,
            ':expected': expectedVersion,
          },
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
      if (!(await this.get(PK.user, user.username))) {
        throw new NotFoundError(`user ${user.username} does not exist`);
      }
      throw new ConflictError(
        `user ${user.username} was changed meanwhile (it is no longer at version ${expectedVersion}): read it again and retry`,
      );
    }
  }

  async recordLogin(username: string, at: number): Promise<void> {
    await this.updateIfExists(PK.user, username, 'SET lastLoginAt = :at', { ':at': at });
  }

  async deleteUser(username: string): Promise<void> {
    try {
      await this.options.doc.send(
        new DeleteCommand({
          TableName: this.options.table,
          Key: { pk: PK.user, sk: username },
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) throw new NotFoundError(`user ${username} does not exist`);
      throw err;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Sessions

  async createSession(session: SessionRecord): Promise<void> {
    await this.options.doc.send(
      new PutCommand({
        TableName: this.options.table,
        Item: {
          pk: PK.session,
          sk: session.id,
          username: session.username,
          secretHash: session.secretHash,
          createdAt: session.createdAt,
          validFrom: session.validFrom,
          lastUsedAt: session.lastUsedAt,
          idleUntil: session.idleUntil,
          endsAt: session.endsAt,
          ip: session.ip,
          userAgent: session.userAgent,
          expiresAt: ttl(Math.min(session.idleUntil, session.endsAt)),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getSession(id: string): Promise<SessionRecord | undefined> {
    const item = await this.get(PK.session, id);
    if (!item) return undefined;
    return {
      id: String(item.sk),
      username: String(item.username),
      secretHash: String(item.secretHash),
      createdAt: Number(item.createdAt),
      validFrom: Number(item.validFrom),
      lastUsedAt: Number(item.lastUsedAt),
      idleUntil: Number(item.idleUntil),
      endsAt: Number(item.endsAt),
      ip: String(item.ip ?? ''),
      userAgent: String(item.userAgent ?? ''),
    };
  }

  async touchSession(id: string, usedAt: number, idleUntil: number): Promise<void> {
    await this.updateIfExists(
      PK.session,
      id,
      'SET lastUsedAt = :usedAt, idleUntil = :idleUntil, expiresAt = :ttl',
      {
        ':usedAt': usedAt,
        ':idleUntil': idleUntil,
        ':ttl': ttl(idleUntil),
      },
    );
  }

  async confirmSession(id: string, validFrom: number): Promise<void> {
    await this.updateIfExists(PK.session, id, 'SET validFrom = :validFrom', { ':validFrom': validFrom });
  }

  async deleteSession(id: string): Promise<void> {
    await this.options.doc.send(
      new DeleteCommand({ TableName: this.options.table, Key: { pk: PK.session, sk: id } }),
    );
  }

  // -------------------------------------------------------------------------------------------
  // API tokens

  async createToken(token: TokenRecord, now: number): Promise<void> {
    try {
      await this.options.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.options.table,
                Item: tokenItem(token),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              // The name, while the token is active: a name is free again once its token ended.
              Put: {
                TableName: this.options.table,
                Item: {
                  pk: PK.tokenName,
                  sk: nameKey(token.name),
                  tokenId: token.id,
                  until: token.expiresAt,
                  expiresAt: ttl(token.expiresAt),
                },
                ConditionExpression: 'attribute_not_exists(pk) OR #until <= :now',
                ExpressionAttributeNames: { '#until': 'until' },
                ExpressionAttributeValues: { ':now': now },
              },
            },
          ],
        }),
      );
    } catch (err) {
      const cancelled =
        err instanceof TransactionCanceledException ||
        (err instanceof Error && err.name === 'TransactionCanceledException');
      const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
      if (cancelled && reasons[1]?.Code === 'ConditionalCheckFailed') {
        throw new ConflictError(
          `an active API token is named ${token.name}; choose another name or revoke it first`,
        );
      }
      throw err;
    }
  }

  async getToken(id: string): Promise<TokenRecord | undefined> {
    const item = await this.get(PK.token, id);
    return item ? tokenOf(item) : undefined;
  }

  async listTokens(): Promise<TokenRecord[]> {
    return (await this.query(PK.token)).map(tokenOf).sort((a, b) => b.createdAt - a.createdAt);
  }

  async touchToken(id: string, usedAt: number): Promise<void> {
    await this.updateIfExists(PK.token, id, 'SET lastUsedAt = :usedAt', { ':usedAt': usedAt });
  }

  async revokeToken(id: string, at: number): Promise<TokenRecord> {
    let revoked: TokenRecord;
    try {
      const { Attributes } = await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.table,
          Key: { pk: PK.token, sk: id },
          UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at), expiresAt = :ttl',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':at': at, ':ttl': ttl(at + TOKEN_KEPT_AFTER_END_MS) },
          ReturnValues: 'ALL_NEW',
        }),
      );
      revoked = tokenOf(Attributes as Item);
    } catch (err) {
      if (isConditionFailed(err)) throw new NotFoundError(`API token ${id} does not exist`);
      throw err;
    }
    // Frees the name, if it is still this token's (not when a later token took it after this one ended).
    try {
      await this.options.doc.send(
        new DeleteCommand({
          TableName: this.options.table,
          Key: { pk: PK.tokenName, sk: nameKey(revoked.name) },
          ConditionExpression: 'tokenId = :id',
          ExpressionAttributeValues: { ':id': id },
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
    return revoked;
  }

  // -------------------------------------------------------------------------------------------
  // Failed sign-ins

  async getThrottles(keys: readonly string[]): Promise<ThrottleRecord[]> {
    if (keys.length === 0) return [];
    const items = await batchGetAll(
      this.options.doc,
      this.options.table,
      keys.map((key) => ({ pk: PK.throttle, sk: key })),
    );
    return items.map(throttleOf);
  }

  async updateThrottle(
    key: string,
    next: (current: ThrottleRecord | undefined) => Omit<ThrottleRecord, 'key'>,
  ): Promise<ThrottleRecord> {
    for (let attempt = 1; ; attempt++) {
      const item = await this.get(PK.throttle, key);
      const version = item ? Number(item.version ?? 0) : 0;
      const state = next(item ? throttleOf(item) : undefined);
      try {
        await this.options.doc.send(
          new PutCommand({
            TableName: this.options.table,
            Item: {
              pk: PK.throttle,
              sk: key,
              failures: state.failures,
              lastFailureAt: state.lastFailureAt,
              lockedUntil: state.lockedUntil,
              version: version + 1,
              expiresAt: ttl(Math.max(state.lastFailureAt + LOGIN_THROTTLE.windowMs, state.lockedUntil)),
            },
            ConditionExpression: item ? 'version = :version' : 'attribute_not_exists(pk)',
            ...(item ? { ExpressionAttributeValues: { ':version': version } } : {}),
          }),
        );
        return { key, ...state };
      } catch (err) {
        // Another attempt counted first: count on top of it.
        if (!isConditionFailed(err) || attempt >= THROTTLE_ATTEMPTS) throw err;
      }
    }
  }

  async clearThrottle(key: string): Promise<void> {
    await this.options.doc.send(
      new DeleteCommand({ TableName: this.options.table, Key: { pk: PK.throttle, sk: key } }),
    );
  }

  // -------------------------------------------------------------------------------------------
  // The bootstrap token

  async getBootstrap(): Promise<BootstrapRecord | undefined> {
    const item = await this.get(PK.bootstrap, BOOTSTRAP_SK);
    if (!item) return undefined;
    return {
      secretHash: String(item.secretHash),
      rotatedAt: Number(item.rotatedAt),
      rotatedBy: String(item.rotatedBy),
    };
  }

  async putBootstrap(record: BootstrapRecord, previousRotatedAt: number | undefined): Promise<void> {
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.table,
          Item: { pk: PK.bootstrap, sk: BOOTSTRAP_SK, ...record },
          ConditionExpression:
            previousRotatedAt === undefined ? 'attribute_not_exists(pk)' : 'rotatedAt = :previous',
          ...(previousRotatedAt === undefined
            ? {}
            : { ExpressionAttributeValues: { ':previous': previousRotatedAt } }),
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) {
        throw new ConflictError(
          'the bootstrap token was rotated by another request meanwhile; rotate it again',
        );
      }
      throw err;
    }
  }

  // -------------------------------------------------------------------------------------------

  private async get(pk: string, sk: string): Promise<Item | undefined> {
    const { Item: item } = await this.options.doc.send(
      new GetCommand({ TableName: this.options.table, Key: { pk, sk }, ConsistentRead: true }),
    );
    return item;
  }

  private async query(pk: string): Promise<Item[]> {
    const items: Item[] = [];
    let start: Item | undefined;
    do {
      const page = await this.options.doc.send(
        new QueryCommand({
          TableName: this.options.table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ExclusiveStartKey: start,
          ConsistentRead: true,
        }),
      );
      items.push(...((page.Items ?? []) as Item[]));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  }

  private async updateIfExists(
    pk: string,
    sk: string,
    expression: string,
    values: Record<string, unknown>,
  ): Promise<void> {
    try {
      await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.table,
          Key: { pk, sk },
          UpdateExpression: expression,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: values,
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
  }
}

const nameKey = (name: string) => name.toLowerCase();

function groupsItem(groups: Grant['groups']): string | string[] {
  return groups === ALL_GROUPS ? ALL_GROUPS : [...groups];
}

function grantOf(item: Item): Grant {
  const groups = item.groups === ALL_GROUPS ? ALL_GROUPS : ((item.groups as string[] | undefined) ?? []);
  return { role: item.role as Role, groups, glue: item.glue === true };
}

function userItem(user: UserRecord): Item {
  return {
    pk: PK.user,
    sk: user.username,
    displayName: user.displayName,
    role: user.grant.role,
    groups: groupsItem(user.grant.groups),
    glue: user.grant.glue,
    passwordHash: user.passwordHash,
    disabled: user.disabled,
    sessionsValidAfter: user.sessionsValidAfter,
    passwordChangedAt: user.passwordChangedAt,
    ...(user.lastLoginAt === undefined ? {} : { lastLoginAt: user.lastLoginAt }),
    createdAt: user.createdAt,
    createdBy: user.createdBy,
    updatedAt: user.updatedAt,
    version: user.version,
  };
}

function userOf(item: Item): UserRecord {
  return {
    username: String(item.sk),
    displayName: String(item.displayName ?? ''),
    grant: grantOf(item),
    passwordHash: String(item.passwordHash),
    disabled: item.disabled === true,
    sessionsValidAfter: Number(item.sessionsValidAfter ?? 0),
    passwordChangedAt: Number(item.passwordChangedAt ?? 0),
    ...(item.lastLoginAt === undefined ? {} : { lastLoginAt: Number(item.lastLoginAt) }),
    createdAt: Number(item.createdAt),
    createdBy: String(item.createdBy ?? ''),
    updatedAt: Number(item.updatedAt),
    version: Number(item.version),
  };
}

function tokenItem(token: TokenRecord): Item {
  return {
    pk: PK.token,
    sk: token.id,
    name: token.name,
    role: token.grant.role,
    groups: groupsItem(token.grant.groups),
    glue: token.grant.glue,
    secretHash: token.secretHash,
    createdAt: token.createdAt,
    createdBy: token.createdBy,
    // The table's TTL attribute is `expiresAt` (seconds): the token's own expiry is `tokenExpiresAt`.
    tokenExpiresAt: token.expiresAt,
    ...(token.revokedAt === undefined ? {} : { revokedAt: token.revokedAt }),
    ...(token.lastUsedAt === undefined ? {} : { lastUsedAt: token.lastUsedAt }),
    expiresAt: ttl((token.revokedAt ?? token.expiresAt) + TOKEN_KEPT_AFTER_END_MS),
  };
}

function tokenOf(item: Item): TokenRecord {
  return {
    id: String(item.sk),
    name: String(item.name),
    grant: grantOf(item),
    secretHash: String(item.secretHash),
    createdAt: Number(item.createdAt),
    createdBy: String(item.createdBy ?? ''),
    expiresAt: Number(item.tokenExpiresAt),
    ...(item.revokedAt === undefined ? {} : { revokedAt: Number(item.revokedAt) }),
    ...(item.lastUsedAt === undefined ? {} : { lastUsedAt: Number(item.lastUsedAt) }),
  };
}

function throttleOf(item: Item): ThrottleRecord {
  return {
    key: String(item.sk),
    failures: Number(item.failures ?? 0),
    lastFailureAt: Number(item.lastFailureAt ?? 0),
    lockedUntil: Number(item.lockedUntil ?? 0),
  };
}
