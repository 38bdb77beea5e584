import {
  type CompleteOptions,
  type CompleteOutcome,
  completeMarks,
  HANDLE_CODE,
  type HandleResult,
  OUTCOME_GRACE_MS,
  type Run,
  sampledOutExpiresAt,
  takesResult,
  truncateMessage,
} from '@tickring/core/runs';
import { isLogId, type RunRow, type RunsTable, toRun } from './table.js';

/** A run's result and what follows it: the outcome-pending mark (a partial index), the alarm. */
export class RunResults {
  constructor(private readonly table: RunsTable) {}

  complete(logId: number, result: HandleResult, options: CompleteOptions = {}): CompleteOutcome {
    if (!isLogId(logId)) return { kind: 'unknown' };
    return this.table.database.transaction(() => {
      const row = this.table.get(logId);
      if (!row) return { kind: 'unknown' };
      const run = toRun(row);
      // `takesResult`: no result yet, and not recorded as skipped (the skip was its end).
      if (!takesResult(run)) return { kind: 'already-finished', run };
      const completed: Run = {
        ...run,
        handleCode: result.handleCode,
        handleMsg: truncateMessage(result.handleMsg),
        handleTime: result.handleTime,
      };
      const due = completeMarks(options, run, result.handleCode)
        ? result.handleTime + OUTCOME_GRACE_MS
        : null;
      // A sampled-out success keeps its record a day only, set in this same write.
      const expiresAt =
        result.handleCode === HANDLE_CODE.success
          ? (sampledOutExpiresAt(run, this.table.retentionDays) ?? null)
          : null;
      this.table
        .prepare(
          'UPDATE runs SET handle_code = ?, handle_msg = ?, handle_time = ?, ' +
            'outcome_due_at = COALESCE(?, outcome_due_at), expires_at = COALESCE(?, expires_at) WHERE log_id = ?',
        )
        .run(completed.handleCode, completed.handleMsg, completed.handleTime, due, expiresAt, logId);
      return { kind: 'completed', run: completed };
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
