import { routeStateStoreContract } from '@tickring/testing';
import { afterAll } from 'vitest';
import { SqliteRouteStateStore } from './route-state-store.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('routes-contract');
afterAll(() => databases.removeAll());

routeStateStoreContract('SQLite', async () => new SqliteRouteStateStore({ database: databases.fresh() }));
