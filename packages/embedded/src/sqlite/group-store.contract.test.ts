import { groupStoreContract } from '@tickring/testing';
import { afterAll } from 'vitest';
import { SqliteGroupStore } from './group-store.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('groups-contract');
afterAll(() => databases.removeAll());

groupStoreContract('SQLite', async () => new SqliteGroupStore({ database: databases.fresh() }));
