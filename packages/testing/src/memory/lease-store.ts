import type { AdmissionHandover, Lease, LeaseStore } from '@tickring/core/tick';

interface LeaseItem {
  readonly owner: string;
  readonly leaseUntil: number;
  readonly fencingToken: number;
  readonly admission?: AdmissionHandover;
}

/**
 * Shard leases in memory, with the DynamoDB store's rules: taken when free, expired or already
 * ours; renewed by the owner up to and including `leaseUntil`; the fencing token grows whenever
 * the lease is taken anew.
 */
export class MemoryLeaseStore implements LeaseStore {
  /** The lease of each shard ever taken (a released one has `leaseUntil` 0). */
  readonly leases = new Map<number, LeaseItem>();

  async acquire(shard: number, owner: string, nowMs: number, durationMs: number): Promise<Lease | undefined> {
    const held = this.leases.get(shard);
    const leaseUntil = nowMs + durationMs;
    if (held?.owner === owner && held.leaseUntil >= nowMs) {
      this.leases.set(shard, { ...held, leaseUntil });
      return { shard, owner, leaseUntil, fencingToken: held.fencingToken, tookOver: false };
    }
    if (held !== undefined && held.leaseUntil >= nowMs) return undefined;
    const fencingToken = (held?.fencingToken ?? 0) + 1;
    // The handover is for this taker only: a holder that dies hands nothing on to the next.
    const admission = held?.admission;
    this.leases.set(shard, { owner, leaseUntil, fencingToken });
    // A lease released on purpose (leaseUntil 0) is a hand-over, not a takeover.
    const tookOver = held !== undefined && held.owner !== owner && held.leaseUntil > 0;
    return { shard, owner, leaseUntil, fencingToken, tookOver, ...(admission ? { admission } : {}) };
  }

  async release(shard: number, owner: string, admission?: AdmissionHandover): Promise<void> {
    const held = this.leases.get(shard);
    if (held?.owner !== owner) return;
    this.leases.set(shard, {
      owner,
      leaseUntil: 0,
      fencingToken: held.fencingToken,
      ...(admission ? { admission: { ...admission } } : {}),
    });
  }
}
