import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  type DispatchEntry,
  MAX_WATCH_CHUNKS,
  TRIGGER_CODE,
  WATCH_AGAIN_MS,
  WATCH_START_MS,
  type WatchedRun,
} from '@tickring/core/runs';
import type { Item } from '../util.js';
import { type DispatchRecords, PAGE_ROUND_SIZE } from './dispatch-records.js';
import { indexedFromOf } from './hour-index.js';
import { fromItem, pageEntries } from './items.js';
import { HOUR_MS, hourOf, hourStartOf, SALT, WATCH_CURSOR_KEY } from './keys.js';
import type { RunsTable } from './table.js';

/**
 * The lost-run watch: reads the dispatch pages (and its own watch pages) from where its cursor
 * stopped, and finds the runs still unfinished.
 */
export class RunWatch {
  constructor(
    private readonly table: RunsTable,
    private readonly records: DispatchRecords,
  ) {}

  async findUnfinished(
    nowMs: number,
    { limit, settleMs }: { limit: number; settleMs: number },
  ): Promise<WatchedRun[]> {
    const { Item: cursor } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.runsTable, Key: WATCH_CURSOR_KEY, ConsistentRead: true }),
    );
    let position = { dispatched: cursor?.dispatchedThrough, watched: cursor?.watchedThrough };
    const hoursIndexedFrom = indexedFromOf(cursor, nowMs);
    const unfinished = new Map<number, WatchedRun>();
    // Chunks of about `limit` entries, the cursor saved after each, until caught up or `limit` runs found.
    for (let chunk = 0; chunk < MAX_WATCH_CHUNKS && unfinished.size < limit; chunk++) {
      const dispatched = await this.readPagesSince('P', position.dispatched, nowMs - settleMs, limit);
      const watched = await this.readPagesSince('W', position.watched, nowMs, limit);
      await this.watch([...dispatched.entries, ...watched.entries], nowMs, unfinished);
      position = { dispatched: dispatched.through, watched: watched.through };
      await this.table.doc.send(
        new PutCommand({
          TableName: this.table.runsTable,
          Item: {
            ...WATCH_CURSOR_KEY,
            dispatchedThrough: position.dispatched,
            watchedThrough: position.watched,
            hoursIndexedFrom,
          },
        }),
      );
      if (dispatched.caughtUp && watched.caughtUp) break;
    }
    return [...unfinished.values()];
  }

  /**
   * Looks at the runs of some watch entries: finished ones are dropped, unfinished ones added to
   * `unfinished` (with whether their deadline has passed) and filed to be looked at again a minute
   * on, or at their deadline if that is sooner. Every run is looked at, so the bulk read takes only
   * what tells a finished run, eventually consistent (half the cost); the few unfinished ones (runs
   * still going after the settle time) are then read whole and strongly.
   */
  private async watch(
    entries: readonly (DispatchEntry & { claimToken?: string })[],
    nowMs: number,
    unfinished: Map<number, WatchedRun>,
  ): Promise<void> {
    const states = new Map(
      (
        await this.table.readRuns(
          entries.map((e) => e.logId),
          { consistent: false, attributes: ['pk', 'sk', 'triggerCode', 'handleCode', 'claimToken'] },
        )
      ).map((item) => [Number(item.sk), item]),
    );
    const isUnfinished = (item: Item | undefined): item is Item =>
      item !== undefined && item.triggerCode === TRIGGER_CODE.success && item.handleCode === 0;
    const again: (DispatchEntry & { due: number })[] = [];
    const deadlines = new Map<number, number>();
    for (const entry of entries) {
      const state = states.get(entry.logId);
      if (!isUnfinished(state)) continue;
      // A run claimed again under another token is watched from that claim's page.
      if (entry.claimToken !== undefined && state.claimToken !== entry.claimToken) continue;
      // A record written twice (a retried write) lists its runs twice: look at each run once.
      if (deadlines.has(entry.logId)) continue;
      deadlines.set(entry.logId, entry.deadline);
      const next = nowMs + WATCH_AGAIN_MS;
      again.push({ ...entry, due: entry.deadline > nowMs ? Math.min(entry.deadline, next) : next });
    }
    for (const item of await this.table.readRuns([...deadlines.keys()])) {
      const logId = Number(item.sk);
      if (!isUnfinished(item) || unfinished.has(logId)) continue;
      unfinished.set(logId, { run: fromItem(item), pastDeadline: (deadlines.get(logId) ?? 0) <= nowMs });
    }
    // Watch again before moving the cursor: a sweep that dies in between looks at runs twice, never not at all.
    const byMinute = new Map<number, DispatchEntry[]>();
    for (const entry of again) {
      const minute = Math.ceil(entry.due / 60_000) * 60_000;
      byMinute.set(minute, [...(byMinute.get(minute) ?? []), entry]);
    }
    await Promise.all(
      [...byMinute].map(([at, group]) =>
        this.records.appendToPage(
          { pk: `W#${hourOf(at)}`, sk: at * SALT + Math.floor(this.table.random() * SALT) },
          group,
          nowMs,
        ),
      ),
    );
  }

  /**
   * The entries of the pages of one kind with keys after `after` up to `untilMs`, oldest first, in
   * whole pages until about `limit` entries; `through` is the key to continue after.
   */
  private async readPagesSince(
    kind: 'P' | 'W',
    after: unknown,
    untilMs: number,
    limit: number,
  ): Promise<{ entries: (DispatchEntry & { claimToken?: string })[]; through: number; caughtUp: boolean }> {
    const until = untilMs * SALT + SALT - 1;
    let through = typeof after === 'number' ? after : (untilMs - WATCH_START_MS) * SALT;
    const entries: (DispatchEntry & { claimToken?: string })[] = [];
    // A sweep no later than the last one (clock skew, overlapping sweeps) has nothing new to read.
    if (through >= until) return { entries, through, caughtUp: true };
    for (
      let hourStart = hourStartOf(Math.floor(through / SALT));
      hourStart <= untilMs && entries.length < limit;
      hourStart += HOUR_MS
    ) {
      const hour = hourOf(hourStart);
      // One key condition per hour: `through` moves as pages are read, but a continued query
      // (ExclusiveStartKey) must keep the condition its start key came from.
      const after = through;
      let start: Item | undefined;
      do {
        const result = await this.table.doc.send(
          new QueryCommand({
            TableName: this.table.runsTable,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :after AND :until',
            ExpressionAttributeValues: { ':pk': `${kind}#${hour}`, ':after': after + 1, ':until': until },
            ExclusiveStartKey: start,
            Limit: PAGE_ROUND_SIZE,
          }),
        );
        for (const page of result.Items ?? []) {
          const token = kind === 'P' ? `${hour}/${page.sk}` : undefined;
          entries.push(...pageEntries(page).map((e) => ({ ...e, ...(token ? { claimToken: token } : {}) })));
          through = Number(page.sk);
          if (entries.length >= limit) return { entries, through, caughtUp: false };
        }
        start = result.LastEvaluatedKey;
      } while (start);
      // The whole hour (up to `until`) is read.
      through = Math.min(until, (hourStart + HOUR_MS) * SALT - 1);
    }
    return { entries, through, caughtUp: through >= until };
  }
}
