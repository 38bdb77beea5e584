import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordConsumedCapacity } from '../../../../test/consumed-capacity.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';
import { DynamoRegistryStore } from './registry-store.js';
import { DynamoReportStore } from './report-store.js';

// The RegistryStore's and the ReportStore's behaviour is pinned by their contract suites
// (registry-store.contract.int.test.ts, report-store.contract.int.test.ts); these tests keep
// DynamoDB's own: the TTL attribute that readers filter by, and the counters' items and ADDs.

describe('DynamoRegistryStore (DynamoDB Local)', () => {
  let env: TestResources;
  let store: DynamoRegistryStore;

  beforeAll(async () => {
    env = await isolatedResources('reg');
    store = new DynamoRegistryStore({
      doc: env.clients.doc,
      registryTable: env.resources.tables.registry,
      expireAfterSeconds: 300,
    });
  });
  afterAll(() => env?.close());

  it('upserts a heartbeat with its time and a TTL a few dead timeouts later', async () => {
    const now = Date.now();
    await store.heartbeat('app-a', 'http://10.0.0.2:9999/', now - 1_000);
    await store.heartbeat('app-a', 'http://10.0.0.2:9999/', now);
    const { Item } = await env.clients.doc.send(
      new GetCommand({
        TableName: env.resources.tables.registry,
        Key: { appName: 'app-a', address: 'http://10.0.0.2:9999/' },
      }),
    );
    expect(Item).toMatchObject({ updatedAt: now, expiresAt: Math.floor(now / 1000) + 300 });
  });

  it('leaves out entries past their TTL that DynamoDB has not deleted yet', async () => {
    const expired = new DynamoRegistryStore({
      doc: env.clients.doc,
      registryTable: env.resources.tables.registry,
      expireAfterSeconds: 1,
    });
    await expired.heartbeat('app-d', 'http://old/', Date.now() - 10_000);
    expect(await store.list('app-d')).toEqual([]);
  });
});

describe('DynamoReportStore (DynamoDB Local)', () => {
  let env: TestResources;
  let store: DynamoReportStore;

  beforeAll(async () => {
    env = await isolatedResources('rep');
    store = new DynamoReportStore({ doc: env.clients.doc, controlTable: env.resources.tables.control });
  });
  afterAll(() => env?.close());

  it('counts skipped fires as the other counters: in the day’s item and its group’s, one ADD each', async () => {
    const capacity = recordConsumedCapacity(env.clients.doc);
    const before = capacity.records.length;
    await store.add('2030-03-01', { running: 1, skipped: 2 }, 'app-s');
    const writes = capacity.slice(before);
    expect(writes.map((w) => [w.command, w.input.UpdateExpression])).toEqual([
      ['UpdateItemCommand', 'ADD #running :running, #skipped :skipped'],
      ['UpdateItemCommand', 'ADD #running :running, #skipped :skipped'],
    ]);
    await Promise.all(Array.from({ length: 10 }, () => store.add('2030-03-01', { skipped: 1 }, 'app-s')));
    await store.add('2030-03-01', { skipped: 1 }, 'app-t');
    await store.add('2030-03-01', { fail: 1 });
    expect(await store.range('2030-03-01', '2030-03-01')).toEqual([
      { day: '2030-03-01', running: 1, success: 0, fail: 1, skipped: 13 },
    ]);
    expect(await store.range('2030-03-01', '2030-03-01', ['app-s'])).toEqual([
      { day: '2030-03-01', running: 1, success: 0, fail: 0, skipped: 12 },
    ]);
    expect(await store.range('2030-03-01', '2030-03-01', ['app-s', 'app-t'])).toEqual([
      { day: '2030-03-01', running: 1, success: 0, fail: 0, skipped: 13 },
    ]);
    const { Item } = await env.clients.doc.send(
      new GetCommand({ TableName: env.resources.tables.control, Key: { pk: 'report#2030-03-01#app-s' } }),
    );
    expect(Item).toMatchObject({ running: 1, skipped: 12 });
  });

  it('stores the counters as report#{day} items in the control table', async () => {
    await store.add('2030-02-01', { success: 1 });
    const { Item } = await env.clients.doc.send(
      new GetCommand({ TableName: env.resources.tables.control, Key: { pk: 'report#2030-02-01' } }),
    );
    expect(Item).toMatchObject({ pk: 'report#2030-02-01', success: 1 });
  });
});
