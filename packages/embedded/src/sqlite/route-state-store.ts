import { type Clock, systemClock } from '@tickring/core/common';
import type { RouteState, RouteStateStore, VersionedRouteState } from '@tickring/core/dispatch';
import type { EmbeddedDatabase } from './database.js';
import { ExpirySweep } from './expiry-sweep.js';

/** Kept a day past the state's own reset time, then deleted (the DynamoDB adapter's TTL). */
const TTL_GRACE_SECONDS = 86_400;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS route_states (
  job_id INTEGER PRIMARY KEY,
  state TEXT NOT NULL,
  version INTEGER NOT NULL,
  -- Epoch seconds, the DynamoDB adapter's TTL value.
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS route_states_by_expiry ON route_states (expires_at);
`;

/**
 * Routing state in SQLite, one row per job, written only on the version read (compare-and-set), so
 * concurrent dispatchers never lose a ROUND step. A state past its reset time and a day is deleted
 * by a sweep, as DynamoDB's TTL does; readers do not filter (neither do the DynamoDB adapter's: the
 * routing resets a state past `resetAt` itself).
 */
export class SqliteRouteStateStore implements RouteStateStore {
  private readonly sweep: ExpirySweep;

  constructor(private readonly options: { database: EmbeddedDatabase; clock?: Clock }) {
    options.database.ensureSchema('route_states', SCHEMA);
    this.sweep = new ExpirySweep(options.database, ['route_states'], options.clock ?? systemClock);
  }

  async get(jobId: number): Promise<VersionedRouteState> {
    const row = this.sql('SELECT state, version FROM route_states WHERE job_id = ?').get<{
      state: string;
      version: number;
    }>(jobId);
    return row
      ? { state: JSON.parse(row.state) as RouteState, version: row.version }
      : { state: undefined, version: 0 };
  }

  async put(jobId: number, state: RouteState, expectedVersion: number): Promise<boolean> {
    this.sweep.sweepIfDue();
    const values = [
      JSON.stringify(state),
      expectedVersion + 1,
      Math.floor(state.resetAt / 1000) + TTL_GRACE_SECONDS,
      jobId,
    ] as const;
    const { changes } =
      expectedVersion === 0
        ? this.sql(
            'INSERT INTO route_states (state, version, expires_at, job_id) VALUES (?, ?, ?, ?) ' +
              'ON CONFLICT (job_id) DO NOTHING',
          ).run(...values)
        : this.sql(
            'UPDATE route_states SET state = ?, version = ?, expires_at = ? WHERE job_id = ? AND version = ?',
          ).run(...values, expectedVersion);
    return changes > 0;
  }

  private sql(text: string) {
    return this.options.database.db.prepare(text);
  }
}
