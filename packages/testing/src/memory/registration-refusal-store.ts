import { type Clock, systemClock } from '@tickring/core/common';
import {
  byLastSeen,
  DEFAULT_REFUSAL_EXPIRE_AFTER_SECONDS,
  type RefusedRegistration,
  type RegistrationRefusalStore,
} from '@tickring/core/executors';

export interface MemoryRegistrationRefusalStoreOptions {
  /** A key not refused again for this long is gone (the DynamoDB TTL). Default 24 h. */
  readonly expireAfterSeconds?: number;
  /** "Now" of the expiry. */
  readonly clock?: Clock;
}

/** Refused executor requests in memory, one record per (appName, address, reason). */
export class MemoryRegistrationRefusalStore implements RegistrationRefusalStore {
  private readonly records = new Map<string, RefusedRegistration>();
  private readonly expireAfterMs: number;
  private readonly clock: Clock;

  constructor(options: MemoryRegistrationRefusalStoreOptions = {}) {
    this.expireAfterMs = (options.expireAfterSeconds ?? DEFAULT_REFUSAL_EXPIRE_AFTER_SECONDS) * 1000;
    this.clock = options.clock ?? systemClock;
  }

  async add(refusals: RefusedRegistration): Promise<void> {
    const id = JSON.stringify([refusals.appName, refusals.address, refusals.reason]);
    const stored = this.records.get(id);
    const live = stored && stored.lastSeen + this.expireAfterMs >= this.clock.now() ? stored : undefined;
    this.records.set(id, {
      ...refusals,
      firstSeen: live?.firstSeen ?? refusals.firstSeen,
      count: (live?.count ?? 0) + refusals.count,
    });
  }

  async list(appName?: string): Promise<RefusedRegistration[]> {
    const since = this.clock.now() - this.expireAfterMs;
    return [...this.records.values()]
      .filter((r) => r.lastSeen >= since && (appName === undefined || r.appName === appName))
      .sort(byLastSeen);
  }
}
