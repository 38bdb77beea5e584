import { leaseStoreContract } from '@tickring/testing';
import { afterAll } from 'vitest';
import { SqliteLeaseStore } from './lease-store.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('leases-contract');
afterAll(() => databases.removeAll());

leaseStoreContract('SQLite', async () => new SqliteLeaseStore({ database: databases.fresh() }));
