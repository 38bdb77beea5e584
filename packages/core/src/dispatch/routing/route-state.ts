import { PermanentError } from '../../common/errors.js';
import type { RouteStrategy } from './route-strategy.js';

/**
 * Per-job routing memory for ROUND, LEAST_FREQUENTLY_USED and LEAST_RECENTLY_USED. XXL-JOB keeps it
 * in static maps inside one admin JVM; tickring stores it per job so that every dispatcher instance
 * shares it (read, route, conditional write).
 *
 * `resetAt` stands in for XXL-JOB's `CACHE_VALID_TIME`: the state is used while `nowMs <= resetAt` and
 * started over (with `resetAt = nowMs + 24 h`) once that has passed. XXL-JOB has one such deadline per
 * strategy for all jobs together; here each job has its own, counted from its own first route.
 */
export type RouteState = RoundState | LfuState | LruState;

/** ROUND: the last counter handed out; the address is `addresses[count % n]`. */
export interface RoundState {
  kind: 'ROUND';
  count: number;
  resetAt: number;
}

/** LEAST_FREQUENTLY_USED: use count per current address. */
export interface LfuState {
  kind: 'LFU';
  counts: Record<string, number>;
  resetAt: number;
}

/** LEAST_RECENTLY_USED: addresses from least to most recently used (a LinkedHashMap in access order). */
export interface LruState {
  kind: 'LRU';
  order: string[];
  resetAt: number;
}

/** How long a job's routing state lives (XXL-JOB: `1000*60*60*24`). */
export const ROUTE_STATE_TTL_MS = 24 * 60 * 60 * 1000;

/** A ROUND counter or an LFU count above this is re-seeded at random (XXL-JOB: `> 1000000`). */
export const ROUTE_COUNT_LIMIT = 1_000_000;

/** Where ROUND starts: `random(0..99)` (XXL-JOB: `new Random().nextInt(100)`). */
export const ROUND_SEED_BOUND = 100;

/** The state kind a strategy reads and writes, or undefined when it keeps none. */
export function stateKindOf(strategy: RouteStrategy): RouteState['kind'] | undefined {
  switch (strategy) {
    case 'ROUND':
      return 'ROUND';
    case 'LEAST_FREQUENTLY_USED':
      return 'LFU';
    case 'LEAST_RECENTLY_USED':
      return 'LRU';
    default:
      return undefined;
  }
}

/** `floor(random() * bound)`, Java's `new Random().nextInt(bound)`, from an injected source. */
export function randomInt(random: () => number, bound: number): number {
  const r = random();
  if (!(r >= 0 && r < 1)) {
    throw new PermanentError(`random() must return a number in [0, 1); got ${r}`);
  }
  return Math.floor(r * bound);
}

export interface StatefulChoice<S extends RouteState> {
  address: string;
  state: S;
}

/** `ExecutorRouteRound`: a per-job counter seeded at random(0..99), + 1 per trigger. */
export function routeRound(
  addresses: readonly string[],
  previous: RouteState | undefined,
  nowMs: number,
  random: () => number,
): StatefulChoice<RoundState> {
  const live =
    previous?.kind === 'ROUND' &&
    isLive(previous, nowMs) &&
    Number.isSafeInteger(previous.count) &&
    previous.count >= 0
      ? previous
      : undefined;
  const resetAt = live ? live.resetAt : nowMs + ROUTE_STATE_TTL_MS;
  const count =
    live === undefined || live.count > ROUTE_COUNT_LIMIT
      ? randomInt(random, ROUND_SEED_BOUND)
      : live.count + 1;
  return { address: addresses[count % addresses.length] as string, state: { kind: 'ROUND', count, resetAt } };
}

/**
 * `ExecutorRouteLFU`: addresses new to the job (or whose count passed 1,000,000) are seeded with
 * random(n), addresses gone from the list are forgotten, the least used address is taken and its
 * count incremented.
 *
 * Ties: XXL-JOB stable-sorts a HashMap's entries by count, so among equal counts it takes whichever
 * the HashMap iterates first, which depends on the address strings' hash codes and the table size.
 * That order cannot be carried over usefully; tickring takes the tied address that comes first in the
 * address list (the registry keeps that list sorted), which is deterministic and just as fair.
 */
export function routeLfu(
  addresses: readonly string[],
  previous: RouteState | undefined,
  nowMs: number,
  random: () => number,
): StatefulChoice<LfuState> {
  const live = previous?.kind === 'LFU' && isLive(previous, nowMs) ? previous : undefined;
  const resetAt = live ? live.resetAt : nowMs + ROUTE_STATE_TTL_MS;
  const stored = new Map<string, number>(live ? Object.entries(live.counts) : []);

  const counts = new Map<string, number>();
  for (const address of addresses) {
    if (counts.has(address)) continue;
    const count = stored.get(address);
    const usable = typeof count === 'number' && Number.isSafeInteger(count) && count <= ROUTE_COUNT_LIMIT;
    counts.set(address, usable ? count : randomInt(random, addresses.length));
  }

  let chosen = addresses[0] as string;
  let least = counts.get(chosen) as number;
  for (const [address, count] of counts) {
    if (count < least) {
      chosen = address;
      least = count;
    }
  }
  counts.set(chosen, least + 1);
  return { address: chosen, state: { kind: 'LFU', counts: Object.fromEntries(counts), resetAt } };
}

/**
 * `ExecutorRouteLRU`: a per-job access-ordered map. Addresses new to the job go to the end in list
 * order, vanished ones are dropped, the eldest (first) address is taken and, being read, moves to
 * the end.
 */
export function routeLru(
  addresses: readonly string[],
  previous: RouteState | undefined,
  nowMs: number,
): StatefulChoice<LruState> {
  const live = previous?.kind === 'LRU' && isLive(previous, nowMs) ? previous : undefined;
  const resetAt = live ? live.resetAt : nowMs + ROUTE_STATE_TTL_MS;
  const current = new Set(addresses);

  const order: string[] = [];
  const seen = new Set<string>();
  const keep = (address: string) => {
    if (!seen.has(address) && current.has(address)) {
      seen.add(address);
      order.push(address);
    }
  };
  for (const address of live?.order ?? []) if (typeof address === 'string') keep(address);
  for (const address of addresses) keep(address);

  const eldest = order.shift() as string;
  order.push(eldest);
  return { address: eldest, state: { kind: 'LRU', order, resetAt } };
}

function isLive(state: RouteState, nowMs: number): boolean {
  return Number.isFinite(state.resetAt) && nowMs <= state.resetAt;
}
