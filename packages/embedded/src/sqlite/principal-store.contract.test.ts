import { identityLifecycleSuite } from '@tickring/testing';
import { afterAll } from 'vitest';
import { SqlitePrincipalStore } from './principal-store.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('principals-contract');
afterAll(() => databases.removeAll());

identityLifecycleSuite('SQLite', async () => new SqlitePrincipalStore({ database: databases.fresh() }));
