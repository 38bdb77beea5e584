import type { Group, Job } from '../jobs/job.js';
import type { BatchReads } from './batch-reads.js';
import type { DispatchDeps } from './dispatch-deps.js';
import type { LinkedFire, OwnedJob } from './fire-hook.js';
import type { DispatchSettings } from './settings.js';
import type { FireMessage } from './trigger.js';

/** What one fire's runs share: the job and group as read, the online addresses and where they came from. */
export interface FireContext {
  readonly job: Job;
  readonly message: FireMessage;
  readonly addresses: readonly string[];
  readonly addressSource: string;
  /** The failure message when `addresses` is empty. */
  readonly noAddressReason: string;
  /** The fire's owner, for a linked fire (a workflow node's). */
  readonly linked?: LinkedFire;
  /** Sends the runs instead of an executor, for a job its owner runs itself (a workflow's starter). */
  readonly owner?: OwnedJob;
}

/** Whether the trigger names the addresses its runs go to (a manual trigger's own list). */
export function hasAddressOverride(message: Pick<FireMessage, 'addressList'>): boolean {
  return (message.addressList ?? []).some((a) => a.trim() !== '');
}

/** Whether the fire's runs may go to its group's registered executors (not its owner's, nor its own list). */
export function mayRouteToRegistry(job: Job, message: FireMessage): boolean {
  return job.workflowId === undefined && !hasAddressOverride(message);
}

/** The executors read as online have been seen since then. */
export function registrySince(settings: Pick<DispatchSettings, 'registryDeadSeconds'>, now: number): number {
  return now - settings.registryDeadSeconds * 1000;
}

/**
 * Where the fire's runs can go: its owner (a job run by another capability), the trigger's own
 * address list, the group's manual list, or the group's executors registered lately.
 */
export async function fireContext(
  deps: Pick<DispatchDeps, 'fireHook'>,
  reads: BatchReads,
  settings: DispatchSettings,
  base: { readonly job: Job; readonly message: FireMessage; readonly linked?: LinkedFire },
  group: Group | undefined,
  now: number,
): Promise<FireContext> {
  const { job, message } = base;
  if (job.workflowId !== undefined) {
    // Run by its owner (a workflow's starter job: its send starts the workflow run, see dispatchRun).
    const owner = deps.fireHook?.ownedJob(job, job.workflowId);
    if (owner) {
      return {
        ...base,
        addresses: owner.addresses,
        addressSource: owner.addressSource,
        noAddressReason: '',
        owner,
      };
    }
    return {
      ...base,
      addresses: [],
      addressSource: 'workflow',
      noAddressReason: `job ${job.id} starts workflow ${job.workflowId}: this dispatcher cannot start workflows`,
    };
  }
  const override = (message.addressList ?? []).map((a) => a.trim()).filter(Boolean);
  if (override.length > 0) {
    return {
      ...base,
      addresses: [...new Set(override)],
      addressSource: 'address list of this trigger',
      noAddressReason: '',
    };
  }
  const noAddressReason = `no online executor in group ${job.appName}`;
  if (!group) {
    return {
      ...base,
      addresses: [],
      addressSource: 'group missing',
      noAddressReason: `${noAddressReason}: the group does not exist`,
    };
  }
  if (group.addressType === 'MANUAL') {
    const addresses = [...new Set(group.addressList.map((a) => a.trim()).filter(Boolean))];
    return {
      ...base,
      addresses,
      addressSource: 'MANUAL',
      noAddressReason: `${noAddressReason} (its address list is empty)`,
    };
  }
  const entries = await reads.registry(job.appName, registrySince(settings, now));
  const addresses = [...new Set(entries.map((e) => e.address))].sort();
  return {
    ...base,
    addresses,
    addressSource: 'AUTO',
    noAddressReason: `${noAddressReason} (none registered within ${settings.registryDeadSeconds} s)`,
  };
}
