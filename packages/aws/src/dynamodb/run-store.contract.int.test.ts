import { DynamoRunStore } from '@tickring/aws/dynamodb';
import { runStoreContract } from '@tickring/testing';
import { afterAll, beforeAll } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('runs-contract');
});
afterAll(() => env?.close());

runStoreContract('DynamoDB Local', async () => {
  const [runsTable, controlTable] = await Promise.all([freshTable(env, 'runs'), freshTable(env, 'control')]);
  // Each store is one function instance: it remembers the hours it put in the hour index.
  const open = () => new DynamoRunStore({ doc: env.clients.doc, runsTable, controlTable, retentionDays: 30 });
  return { store: open(), peer: open };
});
