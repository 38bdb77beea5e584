import { DynamoRegistryStore } from '@tickring/aws/dynamodb';
import { registryStoreContract } from '@tickring/testing';
import { afterAll, beforeAll } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('registry-contract');
});
afterAll(() => env?.close());

registryStoreContract('DynamoDB Local', async ({ expireAfterSeconds }) => {
  const registryTable = await freshTable(env, 'registry');
  return new DynamoRegistryStore({ doc: env.clients.doc, registryTable, expireAfterSeconds });
});
