import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Logger } from '@tickring/core/common';
import { type Run, runExpiresAt, sampledOutExpiresAt } from '@tickring/core/runs';
import { batchGetAll, type Item, isConditionFailed } from '../util.js';
import { fromItem } from './items.js';
import { runKey } from './keys.js';

export interface DynamoRunStoreOptions {
  readonly doc: DynamoDBDocumentClient;
  readonly runsTable: string;
  /** Holds the fire records, each job's counter of unplanned runs and its catch-up mark. */
  readonly controlTable: string;
  /** Runs, pages and fire records expire (DynamoDB TTL) this many days after their trigger. */
  readonly retentionDays: number;
  /** A number in [0, 1): the salt of page keys. */
  readonly random?: () => number;
  /** Where a failed write of the hour index is reported (it does not fail the dispatch record). */
  readonly logger?: Logger;
}

/** The tables and settings every role of the run store shares, and the reads and writes they all make. */
export class RunsTable {
  readonly doc: DynamoDBDocumentClient;
  readonly runsTable: string;
  readonly controlTable: string;
  readonly retentionDays: number;
  /** A number in [0, 1): the salt of page keys. */
  readonly random: () => number;

  constructor(options: DynamoRunStoreOptions) {
    this.doc = options.doc;
    this.runsTable = options.runsTable;
    this.controlTable = options.controlTable;
    this.retentionDays = options.retentionDays;
    this.random = options.random ?? Math.random;
  }

  async get(logId: number): Promise<Run | undefined> {
    if (!Number.isSafeInteger(logId) || logId <= 0) return undefined;
    const { Item: item } = await this.doc.send(
      new GetCommand({ TableName: this.runsTable, Key: runKey(logId), ConsistentRead: true }),
    );
    return item ? fromItem(item) : undefined;
  }

  readRuns(logIds: readonly number[], read?: Parameters<typeof batchGetAll>[3]): Promise<Item[]> {
    return batchGetAll(
      this.doc,
      this.runsTable,
      [...new Set(logIds)].filter((id) => Number.isSafeInteger(id) && id > 0).map(runKey),
      read,
    );
  }

  async conditionalUpdate(
    update: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName'>,
  ): Promise<boolean> {
    try {
      await this.doc.send(new UpdateCommand({ TableName: this.runsTable, ...update }));
      return true;
    } catch (err) {
      if (isConditionFailed(err)) return false;
      throw err;
    }
  }

  expiresAt(triggerTime: number): number {
    return Math.floor(triggerTime / 1000) + this.retentionDays * 86_400;
  }

  /** A run's expiry as claimed: its job's retention when it carries one (`Run.retention`), else the table's. */
  runExpiresAt(run: Run): number {
    return runExpiresAt(run, this.retentionDays);
  }

  /** A run's expiry once it succeeds, when its success is sampled out (see `sampledOutExpiresAt`). */
  successExpiresAt(run: Run): number | undefined {
    return sampledOutExpiresAt(run, this.retentionDays);
  }
}
