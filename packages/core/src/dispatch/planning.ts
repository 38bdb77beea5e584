import { isAppError } from '../common/errors.js';
import type { DispatchDeps } from './dispatch-deps.js';
import type { FireContext } from './fire-context.js';
import { type RouteResult, route } from './routing/index.js';

export interface PlannedRun {
  readonly shardIndex: number;
  readonly shardTotal: number;
  /** Broadcast shards know their executor when recorded; other runs are routed when sent. */
  readonly address: string;
}

/**
 * One run, or one per online executor for SHARDING_BROADCAST (one shard again for its retry; the
 * shards a trigger fixed, with their logIds, when it gave them out).
 */
export async function planRuns(
  deps: Pick<DispatchDeps, 'clock' | 'random'>,
  ctx: FireContext,
): Promise<PlannedRun[]> {
  if (ctx.message.shards !== undefined) {
    return ctx.message.shards.map((s) => ({ shardIndex: s.index, shardTotal: s.total, address: s.address }));
  }
  const shard = ctx.message.retry?.shard;
  const single = [{ shardIndex: shard?.index ?? 0, shardTotal: shard?.total ?? 1, address: '' }];
  if (ctx.job.executorRouteStrategy !== 'SHARDING_BROADCAST') return single;
  let result: RouteResult;
  try {
    result = await route({
      strategy: 'SHARDING_BROADCAST',
      jobId: ctx.job.id,
      addresses: ctx.addresses,
      nowMs: deps.clock.now(),
      random: deps.random,
      shard: shard ? { index: shard.index, total: shard.total } : undefined,
    });
  } catch (err) {
    if (!isAppError(err) || err.retryable) throw err;
    return single; // routed again when sent, where the error becomes the failed trigger's message
  }
  if (result.kind !== 'BROADCAST') return single;
  return result.targets.map((t) => ({ shardIndex: t.index, shardTotal: t.total, address: t.address }));
}
