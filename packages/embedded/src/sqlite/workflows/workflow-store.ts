import type { Page, TriggerStatus } from '@tickring/core/jobs';
import type {
  Admission,
  AdmitResult,
  NodeFireState,
  ShardOutcome,
  StoredRunStatus,
  WorkflowDefinition,
  WorkflowLink,
  WorkflowQuery,
  WorkflowRecord,
  WorkflowRunQuery,
  WorkflowRunRecord,
  WorkflowStore,
} from '@tickring/core/workflows';
import { WorkflowAdmission } from './admission.js';
import { WorkflowDefinitions } from './definitions.js';
import { WorkflowIndexes } from './indexes.js';
import { WorkflowResults } from './results.js';
import { WorkflowRunStates } from './run-state.js';
import { type SqliteWorkflowStoreOptions, WorkflowTables } from './tables.js';

export type { SqliteWorkflowStoreOptions } from './tables.js';

/**
 * The workflow store on SQLite (its tables: `tables.ts`), a facade over its roles: definitions,
 * admission, run state, results and shards, and the lists. Every method is synchronous SQL (what must
 * be all or nothing in one `BEGIN IMMEDIATE` transaction), so calls of one process never interleave
 * and two processes on one file queue for the write lock, as conditional writes do on DynamoDB.
 * Expired rows (DynamoDB's TTL) are hidden from reads at once and deleted by a sweep that admissions,
 * saves, shard records and deletes run at most once a minute.
 */
export class SqliteWorkflowStore implements WorkflowStore {
  private readonly tables: WorkflowTables;
  private readonly definitions: WorkflowDefinitions;
  private readonly admission: WorkflowAdmission;
  private readonly runs: WorkflowRunStates;
  private readonly results: WorkflowResults;
  private readonly indexes: WorkflowIndexes;

  constructor(options: SqliteWorkflowStoreOptions) {
    this.tables = new WorkflowTables(options);
    this.definitions = new WorkflowDefinitions(this.tables);
    this.results = new WorkflowResults(this.tables);
    this.admission = new WorkflowAdmission(this.tables, this.results);
    this.runs = new WorkflowRunStates(this.tables, this.results);
    this.indexes = new WorkflowIndexes(this.tables);
  }

  // Workflows

  async allocateId(): Promise<number> {
    return this.definitions.allocateId();
  }

  async create(workflow: WorkflowRecord): Promise<void> {
    this.definitions.create(workflow);
  }

  async get(id: number): Promise<WorkflowRecord | undefined> {
    return this.definitions.get(id);
  }

  async getVersion(id: number, version: number): Promise<WorkflowDefinition | undefined> {
    return this.definitions.getVersion(id, version);
  }

  async list(query: WorkflowQuery): Promise<Page<WorkflowRecord>> {
    return this.indexes.list(query);
  }

  async update(next: WorkflowRecord, expectedVersion: number): Promise<void> {
    this.definitions.update(next, expectedVersion);
  }

  async setSchedule(
    id: number,
    triggerStatus: TriggerStatus,
    starterJobId: number | undefined,
    updatedAt: number,
    expectedStarterJobId?: number | null,
  ): Promise<void> {
    this.definitions.setSchedule(id, triggerStatus, starterJobId, updatedAt, expectedStarterJobId);
  }

  async delete(id: number): Promise<void> {
    this.definitions.delete(id);
    this.tables.sweep.sweepIfDue();
  }

  // Runs

  async admit(run: WorkflowRunRecord, admission: Admission): Promise<AdmitResult> {
    const admitted = this.admission.admit(run, admission);
    this.tables.sweep.sweepIfDue();
    return admitted;
  }

  async getRun(id: string): Promise<WorkflowRunRecord | undefined> {
    return this.runs.getRun(id);
  }

  async saveRun(prev: WorkflowRunRecord, next: WorkflowRunRecord): Promise<boolean> {
    const saved = this.runs.saveRun(prev, next);
    this.tables.sweep.sweepIfDue();
    return saved;
  }

  async noteNodeRuns(link: WorkflowLink, logIds: readonly number[], shard?: number): Promise<void> {
    this.runs.noteNodeRuns(link, logIds, shard);
  }

  async nodeFireState(link: WorkflowLink): Promise<NodeFireState> {
    return this.runs.nodeFireState(link);
  }

  async touch(id: string, movedAt: number): Promise<void> {
    this.runs.touch(id, movedAt);
  }

  /**
   * Newest first. The records carry no node results (a list shows runs, not their results; read a
   * run with getRun for them): never save a listed record.
   */
  async listRuns(query: WorkflowRunQuery): Promise<Page<WorkflowRunRecord>> {
    return this.indexes.listRuns(query);
  }

  async claimDeadlineMiss(id: number, deadlineAt: number): Promise<boolean> {
    return this.definitions.claimDeadlineMiss(id, deadlineAt);
  }

  async listActive(workflowId: number): Promise<{ id: string; status: StoredRunStatus }[]> {
    return this.indexes.listActive(workflowId);
  }

  async listStalled(before: number, limit: number): Promise<string[]> {
    return this.indexes.listStalled(before, limit);
  }

  async recordShard(link: WorkflowLink, outcome: ShardOutcome): Promise<ShardOutcome[]> {
    const recorded = this.results.recordShard(link, outcome);
    this.tables.sweep.sweepIfDue();
    return recorded;
  }
}
