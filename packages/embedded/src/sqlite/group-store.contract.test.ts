import { groupStoreContract } from '@tickring/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteGroupStore } from './group-store.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('groups-contract');
afterAll(() => databases.removeAll());

groupStoreContract('SQLite', async () => new SqliteGroupStore({ database: databases.fresh() }));

describe('SqliteGroupStore on a database written before groups had alert channels', () => {
  it('adds the column on open: the old groups read as before, and take channels from then on', async () => {
    const old = databases.open('before-alert-channels.db');
    old.db.exec(`CREATE TABLE executor_groups (
      app_name TEXT PRIMARY KEY, title TEXT NOT NULL, address_type TEXT NOT NULL, address_list TEXT NOT NULL,
      created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, access_token_set_at INTEGER, access_token_sealed TEXT)`);
    old.db
      .prepare('INSERT INTO executor_groups VALUES (?, ?, ?, ?, ?, ?, NULL, NULL)')
      .run('orders', 'Orders', 'AUTO', '[]', 1, 1);
    old.close();

    const store = new SqliteGroupStore({ database: databases.open('before-alert-channels.db') });
    const group = {
      appName: 'orders',
      title: 'Orders',
      addressType: 'AUTO' as const,
      addressList: [],
      createdAt: 1,
    };
    expect(await store.get('orders')).toEqual({ ...group, updatedAt: 1 });
    await store.replace({ ...group, alertChannels: ['ch-a'], updatedAt: 2 });
    expect(await store.get('orders')).toEqual({ ...group, alertChannels: ['ch-a'], updatedAt: 2 });
  });
});
