import { DynamoReportStore } from '@tickring/aws/dynamodb';
import { reportStoreContract } from '@tickring/testing';
import { afterAll, beforeAll } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('reports-contract');
});
afterAll(() => env?.close());

reportStoreContract('DynamoDB Local', async () => {
  return new DynamoReportStore({ doc: env.clients.doc, controlTable: await freshTable(env, 'control') });
});
