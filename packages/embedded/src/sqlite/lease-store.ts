import type { Lease, LeaseStore } from '@tickring/core/tick';
import type { EmbeddedDatabase } from './database.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS shard_leases (
  shard INTEGER PRIMARY KEY,
  owner TEXT NOT NULL,
  -- 0 once released on purpose (a hand-over, not a takeover).
  lease_until INTEGER NOT NULL,
  fencing_token INTEGER NOT NULL
);
`;

interface LeaseRow {
  [column: string]: string | number;
  owner: string;
  lease_until: number;
  fencing_token: number;
}

/**
 * Shard leases in SQLite, with the DynamoDB store's rules: taken when free, expired or already ours;
 * renewed by the owner up to and including `leaseUntil`; the fencing token grows whenever the lease
 * is taken anew. Each acquire reads and writes in one write transaction, so of concurrent takers
 * (in this process or another on the same file) one wins.
 */
export class SqliteLeaseStore implements LeaseStore {
  constructor(private readonly options: { database: EmbeddedDatabase }) {
    options.database.ensureSchema('shard_leases', SCHEMA);
  }

  async acquire(shard: number, owner: string, nowMs: number, durationMs: number): Promise<Lease | undefined> {
    const { database } = this.options;
    return database.transaction(() => {
      const held = database.db
        .prepare('SELECT owner, lease_until, fencing_token FROM shard_leases WHERE shard = ?')
        .get<LeaseRow>(shard);
      const leaseUntil = nowMs + durationMs;
      if (held?.owner === owner && held.lease_until >= nowMs) {
        database.db.prepare('UPDATE shard_leases SET lease_until = ? WHERE shard = ?').run(leaseUntil, shard);
        return { shard, owner, leaseUntil, fencingToken: held.fencing_token, tookOver: false };
      }
      if (held !== undefined && held.lease_until >= nowMs) return undefined;
      const fencingToken = (held?.fencing_token ?? 0) + 1;
      database.db
        .prepare(
          'INSERT INTO shard_leases (shard, owner, lease_until, fencing_token) VALUES (?, ?, ?, ?) ' +
            'ON CONFLICT (shard) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until, ' +
            'fencing_token = excluded.fencing_token',
        )
        .run(shard, owner, leaseUntil, fencingToken);
      const tookOver = held !== undefined && held.owner !== owner && held.lease_until > 0;
      return { shard, owner, leaseUntil, fencingToken, tookOver };
    });
  }

  async release(shard: number, owner: string): Promise<void> {
    this.options.database.db
      .prepare('UPDATE shard_leases SET lease_until = 0 WHERE shard = ? AND owner = ?')
      .run(shard, owner);
  }
}
