/**
 * What the dispatcher, the monitors and the executor API rely on from a RegistryStore, run over
 * each adapter: in memory (unit, packages/testing/src/memory/registry-store.contract.test.ts) and
 * on DynamoDB Local (integration, packages/aws/src/dynamodb/registry-store.contract.int.test.ts).
 * Each test gets a fresh, empty store. Heartbeats are at wall-clock times: an executor not seen for
 * the store's expiry is gone by the wall clock.
 */

import type { RegistryStore } from '@tickring/core/executors';
import { describe, expect, it } from 'vitest';

/** What the suite asks of a new store. */
export interface RegistryStoreContractOptions {
  /** An executor not seen for this long is left out of every list. */
  readonly expireAfterSeconds: number;
}

const EXPIRE_AFTER_SECONDS = 300;

export function registryStoreContract(
  label: string,
  newStore: (options: RegistryStoreContractOptions) => Promise<RegistryStore>,
): void {
  const fresh = () => newStore({ expireAfterSeconds: EXPIRE_AFTER_SECONDS });
  const addresses = async (store: RegistryStore, appName: string, seenSince?: number) =>
    (await store.list(appName, seenSince)).map((e) => e.address);

  describe(`RegistryStore contract (${label})`, () => {
    it("keeps one entry per executor with its latest beat, and lists an app's executors by address", async () => {
      const store = await fresh();
      const now = Date.now();
      await store.heartbeat('app-a', 'http://10.0.0.2:9999/', now - 2_000);
      await store.heartbeat('app-a', 'http://10.0.0.10:9999/', now - 1_000);
      await store.heartbeat('app-a', 'http://10.0.0.2:9999/', now);
      await store.heartbeat('app-a', 'lambda:fn-a', now - 500);
      await store.heartbeat('app-b', 'http://10.0.0.2:9999/', now - 3_000);
      expect(await store.list('app-a')).toEqual([
        { appName: 'app-a', address: 'http://10.0.0.10:9999/', updatedAt: now - 1_000 },
        { appName: 'app-a', address: 'http://10.0.0.2:9999/', updatedAt: now },
        { appName: 'app-a', address: 'lambda:fn-a', updatedAt: now - 500 },
      ]);
      expect(await store.list('app-b')).toEqual([
        { appName: 'app-b', address: 'http://10.0.0.2:9999/', updatedAt: now - 3_000 },
      ]);
      expect(await store.list('app-none')).toEqual([]);
    });

    it('never moves a beat back in time, whatever order concurrent beats land in', async () => {
      const store = await fresh();
      const now = Date.now();
      await store.heartbeat('app-a', 'http://x/', now);
      await store.heartbeat('app-a', 'http://x/', now - 5_000);
      expect(await store.list('app-a')).toEqual([{ appName: 'app-a', address: 'http://x/', updatedAt: now }]);
      const beats = Array.from({ length: 12 }, (_, i) => now + ((i * 5) % 12) * 100);
      await Promise.all(beats.map((at) => store.heartbeat('app-a', 'http://y/', at)));
      expect((await store.list('app-a')).find((e) => e.address === 'http://y/')?.updatedAt).toBe(
        Math.max(...beats),
      );
    });

    it('lists only the executors seen since a time, that time included', async () => {
      const store = await fresh();
      const now = Date.now();
      await store.heartbeat('app-a', 'http://b/', now - 100_000);
      await store.heartbeat('app-a', 'http://c/', now);
      await store.heartbeat('app-a', 'http://a/', now - 90_000);
      expect(await addresses(store, 'app-a', now - 90_000)).toEqual(['http://a/', 'http://c/']);
      expect(await addresses(store, 'app-a', now - 89_999)).toEqual(['http://c/']);
      expect(await addresses(store, 'app-a', now + 1)).toEqual([]);
    });

    it('leaves out an executor not seen for the expiry, even when asked for all', async () => {
      const store = await fresh();
      const now = Date.now();
      await store.heartbeat('app-a', 'http://gone/', now - (EXPIRE_AFTER_SECONDS + 10) * 1_000);
      await store.heartbeat('app-a', 'http://kept/', now - (EXPIRE_AFTER_SECONDS - 10) * 1_000);
      expect(await addresses(store, 'app-a')).toEqual(['http://kept/']);
      expect(await addresses(store, 'app-a', 0)).toEqual(['http://kept/']);
      // A new beat brings it back.
      await store.heartbeat('app-a', 'http://gone/', now);
      expect(await addresses(store, 'app-a')).toEqual(['http://gone/', 'http://kept/']);
    });

    it('removes an executor (removing one never there is no error)', async () => {
      const store = await fresh();
      const now = Date.now();
      await store.heartbeat('app-a', 'http://gone/', now);
      await store.heartbeat('app-a', 'http://stays/', now);
      await store.heartbeat('app-b', 'http://gone/', now);
      await store.remove('app-a', 'http://gone/');
      await store.remove('app-a', 'http://never-there/');
      expect(await addresses(store, 'app-a')).toEqual(['http://stays/']);
      expect(await addresses(store, 'app-b')).toEqual(['http://gone/']);
    });
  });
}
