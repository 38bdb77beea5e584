/** The routes of people and credentials: users, sessions, API tokens, who am I. */
import { Type } from '@sinclair/typebox';
import { defineRoute } from './define.js';
import {
  ApiTokenCreate,
  ApiTokenCreated,
  ApiTokenList,
  BootstrapRotated,
  LoginBody,
  Me,
  PasswordChange,
  Session,
  SignInOptions,
  TokenIdParam,
  User,
  UserCreate,
  UserList,
  UsernameParam,
  UserUpdate,
} from './schemas-identity.js';

const usernameParams = Type.Object({ username: UsernameParam });
const tokenIdParams = Type.Object({ id: TokenIdParam });

// Examples, shown by the document (a test checks each against its schema).
const T0 = '2030-01-01T02:00:00.000Z';
const exampleUser = {
  username: 'ana',
  displayName: 'Ana Lima',
  role: 'operator',
  groups: ['billing', 'reports'],
  glue: false,
  disabled: false,
  createdAt: T0,
  createdBy: 'bootstrap',
  updatedAt: T0,
  passwordChangedAt: T0,
  lastLoginAt: '2030-01-02T08:30:00.000Z',
  version: 1,
};
const exampleToken = {
  id: '4f9c2a7be01d5c33',
  name: 'ci-deploy',
  role: 'operator',
  groups: ['billing'],
  glue: false,
  status: 'active',
  createdAt: T0,
  createdBy: 'ana',
  expiresAt: '2030-04-01T02:00:00.000Z',
  revokedAt: null,
  lastUsedAt: '2030-01-03T10:15:00.000Z',
};
const LOCKED_OUT =
  'Too many failed sign-ins for this username or from this address (5 within 15 minutes, then 1 s, 2 s, 4 s, ... at most 15 minutes after each further failure): try again after `Retry-After` seconds. The attempt was not looked at.';

export const IDENTITY_ROUTES = {
  // ------------------------------------------------------------------------------------------
  // Sessions and who am I
  login: defineRoute({
    operationId: 'login',
    method: 'POST',
    path: '/v1/sessions',
    tags: ['sessions'],
    access: { kind: 'public' },
    summary: 'Sign in',
    description:
      'A new session for a user: its token (shown in this answer only) is sent as `Authorization: Bearer <token>`. A session ends when unused for the idle time (30 minutes by default; each use moves it on) and at the latest after the maximum time (12 hours by default), and when the user’s password, grant or disabled state changes. An unknown username, a wrong password and a disabled user get the same 401.',
    body: {
      schema: LoginBody,
      required: true,
      description: 'The username and password.',
      examples: {
        signIn: {
          summary: 'A user signs in',
          value: { username: 'ana', password: 'correct horse battery staple' },
        },
      },
    },
    responses: {
      201: {
        description: 'Signed in: the session token, shown this once.',
        schema: Session,
        example: {
          token: 'trs_9d0c6e2b41a7f355_Qm3nX0v8aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX',
          expiresAt: '2030-01-02T09:00:00.000Z',
          endsAt: '2030-01-02T20:30:00.000Z',
          user: exampleUser,
        },
      },
    },
    errors: {
      401: 'The username or password is wrong, or the user is disabled (one answer for all: "username or password is wrong").',
      429: LOCKED_OUT,
    },
  }),
  getSignInOptions: defineRoute({
    operationId: 'getSignInOptions',
    method: 'GET',
    path: '/v1/sign-in-options',
    tags: ['sessions'],
    access: { kind: 'public' },
    summary: 'How to sign in',
    description:
      'Whether signing in with a username and password can work here (some user is not disabled), for a sign-in page to offer that form or the token form. Says nothing else about the users (no names, no counts).',
    responses: {
      200: { description: 'The ways to sign in.', schema: SignInOptions, example: { passwords: true } },
    },
  }),
  logout: defineRoute({
    operationId: 'logout',
    method: 'DELETE',
    path: '/v1/sessions/current',
    tags: ['sessions'],
    access: { kind: 'signedIn' },
    summary: 'Sign out',
    description:
      'Ends the session whose token the request carries. An API token is revoked instead (DELETE /v1/tokens/{id}); the bootstrap token is rotated (400 for either).',
    responses: { 204: { description: 'Signed out: the token no longer works.' } },
  }),
  getMe: defineRoute({
    operationId: 'getMe',
    method: 'GET',
    path: '/v1/me',
    tags: ['sessions'],
    access: { kind: 'signedIn' },
    summary: 'Who am I',
    description:
      'The caller (a signed-in user, an API token or the bootstrap token), their role and groups, and what they may do, for a console to offer only what works.',
    responses: {
      200: {
        description: 'The caller.',
        schema: Me,
        example: {
          kind: 'session',
          name: 'ana',
          username: 'ana',
          displayName: 'Ana Lima',
          role: 'operator',
          groups: ['billing', 'reports'],
          glue: false,
          permissions: {
            admin: false,
            readGroups: ['billing', 'reports'],
            operateGroups: ['billing', 'reports'],
            glue: false,
          },
        },
      },
    },
  }),
  changeOwnPassword: defineRoute({
    operationId: 'changeOwnPassword',
    method: 'PUT',
    path: '/v1/me/password',
    tags: ['sessions'],
    access: { kind: 'signedIn' },
    audit: { action: 'user.password', target: 'user', idFrom: 'caller' },
    summary: 'Change my password',
    description:
      'A signed-in user sets a new password, giving the current one. Their other sessions end; this one goes on. A wrong current password is a 400 and counts as a failed sign-in. API tokens and the bootstrap token have no password (400).',
    body: {
      schema: PasswordChange,
      required: true,
      description: 'The current password and the new one.',
      examples: {
        change: {
          summary: 'A new password',
          value: {
            currentPassword: 'correct horse battery staple',
            newPassword: 'a longer and newer passphrase',
          },
        },
      },
    },
    responses: {
      200: {
        description: 'Changed: the user as it is now.',
        schema: User,
        example: { ...exampleUser, passwordChangedAt: '2030-01-02T09:00:00.000Z', version: 2 },
      },
    },
    errors: { 429: LOCKED_OUT },
  }),

  // ------------------------------------------------------------------------------------------
  // Users
  listUsers: defineRoute({
    operationId: 'listUsers',
    method: 'GET',
    path: '/v1/users',
    tags: ['users'],
    access: { kind: 'admin' },
    summary: 'List users',
    description: 'Every user, by username (never a password or its hash).',
    responses: { 200: { description: 'The users.', schema: UserList, example: { items: [exampleUser] } } },
  }),
  createUser: defineRoute({
    operationId: 'createUser',
    method: 'POST',
    path: '/v1/users',
    tags: ['users'],
    access: { kind: 'admin' },
    audit: { action: 'user.create', target: 'user', idFrom: 'result' },
    summary: 'Create a user',
    description:
      'A person who signs in with a username and password, with a role over executor groups. There is no default user: the first one is created with the bootstrap admin token. Every problem (username, grant, password policy) is reported at once.',
    body: {
      schema: UserCreate,
      required: true,
      description: 'The user.',
      examples: {
        operator: {
          summary: 'An operator of two groups',
          value: {
            username: 'ana',
            displayName: 'Ana Lima',
            password: 'correct horse battery staple',
            role: 'operator',
            groups: ['billing', 'reports'],
          },
        },
        admin: {
          summary: 'An admin (every group, GLUE)',
          value: { username: 'root-ops', password: 'a long admin passphrase', role: 'admin' },
        },
        viewer: {
          summary: 'A viewer of every group',
          value: { username: 'audit.viewer', password: 'read only, all groups', role: 'viewer', groups: '*' },
        },
      },
    },
    responses: { 201: { description: 'Created.', schema: User, example: exampleUser } },
    errors: { 409: 'A user with this username exists (case does not matter).' },
  }),
  getUser: defineRoute({
    operationId: 'getUser',
    method: 'GET',
    path: '/v1/users/{username}',
    tags: ['users'],
    access: { kind: 'admin' },
    params: usernameParams,
    summary: 'Read a user',
    description: 'One user (never the password or its hash).',
    responses: { 200: { description: 'The user.', schema: User, example: exampleUser } },
    errors: { 404: 'No user has this username.' },
  }),
  updateUser: defineRoute({
    operationId: 'updateUser',
    method: 'PUT',
    path: '/v1/users/{username}',
    tags: ['users'],
    access: { kind: 'admin' },
    audit: { action: 'user.update', target: 'user' },
    params: usernameParams,
    summary: 'Change a user',
    description:
      'Lays the given fields over the user. A new password, a changed role, groups or glue, or disabling ends the user’s sessions (the caller’s own goes on). Nobody disables themselves (409).',
    body: {
      schema: UserUpdate,
      required: true,
      description: 'The fields to change.',
      examples: {
        groups: { summary: 'Another group', value: { groups: ['billing', 'reports', 'etl'] } },
        disable: { summary: 'Lock the user out', value: { disabled: true } },
        password: {
          summary: 'A new password (only if nobody changed the user since version 3)',
          value: { password: 'a brand new passphrase', version: 3 },
        },
      },
    },
    responses: { 200: { description: 'The user as changed.', schema: User, example: exampleUser } },
    errors: {
      404: 'No user has this username.',
      409: 'The body’s version is not the user’s (read it again and retry), or the caller would disable themselves.',
    },
  }),
  deleteUser: defineRoute({
    operationId: 'deleteUser',
    method: 'DELETE',
    path: '/v1/users/{username}',
    tags: ['users'],
    access: { kind: 'admin' },
    audit: { action: 'user.delete', target: 'user' },
    params: usernameParams,
    summary: 'Delete a user',
    description: 'The user’s sessions end with them. Nobody deletes themselves (409).',
    responses: { 204: { description: 'Deleted.' } },
    errors: { 404: 'No user has this username.', 409: 'The caller would delete themselves.' },
  }),

  // ------------------------------------------------------------------------------------------
  // API tokens
  listApiTokens: defineRoute({
    operationId: 'listApiTokens',
    method: 'GET',
    path: '/v1/tokens',
    tags: ['tokens'],
    access: { kind: 'admin' },
    summary: 'List API tokens',
    description:
      'Every API token, newest first, without secrets: its grant, status, creator, expiry, revocation and last use. Revoked and expired tokens stay listed for 30 days.',
    responses: {
      200: { description: 'The tokens.', schema: ApiTokenList, example: { items: [exampleToken] } },
    },
  }),
  createApiToken: defineRoute({
    operationId: 'createApiToken',
    method: 'POST',
    path: '/v1/tokens',
    tags: ['tokens'],
    access: { kind: 'admin' },
    audit: { action: 'token.create', target: 'token', idFrom: 'result' },
    summary: 'Create an API token',
    description:
      'A token for automation (CI, scripts), sent as `Authorization: Bearer <token>`: a role over executor groups no wider than the creator’s, and an expiry at most a year ahead. The token is shown in this answer only, and kept only as a hash.',
    body: {
      schema: ApiTokenCreate,
      required: true,
      description: 'The token’s name, grant and expiry.',
      examples: {
        ci: {
          summary: 'A deploy job’s token for one group, 90 days',
          value: { name: 'ci-deploy', role: 'operator', groups: ['billing'], expiresInDays: 90 },
        },
        readOnly: {
          summary: 'A dashboard’s read-only token until a date',
          value: { name: 'grafana', role: 'viewer', groups: '*', expiresAt: '2030-06-30T00:00:00Z' },
        },
      },
    },
    responses: {
      201: {
        description: 'Created: the token, shown this once.',
        schema: ApiTokenCreated,
        example: {
          ...exampleToken,
          lastUsedAt: null,
          token: 'trk_4f9c2a7be01d5c33_Zx8yW7vU6tS5rQ4pO3nM2lK1jI0hG9fE8dC7bA6zY5x',
          note: 'This token is shown once: store it now (e.g. in your CI’s secrets).',
        },
      },
    },
    errors: {
      403: 'The token would have more than its creator (a higher role, other groups, GLUE).',
      409: 'An active token has this name (case does not matter).',
    },
  }),
  revokeApiToken: defineRoute({
    operationId: 'revokeApiToken',
    method: 'DELETE',
    path: '/v1/tokens/{id}',
    tags: ['tokens'],
    access: { kind: 'admin' },
    audit: { action: 'token.revoke', target: 'token' },
    params: tokenIdParams,
    summary: 'Revoke an API token',
    description:
      'The token stops working at once (revoking it again changes nothing); its name is free for a new token. It stays listed, revoked, for 30 days.',
    responses: { 204: { description: 'Revoked.' } },
    errors: { 404: 'No API token has this id.' },
  }),
  rotateBootstrapToken: defineRoute({
    operationId: 'rotateBootstrapToken',
    method: 'POST',
    path: '/v1/tokens/bootstrap/rotate',
    tags: ['tokens'],
    access: { kind: 'admin' },
    audit: { action: 'bootstrap.rotate', target: 'bootstrap' },
    summary: 'Rotate the bootstrap admin token',
    description:
      'Replaces the deployment’s bootstrap admin token (the one configured, `TICKRING_ADMIN_TOKEN` or its secret) by a new random one, shown in this answer only and kept only as a hash. From now on only the new one works as the bootstrap token; rotate again to replace it.',
    responses: {
      200: {
        description: 'Rotated: the new bootstrap token, shown this once.',
        schema: BootstrapRotated,
        example: {
          token: 'trb_Hk2mP9qR4sT7uV0wX3yZ6aB1cD5eF8gJ2kL4mN7oP9q',
          rotatedAt: T0,
          rotatedBy: 'ana',
          note: 'This token is shown once: store it now. The configured admin token no longer works.',
        },
      },
    },
    errors: { 409: 'Another rotation came first: rotate again.' },
  }),
} as const;
