import type { Page } from '@tickring/core/jobs';
import type {
  ClaimedSkip,
  ClaimTakeOver,
  CompleteOptions,
  CompleteOutcome,
  CreateFireResult,
  DispatchEntry,
  HandleResult,
  PlannedRunHead,
  Run,
  RunQuery,
  RunStore,
  SkipRangeExtension,
  StoredRun,
  TriggerRefusal,
  WatchedRun,
} from '@tickring/core/runs';
import { RunClaims } from './claims.js';
import { DispatchRecords } from './dispatch-records.js';
import { RunLists } from './lists.js';
import { RunResults } from './results.js';
import { newClaimToken, RunsTable, type SqliteRunStoreOptions, toRun } from './table.js';
import { RunWatch } from './watch.js';

export type { SqliteRunStoreOptions } from './table.js';

/**
 * The run store on SQLite (its tables: `table.ts`), a facade over its roles as the DynamoDB adapter
 * has them: claims, dispatch records, results, the lost-run watch and the lists. Each method runs
 * its SQL synchronously (one statement or one transaction), so another instance on the same file
 * sees it whole or not at all.
 */
export class SqliteRunStore implements RunStore {
  private readonly table: RunsTable;
  private readonly claims: RunClaims;
  private readonly records: DispatchRecords;
  private readonly results: RunResults;
  private readonly watcher: RunWatch;
  private readonly lists: RunLists;

  constructor(options: SqliteRunStoreOptions) {
    this.table = new RunsTable(options);
    this.claims = new RunClaims(this.table);
    this.records = new DispatchRecords(this.table);
    this.results = new RunResults(this.table);
    this.watcher = new RunWatch(this.table);
    this.lists = new RunLists(this.table);
  }

  async allocateLogIds(jobId: number, count: number): Promise<number[]> {
    return this.claims.allocateLogIds(jobId, count);
  }

  newClaimToken(nowMs: number): string {
    return newClaimToken(nowMs);
  }

  async createFire(dedupKey: string, runs: readonly Run[], claimToken: string): Promise<CreateFireResult> {
    return this.claims.createFire(dedupKey, runs, claimToken);
  }

  async claim(run: Run, claimToken: string): Promise<CreateFireResult> {
    return this.claims.claim(run, claimToken);
  }

  async recordDispatch(claimToken: string, entries: readonly DispatchEntry[]): Promise<void> {
    this.records.recordDispatch(claimToken, entries);
  }

  async dispatchedUnder(claimToken: string): Promise<ReadonlySet<number>> {
    return this.records.dispatchedUnder(claimToken);
  }

  async get(logId: number): Promise<Run | undefined> {
    const row = this.table.get(logId);
    return row && toRun(row);
  }

  async getMany(logIds: readonly number[]): Promise<StoredRun[]> {
    return this.claims.getMany(logIds);
  }

  async reclaim(logId: number, claim: ClaimTakeOver): Promise<boolean> {
    return this.claims.reclaim(logId, claim);
  }

  async laterPlannedRun(logId: number): Promise<{ logId: number; scheduledTime: number } | undefined> {
    return this.claims.laterPlannedRun(logId);
  }

  async latestPlannedRun(jobId: number, atOrBelow?: number): Promise<PlannedRunHead | undefined> {
    return this.claims.latestPlannedRun(jobId, atOrBelow);
  }

  async extendSkipRange(logId: number, extension: SkipRangeExtension): Promise<boolean> {
    return this.claims.extendSkipRange(logId, extension);
  }

  async skipClaimed(logId: number, skip: ClaimedSkip): Promise<boolean> {
    return this.claims.skipClaimed(logId, skip);
  }

  async takeCatchUp(
    jobId: number,
    mark: { missedTime: number; nowMs: number; fireKey: string },
  ): Promise<boolean> {
    return this.claims.takeCatchUp(jobId, mark);
  }

  async recordRefusal(logId: number, claimToken: string, refusal: TriggerRefusal): Promise<boolean> {
    return this.claims.recordRefusal(logId, claimToken, refusal);
  }

  async complete(logId: number, result: HandleResult, options?: CompleteOptions): Promise<CompleteOutcome> {
    return this.results.complete(logId, result, options);
  }

  async clearOutcomePending(logId: number): Promise<void> {
    this.results.clearOutcomePending(logId);
  }

  async findOutcomePending(nowMs: number, limit: number): Promise<Run[]> {
    return this.results.findOutcomePending(nowMs, limit);
  }

  async setAlarmStatus(logId: number, alarmStatus: number): Promise<void> {
    this.results.setAlarmStatus(logId, alarmStatus);
  }

  async list(query: RunQuery): Promise<Page<Run>> {
    return this.lists.list(query);
  }

  async findUnfinished(nowMs: number, options: { limit: number; settleMs: number }): Promise<WatchedRun[]> {
    return this.watcher.findUnfinished(nowMs, options);
  }

  /**
   * Removes the runs, fire and dispatch records and catch-up marks that expired before `nowMs`
   * (TICKRING_LOG_RETENTION_DAYS after their trigger), as DynamoDB's TTL does; each lost-run sweep
   * (`findUnfinished`) does it at its own time.
   */
  async deleteExpired(nowMs: number): Promise<void> {
    this.watcher.deleteExpired(nowMs);
  }
}
