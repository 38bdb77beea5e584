import { backfillStoreContract } from '@tickring/testing';
import { afterAll } from 'vitest';
import { SqliteBackfillStore } from './backfill-store.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('backfills-contract');
afterAll(() => databases.removeAll());

backfillStoreContract('SQLite', async () => new SqliteBackfillStore({ database: databases.fresh() }));
