/**
 * What the use-cases rely on from a GroupStore, run over each adapter: in memory (unit,
 * packages/testing/src/memory/group-store.contract.test.ts) and on DynamoDB Local (integration,
 * packages/aws/src/dynamodb/group-store.contract.int.test.ts). Each test gets a fresh, empty store.
 */

import { ConflictError, NotFoundError } from '@tickring/core/common';
import type { GroupStore } from '@tickring/core/jobs';
import { describe, expect, it } from 'vitest';
import { testGroup } from '../dispatch-fixtures.js';
import { refusal } from './pages.js';

const SEALED = 'v1.sealed-token-of-billing';

export function groupStoreContract(label: string, newStore: () => Promise<GroupStore>): void {
  describe(`GroupStore contract (${label})`, () => {
    it('creates a group once: a second create of its appName is a ConflictError and changes nothing', async () => {
      const store = await newStore();
      const group = testGroup({
        appName: 'billing',
        title: 'Billing',
        addressType: 'MANUAL',
        addressList: ['http://a:9999/'],
      });
      await store.create(group);
      expect(await store.get('billing')).toEqual(group);
      expect(await refusal(store.create({ ...group, title: 'Other' }))).toBeInstanceOf(ConflictError);
      expect(await store.get('billing')).toEqual(group);
      expect(await store.get('search')).toBeUndefined();
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) =>
          store.create(testGroup({ appName: 'racing', title: `racer ${i}` })),
        ),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    });

    it('lists every group by appName', async () => {
      const store = await newStore();
      const names = ['orders', 'billing', 'search', 'audit', 'mail'];
      for (const appName of names) await store.create(testGroup({ appName }));
      expect((await store.list()).map((g) => g.appName)).toEqual([...names].sort());
    });

    it('replaces an existing group only (NotFoundError otherwise)', async () => {
      const store = await newStore();
      await store.create(testGroup({ appName: 'billing' }));
      const edited = testGroup({
        appName: 'billing',
        title: 'Billing v2',
        addressType: 'MANUAL',
        addressList: ['http://b:9999/', 'http://a:9999/'],
        updatedAt: 5,
      });
      await store.replace(edited);
      expect(await store.get('billing')).toEqual(edited);
      expect(await refusal(store.replace(testGroup({ appName: 'missing' })))).toBeInstanceOf(NotFoundError);
      expect(await store.get('missing')).toBeUndefined();
    });

    it("keeps a group's alert channels: created with them, changed by a replace, gone when a replace has none", async () => {
      const store = await newStore();
      const group = testGroup({ appName: 'billing', alertChannels: ['ch-a', 'ch-b'] });
      await store.create(group);
      expect(await store.get('billing')).toEqual(group);
      await store.replace({ ...group, alertChannels: ['ch-c'], updatedAt: 5 });
      expect((await store.get('billing'))?.alertChannels).toEqual(['ch-c']);
      const { alertChannels: _channels, ...without } = group;
      await store.replace({ ...without, updatedAt: 6 });
      const read = await store.get('billing');
      expect(read).toEqual({ ...without, updatedAt: 6 });
      expect((await store.list()).map((g) => g.alertChannels)).toEqual([undefined]);
    });

    it("keeps a group's own access token sealed beside it: set, kept by a replace, cleared; never in a group read", async () => {
      const store = await newStore();
      await store.create(testGroup({ appName: 'billing' }));
      expect(await store.getSealedAccessToken('billing')).toBeUndefined();

      await store.setAccessToken('billing', SEALED, 50);
      expect(await store.getSealedAccessToken('billing')).toBe(SEALED);
      const withToken = await store.get('billing');
      expect(withToken).toMatchObject({ accessTokenSetAt: 50, updatedAt: 50 });
      expect(JSON.stringify([withToken, await store.list()])).not.toContain(SEALED);

      // A replace (an edit of the group's fields) leaves the token, and when it was set, alone.
      await store.replace(testGroup({ appName: 'billing', title: 'Edited', updatedAt: 60 }));
      expect(await store.getSealedAccessToken('billing')).toBe(SEALED);
      expect(await store.get('billing')).toMatchObject({
        title: 'Edited',
        accessTokenSetAt: 50,
        updatedAt: 60,
      });

      await store.clearAccessToken('billing');
      expect(await store.getSealedAccessToken('billing')).toBeUndefined();
      const cleared = await store.get('billing');
      expect(cleared?.accessTokenSetAt).toBeUndefined();
      expect(cleared?.title).toBe('Edited');

      expect(await refusal(store.setAccessToken('missing', SEALED, 1))).toBeInstanceOf(NotFoundError);
      expect(await refusal(store.clearAccessToken('missing'))).toBeInstanceOf(NotFoundError);
      expect(await store.get('missing')).toBeUndefined();
      expect(await store.getSealedAccessToken('missing')).toBeUndefined();
    });

    it('deletes a group with its token (a group made again has none); a missing one is a NotFoundError', async () => {
      const store = await newStore();
      await store.create(testGroup({ appName: 'billing' }));
      await store.setAccessToken('billing', SEALED, 50);
      await store.delete('billing');
      expect(await store.get('billing')).toBeUndefined();
      expect(await store.list()).toEqual([]);
      expect(await refusal(store.delete('billing'))).toBeInstanceOf(NotFoundError);
      await store.create(testGroup({ appName: 'billing' }));
      expect(await store.getSealedAccessToken('billing')).toBeUndefined();
      expect((await store.get('billing'))?.accessTokenSetAt).toBeUndefined();
    });
  });
}
