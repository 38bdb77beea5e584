import type { AdmissionHandover, Lease, LeaseStore } from '@tickring/core/tick';
import type { EmbeddedDatabase, SqlValue } from './database.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS shard_leases (
  shard INTEGER PRIMARY KEY,
  owner TEXT NOT NULL,
  -- 0 once released on purpose (a hand-over, not a takeover).
  lease_until INTEGER NOT NULL,
  fencing_token INTEGER NOT NULL,
  -- The admission handed over with the last release (JSON; NULL: none).
  admission TEXT
);
`;

interface LeaseRow {
  [column: string]: SqlValue;
  owner: string;
  lease_until: number;
  fencing_token: number;
  admission: string | null;
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
    // A database written before leases carried the admission gets the column (NULL: none).
    options.database.ensureColumns('shard_leases', [['admission', 'TEXT']]);
  }

  async acquire(shard: number, owner: string, nowMs: number, durationMs: number): Promise<Lease | undefined> {
    const { database } = this.options;
    return database.transaction(() => {
      const held = database.db
        .prepare('SELECT owner, lease_until, fencing_token, admission FROM shard_leases WHERE shard = ?')
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
            // The handover is for this taker only: a holder that dies hands nothing on to the next.
            'fencing_token = excluded.fencing_token, admission = NULL',
        )
        .run(shard, owner, leaseUntil, fencingToken);
      const tookOver = held !== undefined && held.owner !== owner && held.lease_until > 0;
      const admission = parseAdmission(held?.admission ?? null);
      return { shard, owner, leaseUntil, fencingToken, tookOver, ...(admission ? { admission } : {}) };
    });
  }

  async release(shard: number, owner: string, admission?: AdmissionHandover): Promise<void> {
    this.options.database.db
      .prepare('UPDATE shard_leases SET lease_until = 0, admission = ? WHERE shard = ? AND owner = ?')
      .run(admission ? JSON.stringify(admission) : null, shard, owner);
  }
}

/** A handover as stored; one that is not JSON is none (the tick checks the fields it adopts). */
function parseAdmission(text: string | null): AdmissionHandover | undefined {
  if (text === null) return undefined;
  try {
    return JSON.parse(text) as AdmissionHandover;
  } catch {
    return undefined;
  }
}
