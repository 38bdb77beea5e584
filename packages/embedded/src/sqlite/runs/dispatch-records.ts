import type { DispatchEntry } from '@tickring/core/runs';
import { claimKeyOf, type RunsTable } from './table.js';

/**
 * The dispatch records: what one dispatcher batch sent under one claim token, the proof a run was
 * sent. One row per entry; a record written twice (a retried write) keeps its first row of a run.
 */
export class DispatchRecords {
  constructor(private readonly table: RunsTable) {}

  recordDispatch(claimToken: string, entries: readonly DispatchEntry[]): void {
    const key = claimKeyOf(claimToken);
    if (entries.length === 0) return;
    const insert = this.table.prepare(
      'INSERT INTO run_dispatches (claim_token, claim_at, salt, log_id, app_name, deadline, expires_at) ' +
        'VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (claim_token, log_id) DO NOTHING',
    );
    const expiresAt = this.table.expiresAt(key.at);
    this.table.database.transaction(() => {
      for (const e of entries) {
        insert.run(claimToken, key.at, key.salt, e.logId, e.appName, e.deadline, expiresAt);
      }
    });
  }

  dispatchedUnder(claimToken: string): ReadonlySet<number> {
    const rows = this.table
      .prepare('SELECT log_id FROM run_dispatches WHERE claim_token = ?')
      .all<{ log_id: number }>(claimToken);
    return new Set(rows.map((r) => r.log_id));
  }
}
