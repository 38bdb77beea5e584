import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '@tickring/core/common';
import type { UserRecord } from '@tickring/core/identity';
import {
  afterFailure,
  BOOTSTRAP_PRINCIPAL,
  LOGIN_THROTTLE,
  TOKEN_KEPT_AFTER_END_MS,
} from '@tickring/core/identity';
import { createApiToken, login, rotateBootstrapToken } from '@tickring/core/identity/use-cases';
import { identityFixture, identityLifecycleSuite, MAX_MS } from '@tickring/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';
import { DynamoPrincipalStore } from './principal-store.js';
import type { Item } from './util.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('prn');
});
afterAll(() => env?.close());

/** An empty principals table (the bootstrap token is one per table), as TABLES defines it. */
async function freshStore(): Promise<{ store: DynamoPrincipalStore; table: string }> {
  const table = await freshTable(env, 'principals');
  return { store: new DynamoPrincipalStore({ doc: env.clients.doc, table }), table };
}

async function scan(table: string): Promise<Item[]> {
  const { Items } = await env.clients.doc.send(new ScanCommand({ TableName: table, ConsistentRead: true }));
  return (Items ?? []) as Item[];
}

const user = (username: string, at: number, extra: Partial<UserRecord> = {}): UserRecord => ({
  username,
  displayName: username,
  grant: { role: 'operator', groups: ['billing'], glue: false },
  passwordHash: 'scrypt$1024$8$1$c2FsdA$aGFzaA',
  disabled: false,
  sessionsValidAfter: at,
  passwordChangedAt: at,
  createdAt: at,
  createdBy: 'bootstrap',
  updatedAt: at,
  version: 1,
  ...extra,
});

identityLifecycleSuite('DynamoDB Local', async () => (await freshStore()).store);

describe('DynamoPrincipalStore (DynamoDB Local)', () => {
  it('keeps secrets only as hashes, and sets TTLs (epoch seconds) on sessions, counts and ended tokens', async () => {
    const { store, table } = await freshStore();
    const deps = identityFixture({ store });
    const now = deps.clock.now();
    await store.createUser(
      user('ana', now, { passwordHash: await deps.passwords.hash('correct horse battery staple') }),
    );
    const session = await login(
      deps,
      { username: 'ana', password: 'correct horse battery staple' },
      {
        ip: '203.0.113.9',
        userAgent: 'vitest',
      },
    );
    await login(
      deps,
      { username: 'ana', password: 'a wrong password here' },
      { ip: '203.0.113.9', userAgent: '' },
    ).catch(() => undefined);
    const token = await createApiToken(deps, BOOTSTRAP_PRINCIPAL, {
      name: 'ci',
      role: 'viewer',
      groups: '*',
      expiresInDays: 10,
    });
    const rotated = await rotateBootstrapToken(deps, BOOTSTRAP_PRINCIPAL);

    const items = await scan(table);
    const text = JSON.stringify(items);
    for (const secret of [
      'correct horse battery staple',
      'a wrong password here',
      session.token.slice(-43),
      token.token.slice(-43),
      rotated.token,
    ]) {
      expect(text).not.toContain(secret);
    }
    const byKey = (pk: string, sk: string) => items.find((i) => i.pk === pk && i.sk === sk);
    expect(byKey('user', 'ana')?.passwordHash).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(byKey('user', 'ana')).not.toHaveProperty('expiresAt');
    expect(byKey('session', session.sessionId)).toMatchObject({
      username: 'ana',
      secretHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      expiresAt: Math.ceil(session.expiresAt / 1000),
      endsAt: now + MAX_MS,
    });
    expect(byKey('token', token.id)).toMatchObject({
      name: 'ci',
      tokenExpiresAt: token.expiresAt,
      expiresAt: Math.ceil((token.expiresAt + TOKEN_KEPT_AFTER_END_MS) / 1000),
    });
    expect(byKey('tokenName', 'ci')).toMatchObject({ tokenId: token.id, until: token.expiresAt });
    expect(byKey('throttle', 'user#ana')).toMatchObject({
      failures: 1,
      lastFailureAt: now,
      lockedUntil: now,
    });
    expect(byKey('throttle', 'ip#203.0.113.9')).toMatchObject({
      failures: 1,
      expiresAt: Math.ceil((now + LOGIN_THROTTLE.windowMs) / 1000),
    });
    expect(byKey('bootstrap', 'current')).toMatchObject({
      rotatedBy: 'bootstrap',
      secretHash: expect.any(String),
    });
  });

  it('updates a user at its version only (409), a missing one is a 404; lastLoginAt is left alone', async () => {
    const { store } = await freshStore();
    await store.createUser(user('ana', 1000));
    await expect(store.createUser(user('ana', 2000))).rejects.toBeInstanceOf(ConflictError);
    await store.recordLogin('ana', 1500);
    await store.recordLogin('nobody', 1500);
    await store.updateUser(user('ana', 1000, { displayName: 'Ana', version: 2 }), 1);
    expect(await store.getUser('ana')).toMatchObject({ displayName: 'Ana', version: 2, lastLoginAt: 1500 });
    await expect(store.updateUser(user('ana', 1000, { version: 3 }), 1)).rejects.toBeInstanceOf(
      ConflictError,
    );
    await expect(store.updateUser(user('bob', 1000, { version: 2 }), 1)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await store.deleteUser('ana');
    await expect(store.deleteUser('ana')).rejects.toBeInstanceOf(NotFoundError);
    expect(await store.getUser('ana')).toBeUndefined();
  });

  it('keeps "*" and lists of groups, and lists users', async () => {
    const { store } = await freshStore();
    await store.createUser(user('viewer-all', 1, { grant: { role: 'viewer', groups: '*', glue: false } }));
    await store.createUser(user('op', 1, { grant: { role: 'operator', groups: [], glue: true } }));
    expect((await store.getUser('viewer-all'))?.grant).toEqual({ role: 'viewer', groups: '*', glue: false });
    expect((await store.getUser('op'))?.grant).toEqual({ role: 'operator', groups: [], glue: true });
    expect((await store.listUsers()).map((u) => u.username).sort()).toEqual(['op', 'viewer-all']);
  });

  it('counts concurrent failures without losing one', async () => {
    const { store } = await freshStore();
    const now = Date.UTC(2030, 0, 1);
    await Promise.all(
      Array.from({ length: 6 }, () =>
        store.updateThrottle('ip#192.0.2.1', (current) => afterFailure(current, now)),
      ),
    );
    const [count] = await store.getThrottles(['ip#192.0.2.1', 'user#nobody']);
    expect(count).toMatchObject({ key: 'ip#192.0.2.1', failures: 6, lockedUntil: now + 2_000 });
    await store.clearThrottle('ip#192.0.2.1');
    expect(await store.getThrottles(['ip#192.0.2.1'])).toEqual([]);
  });

  it('refuses a bootstrap rotation that lost a race', async () => {
    const { store } = await freshStore();
    await store.putBootstrap({ secretHash: 'a', rotatedAt: 1, rotatedBy: 'x' }, undefined);
    await expect(
      store.putBootstrap({ secretHash: 'b', rotatedAt: 2, rotatedBy: 'y' }, undefined),
    ).rejects.toBeInstanceOf(ConflictError);
    await store.putBootstrap({ secretHash: 'c', rotatedAt: 3, rotatedBy: 'z' }, 1);
    await expect(
      store.putBootstrap({ secretHash: 'd', rotatedAt: 4, rotatedBy: 'w' }, 1),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(await store.getBootstrap()).toEqual({ secretHash: 'c', rotatedAt: 3, rotatedBy: 'z' });
  });

  it('ignores touching, confirming or deleting a session that is gone', async () => {
    const { store, table } = await freshStore();
    await store.touchSession('0000000000000000', 1, 2);
    await store.confirmSession('0000000000000000', 1);
    await store.deleteSession('0000000000000000');
    await store.touchToken('0000000000000000', 1);
    expect(await scan(table)).toEqual([]);
  });
});

describe('DynamoPrincipalStore error paths (a stubbed client)', () => {
  const failing = (err: Error) =>
    ({
      send: async () => {
        throw err;
      },
    }) as unknown as DynamoDBDocumentClient;
  const conditionFailed = () => new ConditionalCheckFailedException({ message: 'failed', $metadata: {} });

  it('passes on errors other than a failed condition', async () => {
    const store = new DynamoPrincipalStore({ doc: failing(new Error('throttled')), table: 't' });
    await expect(store.createUser(user('ana', 1))).rejects.toThrow('throttled');
    await expect(store.touchSession('x', 1, 2)).rejects.toThrow('throttled');
    await expect(store.revokeToken('x', 1)).rejects.toThrow('throttled');
    await expect(
      store.putBootstrap({ secretHash: 'a', rotatedAt: 1, rotatedBy: 'x' }, undefined),
    ).rejects.toThrow('throttled');
    await expect(
      store.createToken(
        {
          id: 'abcdefabcdef0000',
          name: 'x',
          grant: { role: 'viewer', groups: '*', glue: false },
          secretHash: 'h',
          createdAt: 1,
          createdBy: 'b',
          expiresAt: 2,
        },
        1,
      ),
    ).rejects.toThrow('throttled');
  });

  it('gives up counting a failure after repeated lost races', async () => {
    let puts = 0;
    const doc = {
      send: async (command: { constructor: { name: string } }) => {
        if (command.constructor.name === 'GetCommand') return { Item: undefined };
        puts++;
        throw conditionFailed();
      },
    } as unknown as DynamoDBDocumentClient;
    const store = new DynamoPrincipalStore({ doc, table: 't' });
    await expect(store.updateThrottle('user#ana', (c) => afterFailure(c, 1))).rejects.toBeInstanceOf(
      ConditionalCheckFailedException,
    );
    expect(puts).toBe(8);
  });
});
