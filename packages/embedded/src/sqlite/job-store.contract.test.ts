import { jobStoreContract } from '@tickring/testing';
import { afterAll } from 'vitest';
import { SqliteJobStore } from './job-store.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('jobs-contract');
afterAll(() => databases.removeAll());

jobStoreContract(
  'SQLite',
  async ({ shardCount }) => new SqliteJobStore({ database: databases.fresh(), shardCount }),
);
