import { type DynamoDBDocumentClient, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Logger } from '@tickring/core/common';
import type { WorkflowRunRecord } from '@tickring/core/workflows';
import type { Item } from '../util.js';

export const DAY_S = 86_400;

export interface DynamoWorkflowStoreOptions {
  readonly doc: DynamoDBDocumentClient;
  readonly workflowsTable: string;
  /**
   * A run and its results and shard outcomes expire (DynamoDB TTL) this many days after it last
   * moved (a QUEUED or RUNNING run is looked at by the sweeps, so it does not expire while active).
   */
  readonly retentionDays: number;
  /** Epoch ms, for the expiry of shard outcomes and of a deleted workflow's versions. */
  readonly now?: () => number;
  /** Where a failed clean-up after a delete is reported. */
  readonly logger?: Logger;
}

/** The table and settings every role of the workflow store shares. */
export class WorkflowsTable {
  readonly doc: DynamoDBDocumentClient;
  readonly workflowsTable: string;
  readonly retentionDays: number;
  readonly now: () => number;

  constructor(options: DynamoWorkflowStoreOptions) {
    this.doc = options.doc;
    this.workflowsTable = options.workflowsTable;
    this.retentionDays = options.retentionDays;
    this.now = options.now ?? Date.now;
  }

  expiry(ms: number): number {
    return Math.floor(ms / 1000) + this.retentionDays * DAY_S;
  }

  runExpiry(run: WorkflowRunRecord): number {
    return this.expiry(Math.max(run.createdAt, run.movedAt));
  }

  async queryAll(input: ConstructorParameters<typeof QueryCommand>[0]): Promise<Item[]> {
    const items: Item[] = [];
    let start: Item | undefined;
    do {
      const page: QueryCommandOutput = await this.doc.send(
        new QueryCommand({ ...input, ExclusiveStartKey: start }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  }
}
