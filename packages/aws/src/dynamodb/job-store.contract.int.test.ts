import { DynamoJobStore } from '@tickring/aws/dynamodb';
import { jobStoreContract } from '@tickring/testing';
import { afterAll, beforeAll } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('jobs-contract');
});
afterAll(() => env?.close());

jobStoreContract('DynamoDB Local', async ({ shardCount }) => {
  const [jobsTable, controlTable] = await Promise.all([freshTable(env, 'jobs'), freshTable(env, 'control')]);
  return new DynamoJobStore({ doc: env.clients.doc, jobsTable, controlTable, shardCount });
});
