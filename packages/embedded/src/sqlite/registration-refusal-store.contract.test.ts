import { registrationRefusalStoreContract } from '@tickring/testing';
import { afterAll } from 'vitest';
import { SqliteRegistrationRefusalStore } from './registration-refusal-store.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('refusal-contract');
afterAll(() => databases.removeAll());

registrationRefusalStoreContract(
  'SQLite',
  async () => new SqliteRegistrationRefusalStore({ database: databases.fresh() }),
);
