import { DynamoAuditLog } from '@tickring/aws/dynamodb';
import { auditLogContract } from '@tickring/testing';
import { afterAll, beforeAll } from 'vitest';
import { freshTable } from '../../../../test/fresh-resources.js';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';

let env: TestResources;

beforeAll(async () => {
  env = await isolatedResources('audit-contract');
});
afterAll(() => env?.close());

auditLogContract('DynamoDB Local', async ({ clock, retentionDays }) => {
  const auditTable = await freshTable(env, 'audit');
  return new DynamoAuditLog({ doc: env.clients.doc, auditTable, retentionDays, clock });
});
