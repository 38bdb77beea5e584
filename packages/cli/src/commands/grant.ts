/**
 * Roles and groups, as users and API tokens have them: the flags that give them (`--role`, `--group`,
 * `--all-groups`, `--glue`) and how they are shown.
 */
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { collect, oneOf } from './args.js';

export const ROLES = ['admin', 'operator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Every group, present and future (the API's `"*"`). */
export const ALL_GROUPS = '*';

/** A grant's groups: `"*"` or AppNames. */
export type Groups = readonly string[] | string;

export interface GrantFlags {
  readonly role?: Role;
  readonly group?: string[];
  readonly allGroups?: boolean;
  readonly glue?: boolean;
}

export const ROLES_HELP = `Roles: admin (everything: users, API tokens, groups, GLUE sources, the whole audit log); operator of
groups (create, edit, start, stop, trigger, kill and delete their jobs, read their runs; GLUE sources
with --glue); viewer of groups or of every group (--all-groups: read only).`;

/** --role, --group (repeatable), --all-groups and --glue (with `negatable`, --no-glue too). */
export function grantOptions(cmd: Command, { negatable = false } = {}): Command {
  cmd
    .option('--role <role>', 'admin, operator or viewer', oneOf(ROLES, 'lower'))
    .option('--group <appName>', 'a group the role applies to (repeatable, or separated by commas)', collect)
    .option('--all-groups', 'every group, present and future ("*")')
    .option('--glue', 'an operator may also edit GLUE sources');
  if (negatable) cmd.option('--no-glue', 'no GLUE sources');
  return cmd;
}

/** The body's `role`, `groups` and `glue` from the flags given. */
export function grantFields(flags: GrantFlags): { role?: Role; groups?: string[] | '*'; glue?: boolean } {
  if (flags.group !== undefined && flags.allGroups) {
    throw new UsageError('give the groups with --group or --all-groups, not both');
  }
  return {
    ...(flags.role === undefined ? {} : { role: flags.role }),
    ...(flags.allGroups ? { groups: ALL_GROUPS } : flags.group === undefined ? {} : { groups: flags.group }),
    ...(flags.glue === undefined ? {} : { glue: flags.glue }),
  };
}

/** "billing, reports", "every group", "-" for none. */
export function formatGroups(groups: Groups): string {
  if (groups === ALL_GROUPS) return 'every group';
  if (typeof groups === 'string') return groups;
  return groups.length === 0 ? '-' : groups.join(', ');
}

/** "admin", "operator of billing, reports (and GLUE)", "viewer of every group". */
export function formatGrant(grant: {
  readonly role: string;
  readonly groups: Groups;
  readonly glue: boolean;
}): string {
  if (grant.role === 'admin') return 'admin';
  const glue = grant.glue && grant.role === 'operator' ? ' (and GLUE)' : '';
  return `${grant.role} of ${formatGroups(grant.groups)}${glue}`;
}
