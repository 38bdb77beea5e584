import { registryStoreContract } from '@tickring/testing';
import { afterAll } from 'vitest';
import { SqliteRegistryStore } from './registry-store.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('registry-contract');
afterAll(() => databases.removeAll());

registryStoreContract(
  'SQLite',
  async ({ expireAfterSeconds }) =>
    new SqliteRegistryStore({ database: databases.fresh(), expireAfterSeconds }),
);
