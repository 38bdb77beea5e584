import { DynamoLeaseStore } from '@tickring/aws/dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

const T = Date.UTC(2030, 0, 1, 12, 0, 0);
const LEASE_MS = 3_000;

let env: TestResources;
/** DynamoDB requests sent through the test's client, by command. */
const requests: string[] = [];

beforeAll(async () => {
  env = await isolatedResources('leases');
  env.clients.doc.middlewareStack.add(
    (next, context) => async (args) => {
      requests.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: 'countLeaseRequests' },
  );
});
afterAll(() => env?.close());

describe('DynamoLeaseStore', () => {
  it('refuses a standby with one write while another owner holds the lease, and takes it once expired', async () => {
    const store = new DynamoLeaseStore({
      doc: env.clients.doc,
      controlTable: await freshTable(env, 'control'),
    });
    expect(await store.acquire(0, 'holder', T, LEASE_MS)).toMatchObject({ owner: 'holder' });

    requests.length = 0;
    expect(await store.acquire(0, 'standby', T + 1_000, LEASE_MS)).toBeUndefined();
    expect(requests).toEqual(['UpdateItemCommand']);

    // Expired: the refused renewal says so, and the take follows.
    requests.length = 0;
    expect(await store.acquire(0, 'standby', T + LEASE_MS + 1, LEASE_MS)).toMatchObject({
      owner: 'standby',
      tookOver: true,
    });
    expect(requests).toEqual(['UpdateItemCommand', 'UpdateItemCommand']);

    // Released on purpose: taken at once.
    await store.release(0, 'standby');
    expect(await store.acquire(0, 'holder', T + LEASE_MS + 2, LEASE_MS)).toMatchObject({
      owner: 'holder',
      tookOver: false,
    });
  });
});
