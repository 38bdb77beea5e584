import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DispatchEntry } from '@tickring/core/runs';
import type { HourIndex } from './hour-index.js';
import { type PageKey, pageKeyOf, SALT } from './keys.js';
import type { RunsTable } from './table.js';

/** Dispatch pages read per query round of an hour. */
export const PAGE_ROUND_SIZE = 10;

/**
 * The dispatch pages: what one dispatcher batch sent under one claim token, the proof a run was
 * sent. Watch pages are written the same way (see `appendToPage`).
 */
export class DispatchRecords {
  constructor(
    private readonly table: RunsTable,
    private readonly hours: HourIndex,
  ) {}

  async recordDispatch(claimToken: string, entries: readonly DispatchEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const key = pageKeyOf(claimToken);
    // The hour goes in the index beside the page (never failing it), so the lists read this hour.
    await Promise.all([
      this.appendToPage(key, entries, Math.floor(key.sk / SALT)),
      this.hours.indexHour(key),
    ]);
  }

  async dispatchedUnder(claimToken: string): Promise<ReadonlySet<number>> {
    const { Item: page } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.runsTable,
        Key: pageKeyOf(claimToken),
        ProjectionExpression: 'logIds',
        ConsistentRead: true,
      }),
    );
    return new Set(((page?.logIds as number[] | undefined) ?? []).map(Number));
  }

  /** Appends entries to a page (created if new): two writers that drew the same key share the page. */
  async appendToPage(key: PageKey, entries: readonly DispatchEntry[], atMs: number): Promise<void> {
    await this.table.doc.send(
      new UpdateCommand({
        TableName: this.table.runsTable,
        Key: key,
        UpdateExpression:
          'SET logIds = list_append(if_not_exists(logIds, :none), :logIds), ' +
          'apps = list_append(if_not_exists(apps, :none), :apps), ' +
          'deadlines = list_append(if_not_exists(deadlines, :none), :deadlines), expiresAt = :expires',
        ExpressionAttributeValues: {
          ':none': [],
          ':logIds': entries.map((e) => e.logId),
          ':apps': entries.map((e) => e.appName),
          ':deadlines': entries.map((e) => e.deadline),
          ':expires': this.table.expiresAt(atMs),
        },
      }),
    );
  }
}
