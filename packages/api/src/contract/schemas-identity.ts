/**
 * The shapes of people and credentials: sign-in, who am I, users, API tokens, the bootstrap token.
 * Limits come from the domain (@tickring/core/identity: identity.ts); what needs more than the shape (the
 * password policy, a grant's rules, a token's expiry) is checked there and reported with every
 * problem at once. Secrets are never echoed back in a 400: password fields carry no length minimum
 * or pattern here (the policy reports lengths only).
 */
import { Type } from '@sinclair/typebox';
import {
  ALL_GROUPS,
  DISPLAY_NAME_MAX,
  GRANT_MAX_GROUPS,
  PASSWORD_LIMITS,
  ROLES,
  TOKEN_MAX_DAYS,
  TOKEN_NAME_LIMITS,
  USERNAME_LIMITS,
} from '@tickring/core/identity';
import { annotate, Expect, Noun, named, StringEnum } from './kit.js';
import { Instant, iso } from './schemas-common.js';

const InstantOrNull = (description: string, example: string | null = '2030-01-01T02:00:00.000Z') =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description,
    examples: example === null ? [null] : [example, null],
  });

// ---------------------------------------------------------------------------------------------
// Common

/** What a password field may be at most (the policy's limit is checked by the domain, lengths only). */
const PASSWORD_MAX_INPUT = PASSWORD_LIMITS.max * 4;

export const UsernameParam = Type.String({
  maxLength: USERNAME_LIMITS.max,
  description: 'The user’s username (case does not matter).',
  examples: ['ana'],
});

export const TokenIdParam = annotate(
  Type.String({
    pattern: '^[A-Za-z0-9]{12,64}$',
    description: 'The API token’s id (the part of the token between `trk_` and the next `_`).',
    examples: ['4f9c2a7be01d5c33'],
  }),
  { [Expect]: 'an API token id (12-64 letters and digits)' },
);

const Role = StringEnum(ROLES, {
  description:
    'admin: everything, including users, tokens, executor groups and GLUE sources; operator: create, edit, start, stop, trigger, kill and delete the jobs of its groups, read their runs and logs; viewer: read its groups’ jobs, runs, executors and figures.',
  examples: ['operator'],
});

const Groups = annotate(
  Type.Union(
    [
      StringEnum([ALL_GROUPS], { description: 'Every group, present and future.' }),
      Type.Array(Type.String({ maxLength: 64, description: 'An executor group’s AppName.' }), {
        maxItems: GRANT_MAX_GROUPS,
        description: 'These groups (AppNames; they need not exist yet).',
      }),
    ],
    {
      description: `The executor groups the role applies to: "${ALL_GROUPS}" for every group, or a list of AppNames. An admin’s is always "${ALL_GROUPS}"; an operator needs at least one group.`,
      examples: [['billing', 'reports'], ALL_GROUPS],
    },
  ),
  { [Expect]: `"${ALL_GROUPS}" or an array of AppNames` },
);

const Glue = Type.Boolean({
  description: 'An operator may also edit GLUE sources (an admin always may, a viewer never).',
  examples: [false],
});

// ---------------------------------------------------------------------------------------------
// Users

const USER_FIELDS = {
  username: Type.String({
    minLength: USERNAME_LIMITS.min,
    maxLength: USERNAME_LIMITS.max,
    description: `${USERNAME_LIMITS.min}-${USERNAME_LIMITS.max} characters of letters, digits, '.', '_' and '-'; case does not matter (kept lower-case); cannot be changed.`,
    examples: ['ana'],
  }),
  displayName: Type.String({
    maxLength: DISPLAY_NAME_MAX,
    description: 'A name for people; the username when left out or blank.',
    examples: ['Ana Lima'],
  }),
  password: Type.String({
    maxLength: PASSWORD_MAX_INPUT,
    description: `At least ${PASSWORD_LIMITS.min} and at most ${PASSWORD_LIMITS.max} characters, not containing the username, not one character repeated. Never shown again, kept only as a scrypt hash.`,
    examples: ['correct horse battery staple'],
  }),
  role: Role,
  groups: Groups,
  glue: Glue,
  disabled: Type.Boolean({
    description: 'A disabled user cannot sign in; disabling ends their sessions.',
    examples: [false],
  }),
};

export const User = named(
  'User',
  Type.Object(
    {
      username: USER_FIELDS.username,
      displayName: USER_FIELDS.displayName,
      role: Role,
      groups: Groups,
      glue: Glue,
      disabled: USER_FIELDS.disabled,
      createdAt: Instant(iso('When the user was created')),
      createdBy: Type.String({
        description: 'Who created the user: a username, `token:<name>` or `bootstrap`.',
        examples: ['bootstrap'],
      }),
      updatedAt: Instant(iso('When the user last changed')),
      passwordChangedAt: Instant(iso('When the password was last set')),
      lastLoginAt: InstantOrNull(iso('The last sign-in; null before the first')),
      version: Type.Integer({
        minimum: 1,
        description: 'Moves on with every change; send it back in a PUT to refuse (409) a lost update.',
        examples: [3],
      }),
    },
    {
      additionalProperties: false,
      description: 'A person who signs in (never with the password or its hash).',
    },
  ),
);

export const UserList = named(
  'UserList',
  Type.Object(
    { items: Type.Array(User, { description: 'Every user, by username.', examples: [] }) },
    { additionalProperties: false, description: 'Every user.' },
  ),
);

export const UserCreate = named(
  'UserCreate',
  annotate(
    Type.Object(
      {
        username: USER_FIELDS.username,
        displayName: Type.Optional(USER_FIELDS.displayName),
        password: USER_FIELDS.password,
        role: Role,
        groups: Type.Optional(Groups),
        glue: Type.Optional(Glue),
        disabled: Type.Optional(USER_FIELDS.disabled),
      },
      {
        additionalProperties: false,
        description:
          'A new user: username, password and role; groups for an operator or viewer. Every problem (username, grant, password policy) is reported at once. Unknown fields are refused.',
      },
    ),
    { [Noun]: 'user' },
  ),
);

export const UserUpdate = named(
  'UserUpdate',
  annotate(
    Type.Object(
      {
        displayName: Type.Optional(USER_FIELDS.displayName),
        role: Type.Optional(Role),
        groups: Type.Optional(Groups),
        glue: Type.Optional(Glue),
        disabled: Type.Optional(USER_FIELDS.disabled),
        password: Type.Optional(USER_FIELDS.password),
        version: Type.Optional(
          Type.Integer({
            minimum: 1,
            description: 'When given, it must be the user’s current version, or the answer is 409.',
            examples: [3],
          }),
        ),
      },
      {
        additionalProperties: false,
        description:
          'The fields to change. A new password, a changed grant or disabling ends the user’s sessions (but the caller’s own). Becoming an admin implies every group and GLUE; a viewer never has GLUE. The username cannot change.',
      },
    ),
    { [Noun]: 'user' },
  ),
);

export const PasswordChange = named(
  'PasswordChange',
  annotate(
    Type.Object(
      {
        currentPassword: Type.String({
          maxLength: PASSWORD_MAX_INPUT,
          description: 'The password now (a wrong one counts as a failed sign-in).',
          examples: ['correct horse battery staple'],
        }),
        newPassword: {
          ...USER_FIELDS.password,
          description: `${USER_FIELDS.password.description} Must differ from the current one.`,
        },
      },
      { additionalProperties: false, description: 'A signed-in user’s new password, with the current one.' },
    ),
    { [Noun]: 'password change' },
  ),
);

// ---------------------------------------------------------------------------------------------
// Sessions and who am I

export const LoginBody = named(
  'Login',
  annotate(
    Type.Object(
      {
        username: Type.String({
          maxLength: 256,
          description: 'The username (case does not matter).',
          examples: ['ana'],
        }),
        password: Type.String({
          maxLength: PASSWORD_MAX_INPUT,
          description: 'The password.',
          examples: ['correct horse battery staple'],
        }),
      },
      { additionalProperties: false, description: 'A username and its password.' },
    ),
    { [Noun]: 'sign-in' },
  ),
);

export const SignInOptions = named(
  'SignInOptions',
  Type.Object(
    {
      passwords: Type.Boolean({
        description:
          'true when at least one user who is not disabled exists: sign in with a username and password (POST /v1/sessions); false: only tokens work (the bootstrap admin token, API tokens).',
        examples: [true],
      }),
    },
    { additionalProperties: false, description: 'How one can sign in here, for a sign-in page.' },
  ),
);

export const Session = named(
  'Session',
  Type.Object(
    {
      token: Type.String({
        description:
          'The session token, shown in this answer only: send it as `Authorization: Bearer <token>`. Kept only as a hash.',
        examples: ['trs_9d0c6e2b41a7f355_Qm3nX0v8aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX'],
      }),
      expiresAt: Instant(
        iso('The session ends if unused until then; each use (at most once a minute) moves it on'),
      ),
      endsAt: Instant(iso('The session ends then at the latest, however much it is used')),
      user: User,
    },
    {
      additionalProperties: false,
      description: 'A new session: its token (this once) and the user signed in.',
    },
  ),
);

export const Permissions = named(
  'Permissions',
  Type.Object(
    {
      admin: Type.Boolean({
        description: 'Users, API tokens, executor groups, the bootstrap token and the whole audit log.',
        examples: [false],
      }),
      readGroups: {
        ...Groups,
        description: 'The groups whose jobs, runs, executors and figures the caller reads.',
      },
      operateGroups: {
        ...Groups,
        description:
          'The groups whose jobs and runs the caller changes (create, edit, start, stop, trigger, kill, delete); [] for a viewer.',
      },
      glue: Type.Boolean({
        description: 'Whether the caller edits GLUE sources (in the groups they operate).',
        examples: [false],
      }),
    },
    { additionalProperties: false, description: 'What the caller may do.' },
  ),
);

export const Me = named(
  'Me',
  Type.Object(
    {
      kind: StringEnum(['session', 'token', 'bootstrap'], {
        description:
          'session: a signed-in user; token: an API token; bootstrap: the deployment’s admin token.',
        examples: ['session'],
      }),
      name: Type.String({
        description: 'How the audit log names the caller: the username, `token:<name>` or `bootstrap`.',
        examples: ['ana'],
      }),
      username: Type.Optional(
        Type.String({ description: 'A signed-in user’s username.', examples: ['ana'] }),
      ),
      displayName: Type.Optional(
        Type.String({ description: 'A signed-in user’s display name.', examples: ['Ana Lima'] }),
      ),
      role: Role,
      groups: Groups,
      glue: Glue,
      permissions: Permissions,
    },
    { additionalProperties: false, description: 'Who the caller is and what they may do.' },
  ),
);

// ---------------------------------------------------------------------------------------------
// API tokens

export const ApiTokenCreate = named(
  'ApiTokenCreate',
  annotate(
    Type.Object(
      {
        name: Type.String({
          minLength: TOKEN_NAME_LIMITS.min,
          maxLength: TOKEN_NAME_LIMITS.max,
          description: `${TOKEN_NAME_LIMITS.min}-${TOKEN_NAME_LIMITS.max} letters, digits, '.', '_' and '-'; unique among active tokens (case does not matter). The audit log names the token \`token:<name>\`.`,
          examples: ['ci-deploy'],
        }),
        role: Role,
        groups: Type.Optional(Groups),
        glue: Type.Optional(Glue),
        expiresAt: Type.Optional(
          Type.String({
            format: 'date-time',
            description: `When the token expires, at most ${TOKEN_MAX_DAYS} days ahead; give this or expiresInDays.`,
            examples: ['2030-06-30T00:00:00Z'],
          }),
        ),
        expiresInDays: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: TOKEN_MAX_DAYS,
            description: 'In how many days the token expires; give this or expiresAt.',
            examples: [90],
          }),
        ),
      },
      {
        additionalProperties: false,
        description:
          'A new API token: a name, a grant no wider than the creator’s, and an expiry (expiresAt or expiresInDays). Unknown fields are refused.',
      },
    ),
    { [Noun]: 'API token' },
  ),
);

const API_TOKEN_FIELDS = {
  id: Type.String({
    description: 'The token’s id: the part of the token between `trk_` and the next `_`.',
    examples: ['4f9c2a7be01d5c33'],
  }),
  name: Type.String({ description: 'Its name.', examples: ['ci-deploy'] }),
  role: Role,
  groups: Groups,
  glue: Glue,
  status: StringEnum(['active', 'expired', 'revoked'], {
    description: 'Whether the token works now.',
    examples: ['active'],
  }),
  createdAt: Instant(iso('When it was created')),
  createdBy: Type.String({
    description: 'Who created it: a username, `token:<name>` or `bootstrap`.',
    examples: ['ana'],
  }),
  expiresAt: Instant(iso('When it expires'), '2030-06-30T00:00:00.000Z'),
  revokedAt: InstantOrNull(iso('When it was revoked; null while not')),
  lastUsedAt: InstantOrNull(iso('Its last use (noted at most once a minute); null before the first')),
};

export const ApiToken = named(
  'ApiToken',
  Type.Object(API_TOKEN_FIELDS, {
    additionalProperties: false,
    description:
      'An API token, without its secret. Revoked and expired tokens stay listed for 30 days after they ended.',
  }),
);

export const ApiTokenList = named(
  'ApiTokenList',
  Type.Object(
    { items: Type.Array(ApiToken, { description: 'The tokens, newest first.', examples: [] }) },
    { additionalProperties: false, description: 'Every API token kept.' },
  ),
);

const SecretNote = (example: string) =>
  Type.String({ description: 'What to do with the token.', examples: [example] });

export const ApiTokenCreated = named(
  'ApiTokenCreated',
  Type.Object(
    {
      ...API_TOKEN_FIELDS,
      token: Type.String({
        description:
          'The token, shown in this answer only: send it as `Authorization: Bearer <token>`. Kept only as a hash.',
        examples: ['trk_4f9c2a7be01d5c33_Zx8yW7vU6tS5rQ4pO3nM2lK1jI0hG9fE8dC7bA6zY5x'],
      }),
      note: SecretNote('This token is shown once: store it now (e.g. in your CI’s secrets).'),
    },
    { additionalProperties: false, description: 'A new API token, with its secret this once.' },
  ),
);

export const BootstrapRotated = named(
  'BootstrapRotated',
  Type.Object(
    {
      token: Type.String({
        description:
          'The new bootstrap admin token, shown in this answer only. From now on only it works; the configured one (and any rotated before) no longer does.',
        examples: ['trb_Hk2mP9qR4sT7uV0wX3yZ6aB1cD5eF8gJ2kL4mN7oP9q'],
      }),
      rotatedAt: Instant(iso('When it was rotated')),
      rotatedBy: Type.String({
        description: 'Who rotated it: a username, `token:<name>` or `bootstrap`.',
        examples: ['ana'],
      }),
      note: SecretNote('This token is shown once: store it now. The configured admin token no longer works.'),
    },
    { additionalProperties: false, description: 'The bootstrap admin token, rotated.' },
  ),
);
