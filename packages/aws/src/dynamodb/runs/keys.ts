/**
 * The runs table holds these items, none of which writes an index entry in the common case:
 * - runs: `pk` = `J#{jobId}`, `sk` = logId (which carries the jobId, see `jobIdOfLogId`);
 * - dispatch pages: `pk` = `P#{hour}`, `sk` = claim time (ms × 1000 + salt): the runs one dispatcher
 *   batch sent under one claim token, written as it sends (see `DispatchRecord`). They prove a run
 *   was sent, list an app's and all runs by time, and feed the lost-run watch;
 * - the hour index: `pk` = `HOURS`, `sk` = an hour's start (epoch ms), for each hour that has dispatch
 *   pages: the app and all-runs lists read only those hours, not every hour of the retention. Each
 *   store instance writes an hour once, beside the first page it writes in it (best-effort);
 * - watch pages: `pk` = `W#{hour}`, `sk` = when to look again: runs still unfinished when looked at;
 * - the watch cursor: `pk` = `WATCH`, `sk` = 0: how far the lost-run watch has read, and from which
 *   hour on the hour index is complete (`hoursIndexedFrom`, see `indexedFromOf`).
 * Only a finished run with pending consequences writes an index entry (the sparse outcome index).
 */
import { ValidationError } from '@tickring/core/common';
import { jobIdOfLogId } from '@tickring/core/runs';

/** The outcome index's partition: the runs whose consequences are pending. */
export const OUTCOME_PENDING_BUCKET = 'PENDING';
export const HOUR_MS = 3_600_000;
/** A page key is its claim time × SALT + a random salt below SALT. */
export const SALT = 1000;
/** The lost-run watch's cursor, with the mark of where the hour index is complete. */
export const WATCH_CURSOR_KEY = { pk: 'WATCH', sk: 0 } as const;
/** The partition of the hour index: one item per hour with dispatch pages, keyed by the hour's start. */
export const HOURS_PK = 'HOURS';

export interface PageKey {
  readonly pk: string;
  readonly sk: number;
}

export function runKey(logId: number): { pk: string; sk: number } {
  return { pk: `J#${jobIdOfLogId(logId)}`, sk: logId };
}

export function fireKey(dedupKey: string): string {
  return `fire#${dedupKey}`;
}

/** The control-table item of a job's catch-up mark: when its last catch-up ran, for which fire. */
export function catchUpKey(jobId: number): string {
  return `catchup#${jobId}`;
}

export function hourOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 13);
}

export function hourStartOf(epochMs: number): number {
  return epochMs - (epochMs % HOUR_MS);
}

export function pageKeyOf(claimToken: string): PageKey {
  const match = /^(\d{4}-\d\d-\d\dT\d\d)\/(\d+)$/.exec(claimToken);
  if (!match) throw new ValidationError(`not a claim token: ${JSON.stringify(claimToken)}`, 'claimToken');
  return { pk: `P#${match[1]}`, sk: Number(match[2]) };
}
