import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  ScanCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import type { Group } from '../../domain/job.js';
import type { GroupStore } from '../../ports/job-store.js';
import { type Item, isConditionFailed } from './util.js';

export class DynamoGroupStore implements GroupStore {
  constructor(private readonly options: { doc: DynamoDBDocumentClient; groupsTable: string }) {}

  async create(group: Group): Promise<void> {
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.groupsTable,
          Item: { ...group, addressList: [...group.addressList] },
          ConditionExpression: 'attribute_not_exists(appName)',
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) throw new ConflictError(`group ${group.appName} already exists`);
      throw err;
    }
  }

  async get(appName: string): Promise<Group | undefined> {
    const { Item: item } = await this.options.doc.send(
      new GetCommand({ TableName: this.options.groupsTable, Key: { appName }, ConsistentRead: true }),
    );
    return item ? fromItem(item) : undefined;
  }

  async list(): Promise<Group[]> {
    const groups: Group[] = [];
    let start: Item | undefined;
    do {
      const page = await this.options.doc.send(
        new ScanCommand({
          TableName: this.options.groupsTable,
          ExclusiveStartKey: start,
          ConsistentRead: true,
        }),
      );
      groups.push(...(page.Items ?? []).map(fromItem));
      start = page.LastEvaluatedKey;
    } while (start);
    return groups.sort((a, b) => a.appName.localeCompare(b.appName));
  }

  async replace(group: Group): Promise<void> {
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.groupsTable,
          Item: { ...group, addressList: [...group.addressList] },
          ConditionExpression: 'attribute_exists(appName)',
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) throw new NotFoundError(`group ${group.appName} does not exist`);
      throw err;
    }
  }

  async delete(appName: string): Promise<void> {
    try {
      await this.options.doc.send(
        new DeleteCommand({
          TableName: this.options.groupsTable,
          Key: { appName },
          ConditionExpression: 'attribute_exists(appName)',
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) throw new NotFoundError(`group ${appName} does not exist`);
      throw err;
    }
  }
}

function fromItem(item: Item): Group {
  return { ...(item as unknown as Group), addressList: (item.addressList as string[] | undefined) ?? [] };
}
