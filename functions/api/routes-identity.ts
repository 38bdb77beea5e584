import { API } from '@tickring/api/contract';
import { type Authenticator, bearerCredentials, created, noContent, ok } from '@tickring/api/http';
import { UnauthorizedError } from '@tickring/core/common';
import type { Principal } from '@tickring/core/identity';
import {
  authenticate,
  type CreatedToken,
  changeOwnPassword,
  createApiToken,
  createUser,
  deleteUser,
  getApiToken,
  getUser,
  type IdentityDeps,
  type LoginResult,
  listApiTokens,
  listUsers,
  login,
  logout,
  me,
  type RotatedBootstrap,
  revokeApiToken,
  rotateBootstrapToken,
  signInOptions,
  type TokenInfo,
  type UserInfo,
  updateUser,
} from '@tickring/core/identity/use-cases';
import type { Caller, GuardedRouter } from './authorize.js';
import { iso } from './views.js';

const isoOrNull = (ms: number | undefined): string | null => (ms === undefined ? null : iso(ms));

/**
 * The people and credentials routes: how to sign in, sign-in and out, who am I, users, API tokens, the bootstrap
 * token. Each handler calls one use-case and answers its view; secrets appear only in the answers
 * that create them (a session, an API token, a rotated bootstrap token), once.
 */
export function addIdentityRoutes(r: GuardedRouter, deps: IdentityDeps): void {
  r.route(API.getSignInOptions, async () => ok(await signInOptions(deps)))
    .route(API.login, async (req, caller) => created(sessionView(await login(deps, req.body, caller.source))))
    .route(API.logout, async (_req, caller) => noContent(await logout(deps, principalOf(caller))))
    .route(API.getMe, async (_req, caller) => ok(await me(deps, principalOf(caller))))
    .route(API.changeOwnPassword, async (req, caller) =>
      ok(userView(await changeOwnPassword(deps, principalOf(caller), req.body, caller.source))),
    )

    .route(API.listUsers, async () => ok({ items: (await listUsers(deps)).map(userView) }))
    .route(API.createUser, async (req, caller) =>
      created(userView(await createUser(deps, principalOf(caller), req.body))),
    )
    .route(API.getUser, async (req) => ok(userView(await getUser(deps, req.params.username))))
    .route(API.updateUser, async (req, caller) =>
      ok(userView(await updateUser(deps, principalOf(caller), req.params.username, req.body))),
    )
    .route(API.deleteUser, async (req, caller) =>
      noContent(await deleteUser(deps, principalOf(caller), req.params.username)),
    )

    .route(API.listApiTokens, async () => ok({ items: (await listApiTokens(deps)).map(tokenView) }))
    .route(API.createApiToken, async ({ body }, caller) => {
      const { expiresAt, ...rest } = body;
      const input = expiresAt === undefined ? rest : { ...rest, expiresAt: Date.parse(expiresAt) };
      return created(createdTokenView(await createApiToken(deps, principalOf(caller), input)));
    })
    .route(API.revokeApiToken, async (req, caller) =>
      noContent(await revokeApiToken(deps, principalOf(caller), req.params.id)),
    )
    .route(API.rotateBootstrapToken, async (_req, caller) =>
      ok(bootstrapView(await rotateBootstrapToken(deps, principalOf(caller)))),
    );
}

/**
 * The admin API's authenticator: the request's bearer credentials checked by `authenticate`
 * (sessions, API tokens, the bootstrap token); the Principal reaches the handlers as `req.auth`.
 */
export function identityAuthenticator(deps: IdentityDeps): Authenticator {
  return (req) =>
    authenticate(deps, bearerCredentials(req), {
      ip: req.clientIp,
      userAgent: req.headers['user-agent'] ?? '',
    });
}

/** The audit log's "before" of users and tokens: their API views (the same as the answers show). */
export function identityBeforeLoaders(deps: IdentityDeps): {
  readonly user: (username: string) => Promise<unknown>;
  readonly token: (id: string) => Promise<unknown>;
} {
  return {
    user: async (username) => userView(await getUser(deps, username)),
    token: async (id) => tokenView(await getApiToken(deps, id)),
  };
}

/** The caller of a route that needs one (every route here but sign-in). */
function principalOf(caller: Caller): Principal {
  if (caller.principal === undefined) throw new UnauthorizedError('this route needs a bearer token');
  return caller.principal;
}

/** A user as the API shows it: never the password or its hash. */
export function userView(user: UserInfo) {
  return {
    username: user.username,
    displayName: user.displayName,
    role: user.grant.role,
    groups: user.grant.groups,
    glue: user.grant.glue,
    disabled: user.disabled,
    createdAt: iso(user.createdAt),
    createdBy: user.createdBy,
    updatedAt: iso(user.updatedAt),
    passwordChangedAt: iso(user.passwordChangedAt),
    lastLoginAt: isoOrNull(user.lastLoginAt),
    version: user.version,
  };
}

/** An API token as the API shows it: never its secret or the hash of it. */
export function tokenView(token: TokenInfo) {
  return {
    id: token.id,
    name: token.name,
    role: token.grant.role,
    groups: token.grant.groups,
    glue: token.grant.glue,
    status: token.status,
    createdAt: iso(token.createdAt),
    createdBy: token.createdBy,
    expiresAt: iso(token.expiresAt),
    revokedAt: isoOrNull(token.revokedAt),
    lastUsedAt: isoOrNull(token.lastUsedAt),
  };
}

/** A new API token: its view and, this once, the token. */
function createdTokenView(created: CreatedToken) {
  return {
    ...tokenView(created),
    token: created.token,
    note: 'This token is shown once: store it now (e.g. in your CI’s secrets).',
  };
}

/** A new session: its token, this once, and the user signed in. */
function sessionView(result: LoginResult) {
  return {
    token: result.token,
    expiresAt: iso(result.expiresAt),
    endsAt: iso(result.endsAt),
    user: userView(result.user),
  };
}

function bootstrapView(rotated: RotatedBootstrap) {
  return {
    token: rotated.token,
    rotatedAt: iso(rotated.rotatedAt),
    rotatedBy: rotated.rotatedBy,
    note: 'This token is shown once: store it now. The configured admin token no longer works.',
  };
}
