import { slowTrackerContract } from '@tickring/testing';
import { afterAll } from 'vitest';
import { SqliteSlowTracker } from './slow-tracker.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('slow-contract');
afterAll(() => databases.removeAll());

slowTrackerContract('SQLite', async () => new SqliteSlowTracker({ database: databases.fresh() }));
