import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../common/errors.js';
import type { ALL_GROUPS, Grant, Principal, Role } from './access.js';
import type { RequestSource } from './authenticate.js';
import { type IdentityDeps, rejectProblems, type UserInfo, userInfo } from './deps.js';
import {
  displayNameProblems,
  type GrantInput,
  grantExcess,
  normalizeUsername,
  type Problem,
  passwordProblems,
  readGrant,
  usernameProblems,
} from './identity.js';
import type { UserRecord } from './principal-store.js';
import { countFailure, refuseWhileLocked, throttleKeys } from './sessions.js';

export interface UserCreateInput {
  readonly username: string;
  /** The username when absent. */
  readonly displayName?: string;
  readonly password: string;
  readonly role: Role;
  readonly groups?: readonly string[] | typeof ALL_GROUPS;
  readonly glue?: boolean;
  readonly disabled?: boolean;
}

export interface UserUpdateInput {
  readonly displayName?: string;
  readonly role?: Role;
  readonly groups?: readonly string[] | typeof ALL_GROUPS;
  readonly glue?: boolean;
  readonly disabled?: boolean;
  /** A new password (the user's sessions end). */
  readonly password?: string;
  /** When given, the user's current version: a user changed since is a 409. */
  readonly version?: number;
}

export interface PasswordChangeInput {
  readonly currentPassword: string;
  readonly newPassword: string;
}

async function readUser(deps: IdentityDeps, username: string): Promise<UserRecord> {
  const user = await deps.store.getUser(normalizeUsername(username));
  if (user === undefined) throw new NotFoundError(`user ${normalizeUsername(username)} does not exist`);
  return user;
}

/** Whether the caller is this user, signed in. */
const isSelf = (caller: Principal, username: string) => caller.kind === 'session' && caller.id === username;

/** A grant may not reach further than its giver's (an admin gives any). */
function refuseExcess(giver: Principal, grant: Grant, what: string): void {
  const excess = grantExcess(giver.grant, grant);
  if (excess.length > 0) {
    throw new ForbiddenError(
      `${what} cannot have more than you have: ${excess.map((p) => p.message).join('; ')}`,
    );
  }
}

/**
 * Creates a user (ConflictError when the username is taken, in any case): username 3–64 of
 * `a-z 0-9 . _ -` (kept lower-case), a grant (see `readGrant`), a password by the policy. Every
 * problem is reported at once. The first user is created with the bootstrap token: there is no
 * default user or password.
 */
export async function createUser(
  deps: IdentityDeps,
  caller: Principal,
  input: UserCreateInput,
): Promise<UserInfo> {
  const username = normalizeUsername(input.username);
  const displayName = input.displayName?.trim() || username;
  const { grant, problems: grantProblems } = readGrant(input);
  rejectProblems([
    ...usernameProblems(username),
    ...displayNameProblems(displayName),
    ...grantProblems,
    ...passwordProblems(input.password, username),
  ]);
  refuseExcess(caller, grant as Grant, 'a user');
  const now = deps.clock.now();
  const user: UserRecord = {
    username,
    displayName,
    grant: grant as Grant,
    passwordHash: await deps.passwords.hash(input.password),
    disabled: input.disabled ?? false,
    // Sessions of an earlier user of this name (deleted) stay over.
    sessionsValidAfter: now,
    passwordChangedAt: now,
    createdAt: now,
    createdBy: caller.name,
    updatedAt: now,
    version: 1,
  };
  await deps.store.createUser(user);
  deps.logger.info('user created', { username, role: user.grant.role, by: caller.name });
  return userInfo(user);
}

export async function getUser(deps: IdentityDeps, username: string): Promise<UserInfo> {
  return userInfo(await readUser(deps, username));
}

/** Every user, by username. */
export async function listUsers(deps: IdentityDeps): Promise<UserInfo[]> {
  const users = await deps.store.listUsers();
  return users.map(userInfo).sort((a, b) => a.username.localeCompare(b.username));
}

/**
 * The grant after an update: the fields given over the current ones. Becoming an admin implies
 * every group and GLUE; a viewer never has GLUE; a demoted admin keeps every group but not GLUE
 * unless asked.
 */
function updatedGrant(current: Grant, input: UserUpdateInput): GrantInput {
  const role = input.role ?? current.role;
  const groups = input.groups ?? (role === 'admin' ? undefined : current.groups);
  const glue =
    input.glue ??
    (role === 'admin' ? undefined : role === 'viewer' || current.role === 'admin' ? false : current.glue);
  return { role, groups, glue };
}

/**
 * Changes a user: display name, grant, disabled, password. A new password, a changed grant or
 * disabling ends the user's sessions, except the caller's own when the caller is the user. A
 * `version` that is not the user's is a 409. Nobody disables themselves.
 */
export async function updateUser(
  deps: IdentityDeps,
  caller: Principal,
  username: string,
  input: UserUpdateInput,
): Promise<UserInfo> {
  const current = await readUser(deps, username);
  if (input.version !== undefined && input.version !== current.version) {
    throw new ConflictError(
      `user ${current.username} is at version ${current.version}, not ${input.version}: read it again and retry`,
    );
  }
  const self = isSelf(caller, current.username);
  if (self && input.disabled === true) {
    throw new ConflictError('you cannot disable yourself; ask another admin');
  }
  const grantChange = input.role !== undefined || input.groups !== undefined || input.glue !== undefined;
  const read = grantChange
    ? readGrant(updatedGrant(current.grant, input))
    : { grant: current.grant, problems: [] };
  const displayName =
    input.displayName === undefined ? current.displayName : input.displayName.trim() || current.username;
  rejectProblems([
    ...(input.displayName === undefined ? [] : displayNameProblems(displayName)),
    ...read.problems,
    ...(input.password === undefined ? [] : passwordProblems(input.password, current.username)),
  ]);
  const grant = read.grant as Grant;
  if (grantChange) refuseExcess(caller, grant, 'a user');

  const now = deps.clock.now();
  const grantChanged = JSON.stringify(grant) !== JSON.stringify(current.grant);
  const disabledNow = input.disabled === true && !current.disabled;
  const endSessions = input.password !== undefined || grantChanged || disabledNow;
  const next: UserRecord = {
    ...current,
    displayName,
    grant,
    disabled: input.disabled ?? current.disabled,
    passwordHash:
      input.password === undefined ? current.passwordHash : await deps.passwords.hash(input.password),
    passwordChangedAt: input.password === undefined ? current.passwordChangedAt : now,
    sessionsValidAfter: endSessions ? now : current.sessionsValidAfter,
    updatedAt: now,
    version: current.version + 1,
  };
  // The caller's own session goes on (confirmed before the others are ended).
  if (endSessions && self && caller.credentialId !== undefined) {
    await deps.store.confirmSession(caller.credentialId, now);
  }
  await deps.store.updateUser(next, current.version);
  deps.logger.info('user updated', {
    username: current.username,
    changed: changedFields(current, next),
    sessionsEnded: endSessions,
    by: caller.name,
  });
  return userInfo(next);
}

function changedFields(before: UserRecord, after: UserRecord): string[] {
  const changed: string[] = [];
  if (before.displayName !== after.displayName) changed.push('displayName');
  if (before.grant.role !== after.grant.role) changed.push('role');
  if (JSON.stringify(before.grant.groups) !== JSON.stringify(after.grant.groups)) changed.push('groups');
  if (before.grant.glue !== after.grant.glue) changed.push('glue');
  if (before.disabled !== after.disabled) changed.push('disabled');
  if (before.passwordChangedAt !== after.passwordChangedAt) changed.push('password');
  return changed;
}

/** Deletes a user; their sessions end with them. Nobody deletes themselves. */
export async function deleteUser(deps: IdentityDeps, caller: Principal, username: string): Promise<void> {
  const name = normalizeUsername(username);
  if (isSelf(caller, name)) throw new ConflictError('you cannot delete yourself; ask another admin');
  await deps.store.deleteUser(name);
  deps.logger.info('user deleted', { username: name, by: caller.name });
}

/**
 * A signed-in user changes their own password, giving the current one (a wrong one is counted
 * like a failed sign-in, and refused with 429 while locked). Their other sessions end; this one
 * goes on.
 */
export async function changeOwnPassword(
  deps: IdentityDeps,
  caller: Principal,
  input: PasswordChangeInput,
  source: RequestSource,
): Promise<UserInfo> {
  if (caller.kind !== 'session' || caller.credentialId === undefined) {
    throw new ValidationError(
      'only a signed-in user has a password to change; an API token or the bootstrap token has none',
    );
  }
  const { user: userKey, keys } = throttleKeys(caller.id, source.ip);
  const counts = await refuseWhileLocked(deps, keys);
  const current = await readUser(deps, caller.id);
  if (!(await deps.passwords.verify(input.currentPassword, current.passwordHash))) {
    await countFailure(deps, keys);
    deps.logger.warn('password change refused: wrong current password', {
      username: current.username,
      ip: source.ip,
    });
    throw new ValidationError('currentPassword is wrong', 'currentPassword');
  }
  const problems: Problem[] = passwordProblems(input.newPassword, current.username, 'newPassword');
  if (input.newPassword === input.currentPassword) {
    problems.push({ field: 'newPassword', message: 'newPassword must differ from currentPassword' });
  }
  rejectProblems(problems);
  if (counts.some((count) => count.key === userKey)) await deps.store.clearThrottle(userKey);
  const now = deps.clock.now();
  const next: UserRecord = {
    ...current,
    passwordHash: await deps.passwords.hash(input.newPassword),
    passwordChangedAt: now,
    sessionsValidAfter: now,
    updatedAt: now,
    version: current.version + 1,
  };
  await deps.store.confirmSession(caller.credentialId, now);
  await deps.store.updateUser(next, current.version);
  deps.logger.info('password changed', { username: current.username, by: caller.name });
  return userInfo(next);
}
