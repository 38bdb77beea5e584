import { DynamoWorkflowStore } from '@tickring/aws/dynamodb';
import { workflowStoreContract } from '@tickring/testing';
import { afterAll, beforeAll } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('workflows-contract');
});
afterAll(() => env?.close());

workflowStoreContract(
  'DynamoDB Local',
  async () =>
    new DynamoWorkflowStore({
      doc: env.clients.doc,
      workflowsTable: await freshTable(env, 'workflows'),
      retentionDays: 7,
    }),
);
