import { ValidationError } from '../../common/errors.js';

/** XXL-JOB's `ExecutorRouteStrategyEnum`, in its order; the names are stored on jobs as-is. */
export const ROUTE_STRATEGIES = [
  'FIRST',
  'LAST',
  'ROUND',
  'RANDOM',
  'CONSISTENT_HASH',
  'LEAST_FREQUENTLY_USED',
  'LEAST_RECENTLY_USED',
  'FAILOVER',
  'BUSYOVER',
  'SHARDING_BROADCAST',
] as const;

export type RouteStrategy = (typeof ROUTE_STRATEGIES)[number];

export function isRouteStrategy(value: unknown): value is RouteStrategy {
  return typeof value === 'string' && (ROUTE_STRATEGIES as readonly string[]).includes(value);
}

/** Checks a strategy name from input; the error names the field and lists the accepted values. */
export function parseRouteStrategy(value: unknown, field = 'executorRouteStrategy'): RouteStrategy {
  if (isRouteStrategy(value)) return value;
  throw new ValidationError(
    `${field} must be one of ${ROUTE_STRATEGIES.join(', ')}; got ${JSON.stringify(value) ?? String(value)}`,
    field,
  );
}
