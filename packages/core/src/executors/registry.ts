import type { Clock } from '../common/clock.js';
import type { Logger } from '../common/logger.js';
import type { Group } from '../jobs/job.js';
import type { RegistryEntry, RegistryStore } from './registry-store.js';

/** XXL-JOB's DEAD_TIMEOUT: an executor not seen for this long is offline (3 beats of 30 s). */
export const DEFAULT_REGISTRY_DEAD_SECONDS = 90;

export interface RegistryDeps {
  readonly registry: RegistryStore;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** A RegistryParam as `parseRegistryParam` reads it (any registryGroup; only EXECUTOR counts). */
export interface Registration {
  readonly registryGroup: string;
  /** The executor's AppName. */
  readonly registryKey: string;
  /** Its address, e.g. `http://10.0.0.5:9999/`. */
  readonly registryValue: string;
}

/** Only executors register with the admin (`RegistType.EXECUTOR`); XXL-JOB's `ADMIN` type is unused. */
function isExecutor(registration: Registration): boolean {
  return registration.registryGroup.toUpperCase() === 'EXECUTOR';
}

/** `/api/registry`: stores the executor's heartbeat with the time it was seen. */
export async function registerExecutor(deps: RegistryDeps, registration: Registration): Promise<void> {
  if (!isExecutor(registration)) {
    deps.logger.debug('registration of a non-executor ignored', { ...registration });
    return;
  }
  await deps.registry.heartbeat(registration.registryKey, registration.registryValue, deps.clock.now());
  deps.logger.debug('executor heartbeat', {
    appName: registration.registryKey,
    address: registration.registryValue,
  });
}

/** `/api/registryRemove`: the executor is shutting down; it leaves its groups at once. */
export async function removeExecutor(deps: RegistryDeps, registration: Registration): Promise<void> {
  if (!isExecutor(registration)) return;
  await deps.registry.remove(registration.registryKey, registration.registryValue);
  deps.logger.info('executor removed', {
    appName: registration.registryKey,
    address: registration.registryValue,
  });
}

/** Executors of an app seen within the dead timeout, sorted by address. */
export function onlineExecutors(
  deps: { readonly registry: Pick<RegistryStore, 'list'>; readonly clock: Clock },
  appName: string,
  deadSeconds: number,
): Promise<RegistryEntry[]> {
  return deps.registry.list(appName, deps.clock.now() - deadSeconds * 1000);
}

/**
 * The addresses a group routes to: an AUTO group's executors seen within the dead timeout, sorted;
 * a MANUAL group's configured list, as given.
 */
export async function groupAddresses(
  deps: { readonly registry: Pick<RegistryStore, 'list'>; readonly clock: Clock },
  group: Pick<Group, 'appName' | 'addressType' | 'addressList'>,
  deadSeconds: number,
): Promise<string[]> {
  if (group.addressType === 'MANUAL') return [...group.addressList];
  return (await onlineExecutors(deps, group.appName, deadSeconds)).map((entry) => entry.address);
}
