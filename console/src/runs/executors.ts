// Executor groups as the executors page shows them: each group with its addresses, their state and
// the runs they have now; and the group form's values. Pure.

import { type AlertRouting, MAX_ALERT_CHANNELS } from '../jobs/job-form';
import type { ShownError } from '../lib/api';

export type AddressType = 'AUTO' | 'MANUAL';
/** A group's default alert channels: none, or the channels ticked (a group has no default above it). */
export type GroupAlertRouting = Exclude<AlertRouting, 'group'>;

/** A group as listGroups answers it (the fields read here). */
export interface GroupInfo {
  readonly appName: string;
  readonly title: string;
  readonly addressType: AddressType;
  readonly addressList: readonly string[];
  readonly accessTokenSetAt?: string | null;
  readonly updatedAt?: string;
  /** The default alert channels of its jobs (those that name none of their own). */
  readonly alertChannels?: readonly string[];
}

/** One executor as listExecutors answers it. */
export interface ExecutorInfo {
  readonly address: string;
  readonly online: boolean | null;
  readonly lastHeartbeat: string | null;
}

export interface GroupExecutors {
  readonly appName: string;
  readonly title: string;
  readonly addressType: AddressType;
  readonly executors: readonly ExecutorInfo[];
  /** Refused (address, reason) pairs under its app name in the last day. */
  readonly refusedRegistrations?: number;
}

export interface GroupView extends GroupInfo {
  /** Its executors (AUTO: the registered ones; MANUAL: the configured addresses), online first. */
  readonly executors: readonly ExecutorInfo[];
  readonly refusedRegistrations: number;
}

/** A refused executor request as listExecutors answers it (`refused`). */
export interface RefusedInfo {
  readonly appName: string;
  readonly address: string;
  readonly reason: string;
  readonly hint: string;
  readonly request: string;
  readonly detail: string;
  readonly count: number;
  readonly firstSeen: string;
  readonly lastSeen: string;
}

/** "1 refused registration", "3 refused registrations". */
export function refusedText(count: number): string {
  return `${count} refused registration${count === 1 ? '' : 's'}`;
}

/** Each reason once, with its hint, in the order the list first names it. */
export function refusalHints(refused: readonly RefusedInfo[]): { reason: string; hint: string }[] {
  return [...new Map(refused.map((r) => [r.reason, r.hint]))].map(([reason, hint]) => ({ reason, hint }));
}

/** An address as compared: without a trailing slash, lower-cased scheme and host. */
export function addressKey(address: string): string {
  return address.trim().replace(/\/+$/, '').toLowerCase();
}

const onlineRank = (online: boolean | null) => (online === true ? 0 : online === null ? 1 : 2);

/**
 * Groups (listGroups) joined with their executors (listExecutors), by appName, sorted by title. A
 * group that listExecutors does not name has no executors; one it names that listGroups does not
 * (created meanwhile) is shown from what listExecutors says.
 */
export function joinGroups(groups: readonly GroupInfo[], executors: readonly GroupExecutors[]): GroupView[] {
  const byApp = new Map(executors.map((g) => [g.appName, g]));
  const views: GroupView[] = groups.map((group) => ({
    ...group,
    executors: sortExecutors(byApp.get(group.appName)?.executors ?? []),
    refusedRegistrations: byApp.get(group.appName)?.refusedRegistrations ?? 0,
  }));
  const known = new Set(groups.map((g) => g.appName));
  for (const extra of executors) {
    if (known.has(extra.appName)) continue;
    views.push({
      appName: extra.appName,
      title: extra.title,
      addressType: extra.addressType,
      addressList: extra.executors.map((e) => e.address),
      executors: sortExecutors(extra.executors),
      refusedRegistrations: extra.refusedRegistrations ?? 0,
    });
  }
  return views.sort((a, b) => a.title.localeCompare(b.title) || a.appName.localeCompare(b.appName));
}

function sortExecutors(executors: readonly ExecutorInfo[]): ExecutorInfo[] {
  return [...executors].sort(
    (a, b) => onlineRank(a.online) - onlineRank(b.online) || a.address.localeCompare(b.address),
  );
}

/** How many executors are online, offline, and of unknown state (MANUAL addresses that do not register). */
export function executorCounts(groups: readonly { readonly executors: readonly ExecutorInfo[] }[]): {
  online: number;
  offline: number;
  unknown: number;
} {
  const counts = { online: 0, offline: 0, unknown: 0 };
  for (const group of groups) {
    for (const executor of group.executors) {
      if (executor.online === true) counts.online++;
      else if (executor.online === false) counts.offline++;
      else counts.unknown++;
    }
  }
  return counts;
}

/** Running runs counted per executor address (by {@link addressKey}); runs without one are not counted. */
export function runsByAddress(
  runs: readonly { readonly executorAddress: string | null }[],
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const run of runs) {
    if (!run.executorAddress) continue;
    const key = addressKey(run.executorAddress);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** A count that may be capped (the list had more pages than were read): "3", "100+". */
export function cappedCount(count: number, capped: boolean): string {
  return capped ? `${count}+` : String(count);
}

/** The addresses typed in the form: one per line or separated by commas, trimmed, blanks and repeats dropped. */
export function parseAddressList(text: string): string[] {
  const seen = new Set<string>();
  const addresses: string[] = [];
  for (const part of text.split(/[\n,]/)) {
    const address = part.trim();
    if (address === '' || seen.has(address)) continue;
    seen.add(address);
    addresses.push(address);
  }
  return addresses;
}

export interface GroupFormValues {
  readonly appName: string;
  readonly title: string;
  readonly addressType: AddressType;
  /** The textarea's text (MANUAL addresses). */
  readonly addresses: string;
  readonly alertRouting: GroupAlertRouting;
  /** The channels ticked (kept while None is picked, so picking them again finds them). */
  readonly alertChannels: readonly string[];
}

/** The form's first values: a group's, or a new one's. */
export function groupFormValues(group?: GroupInfo): GroupFormValues {
  if (!group) {
    return {
      appName: '',
      title: '',
      addressType: 'AUTO',
      addresses: '',
      alertRouting: 'none',
      alertChannels: [],
    };
  }
  const channels = group.alertChannels ?? [];
  return {
    appName: group.appName,
    title: group.title,
    addressType: group.addressType,
    addresses: group.addressType === 'MANUAL' ? group.addressList.join('\n') : '',
    alertRouting: channels.length > 0 ? 'chosen' : 'none',
    alertChannels: [...channels],
  };
}

/**
 * The group's default alert channels as a body's field ([]: none), or the problems the API would
 * answer: none ticked while "These channels" is picked, or more than it takes.
 */
export function groupAlertChannels(
  values: GroupFormValues,
): { alertChannels: string[] } | { error: ShownError } {
  if (values.alertRouting === 'none') return { alertChannels: [] };
  const alertChannels = [...new Set(values.alertChannels)];
  const message =
    alertChannels.length === 0
      ? 'Tick at least one channel, or pick None.'
      : alertChannels.length > MAX_ALERT_CHANNELS
        ? `Tick at most ${MAX_ALERT_CHANNELS} channels (${alertChannels.length} ticked).`
        : undefined;
  if (message === undefined) return { alertChannels };
  return { error: { message, field: 'alertChannels', problems: [{ field: 'alertChannels', message }] } };
}

/**
 * The body of createGroup / updateGroup from the form: the addresses only for a MANUAL group (the
 * server checks them and says what is wrong with which field).
 */
export function groupBody(values: GroupFormValues): {
  appName: string;
  title: string;
  addressType: AddressType;
  addressList: string[];
} {
  return {
    appName: values.appName.trim(),
    title: values.title.trim(),
    addressType: values.addressType,
    addressList: values.addressType === 'MANUAL' ? parseAddressList(values.addresses) : [],
  };
}
