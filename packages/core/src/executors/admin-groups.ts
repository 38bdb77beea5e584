import type { AlertStore } from '../alerts/alert-store.js';
import { savingWithChannels } from '../alerts/channel-references.js';
import type { Clock } from '../common/clock.js';
import { mapLimit } from '../common/concurrency.js';
import { ConflictError, NotFoundError } from '../common/errors.js';
import type { Logger } from '../common/logger.js';
import { ALL_GROUPS, isVisible, type VisibleGroups } from '../identity/access.js';
import type { Group } from '../jobs/job.js';
import type { GroupStore, JobStore } from '../jobs/job-store.js';
import { parseGroupSpec } from '../jobs/job-validation.js';
import { groupAddresses } from './registry.js';
import type { RegistryStore } from './registry-store.js';

export interface AdminGroupsDeps {
  readonly groups: GroupStore;
  readonly jobs: Pick<JobStore, 'existsForApp'>;
  /** Where an AUTO group's online executors are read, to show them as its addressList. */
  readonly registry: Pick<RegistryStore, 'list'>;
  readonly registryDeadSeconds: number;
  /** Where the alert channels a group names are looked up; absent: a group that names channels is refused. */
  readonly alertChannels?: Pick<AlertStore, 'listChannels'>;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * A group as the API shows it: an AUTO group's addressList is its executors online now (sorted),
 * as XXL-JOB shows it; a MANUAL group's is its configured list.
 */
async function shown(deps: AdminGroupsDeps, group: Group): Promise<Group> {
  if (group.addressType !== 'AUTO') return group;
  return { ...group, addressList: await groupAddresses(deps, group, deps.registryDeadSeconds) };
}

async function readGroup(deps: AdminGroupsDeps, appName: string): Promise<Group> {
  const group = await deps.groups.get(appName);
  if (!group) throw new NotFoundError(`group ${appName} does not exist`);
  return group;
}

/** Creates an executor group; ConflictError when the appName is taken. Its alert channels must exist. */
export async function createGroup(deps: AdminGroupsDeps, input: unknown): Promise<Group> {
  const spec = await savingWithChannels(deps.alertChannels, input, async (refuseMissing) => {
    const checked = parseGroupSpec(input);
    refuseMissing();
    return checked;
  });
  const now = deps.clock.now();
  const group: Group = { ...spec, createdAt: now, updatedAt: now };
  await deps.groups.create(group);
  deps.logger.info('group created', { appName: group.appName, addressType: group.addressType });
  return shown(deps, group);
}

export async function getGroup(deps: AdminGroupsDeps, appName: string): Promise<Group> {
  return shown(deps, await readGroup(deps, appName));
}

/** The groups the caller sees. */
export async function listGroups(
  deps: AdminGroupsDeps,
  visible: VisibleGroups = ALL_GROUPS,
): Promise<Group[]> {
  const groups = (await deps.groups.list()).filter((group) => isVisible(visible, group.appName));
  return mapLimit(groups, 8, (group) => shown(deps, group));
}

/** Lays the given fields over the group; its appName cannot change. */
export async function updateGroup(deps: AdminGroupsDeps, appName: string, input: unknown): Promise<Group> {
  const current = await readGroup(deps, appName);
  const spec = await savingWithChannels(deps.alertChannels, input, async (refuseMissing) => {
    const checked = parseGroupSpec(input, current);
    refuseMissing();
    return checked;
  });
  const group: Group = { ...spec, createdAt: current.createdAt, updatedAt: deps.clock.now() };
  await deps.groups.replace(group);
  deps.logger.info('group updated', { appName, addressType: group.addressType });
  return shown(deps, group);
}

/** Refused (ConflictError) while jobs use the group, as XXL-JOB refuses it. */
export async function deleteGroup(deps: AdminGroupsDeps, appName: string): Promise<void> {
  await readGroup(deps, appName);
  if (await deps.jobs.existsForApp(appName)) {
    throw new ConflictError(
      `group ${appName} still has jobs; delete them or move them to another group first`,
    );
  }
  await deps.groups.delete(appName);
  deps.logger.info('group deleted', { appName });
}
