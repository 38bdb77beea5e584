import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  type Backfill,
  type BackfillQuery,
  type BackfillStore,
  jobIdOfBackfill,
} from '@tickring/core/backfills';
import { ConflictError, encodePageCursor, NotFoundError, ValidationError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import { batchGetAll, decodeCursor, type Item, isConditionFailed } from './util.js';

/**
 * A job's backfills are one partition (`pk` = `J#{jobId}`, `sk` = the id, which sorts by age), so its
 * list is one Query, newest first. While a backfill is active its job has a mark in the `active`
 * partition (`sk` = the job id), written and removed in a transaction with the backfill: the mark's
 * condition keeps one active backfill per job, and the sweep lists the active ones with one Query.
 */
const ACTIVE = 'active';

const keyOf = (jobId: number, id: string) => ({ pk: `J#${jobId}`, sk: id });
const markKey = (jobId: number) => ({ pk: ACTIVE, sk: String(jobId) });

/** Backfills in DynamoDB (see above); every change is conditional on the revision read. */
export class DynamoBackfillStore implements BackfillStore {
  constructor(private readonly options: { doc: DynamoDBDocumentClient; backfillsTable: string }) {}

  async create(backfill: Backfill): Promise<void> {
    const TableName = this.options.backfillsTable;
    const put = {
      Put: { TableName, Item: itemOf(backfill), ConditionExpression: 'attribute_not_exists(pk)' },
    };
    if (backfill.endedAt !== undefined) {
      try {
        await this.options.doc.send(new PutCommand(put.Put));
        return;
      } catch (err) {
        if (isConditionFailed(err)) throw new ConflictError(`backfill ${backfill.id} already exists`);
        throw err;
      }
    }
    try {
      await this.options.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            put,
            {
              Put: {
                TableName,
                Item: { ...markKey(backfill.jobId), backfillId: backfill.id },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (reasons === undefined) throw err;
      if (reasons[0] === 'ConditionalCheckFailed')
        throw new ConflictError(`backfill ${backfill.id} already exists`);
      const active = await this.activeId(backfill.jobId);
      throw new ConflictError(
        `job ${backfill.jobId} has an active backfill, ${active ?? 'being started now'}: cancel it or wait for it to end before starting another`,
      );
    }
  }

  async get(id: string): Promise<Backfill | undefined> {
    const jobId = jobIdOfBackfill(id);
    if (jobId === undefined) return undefined;
    const { Item: item } = await this.options.doc.send(
      new GetCommand({ TableName: this.options.backfillsTable, Key: keyOf(jobId, id), ConsistentRead: true }),
    );
    return item ? backfillOf(item) : undefined;
  }

  async listByJob(jobId: number, query: BackfillQuery): Promise<Page<Backfill>> {
    const before = decodeCursor(query.cursor)?.id;
    if (before !== undefined && typeof before !== 'string') {
      throw new ValidationError('cursor is not a cursor of this query', 'cursor');
    }
    const page = await this.options.doc.send(
      new QueryCommand({
        TableName: this.options.backfillsTable,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `J#${jobId}` },
        ExclusiveStartKey: before === undefined ? undefined : keyOf(jobId, before),
        ScanIndexForward: false,
        Limit: Math.max(1, Math.floor(query.limit)),
        ConsistentRead: true,
      }),
    );
    const items = (page.Items ?? []).map(backfillOf);
    const last = items.at(-1);
    return page.LastEvaluatedKey && last
      ? { items, nextCursor: encodePageCursor({ id: last.id }) }
      : { items };
  }

  async listActive(): Promise<Backfill[]> {
    const marks: Item[] = [];
    let start: Item | undefined;
    do {
      const page = await this.options.doc.send(
        new QueryCommand({
          TableName: this.options.backfillsTable,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': ACTIVE },
          ExclusiveStartKey: start,
          ConsistentRead: true,
        }),
      );
      marks.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    const keys = marks.map((m) => keyOf(Number(m.sk), String(m.backfillId)));
    const items = await batchGetAll(this.options.doc, this.options.backfillsTable, keys);
    return items.map(backfillOf).filter((b) => b.endedAt === undefined);
  }

  async update(next: Backfill, expectedRevision: number): Promise<void> {
    const TableName = this.options.backfillsTable;
    const put = {
      TableName,
      Item: itemOf(next),
      ConditionExpression: 'attribute_exists(pk) AND revision = :expected',
      ExpressionAttributeValues: { ':expected': expectedRevision },
    };
    try {
      if (next.endedAt === undefined) await this.options.doc.send(new PutCommand(put));
      else {
        // Ending it frees its job: the mark goes in the same transaction (if it is still its own).
        await this.options.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: put },
              {
                Delete: {
                  TableName,
                  Key: markKey(next.jobId),
                  ConditionExpression: 'attribute_not_exists(pk) OR backfillId = :id',
                  ExpressionAttributeValues: { ':id': next.id },
                },
              },
            ],
          }),
        );
      }
    } catch (err) {
      if (isConditionFailed(err) || cancellationReasons(err) !== undefined) {
        const current = await this.get(next.id);
        if (!current) throw new NotFoundError(`backfill ${next.id} does not exist`);
        throw new ConflictError(
          `backfill ${next.id} is at revision ${current.revision}, not ${expectedRevision}`,
        );
      }
      throw err;
    }
  }

  private async activeId(jobId: number): Promise<string | undefined> {
    const { Item: mark } = await this.options.doc.send(
      new GetCommand({ TableName: this.options.backfillsTable, Key: markKey(jobId), ConsistentRead: true }),
    );
    return mark ? String(mark.backfillId) : undefined;
  }
}

/** A cancelled transaction's reasons, one code per item ('None' when that item was fine); undefined for any other error. */
function cancellationReasons(err: unknown): string[] | undefined {
  const cancelled =
    err instanceof TransactionCanceledException ||
    (err instanceof Error && err.name === 'TransactionCanceledException');
  if (!cancelled) return undefined;
  const reasons = (err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((r) => r.Code ?? 'None');
}

function itemOf(backfill: Backfill): Item {
  // Native lists and maps; optional fields absent, never undefined.
  return { ...keyOf(backfill.jobId, backfill.id), ...structuredClone(backfill) };
}

function backfillOf(item: Item): Backfill {
  const { pk: _pk, sk: _sk, ...backfill } = item;
  return backfill as unknown as Backfill;
}
