// What a user or an API token may do: a role and the executor groups it applies to. Pure helpers,
// shared by the users and tokens pages (the server checks every rule; these only shape the form).

export type Role = 'admin' | 'operator' | 'viewer';
export type Groups = '*' | readonly string[];

export const ROLES: readonly Role[] = ['viewer', 'operator', 'admin'];

export const ROLE_HELP: Readonly<Record<Role, string>> = {
  viewer: 'reads its groups: jobs, runs, logs, executors, figures and their audit records',
  operator: 'in its groups: creates, edits, starts, stops, triggers and deletes jobs, kills runs',
  admin: 'everything: users, tokens, executor groups, GLUE sources, the whole audit log',
};

/** A grant as a form holds it: "every group" is a switch beside the list. */
export interface GrantDraft {
  readonly role: Role;
  readonly allGroups: boolean;
  readonly groups: readonly string[];
  readonly glue: boolean;
}

export const EMPTY_GRANT: GrantDraft = { role: 'viewer', allGroups: false, groups: [], glue: false };

export function draftOf(grant: { role: Role; groups: Groups; glue: boolean }): GrantDraft {
  return {
    role: grant.role,
    allGroups: grant.groups === '*',
    groups: grant.groups === '*' ? [] : [...grant.groups],
    glue: grant.glue,
  };
}

/**
 * The grant fields of a request body: an admin's groups and GLUE are implied (left out), a viewer
 * never has GLUE.
 */
export function grantBody(draft: GrantDraft): { role: Role; groups?: '*' | string[]; glue?: boolean } {
  if (draft.role === 'admin') return { role: 'admin' };
  return {
    role: draft.role,
    groups: draft.allGroups ? '*' : [...draft.groups],
    glue: draft.role === 'operator' ? draft.glue : false,
  };
}

/** Group names typed into one box: split on commas and white space, trimmed, each once, in order. */
export function parseGroupNames(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\s,]+/)) {
    const name = part.trim();
    if (name !== '') seen.add(name);
  }
  return [...seen];
}

/** `groups` plus the names typed, each once (in the order first seen). */
export function addGroups(groups: readonly string[], text: string): string[] {
  return [...new Set([...groups, ...parseGroupNames(text)])];
}

/** "every group", "none", or the names. */
export function describeGroups(groups: Groups): string {
  if (groups === '*') return 'every group';
  if (groups.length === 0) return 'none';
  return groups.join(', ');
}
