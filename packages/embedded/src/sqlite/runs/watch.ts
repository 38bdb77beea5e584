import {
  type DispatchEntry,
  MAX_WATCH_CHUNKS,
  TRIGGER_CODE,
  WATCH_AGAIN_MS,
  WATCH_START_MS,
  type WatchedRun,
} from '@tickring/core/runs';
import { AFTER_ALL, type RunsTable, toRun } from './table.js';

const MINUTE_MS = 60_000;
/** Expired rows deleted per transaction (a short one: writers of other processes get in between). */
const EXPIRED_BATCH = 1_000;
/** Batches one sweep deletes from each table, at most (20,000 rows a minute); the rest go next sweep. */
const MAX_EXPIRED_BATCHES = 20;

/** A position in the dispatch records: a record's claim time and salt, an entry's row id. */
interface RecordPosition {
  readonly at: number;
  readonly salt: number;
  readonly id: number;
}

/** A position in the watch rows: the minute a row is due, its row id. */
interface WatchPosition {
  readonly at: number;
  readonly id: number;
}

interface WatchEntry extends DispatchEntry {
  /** The record's claim token (a dispatch record's entry; a watch row has none). */
  readonly claimToken?: string;
}

interface Chunk<P> {
  readonly entries: WatchEntry[];
  readonly through: P;
  readonly caughtUp: boolean;
}

type CursorRow = {
  dispatched_at: number;
  dispatched_salt: number;
  dispatched_id: number;
  watched_at: number;
  watched_id: number;
};

/**
 * The lost-run watch: reads the dispatch records (and its own watch rows) from where its cursor
 * stopped, and finds the runs still unfinished. A sweep is one transaction: two monitors sweeping
 * at once take turns, the second going on from where the first left the cursor.
 */
export class RunWatch {
  constructor(private readonly table: RunsTable) {}

  findUnfinished(nowMs: number, { limit, settleMs }: { limit: number; settleMs: number }): WatchedRun[] {
    const found = this.table.database.transaction(() => {
      let position = this.readCursor() ?? {
        dispatched: { at: nowMs - settleMs - WATCH_START_MS, salt: AFTER_ALL, id: AFTER_ALL },
        watched: { at: nowMs - WATCH_START_MS, id: AFTER_ALL },
      };
      const unfinished = new Map<number, WatchedRun>();
      for (let chunk = 0; chunk < MAX_WATCH_CHUNKS && unfinished.size < limit; chunk++) {
        const dispatched = this.readRecords(position.dispatched, nowMs - settleMs, limit);
        const watched = this.readWatchRows(position.watched, nowMs, limit);
        this.watch([...dispatched.entries, ...watched.entries], nowMs, unfinished);
        position = { dispatched: dispatched.through, watched: watched.through };
        if (dispatched.caughtUp && watched.caughtUp) break;
      }
      this.saveCursor(position);
      // The watch never reads behind its cursor again.
      this.table
        .prepare('DELETE FROM run_watch WHERE (due_at, id) <= (?, ?)')
        .run(position.watched.at, position.watched.id);
      return [...unfinished.values()];
    });
    // The watch runs every minute: it also removes what DynamoDB's TTL would have.
    this.deleteExpired(nowMs);
    return found;
  }

  /**
   * Removes runs, fire records, dispatch records and catch-up marks whose expiry (`expires_at`, the
   * DynamoDB adapter's TTL field) passed before `nowMs`, in short transactions of `EXPIRED_BATCH`
   * rows, at most `MAX_EXPIRED_BATCHES` of each table.
   */
  deleteExpired(nowMs: number): void {
    const nowS = Math.floor(nowMs / 1000);
    for (const [table, key] of [
      ['runs', 'log_id'],
      ['run_fires', 'dedup_key'],
      ['run_dispatches', 'id'],
      ['run_catch_ups', 'job_id'],
    ] as const) {
      const batch = this.table.prepare(
        `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE expires_at < ? LIMIT ?)`,
      );
      for (let n = 0; n < MAX_EXPIRED_BATCHES; n++) {
        if (this.table.database.transaction(() => batch.run(nowS, EXPIRED_BATCH)).changes < EXPIRED_BATCH)
          break;
      }
    }
  }

  /**
   * Looks at the runs of some watch entries: finished ones are dropped, unfinished ones added to
   * `unfinished` (with whether their deadline has passed) and filed to be looked at again a minute
   * on, or at their deadline if that is sooner.
   */
  private watch(entries: readonly WatchEntry[], nowMs: number, unfinished: Map<number, WatchedRun>): void {
    const rows = new Map(this.table.readRuns(entries.map((e) => e.logId)).map((row) => [row.log_id, row]));
    const insert = this.table.prepare(
      'INSERT INTO run_watch (due_at, log_id, app_name, deadline) VALUES (?, ?, ?, ?)',
    );
    const seen = new Set<number>();
    for (const entry of entries) {
      const row = rows.get(entry.logId);
      if (!row || row.trigger_code !== TRIGGER_CODE.success || row.handle_code !== 0) continue;
      // A run claimed again under another token is watched from that claim's record.
      if (entry.claimToken !== undefined && row.claim_token !== entry.claimToken) continue;
      // A run listed twice (in two records, or in a record and a watch row) is looked at once.
      if (seen.has(entry.logId)) continue;
      seen.add(entry.logId);
      const next = nowMs + WATCH_AGAIN_MS;
      const due = entry.deadline > nowMs ? Math.min(entry.deadline, next) : next;
      // Due at the minute: the first sweep from that minute on reads it.
      insert.run(Math.ceil(due / MINUTE_MS) * MINUTE_MS, entry.logId, entry.appName, entry.deadline);
      if (!unfinished.has(entry.logId)) {
        unfinished.set(entry.logId, { run: toRun(row), pastDeadline: entry.deadline <= nowMs });
      }
    }
  }

  /** The dispatch entries after `after` of records claimed up to `untilMs`, oldest first, at most `limit`. */
  private readRecords(after: RecordPosition, untilMs: number, limit: number): Chunk<RecordPosition> {
    const until = { at: untilMs, salt: AFTER_ALL, id: AFTER_ALL };
    // A sweep no later than the last one (overlapping sweeps, clock skew) has nothing new to read.
    if (compare([after.at, after.salt, after.id], [until.at, until.salt, until.id]) >= 0) {
      return { entries: [], through: after, caughtUp: true };
    }
    const rows = this.table
      .prepare(
        'SELECT id, claim_token, claim_at, salt, log_id, app_name, deadline FROM run_dispatches ' +
          'WHERE (claim_at, salt, id) > (?, ?, ?) AND claim_at <= ? ORDER BY claim_at, salt, id LIMIT ?',
      )
      .all<{
        id: number;
        claim_token: string;
        claim_at: number;
        salt: number;
        log_id: number;
        app_name: string;
        deadline: number;
      }>(after.at, after.salt, after.id, untilMs, limit);
    const entries = rows.map((r) => ({
      logId: r.log_id,
      appName: r.app_name,
      deadline: r.deadline,
      claimToken: r.claim_token,
    }));
    const last = rows.at(-1);
    return rows.length < limit || !last
      ? { entries, through: until, caughtUp: true }
      : { entries, through: { at: last.claim_at, salt: last.salt, id: last.id }, caughtUp: false };
  }

  /** The watch rows after `after` due up to `untilMs`, oldest first, at most `limit`. */
  private readWatchRows(after: WatchPosition, untilMs: number, limit: number): Chunk<WatchPosition> {
    const until = { at: untilMs, id: AFTER_ALL };
    if (compare([after.at, after.id], [until.at, until.id]) >= 0) {
      return { entries: [], through: after, caughtUp: true };
    }
    const rows = this.table
      .prepare(
        'SELECT id, due_at, log_id, app_name, deadline FROM run_watch ' +
          'WHERE (due_at, id) > (?, ?) AND due_at <= ? ORDER BY due_at, id LIMIT ?',
      )
      .all<{ id: number; due_at: number; log_id: number; app_name: string; deadline: number }>(
        after.at,
        after.id,
        untilMs,
        limit,
      );
    const entries = rows.map((r) => ({ logId: r.log_id, appName: r.app_name, deadline: r.deadline }));
    const last = rows.at(-1);
    return rows.length < limit || !last
      ? { entries, through: until, caughtUp: true }
      : { entries, through: { at: last.due_at, id: last.id }, caughtUp: false };
  }

  private readCursor(): { dispatched: RecordPosition; watched: WatchPosition } | undefined {
    const row = this.table.prepare('SELECT * FROM run_watch_cursor WHERE id = 0').get<CursorRow>();
    return (
      row && {
        dispatched: { at: row.dispatched_at, salt: row.dispatched_salt, id: row.dispatched_id },
        watched: { at: row.watched_at, id: row.watched_id },
      }
    );
  }

  private saveCursor(position: { dispatched: RecordPosition; watched: WatchPosition }): void {
    const { dispatched: d, watched: w } = position;
    this.table
      .prepare(
        'INSERT OR REPLACE INTO run_watch_cursor ' +
          '(id, dispatched_at, dispatched_salt, dispatched_id, watched_at, watched_id) VALUES (0, ?, ?, ?, ?, ?)',
      )
      .run(d.at, d.salt, d.id, w.at, w.id);
  }
}

/** Compares two positions field by field, as SQLite compares row values. */
function compare(a: readonly number[], b: readonly number[]): number {
  for (const [i, value] of a.entries()) {
    const other = b[i] ?? 0;
    if (value !== other) return value < other ? -1 : 1;
  }
  return 0;
}
