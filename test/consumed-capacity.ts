import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** What one DynamoDB call consumed, as the service reported it (`ReturnConsumedCapacity: INDEXES`). */
export interface CapacityRecord {
  /** The command's name, e.g. `UpdateItemCommand`. */
  readonly command: string;
  /** What was sent (marshalled: `Key: { logId: { N: '7' } }`), to tell the calls apart. */
  readonly input: Readonly<Record<string, unknown>>;
  /** Write units of the base tables, summed over the tables the call touched. */
  readonly tableWcu: number;
  /** Write units of every GSI the call wrote, by index name. */
  readonly indexWcu: Readonly<Record<string, number>>;
  /** Read units, everything included. */
  readonly rcu: number;
}

export interface CapacityRecorder {
  readonly records: CapacityRecord[];
  /** Total write units (tables and indexes) of the calls recorded since `since` (an index into `records`). */
  wcu(since?: number): number;
  /** Records since `since`, for assertions and messages. */
  slice(since?: number): CapacityRecord[];
  reset(): void;
}

const WITH_CAPACITY = new Set([
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'TransactWriteItemsCommand',
  'BatchWriteItemCommand',
  'GetItemCommand',
  'BatchGetItemCommand',
  'QueryCommand',
]);

/**
 * Asks DynamoDB for the consumed capacity of every call made through `doc` (tables and indexes) and
 * records it: the production adapters run unchanged, the test reads what each write cost. The
 * middleware sits on the client's stack, so use a client of the test's own (`isolatedResources`).
 */
export function recordConsumedCapacity(doc: DynamoDBDocumentClient): CapacityRecorder {
  const records: CapacityRecord[] = [];
  doc.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName ?? '');
      const input = args.input as Record<string, unknown>;
      if (WITH_CAPACITY.has(command)) input.ReturnConsumedCapacity = 'INDEXES';
      const result = await next(args);
      const output = result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] };
      const consumed = output.ConsumedCapacity;
      if (consumed) records.push(toRecord(command, input, Array.isArray(consumed) ? consumed : [consumed]));
      return result;
    },
    { step: 'initialize', name: 'recordConsumedCapacity', override: true },
  );
  const slice = (since = 0) => records.slice(since);
  return {
    records,
    slice,
    wcu: (since = 0) =>
      slice(since).reduce(
        (sum, r) => sum + r.tableWcu + Object.values(r.indexWcu).reduce((a, b) => a + b, 0),
        0,
      ),
    reset: () => {
      records.length = 0;
    },
  };
}

const READS = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand']);

/**
 * DynamoDB reports `WriteCapacityUnits`/`ReadCapacityUnits` on provisioned tables and only
 * `CapacityUnits` on others (and DynamoDB Local reports only `CapacityUnits`): the command tells which.
 */
function toRecord(
  command: string,
  input: Record<string, unknown>,
  consumed: readonly ConsumedCapacity[],
): CapacityRecord {
  const isRead = READS.has(command);
  const writeUnits = (c: { WriteCapacityUnits?: number; CapacityUnits?: number } | undefined) =>
    isRead ? 0 : (c?.WriteCapacityUnits ?? c?.CapacityUnits ?? 0);
  let tableWcu = 0;
  let rcu = 0;
  const indexWcu: Record<string, number> = {};
  for (const c of consumed) {
    tableWcu += writeUnits(c.Table);
    if (isRead) rcu += c.ReadCapacityUnits ?? c.CapacityUnits ?? 0;
    for (const [name, units] of Object.entries(c.GlobalSecondaryIndexes ?? {})) {
      indexWcu[name] = (indexWcu[name] ?? 0) + writeUnits(units);
    }
  }
  return { command, input, tableWcu, indexWcu, rcu };
}
