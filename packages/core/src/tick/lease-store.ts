export interface Lease {
  readonly shard: number;
  readonly owner: string;
  readonly leaseUntil: number;
  /** Increases every time the lease changes hands. */
  readonly fencingToken: number;
  /** True when this acquisition took the shard from another (expired) owner. */
  readonly tookOver: boolean;
}

export interface LeaseStore {
  /** Takes or renews the shard's lease for `owner` until `nowMs + durationMs`; undefined while another owner holds it. */
  acquire(shard: number, owner: string, nowMs: number, durationMs: number): Promise<Lease | undefined>;
  /** Gives the lease up at once (a finishing tick hands over without waiting for expiry). */
  release(shard: number, owner: string): Promise<void>;
}
