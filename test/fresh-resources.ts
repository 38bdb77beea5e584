import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand } from '@aws-sdk/client-sqs';
import { BatchWriteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createTableInput, TABLES, type TableName } from '@tickring/aws/topology';
import type { RingLane } from '@tickring/core/dispatch';
import type { TestResources } from './stand-ins.js';

let created = 0;
const tablesOf = new WeakMap<TestResources, Map<TableName, string>>();

/**
 * An empty table shaped as TABLES defines `name` (keys and indexes), on the stand-ins of `env`: a
 * contract suite's fresh store per test. Made on first use, then emptied for each later one (much
 * faster than a new table on DynamoDB Local), so a store handed out before must not be used again.
 * (No TTL: the stores filter expired items themselves.)
 */
export async function freshTable(env: TestResources, name: TableName): Promise<string> {
  const tables = tablesOf.get(env) ?? new Map<TableName, string>();
  tablesOf.set(env, tables);
  const existing = tables.get(name);
  if (existing !== undefined) {
    await emptyTable(env, existing, name);
    return existing;
  }
  const tableName = await createTable(env, name);
  tables.set(name, tableName);
  return tableName;
}

async function createTable(env: TestResources, name: TableName): Promise<string> {
  const tableName = `${env.prefix}${name}-${++created}`;
  await env.clients.dynamo.send(new CreateTableCommand(createTableInput(TABLES[name], tableName)));
  for (let attempt = 0; attempt < 100; attempt++) {
    const { Table } = await env.clients.dynamo.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') return tableName;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`table ${tableName} did not become ACTIVE`);
}

/** Deletes every item of the table. */
async function emptyTable(env: TestResources, tableName: string, name: TableName): Promise<void> {
  const def = TABLES[name];
  const keyNames = [def.partitionKey.name, ...(def.sortKey ? [def.sortKey.name] : [])];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await env.clients.doc.send(
      new ScanCommand({
        TableName: tableName,
        ConsistentRead: true,
        ProjectionExpression: keyNames.map((_, i) => `#k${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(keyNames.map((key, i) => [`#k${i}`, key])),
        ExclusiveStartKey: start,
      }),
    );
    const keys = page.Items ?? [];
    for (let i = 0; i < keys.length; i += 25) {
      let pending = keys.slice(i, i + 25).map((Key) => ({ DeleteRequest: { Key } }));
      while (pending.length > 0) {
        const { UnprocessedItems } = await env.clients.doc.send(
          new BatchWriteCommand({ RequestItems: { [tableName]: pending } }),
        );
        pending = (UnprocessedItems?.[tableName] ?? []) as typeof pending;
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
}

/** A new, empty standard queue per ring lane (no dead-letter queue: a test sees every redelivery). */
export async function freshRingQueues(env: TestResources): Promise<Record<RingLane, string>> {
  const queueOf = async (lane: RingLane) => {
    const { QueueUrl } = await env.clients.sqs.send(
      new CreateQueueCommand({ QueueName: `${env.prefix}ring-${lane}-${++created}` }),
    );
    if (!QueueUrl) throw new Error(`no URL for the ${lane} ring queue`);
    return QueueUrl;
  };
  const [fast, slow] = await Promise.all([queueOf('fast'), queueOf('slow')]);
  return { fast, slow };
}
