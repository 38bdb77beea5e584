export { consistentHashAddress, VIRTUAL_NODE_NUM, xxlHash } from './consistent-hash.js';
export {
  type BroadcastTarget,
  broadcastTargets,
  NO_ADDRESS_REASON,
  type Probe,
  type ProbeResult,
  type RouteInput,
  type RouteResult,
  route,
} from './route.js';
export {
  type LfuState,
  type LruState,
  ROUTE_COUNT_LIMIT,
  ROUTE_STATE_TTL_MS,
  type RoundState,
  type RouteState,
  stateKindOf,
} from './route-state.js';
export {
  isRouteStrategy,
  parseRouteStrategy,
  ROUTE_STRATEGIES,
  type RouteStrategy,
} from './route-strategy.js';
