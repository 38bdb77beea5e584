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
  const ask = async (owner: string, at: number) => {
    requests.length = 0;
    const lease = await store.acquire(0, owner, at, LEASE_MS);
    return { lease, requests: [...requests] };
  };
  let store: DynamoLeaseStore;

  beforeAll(async () => {
    store = new DynamoLeaseStore({ doc: env.clients.doc, controlTable: await freshTable(env, 'control') });
  });

  it('refuses a standby with one write, then reads the lease instead until it expires, and takes it', async () => {
    expect((await ask('holder', T)).lease).toMatchObject({ owner: 'holder' });

    expect(await ask('standby', T + 1_000)).toEqual({ lease: undefined, requests: ['UpdateItemCommand'] });
    expect(await ask('standby', T + 2_000)).toEqual({ lease: undefined, requests: ['GetItemCommand'] });

    // Renewed: past the end the standby was first handed back, its read still finds the lease held.
    expect((await ask('holder', T + 2_000)).lease).toMatchObject({ leaseUntil: T + 2_000 + LEASE_MS });
    expect(await ask('standby', T + 3_500)).toEqual({ lease: undefined, requests: ['GetItemCommand'] });

    // Expired (the holder died): the read says so, and the writes follow.
    expect(await ask('standby', T + 5_001)).toEqual({
      lease: expect.objectContaining({ owner: 'standby', tookOver: true }),
      requests: ['GetItemCommand', 'UpdateItemCommand', 'UpdateItemCommand'],
    });
  });

  it('sees a hand-over in its read and takes the lease at once', async () => {
    const at = T + 10_000;
    expect((await ask('first', at)).lease).toMatchObject({ owner: 'first' });
    expect((await ask('second', at + 100)).lease).toBeUndefined();

    await store.release(0, 'first');
    expect(await ask('second', at + 1_000)).toEqual({
      lease: expect.objectContaining({ owner: 'second', tookOver: false }),
      requests: ['GetItemCommand', 'UpdateItemCommand', 'UpdateItemCommand'],
    });
  });
});
