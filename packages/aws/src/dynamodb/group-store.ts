import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '@tickring/core/common';
import type { Group, GroupStore, ReadOptions } from '@tickring/core/jobs';
import { type Item, isConditionFailed } from './util.js';

export class DynamoGroupStore implements GroupStore {
  constructor(private readonly options: { doc: DynamoDBDocumentClient; groupsTable: string }) {}

  async create(group: Group): Promise<void> {
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.groupsTable,
          Item: {
            ...group,
            addressList: [...group.addressList],
            ...(group.alertChannels ? { alertChannels: [...group.alertChannels] } : {}),
          },
          ConditionExpression: 'attribute_not_exists(appName)',
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) throw new ConflictError(`group ${group.appName} already exists`);
      throw err;
    }
  }

  async get(appName: string, read: ReadOptions = {}): Promise<Group | undefined> {
    const { Item: item } = await this.options.doc.send(
      new GetCommand({
        TableName: this.options.groupsTable,
        Key: { appName },
        ConsistentRead: read.consistency !== 'eventual',
      }),
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
    // An update, not a put: the sealed access token beside the group stays as it is.
    const channels = group.alertChannels;
    await this.update(group.appName, {
      UpdateExpression:
        'SET title = :title, addressType = :addressType, addressList = :addressList, ' +
        `createdAt = :createdAt, updatedAt = :updatedAt${channels ? ', alertChannels = :alertChannels' : ''}` +
        (channels ? '' : ' REMOVE alertChannels'),
      ExpressionAttributeValues: {
        ':title': group.title,
        ':addressType': group.addressType,
        ':addressList': [...group.addressList],
        ':createdAt': group.createdAt,
        ':updatedAt': group.updatedAt,
        ...(channels ? { ':alertChannels': [...channels] } : {}),
      },
    });
  }

  async setAccessToken(appName: string, sealed: string, setAt: number): Promise<void> {
    await this.update(appName, {
      UpdateExpression: `SET ${SEALED_TOKEN} = :sealed, accessTokenSetAt = :setAt, updatedAt = :setAt`,
      ExpressionAttributeValues: { ':sealed': sealed, ':setAt': setAt },
    });
  }

  async clearAccessToken(appName: string): Promise<void> {
    await this.update(appName, { UpdateExpression: `REMOVE ${SEALED_TOKEN}, accessTokenSetAt` });
  }

  async getSealedAccessToken(appName: string): Promise<string | undefined> {
    const { Item: item } = await this.options.doc.send(
      new GetCommand({
        TableName: this.options.groupsTable,
        Key: { appName },
        ProjectionExpression: SEALED_TOKEN,
        ConsistentRead: true,
      }),
    );
    const sealed = item?.[SEALED_TOKEN];
    return typeof sealed === 'string' ? sealed : undefined;
  }

  private async update(
    appName: string,
    expression: { UpdateExpression: string; ExpressionAttributeValues?: Record<string, unknown> },
  ): Promise<void> {
    try {
      await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.groupsTable,
          Key: { appName },
          ...expression,
          ConditionExpression: 'attribute_exists(appName)',
        }),
      );
    } catch (err) {
      if (isConditionFailed(err)) throw new NotFoundError(`group ${appName} does not exist`);
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

/** The attribute holding a group's own access token, sealed; never part of a Group read. */
const SEALED_TOKEN = 'accessTokenSealed';

function fromItem(item: Item): Group {
  const { [SEALED_TOKEN]: _sealed, ...group } = item;
  return { ...(group as unknown as Group), addressList: (item.addressList as string[] | undefined) ?? [] };
}
