import { DynamoLeaseStore } from '@tickring/aws/dynamodb';
import { leaseStoreContract } from '@tickring/testing';
import { afterAll, beforeAll } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('leases-contract');
});
afterAll(() => env?.close());

leaseStoreContract('DynamoDB Local', async () => {
  return new DynamoLeaseStore({ doc: env.clients.doc, controlTable: await freshTable(env, 'control') });
});
