import type { ExecutorTransport } from '../executors/executor-transport.js';
import type { RegistryStore } from '../executors/registry-store.js';
import type { GroupStore } from '../jobs/job-store.js';
import type { RunOutcomeDeps } from '../runs/run-outcome.js';
import type { FireHook } from './fire-hook.js';
import type { RouteStateStore } from './route-state-store.js';
import type { SlowTracker } from './slow-tracker.js';

/**
 * The dispatcher's ports: one fire from the ring queue becomes one run record (one per executor
 * for SHARDING_BROADCAST), created idempotently, routed and sent to its executor at the fire's
 * millisecond, with the trigger result recorded and a refused trigger handed to retry/alarm.
 */
export interface DispatchDeps extends RunOutcomeDeps {
  readonly groups: GroupStore;
  readonly registry: RegistryStore;
  readonly transport: ExecutorTransport;
  readonly routeStates: RouteStateStore;
  readonly slowTracker: SlowTracker;
  /** A number in [0, 1), like Math.random (ROUND seed, RANDOM, LFU seed). */
  readonly random: () => number;
  /**
   * What the workflows add to the fires of their nodes and the runs of their starter jobs; without
   * it a node's fire runs as a plain one and a starter job's fire is refused.
   */
  readonly fireHook?: FireHook;
}
