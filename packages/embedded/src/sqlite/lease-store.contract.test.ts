import { leaseStoreContract } from '@tickring/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteLeaseStore } from './lease-store.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('leases-contract');
afterAll(() => databases.removeAll());

leaseStoreContract('SQLite', async () => new SqliteLeaseStore({ database: databases.fresh() }));

describe('SqliteLeaseStore on a database written before leases carried the admission', () => {
  it('adds the column on open: the old lease holds as before, and its release hands an admission over', async () => {
    const old = databases.open('before-admission.db');
    old.db.exec(`CREATE TABLE shard_leases (
      shard INTEGER PRIMARY KEY, owner TEXT NOT NULL, lease_until INTEGER NOT NULL, fencing_token INTEGER NOT NULL)`);
    old.db.prepare('INSERT INTO shard_leases VALUES (?, ?, ?, ?)').run(0, 'a', 5_000, 3);
    old.close();

    const store = new SqliteLeaseStore({ database: databases.open('before-admission.db') });
    expect(await store.acquire(0, 'b', 4_000, 1_000)).toBeUndefined();
    const handover = { share: 0.49, backlogSeconds: 3, messagesPerIteration: 12, readAt: 4_500 };
    await store.release(0, 'a', handover);
    expect(await store.acquire(0, 'b', 4_600, 1_000)).toEqual({
      shard: 0,
      owner: 'b',
      leaseUntil: 5_600,
      fencingToken: 4,
      tookOver: false,
      admission: handover,
    });
  });
});
