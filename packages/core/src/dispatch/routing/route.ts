import { PermanentError, ValidationError } from '../../common/errors.js';
import { consistentHashAddress } from './consistent-hash.js';
import { type RouteState, randomInt, routeLfu, routeLru, routeRound } from './route-state.js';
import { isRouteStrategy, ROUTE_STRATEGIES, type RouteStrategy } from './route-strategy.js';

/** What a beat (FAILOVER) or idleBeat (BUSYOVER) call answered; `code` defaults to 200 / 500 by `ok`. */
export interface ProbeResult {
  ok: boolean;
  msg: string;
  code?: number;
}

/**
 * Asks one executor: `POST {address}beat` for FAILOVER, `POST {address}idleBeat {"jobId"}` for
 * BUSYOVER. A rejected promise counts as a failed probe whose msg is the error's message.
 */
export type Probe = (address: string, jobId: number) => Promise<ProbeResult>;

export interface RouteInput {
  strategy: RouteStrategy;
  jobId: number;
  /** The group's online addresses, in the group's order. */
  addresses: readonly string[];
  /** What the last route of this job stored (ROUND, LFU, LRU); state of another kind is ignored. */
  state?: RouteState | undefined;
  nowMs: number;
  /** A number in [0, 1), like Math.random. */
  random: () => number;
  /** Required for FAILOVER and BUSYOVER. */
  probe?: Probe | undefined;
  /**
   * SHARDING_BROADCAST only: re-trigger one shard (a retry of the log whose sharding param was
   * "index/total") instead of broadcasting.
   */
  shard?: { index: number; total: number } | undefined;
}

export interface BroadcastTarget {
  address: string;
  /** broadcastIndex in the TriggerParam */
  index: number;
  /** broadcastTotal in the TriggerParam */
  total: number;
}

export type RouteResult =
  | {
      kind: 'ONE';
      address: string;
      /** FAILOVER/BUSYOVER: one line per executor asked, in order; otherwise ''. */
      trail: string;
      /** The state to store for the job (ROUND, LFU, LRU only), conditionally on the one read. */
      state?: RouteState;
    }
  | { kind: 'BROADCAST'; targets: BroadcastTarget[] }
  | { kind: 'NONE'; cause: 'NO_ADDRESS' | 'ALL_PROBES_FAILED'; reason: string; trail: string };

export const NO_ADDRESS_REASON = 'no online executor';

/**
 * Picks the executor(s) for one trigger, with XXL-JOB's semantics for each strategy. Pure apart from
 * the injected random source and probe: the caller loads `state`, and stores the returned state.
 *
 * An empty address list is a `NONE` result, not an error, so the trigger can be recorded as failed.
 * Throws ValidationError for an unknown strategy, a jobId that is not a 32-bit integer or a bad
 * shard, and PermanentError when FAILOVER/BUSYOVER get no probe or `random` leaves [0, 1).
 */
export async function route(input: RouteInput): Promise<RouteResult> {
  const { strategy, jobId, addresses, state, nowMs, random } = input;
  if (!isRouteStrategy(strategy)) {
    throw new ValidationError(`strategy must be one of ${ROUTE_STRATEGIES.join(', ')}`, 'strategy');
  }
  if (!Number.isInteger(jobId) || jobId < -2_147_483_648 || jobId > 2_147_483_647) {
    throw new ValidationError(`jobId must be a 32-bit integer; got ${jobId}`, 'jobId');
  }
  if (addresses.length === 0) {
    return { kind: 'NONE', cause: 'NO_ADDRESS', reason: NO_ADDRESS_REASON, trail: '' };
  }
  const one = (address: string, newState?: RouteState): RouteResult =>
    newState ? { kind: 'ONE', address, trail: '', state: newState } : { kind: 'ONE', address, trail: '' };

  switch (strategy) {
    case 'FIRST':
      return one(addresses[0] as string);
    case 'LAST':
      return one(addresses[addresses.length - 1] as string);
    case 'RANDOM':
      return one(addresses[randomInt(random, addresses.length)] as string);
    case 'ROUND': {
      const choice = routeRound(addresses, state, nowMs, random);
      return one(choice.address, choice.state);
    }
    case 'CONSISTENT_HASH':
      return one(consistentHashAddress(jobId, addresses));
    case 'LEAST_FREQUENTLY_USED': {
      const choice = routeLfu(addresses, state, nowMs, random);
      return one(choice.address, choice.state);
    }
    case 'LEAST_RECENTLY_USED': {
      const choice = routeLru(addresses, state, nowMs);
      return one(choice.address, choice.state);
    }
    case 'FAILOVER':
      return probeInOrder('beat', jobId, addresses, input.probe);
    case 'BUSYOVER':
      return probeInOrder('idleBeat', jobId, addresses, input.probe);
    case 'SHARDING_BROADCAST':
      return broadcast(addresses, input.shard);
  }
}

/** `ExecutorRouteFailover` / `ExecutorRouteBusyover`: the first address whose probe succeeds. */
async function probeInOrder(
  label: 'beat' | 'idleBeat',
  jobId: number,
  addresses: readonly string[],
  probe: Probe | undefined,
): Promise<RouteResult> {
  if (!probe) {
    throw new PermanentError(`${label === 'beat' ? 'FAILOVER' : 'BUSYOVER'} routing needs a probe`);
  }
  const lines: string[] = [];
  for (const address of addresses) {
    let result: ProbeResult;
    try {
      result = await probe(address, jobId);
    } catch (err) {
      result = { ok: false, msg: err instanceof Error ? err.message : String(err) };
    }
    const code = result.code ?? (result.ok ? 200 : 500);
    lines.push(`${label} ${address}: code=${code}${result.msg ? ` msg=${result.msg}` : ''}`);
    if (result.ok) return { kind: 'ONE', address, trail: lines.join('\n') };
  }
  const reason =
    label === 'beat'
      ? 'every executor failed the beat check'
      : 'every executor is busy or failed the idleBeat check';
  return { kind: 'NONE', cause: 'ALL_PROBES_FAILED', reason, trail: lines.join('\n') };
}

/** Every address with its shard, in the order given (XXL-JOB's `JobTrigger.trigger` broadcast). */
export function broadcastTargets(addresses: readonly string[]): BroadcastTarget[] {
  const total = addresses.length;
  return addresses.map((address, index) => ({ address, index, total }));
}

/** `JobTrigger.trigger`: every address with its shard, or one shard again on a retry. */
function broadcast(addresses: readonly string[], shard: RouteInput['shard']): RouteResult {
  if (shard === undefined) return { kind: 'BROADCAST', targets: broadcastTargets(addresses) };
  const { index, total } = shard;
  if (!Number.isInteger(index) || !Number.isInteger(total) || index < 0 || total < 1) {
    throw new ValidationError(`shard must be "index/total" with index >= 0 and total >= 1`, 'shard');
  }
  // XXL-JOB: the shard's own address while it still exists, else the first one
  const address = (index < addresses.length ? addresses[index] : addresses[0]) as string;
  return { kind: 'BROADCAST', targets: [{ address, index, total }] };
}
