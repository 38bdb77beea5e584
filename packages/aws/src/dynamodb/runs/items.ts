import { type DispatchEntry, outcomeDueOnClaim, type Run } from '@tickring/core/runs';
import type { Item } from '../util.js';
import { OUTCOME_PENDING_BUCKET, runKey } from './keys.js';

/** Internal attributes kept beside a Run's fields. */
interface RunItem extends Run {
  readonly pk: string;
  readonly sk: number;
  readonly claimToken: string;
  readonly claimAt: number;
  readonly expiresAt: number;
  /** What `expiresAt` becomes when the run succeeds: set on a run whose success is sampled out. */
  readonly successExpiresAt?: number;
  /** Set (to `PENDING`) while a finished run's consequences are not done: the sparse outcome index. */
  readonly outcomeBucket?: string;
  readonly outcomeDueAt?: number;
}

/**
 * A run as the runs table stores it: claimed under `claimToken`, expiring at `expiry.expiresAt`
 * (epoch s), or at `expiry.successExpiresAt` once it succeeds (a sampled-out success).
 */
export function toItem(
  run: Run,
  claimToken: string,
  expiry: { readonly expiresAt: number; readonly successExpiresAt?: number | undefined },
): RunItem {
  const outcomeDue = outcomeDueOnClaim(run);
  return {
    ...run,
    ...runKey(run.logId),
    claimToken,
    claimAt: run.triggerTime,
    expiresAt: expiry.expiresAt,
    ...(expiry.successExpiresAt === undefined ? {} : { successExpiresAt: expiry.successExpiresAt }),
    ...(outcomeDue === undefined ? {} : { outcomeBucket: OUTCOME_PENDING_BUCKET, outcomeDueAt: outcomeDue }),
  };
}

/** A page's entries, kept as parallel lists `logIds`, `apps`, `deadlines` (appended to, never rewritten). */
export function pageEntries(page: Item): DispatchEntry[] {
  const logIds = (page.logIds as number[] | undefined) ?? [];
  const apps = (page.apps as string[] | undefined) ?? [];
  const deadlines = (page.deadlines as number[] | undefined) ?? [];
  return logIds.map((logId, i) => ({
    logId: Number(logId),
    appName: String(apps[i] ?? ''),
    deadline: Number(deadlines[i] ?? 0),
  }));
}

export function fromItem(item: Item): Run {
  const {
    pk: _pk,
    sk: _sk,
    claimAt: _c,
    expiresAt: _e,
    successExpiresAt: _se,
    outcomeBucket: _ob,
    outcomeDueAt: _od,
    claimToken: _ct,
    ...run
  } = item;
  return run as unknown as Run;
}
