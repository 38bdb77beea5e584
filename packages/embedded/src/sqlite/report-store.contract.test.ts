import { reportStoreContract } from '@tickring/testing';
import { afterAll } from 'vitest';
import { SqliteReportStore } from './report-store.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('reports-contract');
afterAll(() => databases.removeAll());

reportStoreContract('SQLite', async () => new SqliteReportStore({ database: databases.fresh() }));
