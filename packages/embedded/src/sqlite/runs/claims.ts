import {
  type ClaimedSkip,
  type ClaimTakeOver,
  type CreateFireResult,
  firstPlannedLogId,
  jobIdOfLogId,
  OUTCOME_GRACE_MS,
  type PlannedRunHead,
  type Run,
  runExpiresAt,
  type SkipRangeExtension,
  type StoredRun,
  TRIGGER_CODE,
  type TriggerRefusal,
  truncateMessage,
  UNPLANNED_LOG_ID_OFFSET,
  unplannedLogId,
} from '@tickring/core/runs';
import { type RunsTable, runValues, toStoredRun } from './table.js';

const INSERT_RUN =
  'INSERT INTO runs (log_id, job_id, app_name, trigger_time, scheduled_time, executor_address, ' +
  'trigger_code, trigger_msg, dispatched_at, handle_code, handle_msg, handle_time, alarm_status, ' +
  'claim_token, claim_at, outcome_due_at, expires_at, body) ' +
  'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (log_id) DO NOTHING';

/** A claim under a token, older than a bound, of a run recorded to be sent and without a result. */
const STALE_SENT_CLAIM = `claim_token = ? AND claim_at < ? AND trigger_code = ${TRIGGER_CODE.success} AND handle_code = 0`;

/**
 * Runs made and taken under a claim token: logIds, fire records, claims and their take-over, the
 * catch-up mark, and the end a claim can have before any result (skipped, refused). Each method is
 * one statement, or one transaction: nothing of another writer comes in between.
 */
export class RunClaims {
  constructor(private readonly table: RunsTable) {}

  allocateLogIds(jobId: number, count: number): number[] {
    if (count <= 0) return [];
    const first = this.table.database.transaction(() => {
      const used =
        this.table
          .prepare('SELECT used FROM run_log_id_counters WHERE job_id = ?')
          .get<{ used: number }>(jobId)?.used ?? 0;
      if (used + count > UNPLANNED_LOG_ID_OFFSET) {
        throw new Error(`job ${jobId} has used up its ${UNPLANNED_LOG_ID_OFFSET} unplanned logIds`);
      }
      this.table
        .prepare(
          'INSERT INTO run_log_id_counters (job_id, used) VALUES (?, ?) ' +
            'ON CONFLICT (job_id) DO UPDATE SET used = excluded.used',
        )
        .run(jobId, used + count);
      return used;
    });
    return Array.from({ length: count }, (_, i) => unplannedLogId(jobId, first + i));
  }

  createFire(dedupKey: string, runs: readonly Run[], claimToken: string): CreateFireResult {
    return this.table.database.transaction(() => {
      const fire = this.table
        .prepare('SELECT log_ids, claim_token FROM run_fires WHERE dedup_key = ?')
        .get<{ log_ids: string; claim_token: string }>(dedupKey);
      if (fire) {
        // Ours: an earlier attempt of this claim committed although its answer was lost.
        return fire.claim_token === claimToken
          ? { created: true }
          : { created: false, logIds: JSON.parse(fire.log_ids) as number[] };
      }
      const expiresAt = this.table.expiresAt(runs[0]?.triggerTime ?? this.table.now());
      this.table
        .prepare('INSERT INTO run_fires (dedup_key, log_ids, claim_token, expires_at) VALUES (?, ?, ?, ?)')
        .run(dedupKey, JSON.stringify(runs.map((r) => r.logId)), claimToken, expiresAt);
      for (const run of runs) {
        // Thrown inside the transaction: the fire and its other runs are rolled back with it.
        if (!this.insertRun(run, claimToken)) {
          throw new Error(`fire ${dedupKey} not recorded: run ${run.logId} exists`);
        }
      }
      return { created: true };
    });
  }

  claim(run: Run, claimToken: string): CreateFireResult {
    if (this.insertRun(run, claimToken)) return { created: true };
    const existing = this.table
      .prepare('SELECT claim_token FROM runs WHERE log_id = ?')
      .get<{ claim_token: string }>(run.logId);
    return existing?.claim_token === claimToken ? { created: true } : { created: false, logIds: [run.logId] };
  }

  getMany(logIds: readonly number[]): StoredRun[] {
    return this.table.readRuns(logIds).map(toStoredRun);
  }

  reclaim(logId: number, claim: ClaimTakeOver): boolean {
    const triggerMsg = claim.triggerMsg === undefined ? null : truncateMessage(claim.triggerMsg);
    const { changes } = this.table
      .prepare(
        'UPDATE runs SET claim_at = ?, claim_token = ?, trigger_msg = COALESCE(?, trigger_msg) ' +
          `WHERE log_id = ? AND ${STALE_SENT_CLAIM}`,
      )
      .run(claim.nowMs, claim.claimToken, triggerMsg, logId, claim.previousToken, claim.staleBeforeMs);
    return changes === 1;
  }

  laterPlannedRun(logId: number): { logId: number; scheduledTime: number } | undefined {
    const last = firstPlannedLogId(jobIdOfLogId(logId)) + UNPLANNED_LOG_ID_OFFSET - 1;
    const row = this.table
      .prepare(
        'SELECT log_id, scheduled_time FROM runs WHERE log_id > ? AND log_id <= ? ORDER BY log_id LIMIT 1',
      )
      .get<{ log_id: number; scheduled_time: number }>(logId, last);
    return row && { logId: row.log_id, scheduledTime: row.scheduled_time };
  }

  latestPlannedRun(jobId: number, atOrBelow?: number): PlannedRunHead | undefined {
    const first = firstPlannedLogId(jobId);
    const last = Math.min(first + UNPLANNED_LOG_ID_OFFSET - 1, atOrBelow ?? Number.MAX_SAFE_INTEGER);
    const row = this.table
      .prepare(
        'SELECT log_id, scheduled_time, trigger_code, ' +
          "json_extract(body, '$.skippedCount') AS skipped_count, " +
          "json_extract(body, '$.skippedUntil') AS skipped_until " +
          'FROM runs WHERE log_id >= ? AND log_id <= ? ORDER BY log_id DESC LIMIT 1',
      )
      .get<{
        log_id: number;
        scheduled_time: number;
        trigger_code: number;
        skipped_count: number | null;
        skipped_until: number | null;
      }>(first, last);
    if (!row) return undefined;
    return {
      logId: row.log_id,
      scheduledTime: row.scheduled_time,
      triggerCode: row.trigger_code,
      ...(row.skipped_count === null ? {} : { skippedCount: Number(row.skipped_count) }),
      ...(row.skipped_until === null ? {} : { skippedUntil: Number(row.skipped_until) }),
    };
  }

  extendSkipRange(logId: number, extension: SkipRangeExtension): boolean {
    const triggerMsg = extension.triggerMsg === undefined ? null : truncateMessage(extension.triggerMsg);
    const { changes } = this.table
      .prepare(
        'UPDATE runs SET body = json_set(body, ' +
          "'$.skippedCount', COALESCE(json_extract(body, '$.skippedCount'), 1) + CAST(? AS INTEGER), " +
          "'$.skippedUntil', CAST(? AS INTEGER)), trigger_msg = COALESCE(?, trigger_msg) " +
          `WHERE log_id = ? AND trigger_code = ${TRIGGER_CODE.skipped} ` +
          "AND COALESCE(json_extract(body, '$.skippedUntil'), scheduled_time) = ?",
      )
      .run(extension.addCount, extension.until, triggerMsg, logId, extension.expectedUntil);
    return changes === 1;
  }

  skipClaimed(logId: number, skip: ClaimedSkip): boolean {
    // A run refused at its claim (no executor) was marked outcome-pending: a skipped one has no outcome.
    const set =
      `trigger_code = ${TRIGGER_CODE.skipped}, trigger_msg = ?, executor_address = '', ` +
      'dispatched_at = 0, outcome_due_at = NULL';
    const triggerMsg = truncateMessage(skip.triggerMsg);
    const { takeOver } = skip;
    const { changes } = takeOver
      ? this.table
          .prepare(
            `UPDATE runs SET ${set}, claim_at = ?, claim_token = ? WHERE log_id = ? AND ${STALE_SENT_CLAIM}`,
          )
          .run(triggerMsg, skip.nowMs, skip.claimToken, logId, takeOver.previousToken, takeOver.staleBeforeMs)
      : this.table
          .prepare(
            `UPDATE runs SET ${set} WHERE log_id = ? AND claim_token = ? ` +
              `AND trigger_code IN (${TRIGGER_CODE.success}, ${TRIGGER_CODE.fail}) AND handle_code = 0`,
          )
          .run(triggerMsg, logId, skip.claimToken);
    return changes === 1;
  }

  takeCatchUp(jobId: number, mark: { missedTime: number; nowMs: number; fireKey: string }): boolean {
    const { changes } = this.table
      .prepare(
        'INSERT INTO run_catch_ups (job_id, at, fire_key, expires_at) VALUES (?, ?, ?, ?) ' +
          'ON CONFLICT (job_id) DO UPDATE SET at = excluded.at, fire_key = excluded.fire_key, ' +
          'expires_at = excluded.expires_at ' +
          // No catch-up since the fire was missed, or this fire's own (taken over after a crash).
          'WHERE run_catch_ups.at < ? OR run_catch_ups.fire_key = excluded.fire_key',
      )
      // Kept past any redelivery of a fire it stands for (ring messages live 4 days).
      .run(jobId, mark.nowMs, mark.fireKey, this.table.expiresAt(mark.nowMs), mark.missedTime);
    return changes === 1;
  }

  recordRefusal(logId: number, claimToken: string, refusal: TriggerRefusal): boolean {
    const { changes } = this.table
      .prepare(
        'UPDATE runs SET executor_address = ?, trigger_code = ?, trigger_msg = ?, dispatched_at = ?, ' +
          `outcome_due_at = ? WHERE log_id = ? AND claim_token = ? AND trigger_code = ${TRIGGER_CODE.success} ` +
          'AND handle_code = 0',
      )
      .run(
        refusal.executorAddress,
        refusal.triggerCode,
        truncateMessage(refusal.triggerMsg),
        refusal.dispatchedAt,
        refusal.dispatchedAt + OUTCOME_GRACE_MS,
        logId,
        claimToken,
      );
    return changes === 1;
  }

  /** Puts a run claimed under `claimToken` unless one with its logId exists: whether it was put. */
  private insertRun(run: Run, claimToken: string): boolean {
    const values = runValues(run, claimToken, runExpiresAt(run, this.table.retentionDays));
    return this.table.prepare(INSERT_RUN).run(...values).changes === 1;
  }
}
