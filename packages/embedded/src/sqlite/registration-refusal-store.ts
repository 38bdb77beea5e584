import { type Clock, systemClock } from '@tickring/core/common';
import {
  byLastSeen,
  DEFAULT_REFUSAL_EXPIRE_AFTER_SECONDS,
  type RefusalReason,
  type RefusedRegistration,
  type RefusedRequest,
  type RegistrationRefusalStore,
} from '@tickring/core/executors';
import type { EmbeddedDatabase } from './database.js';
import { ExpirySweep } from './expiry-sweep.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS executor_refusals (
  app_name TEXT NOT NULL,
  address TEXT NOT NULL,
  reason TEXT NOT NULL,
  request TEXT NOT NULL,
  detail TEXT NOT NULL,
  first_seen INTEGER NOT NULL,
  last_seen INTEGER NOT NULL,
  count INTEGER NOT NULL,
  -- Epoch seconds, the DynamoDB adapter's TTL value.
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (app_name, address, reason)
);
CREATE INDEX IF NOT EXISTS executor_refusals_by_expiry ON executor_refusals (expires_at);
`;

type Row = {
  app_name: string;
  address: string;
  reason: string;
  request: string;
  detail: string;
  first_seen: number;
  last_seen: number;
  count: number;
};

export interface SqliteRegistrationRefusalStoreOptions {
  readonly database: EmbeddedDatabase;
  /** A key not refused again for this long is gone. Default 24 h. */
  readonly expireAfterSeconds?: number;
  /** "Now" of the expiry. */
  readonly clock?: Clock;
}

/**
 * Refused executor requests in SQLite, one row per (appName, address, reason), expiring as on
 * DynamoDB: `expires_at` runs from the last refusal, readers leave an expired row out, and a sweep
 * deletes it. An add to a row past its expiry starts it again.
 */
export class SqliteRegistrationRefusalStore implements RegistrationRefusalStore {
  private readonly expireAfterSeconds: number;
  private readonly clock: Clock;
  private readonly sweep: ExpirySweep;

  constructor(private readonly options: SqliteRegistrationRefusalStoreOptions) {
    options.database.ensureSchema('executor_refusals', SCHEMA);
    this.expireAfterSeconds = options.expireAfterSeconds ?? DEFAULT_REFUSAL_EXPIRE_AFTER_SECONDS;
    this.clock = options.clock ?? systemClock;
    this.sweep = new ExpirySweep(options.database, ['executor_refusals'], this.clock);
  }

  async add(r: RefusedRegistration): Promise<void> {
    this.sweep.sweepIfDue();
    const nowSeconds = Math.floor(this.clock.now() / 1000);
    this.options.database.db
      .prepare(
        'INSERT INTO executor_refusals (app_name, address, reason, request, detail, first_seen, last_seen, count, expires_at) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (app_name, address, reason) DO UPDATE SET ' +
          'first_seen = CASE WHEN expires_at < ? THEN excluded.first_seen ELSE first_seen END, ' +
          'count = CASE WHEN expires_at < ? THEN excluded.count ELSE count + excluded.count END, ' +
          'request = excluded.request, detail = excluded.detail, last_seen = excluded.last_seen, ' +
          'expires_at = excluded.expires_at',
      )
      .run(
        r.appName,
        r.address,
        r.reason,
        r.request,
        r.detail,
        r.firstSeen,
        r.lastSeen,
        r.count,
        Math.floor(r.lastSeen / 1000) + this.expireAfterSeconds,
        nowSeconds,
        nowSeconds,
      );
  }

  async list(appName?: string): Promise<RefusedRegistration[]> {
    const nowSeconds = Math.floor(this.clock.now() / 1000);
    const rows = this.options.database.db
      .prepare(
        'SELECT app_name, address, reason, request, detail, first_seen, last_seen, count FROM executor_refusals ' +
          `WHERE expires_at >= ?${appName === undefined ? '' : ' AND app_name = ?'}`,
      )
      .all<Row>(...(appName === undefined ? [nowSeconds] : [nowSeconds, appName]));
    // Sorted in JS (UTF-16 order, as the other stores), not by SQLite's byte order.
    return rows
      .map((row) => ({
        appName: row.app_name,
        address: row.address,
        reason: row.reason as RefusalReason,
        request: row.request as RefusedRequest,
        detail: row.detail,
        firstSeen: row.first_seen,
        lastSeen: row.last_seen,
        count: row.count,
      }))
      .sort(byLastSeen);
  }
}
