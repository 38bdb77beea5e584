/**
 * What the executor API's refusal recorder and the executors list rely on from a
 * RegistrationRefusalStore, run over each adapter: in memory (unit,
 * packages/testing/src/memory/registration-refusal-store.contract.test.ts), SQLite (unit,
 * packages/embedded/src/sqlite/registration-refusal-store.contract.test.ts) and DynamoDB Local
 * (integration, packages/aws/src/dynamodb/registration-refusal-store.contract.int.test.ts). Each test
 * gets a fresh, empty store whose expiry is the default 24 h, on the wall clock.
 */

import type { RefusedRegistration, RegistrationRefusalStore } from '@tickring/core/executors';
import { describe, expect, it } from 'vitest';

const DAY_MS = 24 * 3600_000;

const refusal = (overrides: Partial<RefusedRegistration> = {}): RefusedRegistration => ({
  appName: 'app-a',
  address: 'http://10.0.0.5:9999/',
  reason: 'wrong-token',
  request: 'registry',
  detail: 'The access token is wrong.',
  firstSeen: Date.now() - 1_000,
  lastSeen: Date.now() - 1_000,
  count: 1,
  ...overrides,
});

export function registrationRefusalStoreContract(
  label: string,
  newStore: () => Promise<RegistrationRefusalStore>,
): void {
  describe(`RegistrationRefusalStore contract (${label})`, () => {
    it('adds up the refusals of a key: the first firstSeen, the last lastSeen, request and detail', async () => {
      const store = await newStore();
      const now = Date.now();
      await store.add(refusal({ firstSeen: now - 9_000, lastSeen: now - 8_000, count: 3 }));
      await store.add(
        refusal({
          firstSeen: now - 5_000,
          lastSeen: now - 2_000,
          count: 2,
          request: 'registryRemove',
          detail: 'x',
        }),
      );
      expect(await store.list()).toEqual([
        refusal({
          firstSeen: now - 9_000,
          lastSeen: now - 2_000,
          count: 5,
          request: 'registryRemove',
          detail: 'x',
        }),
      ]);
    });

    it('keeps one record per (appName, address, reason), whatever characters they hold', async () => {
      const store = await newStore();
      const now = Date.now();
      const keys = [
        { appName: 'a', address: 'b\nc', reason: 'wrong-token' },
        { appName: 'a\nb', address: 'c', reason: 'wrong-token' },
        { appName: 'a', address: 'b\nc', reason: 'missing-token' },
        { appName: '', address: '203.0.113.7', reason: 'malformed-request' },
        { appName: 'a"b', address: '#x#', reason: 'wrong-token' },
      ] as const;
      for (const [i, key] of keys.entries()) {
        await store.add(
          refusal({ ...key, firstSeen: now - 10_000 + i, lastSeen: now - 10_000 + i, count: i + 1 }),
        );
      }
      const listed = await store.list();
      expect(listed.map((r) => [r.appName, r.address, r.reason, r.count])).toEqual(
        keys.map((key, i) => [key.appName, key.address, key.reason, i + 1]).reverse(),
      );
    });

    it('lists the last seen first, and only the app name asked for', async () => {
      const store = await newStore();
      const now = Date.now();
      await store.add(refusal({ appName: 'app-a', address: 'http://old/', lastSeen: now - 60_000 }));
      await store.add(refusal({ appName: 'app-b', address: 'http://b/', lastSeen: now - 30_000 }));
      await store.add(refusal({ appName: 'app-a', address: 'http://new/', lastSeen: now - 1_000 }));
      expect((await store.list()).map((r) => r.address)).toEqual(['http://new/', 'http://b/', 'http://old/']);
      expect((await store.list('app-a')).map((r) => r.address)).toEqual(['http://new/', 'http://old/']);
      expect(await store.list('app-none')).toEqual([]);
    });

    it('counts every add exactly under concurrent adds of one key', async () => {
      const store = await newStore();
      const now = Date.now();
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.add(refusal({ firstSeen: now - 100, lastSeen: now - 100 + i })),
        ),
      );
      const [record] = await store.list();
      expect(record?.count).toBe(20);
    });

    it('forgets a key not refused for a day: it is left out, and a new refusal counts from one', async () => {
      const store = await newStore();
      const now = Date.now();
      const old = now - DAY_MS - 60_000;
      await store.add(refusal({ firstSeen: old - 5_000, lastSeen: old, count: 7 }));
      await store.add(
        refusal({
          address: 'http://recent/',
          firstSeen: now - DAY_MS + 60_000,
          lastSeen: now - DAY_MS + 60_000,
        }),
      );
      expect((await store.list()).map((r) => r.address)).toEqual(['http://recent/']);
      await store.add(refusal({ firstSeen: now - 500, lastSeen: now - 500, count: 2 }));
      expect(await store.list('app-a')).toEqual([
        refusal({ firstSeen: now - 500, lastSeen: now - 500, count: 2 }),
        refusal({
          address: 'http://recent/',
          firstSeen: now - DAY_MS + 60_000,
          lastSeen: now - DAY_MS + 60_000,
        }),
      ]);
    });
  });
}
