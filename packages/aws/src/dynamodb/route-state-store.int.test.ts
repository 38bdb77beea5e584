import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { RouteState } from '@tickring/core/dispatch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';
import { DynamoRouteStateStore } from './route-state-store.js';

// The RouteStateStore's and the SlowTracker's behaviour is pinned by their contract suites
// (route-state-store.contract.int.test.ts, slow-tracker.contract.int.test.ts); this keeps DynamoDB's
// own: the TTL of a job's routing state.

let t: TestResources;
let routes: DynamoRouteStateStore;

beforeAll(async () => {
  t = await isolatedResources('route');
  routes = new DynamoRouteStateStore({ doc: t.clients.doc, controlTable: t.resources.tables.control });
});

afterAll(() => t?.close());

describe('DynamoRouteStateStore', () => {
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
