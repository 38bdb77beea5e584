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
import { createFunctionLogger } from '../../observability/logger.js';
import { WorkflowAdmission } from './admission.js';
import { WorkflowDefinitions } from './definitions.js';
import { WorkflowIndexes } from './indexes.js';
import { WorkflowResults } from './results.js';
import { WorkflowRunStates } from './run-state.js';
import { type DynamoWorkflowStoreOptions, WorkflowsTable } from './table.js';

export type { DynamoWorkflowStoreOptions } from './table.js';

/**
 * The workflow store on DynamoDB (the layout of its table: `keys.ts`), a facade over its roles:
 * definitions, admission, run state, results and shards, and the indexes the lists read.
 */
export class DynamoWorkflowStore implements WorkflowStore {
  private readonly definitions: WorkflowDefinitions;
  private readonly admission: WorkflowAdmission;
  private readonly runs: WorkflowRunStates;
  private readonly results: WorkflowResults;
  private readonly indexes: WorkflowIndexes;

  constructor(options: DynamoWorkflowStoreOptions) {
    const table = new WorkflowsTable(options);
    this.definitions = new WorkflowDefinitions(
      table,
      options.logger ?? createFunctionLogger('workflow-store'),
    );
    this.results = new WorkflowResults(table);
    this.admission = new WorkflowAdmission(table, this.results);
    this.runs = new WorkflowRunStates(table, this.results);
    this.indexes = new WorkflowIndexes(table);
  }

  // Workflows

  allocateId(): Promise<number> {
    return this.definitions.allocateId();
  }

  create(workflow: WorkflowRecord): Promise<void> {
    return this.definitions.create(workflow);
  }

  get(id: number): Promise<WorkflowRecord | undefined> {
    return this.definitions.get(id);
  }

  getVersion(id: number, version: number): Promise<WorkflowDefinition | undefined> {
    return this.definitions.getVersion(id, version);
  }

  list(query: WorkflowQuery): Promise<Page<WorkflowRecord>> {
    return this.indexes.list(query);
  }

  update(next: WorkflowRecord, expectedVersion: number): Promise<void> {
    return this.definitions.update(next, expectedVersion);
  }

  setSchedule(
    id: number,
    triggerStatus: TriggerStatus,
    starterJobId: number | undefined,
    updatedAt: number,
    expectedStarterJobId?: number | null,
  ): Promise<void> {
    return this.definitions.setSchedule(id, triggerStatus, starterJobId, updatedAt, expectedStarterJobId);
  }

  delete(id: number): Promise<void> {
    return this.definitions.delete(id);
  }

  // Runs

  admit(run: WorkflowRunRecord, admission: Admission): Promise<AdmitResult> {
    return this.admission.admit(run, admission);
  }

  getRun(id: string): Promise<WorkflowRunRecord | undefined> {
    return this.runs.getRun(id);
  }

  saveRun(prev: WorkflowRunRecord, next: WorkflowRunRecord): Promise<boolean> {
    return this.runs.saveRun(prev, next);
  }

  noteNodeRuns(link: WorkflowLink, logIds: readonly number[], shard?: number): Promise<void> {
    return this.runs.noteNodeRuns(link, logIds, shard);
  }

  nodeFireState(link: WorkflowLink): Promise<NodeFireState> {
    return this.runs.nodeFireState(link);
  }

  touch(id: string, movedAt: number): Promise<void> {
    return this.runs.touch(id, movedAt);
  }

  /**
   * Newest first. The records carry no node results (a list shows runs, not their results; read a
   * run with getRun for them): never save a listed record.
   */
  listRuns(query: WorkflowRunQuery): Promise<Page<WorkflowRunRecord>> {
    return this.indexes.listRuns(query);
  }

  claimDeadlineMiss(id: number, deadlineAt: number): Promise<boolean> {
    return this.definitions.claimDeadlineMiss(id, deadlineAt);
  }

  listActive(workflowId: number): Promise<{ id: string; status: StoredRunStatus }[]> {
    return this.indexes.listActive(workflowId);
  }

  listStalled(before: number, limit: number): Promise<string[]> {
    return this.indexes.listStalled(before, limit);
  }

  recordShard(link: WorkflowLink, outcome: ShardOutcome): Promise<ShardOutcome[]> {
    return this.results.recordShard(link, outcome);
  }
}
