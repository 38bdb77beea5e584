import type { Clock } from '../common/clock.js';
import type { Logger } from '../common/logger.js';
import type { GroupStore } from '../jobs/job-store.js';
import { GROUP_TOKEN_CACHE_MS } from './group-access-tokens.js';
import type {
  RefusalKey,
  RefusalReason,
  RefusedRequest,
  RegistrationRefusalStore,
} from './registration-refusals.js';

export interface RefusalRecorderDeps {
  readonly refusals: Pick<RegistrationRefusalStore, 'add'>;
  /** Tells a wrong token under an app name no group has from a wrong token of a known group. */
  readonly groups: Pick<GroupStore, 'get'>;
  readonly clock: Clock;
  readonly logger: Logger;
}

export interface RefusalRecorderSettings {
  /** A key is written at most this often per process; the refusals in between are added to its next write. */
  readonly writeEveryMs: number;
  /** The warn line of a key at most this often, with the refusals since the last one. */
  readonly logEveryMs: number;
  /** Keys remembered per process (a flood of made-up app names must not grow memory without end). */
  readonly maxKeys: number;
}

export const DEFAULT_REFUSAL_RECORDER_SETTINGS: RefusalRecorderSettings = {
  writeEveryMs: 10_000,
  logEveryMs: 60_000,
  maxKeys: 10_000,
};

/** A refused executor request, as the executor API saw it. */
export interface ExecutorRefusalEvent extends RefusalKey {
  readonly request: RefusedRequest;
  /** The answer sent (never the token). */
  readonly detail: string;
}

interface KeyState {
  /** Refusals counted here, not yet written. */
  pending: number;
  pendingSince: number;
  lastWriteAt: number;
  /** Refusals since the last warn line. */
  unlogged: number;
  lastLogAt: number;
}

/**
 * Counts refused executor requests in the store and logs them, cheaply under a flood: per process,
 * a key is written at once the first time and then at most every `writeEveryMs` (an executor
 * retrying every 30 s is written each time; a flood once per 10 s per key with everything since).
 * So the stored count lags the true one by at most the refusals of a key in the last `writeEveryMs`
 * on each instance, written with that key's next refusal (lost if the instance ends first). A
 * failed write is logged and its refusals kept for the next one; the request's answer is the same.
 */
export function refusalRecorder(
  deps: RefusalRecorderDeps,
  settings: RefusalRecorderSettings = DEFAULT_REFUSAL_RECORDER_SETTINGS,
): (event: ExecutorRefusalEvent) => Promise<void> {
  const keys = new Map<string, KeyState>();
  const groupKnown = new Map<string, { readonly known: Promise<boolean>; readonly until: number }>();

  function isKnownGroup(appName: string, now: number): Promise<boolean> {
    const hit = groupKnown.get(appName);
    if (hit && hit.until > now) return hit.known;
    // A failed read says "known": the refusal is then counted as the wrong token it was reported as.
    const known = deps.groups.get(appName).then(
      (group) => group !== undefined,
      () => true,
    );
    groupKnown.set(appName, { known, until: now + GROUP_TOKEN_CACHE_MS });
    if (groupKnown.size > settings.maxKeys) groupKnown.delete(groupKnown.keys().next().value as string);
    return known;
  }

  async function reasonOf(event: ExecutorRefusalEvent, now: number): Promise<RefusalReason> {
    if (event.reason !== 'wrong-token' || event.request === 'callback' || event.appName === '') {
      return event.reason;
    }
    return (await isKnownGroup(event.appName, now)) ? 'wrong-token' : 'unknown-app-name';
  }

  return async (event) => {
    const now = deps.clock.now();
    const reason = await reasonOf(event, now);
    const id = JSON.stringify([event.appName, event.address, reason]);
    let state = keys.get(id);
    if (!state) {
      state = {
        pending: 0,
        pendingSince: now,
        lastWriteAt: Number.NEGATIVE_INFINITY,
        unlogged: 0,
        lastLogAt: Number.NEGATIVE_INFINITY,
      };
      keys.set(id, state);
      if (keys.size > settings.maxKeys) keys.delete(keys.keys().next().value as string);
    }
    if (state.pending === 0) state.pendingSince = now;
    state.pending++;
    state.unlogged++;
    if (now - state.lastLogAt >= settings.logEveryMs) {
      deps.logger.warn('executor registration refused', {
        appName: event.appName,
        address: event.address,
        reason,
        request: event.request,
        count: state.unlogged,
        answer: event.detail,
      });
      state.lastLogAt = now;
      state.unlogged = 0;
    }
    if (now - state.lastWriteAt < settings.writeEveryMs) return;
    state.lastWriteAt = now;
    const count = state.pending;
    try {
      await deps.refusals.add({
        appName: event.appName,
        address: event.address,
        reason,
        request: event.request,
        detail: event.detail,
        firstSeen: state.pendingSince,
        lastSeen: now,
        count,
      });
      state.pending -= count;
      state.pendingSince = now;
    } catch (err) {
      deps.logger.error('refused executor request not recorded', {
        appName: event.appName,
        address: event.address,
        reason,
        error: String(err),
      });
    }
  };
}
