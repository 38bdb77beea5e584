import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import {
  firstPlannedLogId,
  LOG_ID_JOB_FACTOR,
  type Run,
  type RunQuery,
  runStatus,
  UNPLANNED_LOG_ID_OFFSET,
} from '@tickring/core/runs';
import { decodeCursor, encodeCursor } from '../util.js';
import { PAGE_ROUND_SIZE } from './dispatch-records.js';
import type { HourIndex } from './hour-index.js';
import { fromItem, pageEntries } from './items.js';
import { HOUR_MS, hourOf, hourStartOf, SALT } from './keys.js';
import type { RunsTable } from './table.js';

const DAY_MS = 86_400_000;
/** Query rounds one `list` makes before it answers with a cursor. */
const MAX_LIST_ROUNDS = 25;
/** Run keys read per query round of a job's partition. */
const JOB_ROUND_SIZE = 50;

/** The runs lists: a job's from its partition, an app's and all runs from the dispatch pages. */
export class RunLists {
  constructor(
    private readonly table: RunsTable,
    private readonly hours: HourIndex,
  ) {}

  async list(query: RunQuery): Promise<Page<Run>> {
    const to = query.to ?? Date.now() + DAY_MS;
    const from = query.from ?? to - (this.table.retentionDays + 1) * DAY_MS;
    if (from > to) throw new ValidationError('from must not be after to', 'from');
    const filter = (run: Run) =>
      run.triggerTime >= from &&
      run.triggerTime <= to &&
      (!query.status || runStatus(run) === query.status) &&
      (query.appName === undefined || run.appName === query.appName);
    return query.jobId !== undefined
      ? this.listJob(query.jobId, { from, to, limit: query.limit, cursor: query.cursor, filter })
      : this.listPages({
          from,
          to,
          limit: query.limit,
          cursor: query.cursor,
          filter,
          appName: query.appName,
        });
  }

  /**
   * A job's runs, newest first: its planned runs (in schedule order) and its unplanned ones (in the
   * order they were made) are two ranges of its partition, merged by trigger time. The cursor holds
   * each range's position.
   */
  private async listJob(
    jobId: number,
    q: { from: number; to: number; limit: number; cursor?: string; filter: (run: Run) => boolean },
  ): Promise<Page<Run>> {
    const base = firstPlannedLogId(jobId);
    const position = decodeJobCursor(q.cursor);
    const streams = [
      new RangeStream(this, jobId, base, base + UNPLANNED_LOG_ID_OFFSET - 1, position?.p),
      new RangeStream(this, jobId, base + UNPLANNED_LOG_ID_OFFSET, base + LOG_ID_JOB_FACTOR - 1, position?.u),
    ] as const;
    const items: Run[] = [];
    let rounds = 0;
    while (items.length < q.limit && rounds < MAX_LIST_ROUNDS) {
      for (const stream of streams) if (stream.needsRead()) rounds += await stream.read();
      const heads = streams.filter((s) => s.head() !== undefined);
      if (heads.length === 0) break;
      const newest = heads.reduce((a, b) =>
        (b.head()?.triggerTime ?? 0) > (a.head()?.triggerTime ?? 0) ? b : a,
      );
      const run = newest.take();
      // Each range is in time order: a run older than `from` ends it.
      if (run.triggerTime < q.from) newest.end();
      else if (q.filter(run)) items.push(run);
    }
    if (streams.every((s) => s.done())) return { items };
    return { items, nextCursor: encodeCursor({ p: streams[0].position(), u: streams[1].position() }) };
  }

  /** Reads up to `limit` runs of a job's partition in `[low, high]`, newest logId first (for RangeStream). */
  async queryRange(jobId: number, low: number, high: number, limit: number) {
    const result = await this.table.doc.send(
      new QueryCommand({
        TableName: this.table.runsTable,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
        ExpressionAttributeValues: { ':pk': `J#${jobId}`, ':low': low, ':high': high },
        ScanIndexForward: false,
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    return { items: (result.Items ?? []).map(fromItem), more: result.LastEvaluatedKey !== undefined };
  }

  /**
   * An app's or all runs, newest first, from the dispatch pages hour by hour back from `to`; only
   * the page a run was last claimed under lists it. Only the hours in the hour index are read (and,
   * on a table written before the index, every hour before where it starts: see `HourWalk`). The
   * cursor holds the hour, the page and how many of its entries were looked at.
   */
  private async listPages(q: {
    from: number;
    to: number;
    limit: number;
    cursor?: string;
    appName?: string;
    filter: (run: Run) => boolean;
  }): Promise<Page<Run>> {
    // A page's key is its claim time, just before its runs' trigger times.
    const lowest = (q.from - 60_000) * SALT;
    const position = decodePageCursor(q.cursor);
    // Records are keyed by their claim time, never in the future: start from now at the latest.
    const top = Math.min(q.to, Date.now() + 60_000);
    const cursorHour = position ? Date.parse(`${position.h}:00:00Z`) : undefined;
    const walk = new HourWalk(
      this.hours,
      hourStartOf(q.from - 60_000),
      cursorHour ?? hourStartOf(top),
      await this.hours.hoursIndexedFrom(),
    );
    /** The key below which an hour's pages are read: the cursor's in its hour, else the hour's top. */
    const topOf = (hourStart: number) => Math.min(top * SALT + SALT, (hourStart + HOUR_MS) * SALT);
    let hourStart = await walk.next();
    if (hourStart === undefined) return { items: [] };
    const atCursor = position !== undefined && hourStart === cursorHour;
    let below = atCursor ? position.k : topOf(hourStart);
    let skip = atCursor ? position.i : 0;
    const items: Run[] = [];
    for (let rounds = 0; rounds + walk.queries < MAX_LIST_ROUNDS; rounds++) {
      const hour = hourOf(hourStart);
      const result = await this.table.doc.send(
        new QueryCommand({
          TableName: this.table.runsTable,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :low AND :high',
          ExpressionAttributeValues: { ':pk': `P#${hour}`, ':low': lowest, ':high': below - 1 },
          ScanIndexForward: false,
          Limit: PAGE_ROUND_SIZE,
        }),
      );
      for (const page of result.Items ?? []) {
        const token = `${hour}/${page.sk}`;
        const entries = pageEntries(page).reverse();
        // A record written twice (a retried write) lists its runs twice: list each once.
        const first = new Map<number, number>();
        entries.forEach((entry, index) => {
          if (!first.has(entry.logId)) first.set(entry.logId, index);
        });
        const wanted = entries
          .map((entry, index) => ({ entry, index }))
          .filter(
            ({ entry, index }) =>
              index >= skip &&
              first.get(entry.logId) === index &&
              (!q.appName || entry.appName === q.appName),
          );
        const stored = new Map(
          (await this.table.readRuns(wanted.map(({ entry }) => entry.logId))).map((item) => [
            Number(item.sk),
            item,
          ]),
        );
        for (const { entry, index } of wanted) {
          const item = stored.get(entry.logId);
          const run = item && item.claimToken === token ? fromItem(item) : undefined;
          if (run && q.filter(run)) items.push(run);
          if (items.length >= q.limit) {
            const rest = index + 1 < entries.length;
            return {
              items,
              nextCursor: encodePageCursor(
                rest
                  ? { h: hour, k: Number(page.sk) + 1, i: index + 1 }
                  : { h: hour, k: Number(page.sk), i: 0 },
              ),
            };
          }
        }
        below = Number(page.sk);
        skip = 0;
      }
      if (!result.LastEvaluatedKey) {
        const next = await walk.next();
        if (next === undefined) return { items };
        hourStart = next;
        below = topOf(hourStart);
        skip = 0;
      }
    }
    return { items, nextCursor: encodePageCursor({ h: hourOf(hourStart), k: below, i: skip }) };
  }
}

/** One logId range of a job's partition, read newest first in rounds, one run at a time. */
class RangeStream {
  private buffer: Run[] = [];
  private more = true;
  private last: number | undefined;
  private ended = false;

  constructor(
    private readonly lists: RunLists,
    private readonly jobId: number,
    private readonly low: number,
    private readonly high: number,
    cursor: number | null | undefined,
  ) {
    if (cursor === null) this.ended = true;
    else if (cursor !== undefined) this.last = cursor;
  }

  needsRead(): boolean {
    return !this.ended && this.buffer.length === 0 && this.more;
  }

  async read(): Promise<number> {
    const high = this.last === undefined ? this.high : this.last - 1;
    if (high < this.low) {
      this.more = false;
      return 0;
    }
    const page = await this.lists.queryRange(this.jobId, this.low, high, JOB_ROUND_SIZE);
    this.buffer = page.items;
    this.more = page.more;
    return 1;
  }

  head(): Run | undefined {
    return this.ended ? undefined : this.buffer[0];
  }

  take(): Run {
    const run = this.buffer.shift() as Run;
    this.last = run.logId;
    return run;
  }

  end(): void {
    this.ended = true;
  }

  done(): boolean {
    return this.ended || (this.buffer.length === 0 && !this.more);
  }

  /** Where a next page continues: after the last run taken, or null when the range is done. */
  position(): number | null | undefined {
    return this.done() ? null : this.last;
  }
}

/**
 * The hours a list of dispatch pages reads, newest first, from `start` down to `low` (hour starts):
 * from `indexedFrom` on those in the hour index (read a round of hours at a time), below it every
 * hour (pages written before the index may be in any of them).
 */
class HourWalk {
  /** Index reads made: they count towards the list's rounds. */
  queries = 0;
  private buffer: number[] = [];
  /** The newest hour not read yet (from the index, or walked). */
  private nextHour: number;

  constructor(
    private readonly hours: HourIndex,
    private readonly low: number,
    start: number,
    private readonly indexedFrom: number,
  ) {
    this.nextHour = start;
  }

  async next(): Promise<number | undefined> {
    for (;;) {
      const buffered = this.buffer.shift();
      if (buffered !== undefined) return buffered;
      if (this.nextHour < this.low) return undefined;
      if (this.nextHour < this.indexedFrom) {
        const hour = this.nextHour;
        this.nextHour -= HOUR_MS;
        return hour;
      }
      const bottom = Math.max(this.low, this.indexedFrom);
      const { hours, more } = await this.hours.queryHours(bottom, this.nextHour, MAX_LIST_ROUNDS);
      this.queries++;
      this.buffer = hours;
      const last = hours.at(-1);
      this.nextHour = more && last !== undefined ? last - HOUR_MS : bottom - HOUR_MS;
    }
  }
}

function decodeJobCursor(
  cursor: string | undefined,
): { p: number | null | undefined; u: number | null | undefined } | undefined {
  const decoded = decodeCursor(cursor);
  if (decoded === undefined) return undefined;
  const valid = (v: unknown) => v === undefined || v === null || Number.isSafeInteger(v);
  if (!('p' in decoded || 'u' in decoded) || !valid(decoded.p) || !valid(decoded.u)) {
    throw new ValidationError('cursor is not a cursor this API returned', 'cursor');
  }
  return { p: decoded.p as number | null | undefined, u: decoded.u as number | null | undefined };
}

function encodePageCursor(position: { h: string; k: number; i: number }): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

function decodePageCursor(cursor: string | undefined): { h: string; k: number; i: number } | undefined {
  const decoded = decodeCursor(cursor);
  if (decoded === undefined) return undefined;
  const { h, k, i } = decoded;
  if (
    typeof h !== 'string' ||
    !/^\d{4}-\d\d-\d\dT\d\d$/.test(h) ||
    !Number.isSafeInteger(k) ||
    !Number.isSafeInteger(i) ||
    (i as number) < 0
  ) {
    throw new ValidationError('cursor is not a cursor this API returned', 'cursor');
  }
  return { h, k: k as number, i: i as number };
}
