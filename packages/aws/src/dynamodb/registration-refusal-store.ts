import { type DynamoDBDocumentClient, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Clock, systemClock } from '@tickring/core/common';
import {
  byLastSeen,
  DEFAULT_REFUSAL_EXPIRE_AFTER_SECONDS,
  type RefusalReason,
  type RefusedRegistration,
  type RefusedRequest,
  type RegistrationRefusalStore,
} from '@tickring/core/executors';
import { type Item, isConditionFailed } from './util.js';

/**
 * The registry table's partition of refusals. A registration's app name is trimmed before it is
 * stored (`parseRegistryParam`), so no heartbeat can land in a partition that starts with a space.
 */
export const REFUSALS_PARTITION = ' refused';

export interface DynamoRegistrationRefusalStoreOptions {
  readonly doc: DynamoDBDocumentClient;
  readonly registryTable: string;
  /** DynamoDB TTL of a key not refused again. Default 24 h. */
  readonly expireAfterSeconds?: number;
  /** "Now" of the expiry. */
  readonly clock?: Clock;
}

const NAMES = {
  '#count': 'count',
  '#first': 'firstSeen',
  '#last': 'lastSeen',
  '#request': 'request',
  '#detail': 'detail',
  '#app': 'refusedAppName',
  '#reason': 'reason',
  '#expires': 'expiresAt',
};

/**
 * Refused executor requests in the registry table, beside the heartbeats: one item per (appName,
 * address, reason) in the {@link REFUSALS_PARTITION} partition, its sort key the three as a JSON
 * array. An add is one UpdateItem (`ADD count`), conditional on the item not being past its TTL;
 * an item the TTL has not deleted yet is started again with a conditional put.
 */
export class DynamoRegistrationRefusalStore implements RegistrationRefusalStore {
  private readonly expireAfterSeconds: number;
  private readonly clock: Clock;

  constructor(private readonly options: DynamoRegistrationRefusalStoreOptions) {
    this.expireAfterSeconds = options.expireAfterSeconds ?? DEFAULT_REFUSAL_EXPIRE_AFTER_SECONDS;
    this.clock = options.clock ?? systemClock;
  }

  async add(r: RefusedRegistration): Promise<void> {
    const key = { appName: REFUSALS_PARTITION, address: JSON.stringify([r.appName, r.address, r.reason]) };
    const values = {
      ':first': r.firstSeen,
      ':last': r.lastSeen,
      ':request': r.request,
      ':detail': r.detail,
      ':app': r.appName,
      ':reason': r.reason,
      ':expires': Math.floor(r.lastSeen / 1000) + this.expireAfterSeconds,
    };
    // Twice at most: a restart that loses to a concurrent one adds to it instead.
    for (let attempt = 0; ; attempt++) {
      const nowSeconds = Math.floor(this.clock.now() / 1000);
      try {
        await this.options.doc.send(
          new UpdateCommand({
            TableName: this.options.registryTable,
            Key: key,
            UpdateExpression:
              'ADD #count :n SET #first = if_not_exists(#first, :first), #last = :last, #request = :request, ' +
              '#detail = :detail, #app = :app, #reason = :reason, #expires = :expires',
            ConditionExpression: 'attribute_not_exists(#expires) OR #expires >= :now',
            ExpressionAttributeNames: NAMES,
            ExpressionAttributeValues: { ...values, ':n': r.count, ':now': nowSeconds },
          }),
        );
        return;
      } catch (err) {
        if (!isConditionFailed(err) || attempt > 0) throw err;
      }
      try {
        await this.options.doc.send(
          new PutCommand({
            TableName: this.options.registryTable,
            Item: {
              ...key,
              count: r.count,
              firstSeen: r.firstSeen,
              lastSeen: r.lastSeen,
              request: r.request,
              detail: r.detail,
              refusedAppName: r.appName,
              reason: r.reason,
              expiresAt: values[':expires'],
            },
            ConditionExpression: '#expires < :now',
            ExpressionAttributeNames: { '#expires': 'expiresAt' },
            ExpressionAttributeValues: { ':now': nowSeconds },
          }),
        );
        return;
      } catch (err) {
        if (!isConditionFailed(err)) throw err;
      }
    }
  }

  async list(appName?: string): Promise<RefusedRegistration[]> {
    const nowSeconds = Math.floor(this.clock.now() / 1000);
    const records: RefusedRegistration[] = [];
    let start: Item | undefined;
    do {
      const page = await this.options.doc.send(
        new QueryCommand({
          TableName: this.options.registryTable,
          KeyConditionExpression: 'appName = :partition',
          ExpressionAttributeValues: { ':partition': REFUSALS_PARTITION },
          // What a person looks at: a write a moment old may be missing, for half the price.
          ConsistentRead: false,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) {
        // TTL deletes lazily (up to days late in AWS): an expired item is gone for readers.
        if (!(Number(item.expiresAt) >= nowSeconds)) continue;
        const app = String(item.refusedAppName);
        if (appName !== undefined && app !== appName) continue;
        const [, address] = JSON.parse(String(item.address)) as [string, string, string];
        records.push({
          appName: app,
          address,
          reason: String(item.reason) as RefusalReason,
          request: String(item.request) as RefusedRequest,
          detail: String(item.detail),
          firstSeen: Number(item.firstSeen),
          lastSeen: Number(item.lastSeen),
          count: Number(item.count),
        });
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return records.sort(byLastSeen);
  }
}
