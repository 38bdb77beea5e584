import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { RegistryEntry, RegistryStore } from '@tickring/core/executors';
import { type Item, isConditionFailed } from './util.js';

/** XXL-JOB's dead timeout (3 beats of 30 s); entries expire a few times later. */
const DEFAULT_EXPIRE_AFTER_SECONDS = 3 * 90;

export interface DynamoRegistryStoreOptions {
  readonly doc: DynamoDBDocumentClient;
  readonly registryTable: string;
  /**
   * DynamoDB TTL of a heartbeat: an executor not seen for this long is deleted (lazily; readers
   * filter on `expiresAt` too). Keep it a few times the registry dead timeout. Default 270 s.
   */
  readonly expireAfterSeconds?: number;
}

/**
 * Executor heartbeats, one item per (appName, address) in the registry table. A beat moves
 * `updatedAt` forward only (a late, older beat cannot make an executor look older than it is).
 */
export class DynamoRegistryStore implements RegistryStore {
  constructor(private readonly options: DynamoRegistryStoreOptions) {}

  async heartbeat(appName: string, address: string, nowMs: number): Promise<void> {
    const expireAfter = this.options.expireAfterSeconds ?? DEFAULT_EXPIRE_AFTER_SECONDS;
    try {
      await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.registryTable,
          Key: { appName, address },
          UpdateExpression: 'SET updatedAt = :now, expiresAt = :expires',
          ConditionExpression: 'attribute_not_exists(updatedAt) OR updatedAt <= :now',
          ExpressionAttributeValues: { ':now': nowMs, ':expires': Math.floor(nowMs / 1000) + expireAfter },
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err; // a newer beat is already stored
    }
  }

  async remove(appName: string, address: string): Promise<void> {
    await this.options.doc.send(
      new DeleteCommand({ TableName: this.options.registryTable, Key: { appName, address } }),
    );
  }

  async list(appName: string, seenSince?: number): Promise<RegistryEntry[]> {
    const nowSeconds = Math.floor(Date.now() / 1000);
    const entries: RegistryEntry[] = [];
    let start: Item | undefined;
    do {
      const page = await this.options.doc.send(
        new QueryCommand({
          TableName: this.options.registryTable,
          KeyConditionExpression: 'appName = :app',
          ExpressionAttributeValues: { ':app': appName },
          // Heartbeats are 30 s apart and an executor counts for 90 s: a read a moment behind
          // (eventually consistent, half the price) tells the same.
          ConsistentRead: false,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) {
        const updatedAt = Number(item.updatedAt);
        // TTL deletes lazily (up to days late in AWS): an expired item is gone for readers.
        if (Number(item.expiresAt) < nowSeconds) continue;
        if (seenSince !== undefined && !(updatedAt >= seenSince)) continue;
        entries.push({ appName, address: String(item.address), updatedAt });
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return entries.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  }
}
