/**
 * What the dispatcher's routing relies on from a RouteStateStore, run over each adapter: in memory
 * (unit, packages/testing/src/memory/route-state-store.contract.test.ts) and on DynamoDB Local
 * (integration, packages/aws/src/dynamodb/route-state-store.contract.int.test.ts). Each test gets a
 * fresh, empty store.
 */

import type { RouteState, RouteStateStore } from '@tickring/core/dispatch';
import { describe, expect, it } from 'vitest';

const RESET_AT = Date.UTC(2030, 0, 2);
const round = (count: number): RouteState => ({ kind: 'ROUND', count, resetAt: RESET_AT });

export function routeStateStoreContract(label: string, newStore: () => Promise<RouteStateStore>): void {
  describe(`RouteStateStore contract (${label})`, () => {
    it('reads nothing stored as version 0, then stores versions 1, 2, … on the version read', async () => {
      const store = await newStore();
      expect(await store.get(1)).toEqual({ state: undefined, version: 0 });
      expect(await store.put(1, round(10), 0)).toBe(true);
      expect(await store.get(1)).toEqual({ state: round(10), version: 1 });
      expect(await store.put(1, round(11), 1)).toBe(true);
      expect(await store.get(1)).toEqual({ state: round(11), version: 2 });
      expect(await store.get(2)).toEqual({ state: undefined, version: 0 });
    });

    it('refuses a write based on a version someone else already replaced, changing nothing', async () => {
      const store = await newStore();
      expect(await store.put(1, round(1), 0)).toBe(true);
      expect(await store.put(1, round(99), 0)).toBe(false); // created meanwhile
      expect(await store.put(1, round(2), 1)).toBe(true);
      expect(await store.put(1, round(99), 1)).toBe(false); // a stale version
      expect(await store.put(1, round(99), 5)).toBe(false); // a version never stored
      expect(await store.get(1)).toEqual({ state: round(2), version: 2 });
    });

    it('lets exactly one of many concurrent writers of the same version win: no ROUND step is lost', async () => {
      const store = await newStore();
      const first = await Promise.all(Array.from({ length: 12 }, (_, i) => store.put(1, round(100 + i), 0)));
      expect(first.filter(Boolean)).toHaveLength(1);
      const second = await Promise.all(Array.from({ length: 12 }, (_, i) => store.put(1, round(200 + i), 1)));
      expect(second.filter(Boolean)).toHaveLength(1);
      expect(await store.get(1)).toEqual({ state: round(200 + second.indexOf(true)), version: 2 });
    });

    it('keeps every kind of state as written (LFU counts and LRU order keyed by address), apart per job', async () => {
      const store = await newStore();
      const lfu: RouteState = {
        kind: 'LFU',
        counts: { 'http://a:9999/': 3, 'lambda:fn': 1 },
        resetAt: RESET_AT,
      };
      const lru: RouteState = {
        kind: 'LRU',
        order: ['http://b:9999/', 'http://a:9999/', 'lambda:fn'],
        resetAt: RESET_AT,
      };
      await store.put(1, lfu, 0);
      await store.put(2, lru, 0);
      await store.put(3, round(0), 0);
      expect(await store.get(1)).toEqual({ state: lfu, version: 1 });
      expect(await store.get(2)).toEqual({ state: lru, version: 1 });
      expect(await store.get(3)).toEqual({ state: round(0), version: 1 });
    });

    it('keeps what was stored, whatever the caller does with its objects after', async () => {
      const store = await newStore();
      const written = { kind: 'LFU' as const, counts: { 'http://a/': 1 }, resetAt: RESET_AT };
      await store.put(1, written, 0);
      written.counts['http://a/'] = 50;
      const read = await store.get(1);
      if (read.state?.kind === 'LFU') read.state.counts['http://a/'] = 99;
      expect((await store.get(1)).state).toEqual({
        kind: 'LFU',
        counts: { 'http://a/': 1 },
        resetAt: RESET_AT,
      });
    });
  });
}
