/**
 * Who may do what: roles over executor groups, the callers that hold them, and what each admin API
 * route asks of its caller. One table (the route definitions' `access`) says it for every route;
 * the API checks it in one step before the use-case runs.
 */

import { ForbiddenError, NotFoundError, UnauthorizedError } from '../common/errors.js';

export const ROLES = ['admin', 'operator', 'viewer'] as const;
/**
 * - `admin`: everything, including users, tokens, executor groups and GLUE sources;
 * - `operator`: create, edit, start, stop, trigger, kill and delete jobs of its groups, read their
 *   runs and logs; GLUE sources only with `glue`;
 * - `viewer`: read its groups' jobs, runs, executors and figures.
 */
export type Role = (typeof ROLES)[number];

/** Every group, present and future (a viewer of all groups; an admin). */
export const ALL_GROUPS = '*';

/** What a user or token may reach: a role over executor groups. */
export interface Grant {
  readonly role: Role;
  /** The groups (appNames) the role applies to, or ALL_GROUPS; an admin's is always ALL_GROUPS. */
  readonly groups: readonly string[] | typeof ALL_GROUPS;
  /** An operator may also edit GLUE sources (an admin always may). */
  readonly glue: boolean;
}

export const ADMIN_GRANT: Grant = { role: 'admin', groups: ALL_GROUPS, glue: true };

/** The caller of an admin API request, once its bearer token was checked. */
export interface Principal {
  /** `bootstrap`: the admin token of the deployment (automation, the first user); `session`: a signed-in user; `token`: an API token. */
  readonly kind: 'bootstrap' | 'session' | 'token';
  /** The user's username, the token's id, or `bootstrap`. */
  readonly id: string;
  /** How the audit log names the caller: the username, `token:<name>`, or `bootstrap`. */
  readonly name: string;
  readonly grant: Grant;
  /** The session's or token's id, for logout and the audit log (absent for the bootstrap token). */
  readonly credentialId?: string;
}

export const BOOTSTRAP_PRINCIPAL: Principal = {
  kind: 'bootstrap',
  id: 'bootstrap',
  name: 'bootstrap',
  grant: ADMIN_GRANT,
};

/** Whether the grant covers the group at all (any role). */
export function reachesGroup(grant: Grant, appName: string): boolean {
  return grant.groups === ALL_GROUPS || grant.groups.includes(appName);
}

/** Whether the grant may read the group's jobs, runs, executors and figures. */
export function mayRead(grant: Grant, appName: string): boolean {
  return reachesGroup(grant, appName);
}

/** Whether the grant may change the group's jobs and runs (create, edit, start, stop, trigger, kill, delete). */
export function mayOperate(grant: Grant, appName: string): boolean {
  return (grant.role === 'admin' || grant.role === 'operator') && reachesGroup(grant, appName);
}

/** The groups a list shows the grant: every group, or these. */
export function visibleGroups(grant: Grant): VisibleGroups {
  return grant.groups === ALL_GROUPS ? ALL_GROUPS : new Set(grant.groups);
}

/**
 * What a route asks of its caller:
 * - `public`: nothing (the OpenAPI document, signing in);
 * - `signedIn`: any valid token (who am I, signing out);
 * - `admin`: the admin role (users, tokens, groups, the audit log of everything);
 * - `read` / `operate`: that right on the group the request is about, found as `target` says. A
 *   caller who does not reach that group gets 404 (the same as a missing id, so ids cannot be
 *   probed); one who reaches it without the right gets 403.
 */
export type RouteAccess =
  | { readonly kind: 'public' }
  | { readonly kind: 'signedIn' }
  | { readonly kind: 'admin' }
  | { readonly kind: 'read' | 'operate'; readonly target: AccessTarget };

/**
 * Where the group of a request is:
 * - `list`: a list; it shows only the groups the caller reaches (and a named `appName` outside them is empty);
 * - `none`: no group (a schedule preview; a calendar, which belongs to no group: read by every
 *   signed-in role, changed by operators and admins);
 * - `groupPath`: the `appName` path parameter;
 * - `jobPath`: the group of the job in the `id` path parameter (and, when the body moves it, the body's `appName` too);
 * - `runPath`: the group of the run in the `logId` path parameter;
 * - `bodyGroup`: the body's `appName` (a new job or workflow);
 * - `workflowPath`: the group of the workflow in the `id` path parameter (and, when the body moves it,
 *   the body's `appName` too);
 * - `workflowRunPath`: the group of the workflow run in the `runId` path parameter;
 * - `backfillPath`: the group of the job the backfill in the `id` path parameter belongs to (its id names the job).
 */
export type AccessTarget =
  | 'list'
  | 'none'
  | 'groupPath'
  | 'jobPath'
  | 'runPath'
  | 'bodyGroup'
  | 'workflowPath'
  | 'workflowRunPath'
  | 'backfillPath';

/** What a request is about, as far as access goes: its groups, how to say "not found", and whether it edits GLUE. */
export interface AccessSubject {
  /** The executor groups the request reads or changes (none for a list or a preview). */
  readonly groups: readonly string[];
  /** The answer for a caller who does not reach one of them: the same as for a missing id. */
  readonly notFound: (appName: string) => string;
  /** The request writes a GLUE source or makes a job GLUE (an operator needs the `glue` grant). */
  readonly editsGlue?: boolean;
}

/**
 * The one access decision for a request: throws ForbiddenError (403) or NotFoundError (404, for a
 * group the caller does not reach, so ids cannot be probed), or returns when the caller may go on.
 */
export function checkAccess(
  access: RouteAccess,
  principal: Principal | undefined,
  subject: AccessSubject,
): void {
  if (access.kind === 'public') return;
  if (principal === undefined) throw new UnauthorizedError('the bearer token is missing');
  const { grant } = principal;
  if (access.kind === 'signedIn') return;
  if (access.kind === 'admin') {
    if (grant.role !== 'admin')
      throw new ForbiddenError(`this needs the admin role; you are ${article(grant.role)}`);
    return;
  }
  for (const appName of subject.groups) {
    if (!reachesGroup(grant, appName)) throw new NotFoundError(subject.notFound(appName));
    if (access.kind === 'operate' && !mayOperate(grant, appName)) {
      throw new ForbiddenError(
        `you may read group ${appName} but not change it (you are ${article(grant.role)})`,
      );
    }
  }
  // A change of what belongs to no group (a calendar, which any group's schedules may use): an
  // operator's or an admin's, never a viewer's.
  if (access.kind === 'operate' && access.target === 'none' && grant.role === 'viewer') {
    throw new ForbiddenError('this change needs the operator or admin role; you are a viewer');
  }
  if (access.kind === 'operate' && subject.editsGlue === true && !grant.glue && grant.role !== 'admin') {
    throw new ForbiddenError('editing a GLUE source needs the glue grant');
  }
}

function article(role: Role): string {
  return role === 'admin' || role === 'operator' ? `an ${role}` : `a ${role}`;
}

/** The groups a list shows: every group, or these. */
export type VisibleGroups = ReadonlySet<string> | typeof ALL_GROUPS;

export function isVisible(visible: VisibleGroups, appName: string): boolean {
  return visible === ALL_GROUPS || visible.has(appName);
}

/**
 * How a list asked for one group (`appName`) or every group reads for a caller who sees `visible`:
 * `null`: nothing to read (a group they do not see, or none at all); otherwise the group to read
 * by: the one asked, or, when `narrow` and they see exactly one, that one (read by its index rather
 * than filtering everything), or undefined (every group, filtered).
 */
export function listScope(
  appName: string | undefined,
  visible: VisibleGroups,
  narrow = true,
): { readonly appName: string | undefined } | null {
  if (appName !== undefined) return isVisible(visible, appName) ? { appName } : null;
  if (visible === ALL_GROUPS) return { appName: undefined };
  if (visible.size === 0) return null;
  const [only] = visible;
  return { appName: narrow && visible.size === 1 ? only : undefined };
}
