import { DynamoBackfillStore } from '@tickring/aws/dynamodb';
import { backfillStoreContract } from '@tickring/testing';
import { afterAll, beforeAll } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('backfills-contract');
});
afterAll(() => env?.close());

backfillStoreContract('DynamoDB Local', async () => {
  return new DynamoBackfillStore({
    doc: env.clients.doc,
    backfillsTable: await freshTable(env, 'backfills'),
  });
});
