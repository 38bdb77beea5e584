import { DynamoSlowTracker } from '@tickring/aws/dynamodb';
import { slowTrackerContract } from '@tickring/testing';
import { afterAll, beforeAll } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('slow-contract');
});
afterAll(() => env?.close());

slowTrackerContract('DynamoDB Local', async () => {
  return new DynamoSlowTracker({ doc: env.clients.doc, controlTable: await freshTable(env, 'control') });
});
