import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { RouteState } from '@tickring/core/dispatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';
import { DynamoRouteStateStore } from './route-state-store.js';
import { DynamoSlowTracker } from './slow-tracker.js';

let t: TestResources;
let routes: DynamoRouteStateStore;
let slow: DynamoSlowTracker;

beforeAll(async () => {
  t = await isolatedResources('route');
  routes = new DynamoRouteStateStore({ doc: t.clients.doc, controlTable: t.resources.tables.control });
  slow = new DynamoSlowTracker({ doc: t.clients.doc, controlTable: t.resources.tables.control });
});

afterAll(() => t?.close());

const round = (count: number): RouteState => ({ kind: 'ROUND', count, resetAt: 2_000_000_000_000 });

describe('DynamoRouteStateStore', () => {
  it('reads nothing as version 0, then stores versions 1, 2, ... conditionally', async () => {
    expect(await routes.get(1)).toEqual({ state: undefined, version: 0 });
    expect(await routes.put(1, round(10), 0)).toBe(true);
    expect(await routes.get(1)).toEqual({ state: round(10), version: 1 });
    expect(await routes.put(1, round(11), 1)).toBe(true);
    expect(await routes.get(1)).toMatchObject({ state: { count: 11 }, version: 2 });
  });

  it('refuses a write based on a version someone else already replaced', async () => {
    await routes.put(2, round(1), 0);
    expect(await routes.put(2, round(99), 0)).toBe(false); // created meanwhile
    expect(await routes.put(2, round(2), 1)).toBe(true);
    expect(await routes.put(2, round(99), 1)).toBe(false); // stale version
    expect(await routes.get(2)).toMatchObject({ state: { count: 2 }, version: 2 });
  });

  it('lets exactly one of many concurrent writers of the same version win', async () => {
    await routes.put(3, round(0), 0);
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => routes.put(3, round(i + 1), 1)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('keeps LFU counts and LRU order keyed by address, with a TTL a day past the reset', async () => {
    const lfu: RouteState = {
      kind: 'LFU',
      counts: { 'http://a:9999/': 3, 'lambda:fn': 1 },
      resetAt: 2_000_000_000_000,
    };
    await routes.put(4, lfu, 0);
    expect((await routes.get(4)).state).toEqual(lfu);
    const { Item } = await t.clients.doc.send(
      new GetCommand({ TableName: t.resources.tables.control, Key: { pk: 'route#4' } }),
    );
    expect(Item?.expiresAt).toBe(2_000_000_000 + 86_400);
  });
});

describe('DynamoSlowTracker', () => {
  it('counts slow dispatches per job and wall-clock minute', async () => {
    const minute = Date.UTC(2030, 0, 1, 12, 0, 0);
    expect(await slow.countSlowDispatch(7, minute + 1_000)).toBe(1);
    expect(await slow.countSlowDispatch(7, minute + 59_000)).toBe(2);
    expect(await slow.countSlowDispatch(8, minute + 2_000)).toBe(1);
    expect(await slow.countSlowDispatch(7, minute + 60_000)).toBe(1); // the next minute starts over
    const counts = await Promise.all(Array.from({ length: 10 }, () => slow.countSlowDispatch(9, minute)));
    expect(counts.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
