import { API } from '@tickring/api/contract';
import type { HttpResult } from '@tickring/api/http';
import { BOOTSTRAP_PRINCIPAL, type Principal } from '@tickring/core/identity';
import { identityFixture, loggedText } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { checkResponse } from '../../test/openapi-check.js';
import type { Caller, GuardedRouter } from './authorize.js';
import { addIdentityRoutes, identityAuthenticator, identityBeforeLoaders } from './routes-identity.js';

type Handler = (req: unknown, caller: Caller) => Promise<HttpResult> | HttpResult;

/** The handlers as added, by operationId (authorisation and audit are the guarded router's, tested with it). */
function handlers() {
  const deps = identityFixture();
  const added = new Map<string, { spec: { method: string; path: string }; handler: Handler }>();
  const router = {
    route(spec: { operationId: string; method: string; path: string }, handler: Handler) {
      added.set(spec.operationId, { spec, handler });
      return router;
    },
  };
  addIdentityRoutes(router as unknown as GuardedRouter, deps);
  const source = { ip: '203.0.113.9', userAgent: 'vitest' };
  /** Calls a route's handler and checks its answer against the OpenAPI document. */
  const call = async (
    operationId: string,
    request: { params?: object; body?: unknown },
    principal: Principal | undefined,
    path?: string,
  ) => {
    const route = added.get(operationId);
    if (!route) throw new Error(`no route ${operationId}`);
    const result = await route.handler(
      { params: {}, query: {}, headers: {}, ...request },
      { principal, source, visible: new Set() },
    );
    checkResponse(route.spec.method, path ?? route.spec.path, result.status, result.body);
    return result;
  };
  return { deps, added, call };
}

describe('the identity routes', () => {
  it('are added for every identity route of the table', () => {
    const { added } = handlers();
    expect([...added.keys()].sort()).toEqual(
      Object.values(API)
        .filter((route) => /^\/v1\/(sign-in-options|sessions|me|users|tokens)/.test(route.path))
        .map((route) => route.operationId)
        .sort(),
    );
  });

  it('answer how to sign in to anyone: passwords once a user who is not disabled exists, nothing more', async () => {
    const { call } = handlers();
    expect((await call('getSignInOptions', {}, undefined)).body).toEqual({ passwords: false });
    await call(
      'createUser',
      { body: { username: 'ana', password: 'correct horse battery staple', role: 'viewer', groups: '*' } },
      BOOTSTRAP_PRINCIPAL,
    );
    const after = await call('getSignInOptions', {}, undefined);
    expect(after).toEqual({ status: 200, body: { passwords: true } });
  });

  it('answer as the document says, secrets only in the answers that create them', async () => {
    const { deps, call } = handlers();
    const password = 'correct horse battery staple';
    const created = await call(
      'createUser',
      { body: { username: 'ana', password, role: 'admin' } },
      BOOTSTRAP_PRINCIPAL,
    );
    expect(created.status).toBe(201);
    const session = await call('login', { body: { username: 'ana', password } }, undefined);
    const token = (session.body as { token: string }).token;
    const ana = await identityAuthenticator(deps)({
      headers: { authorization: `Bearer ${token}`, 'user-agent': 'vitest' },
      sourceIp: '203.0.113.9',
      clientIp: '203.0.113.9',
    } as never);
    expect(ana).toMatchObject({ kind: 'session', id: 'ana' });
    const principal = ana as Principal;

    const answers: HttpResult[] = [
      await call('getMe', {}, principal),
      await call('listUsers', {}, principal),
      await call('getUser', { params: { username: 'ana' } }, principal, '/v1/users/ana'),
      await call(
        'updateUser',
        { params: { username: 'ana' }, body: { displayName: 'Ana' } },
        principal,
        '/v1/users/ana',
      ),
      await call(
        'changeOwnPassword',
        { body: { currentPassword: password, newPassword: 'another long passphrase' } },
        principal,
      ),
      await call(
        'createUser',
        { body: { username: 'bob', password, role: 'viewer', groups: '*' } },
        principal,
      ),
      await call('deleteUser', { params: { username: 'bob' } }, principal, '/v1/users/bob'),
    ];
    const apiToken = await call(
      'createApiToken',
      { body: { name: 'ci', role: 'viewer', groups: '*', expiresAt: '2030-02-01T00:00:00Z' } },
      principal,
    );
    const { id, token: tokenSecret } = apiToken.body as { id: string; token: string };
    expect(tokenSecret).toMatch(/^trk_/);
    expect(apiToken.body).toMatchObject({
      expiresAt: '2030-02-01T00:00:00.000Z',
      status: 'active',
      createdBy: 'ana',
    });
    answers.push(await call('listApiTokens', {}, principal));
    answers.push(await call('revokeApiToken', { params: { id } }, principal, `/v1/tokens/${id}`));
    const rotated = await call('rotateBootstrapToken', {}, principal);
    expect((rotated.body as { token: string }).token).toMatch(/^trb_/);
    answers.push(await call('logout', {}, principal));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 201, 204, 200, 204, 204]);

    const hashes = [
      (await deps.store.getUser('ana'))?.passwordHash,
      (await deps.store.getToken(id))?.secretHash,
    ].filter((hash): hash is string => hash !== undefined);
    expect(hashes).toHaveLength(2);
    const text = JSON.stringify(answers) + loggedText(deps.logger);
    for (const secret of [
      password,
      'another long passphrase',
      token.slice(-43),
      tokenSecret.slice(-43),
      ...hashes,
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('give the audit log the views of users and tokens as they were', async () => {
    const { deps, call } = handlers();
    await call(
      'createUser',
      { body: { username: 'ana', password: 'correct horse battery staple', role: 'admin' } },
      BOOTSTRAP_PRINCIPAL,
    );
    const created = await call(
      'createApiToken',
      { body: { name: 'ci', role: 'viewer', groups: '*', expiresInDays: 1 } },
      BOOTSTRAP_PRINCIPAL,
    );
    const loaders = identityBeforeLoaders(deps);
    expect(await loaders.user('ana')).toMatchObject({ username: 'ana', role: 'admin' });
    const { token: _secret, note: _note, ...view } = created.body as Record<string, unknown>;
    expect(await loaders.token(String(view.id))).toEqual(view);
    expect(await loaders.user('ana')).not.toHaveProperty('passwordHash');
  });
});
