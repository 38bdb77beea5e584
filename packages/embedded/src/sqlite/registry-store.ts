import { type Clock, systemClock } from '@tickring/core/common';
import type { RegistryEntry, RegistryStore } from '@tickring/core/executors';
import type { EmbeddedDatabase } from './database.js';
import { ExpirySweep } from './expiry-sweep.js';

/** XXL-JOB's dead timeout (3 beats of 30 s); entries expire a few times later (as on DynamoDB). */
const DEFAULT_EXPIRE_AFTER_SECONDS = 3 * 90;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS executor_registry (
  app_name TEXT NOT NULL,
  address TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  -- Epoch seconds, the DynamoDB adapter's TTL value.
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (app_name, address)
);
CREATE INDEX IF NOT EXISTS executor_registry_by_expiry ON executor_registry (expires_at);
`;

export interface SqliteRegistryStoreOptions {
  readonly database: EmbeddedDatabase;
  /** An executor not seen for this long is gone for readers, then deleted. Default 270 s. */
  readonly expireAfterSeconds?: number;
  /** "Now" of the expiry. */
  readonly clock?: Clock;
}

/**
 * Executor heartbeats in SQLite, one row per (appName, address). A beat moves `updatedAt` forward
 * only. Expiry as on DynamoDB: `expires_at` (epoch seconds) is written with each beat, readers leave
 * an expired executor out, and the rows past it are deleted by a sweep (the TTL).
 */
export class SqliteRegistryStore implements RegistryStore {
  private readonly expireAfterSeconds: number;
  private readonly clock: Clock;
  private readonly sweep: ExpirySweep;

  constructor(private readonly options: SqliteRegistryStoreOptions) {
    options.database.ensureSchema('executor_registry', SCHEMA);
    this.expireAfterSeconds = options.expireAfterSeconds ?? DEFAULT_EXPIRE_AFTER_SECONDS;
    this.clock = options.clock ?? systemClock;
    this.sweep = new ExpirySweep(options.database, ['executor_registry'], this.clock);
  }

  async heartbeat(appName: string, address: string, nowMs: number): Promise<void> {
    this.sweep.sweepIfDue();
    // A late, older beat cannot make an executor look older than it is.
    this.sql(
      'INSERT INTO executor_registry (app_name, address, updated_at, expires_at) VALUES (?, ?, ?, ?) ' +
        'ON CONFLICT (app_name, address) DO UPDATE SET updated_at = excluded.updated_at, ' +
        'expires_at = excluded.expires_at WHERE updated_at <= excluded.updated_at',
    ).run(appName, address, nowMs, Math.floor(nowMs / 1000) + this.expireAfterSeconds);
  }

  async remove(appName: string, address: string): Promise<void> {
    this.sql('DELETE FROM executor_registry WHERE app_name = ? AND address = ?').run(appName, address);
  }

  async list(appName: string, seenSince?: number): Promise<RegistryEntry[]> {
    const nowSeconds = Math.floor(this.clock.now() / 1000);
    const rows = this.sql(
      'SELECT address, updated_at FROM executor_registry ' +
        'WHERE app_name = ? AND expires_at >= ? AND updated_at >= ?',
    ).all<{ address: string; updated_at: number }>(appName, nowSeconds, seenSince ?? Number.MIN_SAFE_INTEGER);
    // Sorted in JS (UTF-16 order, as the other stores), not by SQLite's byte order.
    return rows
      .map((row) => ({ appName, address: row.address, updatedAt: row.updated_at }))
      .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  }

  private sql(text: string) {
    return this.options.database.db.prepare(text);
  }
}
