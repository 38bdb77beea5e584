import { ValidationError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import { CLAIM_LEAD_MS, type Run, type RunQuery, runStatus } from '@tickring/core/runs';
import { cursorInteger, decodeCursor, encodeCursor } from '../page-cursor.js';
import { AFTER_ALL, type RunRow, type RunsTable, toRun } from './table.js';

const DAY_MS = 86_400_000;
/** Rows one `list` looks at (the status filter may skip them) before it answers with a cursor. */
const MAX_EXAMINED = 1_000;
/** Rows read per statement, at least (a page of `limit` reads `limit + 1`: the one after tells if more are left). */
const MIN_BATCH = 50;

/** Where a list stands: the sort key of the last row it looked at, newest first. */
type Position = readonly number[];

interface ListRead<Row extends RunRow> {
  /** The rows after `position`, newest first, at most `batch` of them. */
  read(position: Position, batch: number): Row[];
  /** A row's sort key: where a list goes on after it. */
  positionOf(row: Row): Position;
}

/** A row of the dispatch records joined with its run. */
type RecordRunRow = RunRow & { record_at: number; record_salt: number; record_id: number };

/**
 * The runs lists: a job's from its runs by trigger time, an app's and all runs from the dispatch
 * records (newest record first, a record's newest entry first, each run only from the record of
 * the claim it is stored with). A cursor is the sort key of the last row looked at: rows written
 * since fall before or after it, never shifting it. Rows past their expiry are left out.
 */
export class RunLists {
  constructor(private readonly table: RunsTable) {}

  list(query: RunQuery): Page<Run> {
    const now = this.table.now();
    const to = query.to ?? now + DAY_MS;
    const from = query.from ?? to - (this.table.retentionDays + 1) * DAY_MS;
    if (from > to) throw new ValidationError('from must not be after to', 'from');
    const live = Math.floor(now / 1000);
    const wanted = (run: Run) => !query.status || runStatus(run) === query.status;
    const app = query.appName;
    const ofApp = app === undefined ? [] : [app];
    // A cursor's first field bounds the index range too: its row value alone only filters the rows.
    if (query.jobId !== undefined) {
      const jobId = query.jobId;
      const sql =
        `SELECT * FROM runs WHERE job_id = ?${app === undefined ? '' : ' AND app_name = ?'} ` +
        'AND trigger_time BETWEEN ? AND ? AND (trigger_time, log_id) < (?, ?) AND expires_at > ? ' +
        'ORDER BY trigger_time DESC, log_id DESC LIMIT ?';
      return this.page(['t', 'l'], query, wanted, {
        read: ([time = 0, logId = 0], batch) =>
          this.table
            .prepare(sql)
            .all<RunRow>(jobId, ...ofApp, from, Math.min(to, time), time, logId, live, batch),
        positionOf: (row) => [row.trigger_time, row.log_id],
      });
    }
    const sql =
      'SELECT r.*, d.claim_at AS record_at, d.salt AS record_salt, d.id AS record_id ' +
      'FROM run_dispatches d JOIN runs r ON r.log_id = d.log_id AND r.claim_token = d.claim_token ' +
      `WHERE ${app === undefined ? '' : 'd.app_name = ? AND '}d.claim_at BETWEEN ? AND ? ` +
      'AND (d.claim_at, d.salt, d.id) < (?, ?, ?) AND r.trigger_time BETWEEN ? AND ? AND r.expires_at > ? ' +
      'ORDER BY d.claim_at DESC, d.salt DESC, d.id DESC LIMIT ?';
    return this.page(['a', 's', 'i'], query, wanted, {
      read: ([at = 0, salt = 0, id = 0], batch) =>
        this.table
          .prepare(sql)
          .all<RecordRunRow>(
            ...ofApp,
            from - CLAIM_LEAD_MS,
            Math.min(to, at),
            at,
            salt,
            id,
            from,
            to,
            live,
            batch,
          ),
      positionOf: (row) => [row.record_at, row.record_salt, row.record_id],
    });
  }

  /**
   * One page: rows from the cursor on (its `fields`: the sort key), at most `limit` runs that pass
   * `wanted`; a cursor when a further run passes it, or when `MAX_EXAMINED` rows were looked at first.
   */
  private page<Row extends RunRow>(
    fields: readonly string[],
    query: RunQuery,
    wanted: (run: Run) => boolean,
    rows: ListRead<Row>,
  ): Page<Run> {
    const cursor = decodeCursor(query.cursor);
    let position: Position = fields.map((name) => (cursor ? cursorInteger(cursor[name]) : AFTER_ALL));
    const cursorAt = (at: Position) =>
      encodeCursor(Object.fromEntries(fields.map((name, i) => [name, at[i]])));
    const batch = Math.max(query.limit + 1, MIN_BATCH);
    const items: Run[] = [];
    for (let examined = 0; examined < MAX_EXAMINED; ) {
      const read = rows.read(position, batch);
      for (const row of read) {
        const run = toRun(row);
        if (wanted(run)) {
          if (items.length >= query.limit) return { items, nextCursor: cursorAt(position) };
          items.push(run);
        }
        position = rows.positionOf(row);
      }
      if (read.length < batch) return { items };
      examined += read.length;
    }
    return { items, nextCursor: cursorAt(position) };
  }
}
