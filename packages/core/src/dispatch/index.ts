export {
  DECISION_TRUST_MS,
  type FireHandOff,
  HANDED_OFF_SOURCE,
  type HandedOffFires,
  handedOffFires,
  isFreshDecision,
  isHandedOffFires,
} from './fire-hand-off.js';
export type { FireHook, FireLink, LinkedFire, OwnedJob } from './fire-hook.js';
export {
  dueNow,
  MAX_DELAY_SECONDS,
  type RingBacklog,
  type RingEntry,
  type RingGauge,
  type RingLane,
  type RingQueue,
} from './ring-queue.js';
export type { RouteStateStore, VersionedRouteState } from './route-state-store.js';
export { ROUTE_STRATEGIES, type RouteState } from './routing/index.js';
export type { SlowTracker } from './slow-tracker.js';
export {
  type FireMessage,
  LOG_IDS_PER_PLAN,
  packRingMessages,
  parseRingMessage,
  scheduledDedupKey,
  TRIGGER_TYPES,
} from './trigger.js';
