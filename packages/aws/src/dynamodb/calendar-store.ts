import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Calendar, CalendarQuery, CalendarStore } from '@tickring/core/calendars';
import { ConflictError, encodePageCursor, NotFoundError, ValidationError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import { decodeCursor, type Item, isConditionFailed } from './util.js';

/**
 * All calendars live in one partition (`pk` = 'calendar', `sk` = the id): a list is a Query in id
 * order, and calendars are few (an admin resource), so the partition's throughput is never the limit.
 */
const PARTITION = 'calendar';

/** Calendars in DynamoDB, one item each (at most ~200 KB); every change is conditional on the version. */
export class DynamoCalendarStore implements CalendarStore {
  constructor(private readonly options: { doc: DynamoDBDocumentClient; calendarsTable: string }) {}

  async create(calendar: Calendar): Promise<void> {
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.calendarsTable,
          Item: itemOf(calendar),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) throw new ConflictError(`calendar ${calendar.id} already exists`);
      throw err;
    }
  }

  async get(id: string): Promise<Calendar | undefined> {
    const { Item: item } = await this.options.doc.send(
      new GetCommand({ TableName: this.options.calendarsTable, Key: keyOf(id), ConsistentRead: true }),
    );
    return item ? calendarOf(item) : undefined;
  }

  async list(query: CalendarQuery): Promise<Page<Calendar>> {
    const after = decodeCursor(query.cursor)?.id;
    if (after !== undefined && typeof after !== 'string') {
      throw new ValidationError('cursor is not a cursor of this query', 'cursor');
    }
    const limit = Math.max(1, Math.floor(query.limit));
    const page = await this.options.doc.send(
      new QueryCommand({
        TableName: this.options.calendarsTable,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': PARTITION },
        ExclusiveStartKey: after === undefined ? undefined : keyOf(after),
        Limit: limit,
        ConsistentRead: true,
      }),
    );
    const items = (page.Items ?? []).map(calendarOf);
    const last = items.at(-1);
    // A page cut by its size (1 MB) may hold fewer than `limit`: it still says where it stopped.
    return page.LastEvaluatedKey && last
      ? { items, nextCursor: encodePageCursor({ id: last.id }) }
      : { items };
  }

  async update(next: Calendar, expectedVersion: number): Promise<void> {
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.calendarsTable,
          Item: itemOf(next),
          ConditionExpression: 'attribute_exists(pk) AND version = :expected',
          ExpressionAttributeValues: { ':expected': expectedVersion },
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) await this.refuse(next.id, expectedVersion);
      throw err;
    }
  }

  async delete(id: string, expectedVersion: number): Promise<void> {
    try {
      await this.options.doc.send(
        new DeleteCommand({
          TableName: this.options.calendarsTable,
          Key: keyOf(id),
          ConditionExpression: 'attribute_exists(pk) AND version = :expected',
          ExpressionAttributeValues: { ':expected': expectedVersion },
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) await this.refuse(id, expectedVersion);
      throw err;
    }
  }

  /** Why a conditional write changed nothing: the calendar is gone, or at another version. */
  private async refuse(id: string, expectedVersion: number): Promise<never> {
    const current = await this.get(id);
    if (!current) throw new NotFoundError(`calendar ${id} does not exist`);
    throw new ConflictError(`calendar ${id} is at version ${current.version}, not ${expectedVersion}`);
  }
}

const keyOf = (id: string) => ({ pk: PARTITION, sk: id });

function itemOf(calendar: Calendar): Item {
  // Native lists and maps (readable in the console); optional fields absent, never undefined.
  return { ...keyOf(calendar.id), ...structuredClone(calendar) };
}

function calendarOf(item: Item): Calendar {
  const { pk: _pk, sk: _sk, ...calendar } = item;
  return calendar as unknown as Calendar;
}
