export interface RegistryEntry {
  readonly appName: string;
  readonly address: string;
  /** Epoch ms of the last heartbeat. */
  readonly updatedAt: number;
}

/** Executor heartbeats (XXL-JOB's xxl_job_registry). */
export interface RegistryStore {
  /** Upserts the heartbeat of `address` in `appName` at `nowMs`. */
  heartbeat(appName: string, address: string, nowMs: number): Promise<void>;
  remove(appName: string, address: string): Promise<void>;
  /** Entries of an app (all of them when `seenSince` is absent), sorted by address. */
  list(appName: string, seenSince?: number): Promise<RegistryEntry[]>;
}
