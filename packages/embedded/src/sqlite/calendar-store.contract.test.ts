import { calendarStoreContract } from '@tickring/testing';
import { afterAll } from 'vitest';
import { SqliteCalendarStore } from './calendar-store.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('calendars-contract');
afterAll(() => databases.removeAll());

calendarStoreContract('SQLite', async () => new SqliteCalendarStore({ database: databases.fresh() }));
