import { DynamoCalendarStore } from '@tickring/aws/dynamodb';
import { calendarStoreContract } from '@tickring/testing';
import { afterAll, beforeAll } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('calendars-contract');
});
afterAll(() => env?.close());

calendarStoreContract('DynamoDB Local', async () => {
  return new DynamoCalendarStore({
    doc: env.clients.doc,
    calendarsTable: await freshTable(env, 'calendars'),
  });
});
