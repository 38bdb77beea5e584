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
import { createFunctionLogger } from '../../observability/logger.js';
import { RunClaims } from './claims.js';
import { DispatchRecords } from './dispatch-records.js';
import { HourIndex } from './hour-index.js';
import { RunLists } from './lists.js';
import { RunResults } from './results.js';
import { type DynamoRunStoreOptions, RunsTable } from './table.js';
import { RunWatch } from './watch.js';

export type { DynamoRunStoreOptions } from './table.js';

/**
 * The run store on DynamoDB (the layout of its tables: `keys.ts`), a facade over its roles: claims,
 * dispatch records, the hour index, results, the lost-run watch and the lists.
 */
export class DynamoRunStore implements RunStore {
  private readonly table: RunsTable;
  private readonly claims: RunClaims;
  private readonly records: DispatchRecords;
  private readonly results: RunResults;
  private readonly watcher: RunWatch;
  private readonly lists: RunLists;

  constructor(options: DynamoRunStoreOptions) {
    this.table = new RunsTable(options);
    const hours = new HourIndex(this.table, options.logger ?? createFunctionLogger('run-store'));
    this.claims = new RunClaims(this.table);
    this.records = new DispatchRecords(this.table, hours);
    this.results = new RunResults(this.table);
    this.watcher = new RunWatch(this.table, this.records);
    this.lists = new RunLists(this.table, hours);
  }

  allocateLogIds(jobId: number, count: number): Promise<number[]> {
    return this.claims.allocateLogIds(jobId, count);
  }

  newClaimToken(nowMs: number): string {
    return this.claims.newClaimToken(nowMs);
  }

  createFire(dedupKey: string, runs: readonly Run[], claimToken: string): Promise<CreateFireResult> {
    return this.claims.createFire(dedupKey, runs, claimToken);
  }

  claim(run: Run, claimToken: string): Promise<CreateFireResult> {
    return this.claims.claim(run, claimToken);
  }

  recordDispatch(claimToken: string, entries: readonly DispatchEntry[]): Promise<void> {
    return this.records.recordDispatch(claimToken, entries);
  }

  dispatchedUnder(claimToken: string): Promise<ReadonlySet<number>> {
    return this.records.dispatchedUnder(claimToken);
  }

  get(logId: number): Promise<Run | undefined> {
    return this.table.get(logId);
  }

  getMany(logIds: readonly number[]): Promise<StoredRun[]> {
    return this.claims.getMany(logIds);
  }

  reclaim(logId: number, claim: ClaimTakeOver): Promise<boolean> {
    return this.claims.reclaim(logId, claim);
  }

  laterPlannedRun(logId: number): Promise<{ logId: number; scheduledTime: number } | undefined> {
    return this.claims.laterPlannedRun(logId);
  }

  latestPlannedRun(jobId: number, atOrBelow?: number): Promise<PlannedRunHead | undefined> {
    return this.claims.latestPlannedRun(jobId, atOrBelow);
  }

  extendSkipRange(logId: number, extension: SkipRangeExtension): Promise<boolean> {
    return this.claims.extendSkipRange(logId, extension);
  }

  skipClaimed(logId: number, skip: ClaimedSkip): Promise<boolean> {
    return this.claims.skipClaimed(logId, skip);
  }

  takeCatchUp(jobId: number, mark: { missedTime: number; nowMs: number; fireKey: string }): Promise<boolean> {
    return this.claims.takeCatchUp(jobId, mark);
  }

  recordRefusal(logId: number, claimToken: string, refusal: TriggerRefusal): Promise<boolean> {
    return this.claims.recordRefusal(logId, claimToken, refusal);
  }

  complete(logId: number, result: HandleResult, options?: CompleteOptions): Promise<CompleteOutcome> {
    return this.results.complete(logId, result, options);
  }

  clearOutcomePending(logId: number): Promise<void> {
    return this.results.clearOutcomePending(logId);
  }

  findOutcomePending(nowMs: number, limit: number): Promise<Run[]> {
    return this.results.findOutcomePending(nowMs, limit);
  }

  setAlarmStatus(logId: number, alarmStatus: number): Promise<void> {
    return this.results.setAlarmStatus(logId, alarmStatus);
  }

  list(query: RunQuery): Promise<Page<Run>> {
    return this.lists.list(query);
  }

  findUnfinished(nowMs: number, options: { limit: number; settleMs: number }): Promise<WatchedRun[]> {
    return this.watcher.findUnfinished(nowMs, options);
  }
}
