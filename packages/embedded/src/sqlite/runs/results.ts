import {
  type CompleteOptions,
  type CompleteOutcome,
  type HandleResult,
  OUTCOME_GRACE_MS,
  type Run,
  TRIGGER_CODE,
  truncateMessage,
} from '@tickring/core/runs';
import { isLogId, type RunRow, type RunsTable, toRun } from './table.js';

/** A run's result and what follows it: the outcome-pending mark (a partial index), the alarm. */
export class RunResults {
  constructor(private readonly table: RunsTable) {}

  complete(logId: number, result: HandleResult, options: CompleteOptions = {}): CompleteOutcome {
    if (!isLogId(logId)) return { kind: 'unknown' };
    const due = (options.markOutcomePending ?? true) ? result.handleTime + OUTCOME_GRACE_MS : null;
    return this.table.database.transaction(() => {
      const { changes } = this.table
        .prepare(
          'UPDATE runs SET handle_code = ?, handle_msg = ?, handle_time = ?, ' +
            'outcome_due_at = COALESCE(?, outcome_due_at) ' +
            // `takesResult`: no result yet, and not recorded as skipped (the skip was its end).
            `WHERE log_id = ? AND handle_code = 0 AND trigger_code <> ${TRIGGER_CODE.skipped}`,
        )
        .run(result.handleCode, truncateMessage(result.handleMsg), result.handleTime, due, logId);
      const row = this.table.get(logId);
      if (!row) return { kind: 'unknown' };
      return { kind: changes === 1 ? 'completed' : 'already-finished', run: toRun(row) };
    });
  }

  clearOutcomePending(logId: number): void {
    this.table.prepare('UPDATE runs SET outcome_due_at = NULL WHERE log_id = ?').run(logId);
  }

  findOutcomePending(nowMs: number, limit: number): Run[] {
    return this.table
      .prepare('SELECT * FROM runs WHERE outcome_due_at < ? ORDER BY outcome_due_at, log_id LIMIT ?')
      .all<RunRow>(nowMs, Math.max(0, limit))
      .map(toRun);
  }

  setAlarmStatus(logId: number, alarmStatus: number): void {
    this.table.prepare('UPDATE runs SET alarm_status = ? WHERE log_id = ?').run(alarmStatus, logId);
  }
}
