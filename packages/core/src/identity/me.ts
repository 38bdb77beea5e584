import { ALL_GROUPS, type Principal } from './access.js';
import type { IdentityDeps } from './deps.js';

/** What the caller may do, for a console to show only what works. */
export interface Permissions {
  /** Users, tokens, groups, the bootstrap token, the whole audit log. */
  readonly admin: boolean;
  /** The groups whose jobs, runs, executors and figures the caller reads. */
  readonly readGroups: readonly string[] | typeof ALL_GROUPS;
  /** The groups whose jobs and runs the caller changes (create, edit, start, stop, trigger, kill, delete). */
  readonly operateGroups: readonly string[] | typeof ALL_GROUPS;
  /** Whether the caller edits GLUE sources (in the groups they operate). */
  readonly glue: boolean;
}

export interface CallerInfo {
  readonly kind: Principal['kind'];
  /** How the audit log names the caller. */
  readonly name: string;
  /** A signed-in user's username and display name. */
  readonly username?: string;
  readonly displayName?: string;
  readonly role: Principal['grant']['role'];
  readonly groups: Principal['grant']['groups'];
  readonly glue: boolean;
  readonly permissions: Permissions;
}

export function permissionsOf(grant: Principal['grant']): Permissions {
  const operates = grant.role === 'admin' || grant.role === 'operator';
  return {
    admin: grant.role === 'admin',
    readGroups: grant.groups,
    operateGroups: operates ? grant.groups : [],
    glue: grant.role === 'admin' || (grant.role === 'operator' && grant.glue),
  };
}

/** Who the caller is and what they may do (`GET /v1/me`). */
export async function me(deps: Pick<IdentityDeps, 'store'>, principal: Principal): Promise<CallerInfo> {
  const { grant } = principal;
  const user = principal.kind === 'session' ? await deps.store.getUser(principal.id) : undefined;
  return {
    kind: principal.kind,
    name: principal.name,
    ...(principal.kind === 'session' ? { username: principal.id } : {}),
    ...(user ? { displayName: user.displayName } : {}),
    role: grant.role,
    groups: grant.groups === ALL_GROUPS ? ALL_GROUPS : [...grant.groups],
    glue: grant.glue,
    permissions: permissionsOf(grant),
  };
}
