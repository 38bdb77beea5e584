import { type Clock, systemClock } from '@tickring/core/common';
import type { SlowTracker } from '@tickring/core/dispatch';
import type { EmbeddedDatabase } from './database.js';
import { ExpirySweep } from './expiry-sweep.js';

const MINUTE_MS = 60_000;
/** Counters outlive their minute by this much, then are deleted (the DynamoDB adapter's TTL). */
const TTL_SECONDS = 3_600;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS slow_dispatch_counts (
  job_id INTEGER NOT NULL,
  minute INTEGER NOT NULL,
  count INTEGER NOT NULL,
  -- Epoch seconds, the DynamoDB adapter's TTL value.
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (job_id, minute)
);
CREATE INDEX IF NOT EXISTS slow_dispatch_counts_by_expiry ON slow_dispatch_counts (expires_at);
`;

/**
 * Slow dispatches counted in SQLite per job and wall-clock minute, one row each, moved by one
 * upsert (no count lost to concurrent dispatchers). Counters an hour past their minute are deleted
 * by a sweep, as DynamoDB's TTL does; they are read only by the count of their own minute.
 */
export class SqliteSlowTracker implements SlowTracker {
  private readonly sweep: ExpirySweep;

  constructor(private readonly options: { database: EmbeddedDatabase; clock?: Clock }) {
    options.database.ensureSchema('slow_dispatch_counts', SCHEMA);
    this.sweep = new ExpirySweep(options.database, ['slow_dispatch_counts'], options.clock ?? systemClock);
  }

  async countSlowDispatch(jobId: number, nowMs: number): Promise<number> {
    this.sweep.sweepIfDue();
    const minute = Math.floor(nowMs / MINUTE_MS);
    const row = this.options.database.db
      .prepare(
        'INSERT INTO slow_dispatch_counts (job_id, minute, count, expires_at) VALUES (?, ?, 1, ?) ' +
          'ON CONFLICT (job_id, minute) DO UPDATE SET count = count + 1 RETURNING count',
      )
      .get<{ count: number }>(jobId, minute, Math.floor(((minute + 1) * MINUTE_MS) / 1000) + TTL_SECONDS);
    return Number(row?.count ?? 1);
  }
}
