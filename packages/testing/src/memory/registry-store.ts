import { type Clock, systemClock } from '@tickring/core/common';
import type { RegistryEntry, RegistryStore } from '@tickring/core/executors';

export interface MemoryRegistryStoreOptions {
  /** An executor not seen for this long is gone for readers (the DynamoDB TTL). Default 270 s. */
  readonly expireAfterSeconds?: number;
  /** "Now" of the expiry. */
  readonly clock?: Clock;
}

interface Beat {
  readonly updatedAt: number;
  /** Epoch seconds, as the DynamoDB TTL attribute. */
  readonly expiresAt: number;
}

/**
 * Executor heartbeats in memory, one per (appName, address). A beat moves `updatedAt` forward only,
 * and an executor past its expiry is left out of every list.
 */
export class MemoryRegistryStore implements RegistryStore {
  private readonly beats = new Map<string, Map<string, Beat>>();
  private readonly expireAfterSeconds: number;
  private readonly clock: Clock;

  constructor(options: MemoryRegistryStoreOptions = {}) {
    this.expireAfterSeconds = options.expireAfterSeconds ?? 3 * 90;
    this.clock = options.clock ?? systemClock;
  }

  async heartbeat(appName: string, address: string, nowMs: number): Promise<void> {
    const app = this.beats.get(appName) ?? new Map<string, Beat>();
    this.beats.set(appName, app);
    const stored = app.get(address);
    if (stored && stored.updatedAt > nowMs) return; // a newer beat is already stored
    app.set(address, { updatedAt: nowMs, expiresAt: Math.floor(nowMs / 1000) + this.expireAfterSeconds });
  }

  async remove(appName: string, address: string): Promise<void> {
    this.beats.get(appName)?.delete(address);
  }

  async list(appName: string, seenSince?: number): Promise<RegistryEntry[]> {
    const nowSeconds = Math.floor(this.clock.now() / 1000);
    return [...(this.beats.get(appName) ?? [])]
      .filter(
        ([, beat]) =>
          beat.expiresAt >= nowSeconds && (seenSince === undefined || beat.updatedAt >= seenSince),
      )
      .map(([address, beat]) => ({ appName, address, updatedAt: beat.updatedAt }))
      .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  }
}
