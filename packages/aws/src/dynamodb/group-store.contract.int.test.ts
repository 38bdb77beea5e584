import { DynamoGroupStore } from '@tickring/aws/dynamodb';
import { groupStoreContract } from '@tickring/testing';
import { afterAll, beforeAll } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('groups-contract');
});
afterAll(() => env?.close());

groupStoreContract('DynamoDB Local', async () => {
  return new DynamoGroupStore({ doc: env.clients.doc, groupsTable: await freshTable(env, 'groups') });
});
