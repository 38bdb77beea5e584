import { ConflictError, NotFoundError } from '../domain/errors.js';
import type { Group } from '../domain/job.js';
import { parseGroupSpec } from '../domain/job-validation.js';
import type { Clock } from '../ports/clock.js';
import type { GroupStore, JobStore } from '../ports/job-store.js';
import type { Logger } from '../ports/logger.js';

export interface AdminGroupsDeps {
  readonly groups: GroupStore;
  readonly jobs: Pick<JobStore, 'existsForApp'>;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** Creates an executor group; ConflictError when the appName is taken. */
export async function createGroup(deps: AdminGroupsDeps, input: unknown): Promise<Group> {
  const spec = parseGroupSpec(input);
  const now = deps.clock.now();
  const group: Group = { ...spec, createdAt: now, updatedAt: now };
  await deps.groups.create(group);
  deps.logger.info('group created', { appName: group.appName, addressType: group.addressType });
  return group;
}

export async function getGroup(deps: AdminGroupsDeps, appName: string): Promise<Group> {
  const group = await deps.groups.get(appName);
  if (!group) throw new NotFoundError(`group ${appName} does not exist`);
  return group;
}

export function listGroups(deps: AdminGroupsDeps): Promise<Group[]> {
  return deps.groups.list();
}

/** Lays the given fields over the group; its appName cannot change. */
export async function updateGroup(deps: AdminGroupsDeps, appName: string, input: unknown): Promise<Group> {
  const current = await getGroup(deps, appName);
  const spec = parseGroupSpec(input, current);
  const group: Group = { ...spec, createdAt: current.createdAt, updatedAt: deps.clock.now() };
  await deps.groups.replace(group);
  deps.logger.info('group updated', { appName, addressType: group.addressType });
  return group;
}

/** Refused (ConflictError) while jobs use the group, as XXL-JOB refuses it. */
export async function deleteGroup(deps: AdminGroupsDeps, appName: string): Promise<void> {
  await getGroup(deps, appName);
  if (await deps.jobs.existsForApp(appName)) {
    throw new ConflictError(
      `group ${appName} still has jobs; delete them or move them to another group first`,
    );
  }
  await deps.groups.delete(appName);
  deps.logger.info('group deleted', { appName });
}
