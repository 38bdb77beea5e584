import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { failedWriteUnits } from './capacity-units.js';
import { operationOf, readJsonBody, type WireRequest, writeJsonBody } from './wire.js';

/** Requests and capacity of one operation on one table. */
export interface DynamoUsageRow {
  readonly operation: string;
  readonly table: string;
  /** Requests (SDK attempts) that touched the table; a transaction over two tables counts in both rows. */
  readonly requests: number;
  readonly readUnits: number;
  readonly writeUnits: number;
  /** Of those units, the part spent on secondary indexes. */
  readonly indexUnits: number;
  /** Requests that failed (a failed condition, a cancelled transaction, ...). */
  readonly failed: number;
  /** Of the write units, those estimated for failed conditional writes (DynamoDB reports none for them). */
  readonly estimatedWriteUnits: number;
}

export interface DynamoUsage {
  readonly requests: number;
  readonly readUnits: number;
  readonly writeUnits: number;
  readonly rows: readonly DynamoUsageRow[];
}

/** The operations that take `ReturnConsumedCapacity`. */
const REPORTS_CAPACITY = new Set([
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'Scan',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactGetItems',
  'TransactWriteItems',
  'ExecuteStatement',
  'BatchExecuteStatement',
  'ExecuteTransaction',
]);
const READS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);
/** Failures AWS bills as if the write had been tried. */
const BILLED_FAILURES = new Set(['ConditionalCheckFailedException', 'TransactionCanceledException']);

interface CapacityJson {
  readonly TableName?: string;
  readonly CapacityUnits?: number;
  readonly ReadCapacityUnits?: number;
  readonly WriteCapacityUnits?: number;
  readonly Table?: { readonly CapacityUnits?: number };
  readonly GlobalSecondaryIndexes?: Record<string, { readonly CapacityUnits?: number }>;
  readonly LocalSecondaryIndexes?: Record<string, { readonly CapacityUnits?: number }>;
}

type MutableRow = { -readonly [K in keyof DynamoUsageRow]: DynamoUsageRow[K] };

/**
 * Tallies what a DynamoDB client's requests cost: a build-step middleware (it sees each command
 * once, around its retries, before signing) adds `ReturnConsumedCapacity: INDEXES` to every request
 * that accepts it and adds up the `ConsumedCapacity` DynamoDB returns (table and each index); for a
 * write that failed its condition, whose error carries none, the units are estimated from the
 * request ({@link failedWriteUnits}). Units are read or write by what DynamoDB reports, else by
 * the operation. Attach it to the client that a `DynamoDBDocumentClient` wraps: they share one
 * middleware stack.
 */
export class DynamoMeter {
  private readonly rows = new Map<string, MutableRow>();
  private requests = 0;

  /** `tableLabel` names a table in the rows (e.g. without the stack's prefix). */
  constructor(private readonly tableLabel: (physicalName: string) => string = (name) => name) {}

  attach(client: DynamoDBClient): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const request = args.request as WireRequest;
        const operation = operationOf(request, context.commandName);
        const input = readJsonBody(request);
        if (input && REPORTS_CAPACITY.has(operation)) {
          input.ReturnConsumedCapacity = 'INDEXES';
          writeJsonBody(request, input);
        }
        try {
          const result = await next(args);
          const output = result.output as { ConsumedCapacity?: CapacityJson | CapacityJson[] };
          this.recordSuccess(operation, input, attemptsOf(result.output), output.ConsumedCapacity);
          return result;
        } catch (err) {
          this.recordFailure(operation, input, err);
          throw err;
        }
      },
      { step: 'build', priority: 'high', name: 'benchDynamoMeter', override: true },
    );
  }

  reset(): void {
    this.rows.clear();
    this.requests = 0;
  }

  snapshot(): DynamoUsage {
    const rows = [...this.rows.values()].map((r) => ({ ...r }));
    rows.sort((a, b) => b.readUnits + b.writeUnits - (a.readUnits + a.writeUnits) || b.requests - a.requests);
    return {
      requests: this.requests,
      readUnits: rows.reduce((n, r) => n + r.readUnits, 0),
      writeUnits: rows.reduce((n, r) => n + r.writeUnits, 0),
      rows,
    };
  }

  private recordSuccess(
    operation: string,
    input: Record<string, unknown> | undefined,
    attempts: number,
    consumed: CapacityJson | CapacityJson[] | undefined,
  ): void {
    this.countRequest(operation, input, attempts, false);
    for (const entry of consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed]) {
      const row = this.row(operation, entry.TableName ?? 'unknown');
      const indexUnits = sumUnits(entry.GlobalSecondaryIndexes) + sumUnits(entry.LocalSecondaryIndexes);
      const total =
        entry.Table?.CapacityUnits !== undefined
          ? entry.Table.CapacityUnits + indexUnits
          : (entry.CapacityUnits ?? 0);
      if (entry.ReadCapacityUnits !== undefined || entry.WriteCapacityUnits !== undefined) {
        row.readUnits += entry.ReadCapacityUnits ?? 0;
        row.writeUnits += entry.WriteCapacityUnits ?? 0;
      } else if (READS.has(operation)) {
        row.readUnits += total;
      } else {
        row.writeUnits += total;
      }
      row.indexUnits += indexUnits;
    }
  }

  private recordFailure(operation: string, input: Record<string, unknown> | undefined, err: unknown): void {
    const name = (err as { name?: string } | undefined)?.name ?? '';
    this.countRequest(operation, input, attemptsOf(err), true);
    if (!input || !BILLED_FAILURES.has(name)) return;
    for (const { table, writeUnits } of failedWriteUnits(operation, input)) {
      const row = this.row(operation, table);
      row.writeUnits += writeUnits;
      row.estimatedWriteUnits += writeUnits;
    }
  }

  private countRequest(
    operation: string,
    input: Record<string, unknown> | undefined,
    attempts: number,
    failed: boolean,
  ): void {
    this.requests += attempts;
    for (const table of tablesOf(input)) {
      const row = this.row(operation, table);
      row.requests += attempts;
      if (failed) row.failed += 1;
    }
  }

  private row(operation: string, physicalTable: string): MutableRow {
    const table = this.tableLabel(physicalTable);
    const key = `${operation}\u0000${table}`;
    let row = this.rows.get(key);
    if (!row) {
      row = {
        operation,
        table,
        requests: 0,
        readUnits: 0,
        writeUnits: 0,
        indexUnits: 0,
        failed: 0,
        estimatedWriteUnits: 0,
      };
      this.rows.set(key, row);
    }
    return row;
  }
}

function sumUnits(indexes: Record<string, { readonly CapacityUnits?: number }> | undefined): number {
  return Object.values(indexes ?? {}).reduce((n, i) => n + (i.CapacityUnits ?? 0), 0);
}

/** SDK attempts of a command (retries included), from the output's or the error's metadata. */
export function attemptsOf(outputOrError: unknown): number {
  const attempts = (outputOrError as { $metadata?: { attempts?: number } } | undefined)?.$metadata?.attempts;
  return typeof attempts === 'number' && attempts > 0 ? attempts : 1;
}

/** The tables a request names: TableName, a batch's RequestItems, a transaction's actions. */
export function tablesOf(input: Readonly<Record<string, unknown>> | undefined): string[] {
  if (!input) return ['unknown'];
  if (typeof input.TableName === 'string') return [input.TableName];
  if (input.RequestItems && typeof input.RequestItems === 'object') return Object.keys(input.RequestItems);
  if (Array.isArray(input.TransactItems)) {
    const names = (input.TransactItems as Record<string, { TableName?: string }>[]).flatMap((action) =>
      Object.values(action).flatMap((body) => (body?.TableName ? [body.TableName] : [])),
    );
    return [...new Set(names)];
  }
  return ['-'];
}
