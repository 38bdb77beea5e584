import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Logger } from '@tickring/core/common';
import type { Item } from '../util.js';
import { HOUR_MS, HOURS_PK, hourOf, hourStartOf, type PageKey, WATCH_CURSOR_KEY } from './keys.js';
import type { RunsTable } from './table.js';

/**
 * On a table a version without the hour index wrote, the index is complete only from this long after
 * the first sweep that keeps it (writers of the old version may still be finishing when it runs).
 */
const LEGACY_INDEX_MARGIN_MS = 2 * HOUR_MS;
/** Hours an instance remembers having put in the index (the recent ones: claims are made now). */
const MAX_REMEMBERED_HOURS = 48;

/**
 * The hour index: the hours that have dispatch pages, so the app and all-runs lists read those hours
 * only, and from which hour on it is complete (tables written before it have pages in any hour).
 */
export class HourIndex {
  /** The hours this instance put in the hour index, or is putting: one write per instance and hour. */
  private readonly indexedHours = new Map<number, Promise<boolean>>();
  /** Hours whose index write failed: written again with the next dispatch record, of any hour. */
  private readonly unindexedHours = new Set<number>();

  constructor(
    private readonly table: RunsTable,
    private readonly logger: Logger,
  ) {}

  /**
   * Puts the hour of a page in the hour index, unless this instance did already (one write per
   * instance and hour), with any hour whose write failed before. Never rejects: a failure is logged,
   * and the hour written again with the instance's next record; until then the app and all-runs
   * lists miss the hour's pages unless another instance wrote it (its jobs still list its runs).
   */
  async indexHour(page: PageKey): Promise<void> {
    const hour = Date.parse(`${page.pk.slice(2)}:00:00Z`);
    if (this.unindexedHours.size === 0 && this.indexedHours.has(hour)) return;
    await Promise.all([hour, ...this.unindexedHours].map((h) => this.putIndexedHour(h)));
  }

  private putIndexedHour(hourStart: number): Promise<boolean> {
    const known = this.indexedHours.get(hourStart);
    if (known) return known;
    const written = this.table.doc
      .send(
        new PutCommand({
          TableName: this.table.runsTable,
          // Kept as long as the pages of the hour: theirs expire after the hour's claims.
          Item: { pk: HOURS_PK, sk: hourStart, expiresAt: this.table.expiresAt(hourStart + HOUR_MS) },
        }),
      )
      .then(
        () => {
          this.unindexedHours.delete(hourStart);
          return true;
        },
        (err: unknown) => {
          this.indexedHours.delete(hourStart);
          this.unindexedHours.add(hourStart);
          // Retried hours are the few of a passing fault, not every hour of a lasting one.
          for (const old of [...this.unindexedHours].sort((a, b) => a - b)) {
            if (this.unindexedHours.size <= MAX_REMEMBERED_HOURS) break;
            this.unindexedHours.delete(old);
          }
          this.logger.warn('hour index write failed: the runs lists miss the hour until it is written', {
            hour: hourOf(hourStart),
            error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
          });
          return false;
        },
      );
    this.indexedHours.set(hourStart, written);
    // Claims are made now: the hours remembered are the last few (a Map keeps insertion order).
    for (const old of this.indexedHours.keys()) {
      if (this.indexedHours.size <= MAX_REMEMBERED_HOURS) break;
      this.indexedHours.delete(old);
    }
    return written;
  }

  /**
   * From which hour on the hour index holds every hour with dispatch pages, as the watch cursor
   * keeps it (see `indexedFromOf`). Without a cursor, 0: a new table, which no version without the
   * index swept. With a cursor such a version wrote and no sweep of this one marked yet, infinite:
   * every hour is read, as before the index.
   */
  async hoursIndexedFrom(): Promise<number> {
    const { Item: cursor } = await this.table.doc.send(
      new GetCommand({
        TableName: this.table.runsTable,
        Key: WATCH_CURSOR_KEY,
        ProjectionExpression: 'pk, hoursIndexedFrom',
      }),
    );
    if (cursor === undefined) return 0;
    return typeof cursor.hoursIndexedFrom === 'number' ? cursor.hoursIndexedFrom : Number.POSITIVE_INFINITY;
  }

  /** Reads up to `limit` hours of the hour index in `[low, high]`, newest first (for HourWalk). */
  async queryHours(low: number, high: number, limit: number) {
    const result = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.runsTable,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': HOURS_PK, ':low': low, ':high': high },
        ProjectionExpression: 'sk',
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return {
      hours: (result.Items ?? []).map((item) => Number(item.sk)),
      more: result.LastEvaluatedKey !== undefined,
    };
  }
}

/**
 * From which hour on the hour index holds every hour with dispatch pages, for the watch cursor to
 * keep (see `findUnfinished`). Without a cursor, no sweep ran yet: no version without the index ran
 * on the table (its monitors sweep every minute from the start), so the index holds every hour. A
 * cursor without the mark was written by such a version: its pages may be in any hour until a
 * while after this sweep, the first that keeps the index (its writers may still be finishing).
 */
export function indexedFromOf(cursor: Item | undefined, nowMs: number): number {
  if (cursor === undefined) return 0;
  if (typeof cursor.hoursIndexedFrom === 'number') return cursor.hoursIndexedFrom;
  return hourStartOf(nowMs) + LEGACY_INDEX_MARGIN_MS;
}
