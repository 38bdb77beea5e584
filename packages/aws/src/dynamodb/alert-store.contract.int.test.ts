import { DynamoAlertStore } from '@tickring/aws/dynamodb';
import { alertStoreContract } from '@tickring/testing';
import { afterAll, beforeAll } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('alerts-contract');
});
afterAll(() => env?.close());

alertStoreContract('DynamoDB Local', async () => {
  return new DynamoAlertStore({
    doc: env.clients.doc,
    alertsTable: await freshTable(env, 'alerts'),
  });
});
