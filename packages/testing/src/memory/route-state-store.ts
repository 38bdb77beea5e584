import type { RouteState, RouteStateStore, VersionedRouteState } from '@tickring/core/dispatch';

/** Routing state in memory, one per job, written only on the version read (compare-and-set). */
export class MemoryRouteStateStore implements RouteStateStore {
  /** The stored state and version of each job. */
  readonly items = new Map<number, { state: RouteState; version: number }>();

  async get(jobId: number): Promise<VersionedRouteState> {
    const item = this.items.get(jobId);
    return item
      ? { state: structuredClone(item.state), version: item.version }
      : { state: undefined, version: 0 };
  }

  async put(jobId: number, state: RouteState, expectedVersion: number): Promise<boolean> {
    if ((this.items.get(jobId)?.version ?? 0) !== expectedVersion) return false;
    this.items.set(jobId, { state: structuredClone(state), version: expectedVersion + 1 });
    return true;
  }
}
