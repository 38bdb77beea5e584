import type { Clock } from '../common/clock.js';
import { mapLimit } from '../common/concurrency.js';
import { NotFoundError } from '../common/errors.js';
import { ALL_GROUPS, isVisible, type VisibleGroups } from '../identity/access.js';
import type { AddressType, Group } from '../jobs/job.js';
import type { GroupStore } from '../jobs/job-store.js';
import type { RefusedRegistration, RegistrationRefusalStore } from './registration-refusals.js';
import type { RegistryEntry, RegistryStore } from './registry-store.js';

export interface AdminExecutorsDeps {
  readonly groups: Pick<GroupStore, 'get' | 'list'>;
  readonly registry: Pick<RegistryStore, 'list'>;
  readonly clock: Clock;
}

export interface AdminRefusalsDeps {
  readonly refusals: Pick<RegistrationRefusalStore, 'list'>;
}

export interface ExecutorSettings {
  /** An executor not seen for this long is offline (XXL-JOB: 90 s). */
  readonly registryDeadSeconds: number;
}

export interface ExecutorStatus {
  readonly address: string;
  /** Seen within the dead timeout; null when nothing is known (a MANUAL address that never registered). */
  readonly online: boolean | null;
  /** Epoch ms of the last heartbeat, null when none is kept. */
  readonly lastHeartbeat: number | null;
}

export interface GroupExecutors {
  readonly appName: string;
  readonly title: string;
  readonly addressType: AddressType;
  readonly executors: readonly ExecutorStatus[];
}

const CONCURRENCY = 8;

/**
 * The executors of one group (or of every group): an AUTO group's are its registry entries (kept a
 * few dead timeouts after the last beat), each online when seen within the dead timeout; a MANUAL
 * group's are its configured addresses, online unknown (null) unless the address also registers.
 */
export async function listExecutors(
  deps: AdminExecutorsDeps,
  settings: ExecutorSettings,
  appName?: string,
  visible: VisibleGroups = ALL_GROUPS,
): Promise<GroupExecutors[]> {
  let groups: Group[];
  if (appName !== undefined) {
    const group = isVisible(visible, appName) ? await deps.groups.get(appName) : undefined;
    if (!group) throw new NotFoundError(`group ${appName} does not exist`);
    groups = [group];
  } else {
    groups = (await deps.groups.list())
      .filter((group) => isVisible(visible, group.appName))
      .sort((a, b) => (a.appName < b.appName ? -1 : 1));
  }
  const seenSince = deps.clock.now() - settings.registryDeadSeconds * 1000;
  return mapLimit(groups, CONCURRENCY, async (group) => ({
    appName: group.appName,
    title: group.title,
    addressType: group.addressType,
    executors: executorsOf(group, await deps.registry.list(group.appName), seenSince),
  }));
}

/** The pure part: a group's addresses with what its registry entries say about them. */
export function executorsOf(
  group: Pick<Group, 'addressType' | 'addressList'>,
  entries: readonly RegistryEntry[],
  seenSince: number,
): ExecutorStatus[] {
  const status = (entry: RegistryEntry): ExecutorStatus => ({
    address: entry.address,
    online: entry.updatedAt >= seenSince,
    lastHeartbeat: entry.updatedAt,
  });
  if (group.addressType === 'AUTO') return entries.map(status);
  const byAddress = new Map(entries.map((e) => [sameAddress(e.address), e]));
  return group.addressList.map((address) => {
    const entry = byAddress.get(sameAddress(address));
    return entry ? { ...status(entry), address } : { address, online: null, lastHeartbeat: null };
  });
}

/** Compares addresses as the group stores them (trimmed, http(s) with a trailing `/`). */
function sameAddress(address: string): string {
  const text = address.trim();
  return /^https?:\/\//i.test(text) && !text.endsWith('/') ? `${text}/` : text;
}

/**
 * The refused executor requests of the last day (of one app name, when given), the last seen first:
 * those of the groups the caller sees; those under an app name no group has only to a caller who
 * sees every group.
 */
export async function listRefusedRegistrations(
  deps: AdminRefusalsDeps,
  appName?: string,
  visible: VisibleGroups = ALL_GROUPS,
): Promise<RefusedRegistration[]> {
  if (appName !== undefined && !isVisible(visible, appName)) return [];
  return (await deps.refusals.list(appName)).filter((refusal) => isVisible(visible, refusal.appName));
}
