import type { RouteState } from './routing/index.js';

/** A job's routing memory as stored, with the version a conditional write must still find. */
export interface VersionedRouteState {
  /** Absent when nothing was stored (or it expired). */
  readonly state: RouteState | undefined;
  /** 0 when nothing is stored. */
  readonly version: number;
}

/**
 * Per-job routing state (ROUND counter, LFU counts, LRU order), shared by every dispatcher instance:
 * read, route, then write conditionally on the version read; on a conflict, read and route again.
 */
export interface RouteStateStore {
  get(jobId: number): Promise<VersionedRouteState>;
  /** Stores `state` as version `expectedVersion + 1`; false when someone else wrote first. */
  put(jobId: number, state: RouteState, expectedVersion: number): Promise<boolean>;
}
