import type { ReturnT } from '@tickring/protocol';
import { isAppError } from '../common/errors.js';
import type { DispatchDeps } from './dispatch-deps.js';
import type { FireContext } from './fire-context.js';
import type { PlannedRun } from './planning.js';
import {
  isRouteStrategy,
  type Probe,
  type RouteResult,
  type RouteStrategy,
  route,
  stateKindOf,
} from './routing/index.js';

const ROUTE_CONFLICT_ATTEMPTS = 5;

/** Where one run goes: an address and how it was chosen, or why there is none. */
export interface Target {
  readonly address?: string;
  readonly trail: string;
  /** Why there is no address. */
  readonly reason?: string;
}

/** The executor for one run: the shard's own for broadcasts, else `route()` with the job's shared state. */
export async function routeRun(deps: DispatchDeps, ctx: FireContext, plan: PlannedRun): Promise<Target> {
  const strategy = ctx.job.executorRouteStrategy;
  if (!isRouteStrategy(strategy)) {
    return { trail: '', reason: `the job's route strategy "${strategy}" is not one tickring knows` };
  }
  if (strategy === 'SHARDING_BROADCAST' && plan.address !== '') {
    return { address: plan.address, trail: '' };
  }
  try {
    const result = await routeWithState(deps, ctx, strategy, plan);
    if (result.kind === 'ONE') return { address: result.address, trail: result.trail };
    if (result.kind === 'BROADCAST') {
      const first = result.targets[0];
      return first ? { address: first.address, trail: '' } : { trail: '', reason: ctx.noAddressReason };
    }
    const reason =
      result.cause === 'NO_ADDRESS' ? ctx.noAddressReason : `${result.reason} in group ${ctx.job.appName}`;
    return { trail: result.trail, reason };
  } catch (err) {
    // A store that cannot take the route state for now (a full disk) leaves the fire to come again.
    if (!isAppError(err) || err.retryable) throw err;
    return { trail: '', reason: `routing failed: ${err.message}` };
  }
}

/** Read the job's state, route, write the new state conditionally; on a lost race read and route again. */
async function routeWithState(
  deps: DispatchDeps,
  ctx: FireContext,
  strategy: RouteStrategy,
  plan: PlannedRun,
): Promise<RouteResult> {
  const kind = stateKindOf(strategy);
  const probe: Probe | undefined =
    strategy === 'FAILOVER'
      ? async (address) => toProbe(await deps.transport.beat({ address, appName: ctx.job.appName }))
      : strategy === 'BUSYOVER'
        ? async (address, jobId) =>
            toProbe(await deps.transport.idleBeat({ address, appName: ctx.job.appName }, jobId))
        : undefined;
  const input = {
    strategy,
    jobId: ctx.job.id,
    addresses: ctx.addresses,
    random: deps.random,
    probe,
    shard: strategy === 'SHARDING_BROADCAST' ? { index: plan.shardIndex, total: plan.shardTotal } : undefined,
  };
  if (kind === undefined || ctx.addresses.length === 0) return route({ ...input, nowMs: deps.clock.now() });
  for (let attempt = 1; ; attempt++) {
    const stored = await deps.routeStates.get(ctx.job.id);
    const result = await route({ ...input, state: stored.state, nowMs: deps.clock.now() });
    if (result.kind !== 'ONE' || !result.state) return result;
    if (await deps.routeStates.put(ctx.job.id, result.state, stored.version)) return result;
    if (attempt >= ROUTE_CONFLICT_ATTEMPTS) {
      deps.logger.warn('route state kept changing; routing without storing', { jobId: ctx.job.id });
      return result;
    }
  }
}

function toProbe(reply: ReturnT<unknown>): { ok: boolean; msg: string; code: number } {
  return { ok: reply.code === 200, msg: reply.msg ?? '', code: reply.code };
}
