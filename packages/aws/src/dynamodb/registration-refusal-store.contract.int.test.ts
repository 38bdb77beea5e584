import { DynamoRegistrationRefusalStore, DynamoRegistryStore } from '@tickring/aws/dynamodb';
import { registrationRefusalStoreContract } from '@tickring/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('refusal-contract');
});
afterAll(() => env?.close());

registrationRefusalStoreContract('DynamoDB Local', async () => {
  const registryTable = await freshTable(env, 'registry');
  return new DynamoRegistrationRefusalStore({ doc: env.clients.doc, registryTable });
});

describe('refusals beside the heartbeats in the registry table', () => {
  it('are never listed as executors, and heartbeats never as refusals', async () => {
    const registryTable = await freshTable(env, 'registry');
    const registry = new DynamoRegistryStore({ doc: env.clients.doc, registryTable });
    const refusals = new DynamoRegistrationRefusalStore({ doc: env.clients.doc, registryTable });
    const now = Date.now();
    await registry.heartbeat('app-a', 'http://ok/', now);
    await refusals.add({
      appName: 'app-a',
      address: 'http://refused/',
      reason: 'wrong-token',
      request: 'registry',
      detail: 'The access token is wrong.',
      firstSeen: now,
      lastSeen: now,
      count: 1,
    });
    expect((await registry.list('app-a')).map((e) => e.address)).toEqual(['http://ok/']);
    expect((await refusals.list()).map((r) => r.address)).toEqual(['http://refused/']);
  });
});
