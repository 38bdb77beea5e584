import { DynamoRouteStateStore } from '@tickring/aws/dynamodb';
import { routeStateStoreContract } from '@tickring/testing';
import { afterAll, beforeAll } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('routes-contract');
});
afterAll(() => env?.close());

routeStateStoreContract('DynamoDB Local', async () => {
  return new DynamoRouteStateStore({ doc: env.clients.doc, controlTable: await freshTable(env, 'control') });
});
