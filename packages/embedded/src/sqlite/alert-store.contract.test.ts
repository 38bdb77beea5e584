import { alertStoreContract } from '@tickring/testing';
import { afterAll } from 'vitest';
import { SqliteAlertStore } from './alert-store.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('alerts-contract');
afterAll(() => databases.removeAll());

alertStoreContract('SQLite', async () => new SqliteAlertStore({ database: databases.fresh() }));
