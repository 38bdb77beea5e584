import type { AdmissionHandover } from './admission.js';

export interface Lease {
  readonly shard: number;
  readonly owner: string;
  readonly leaseUntil: number;
  /** Increases every time the lease changes hands. */
  readonly fencingToken: number;
  /** True when this acquisition took the shard from another (expired) owner. */
  readonly tookOver: boolean;
  /**
   * The admission the owner before handed over with its release (see `release`), on the
   * acquisition that took the lease anew; absent on a renewal, or when none was handed over.
   */
  readonly admission?: AdmissionHandover;
}

export interface LeaseStore {
  /** Takes or renews the shard's lease for `owner` until `nowMs + durationMs`; undefined while another owner holds it. */
  acquire(shard: number, owner: string, nowMs: number, durationMs: number): Promise<Lease | undefined>;
  /**
   * Gives the lease up at once (a finishing tick hands over without waiting for expiry), with the
   * admission the next owner is to go on from (kept with the lease until the next release; a
   * release without one clears it). Only the owner can release; anyone else's release does nothing.
   */
  release(shard: number, owner: string, admission?: AdmissionHandover): Promise<void>;
}
