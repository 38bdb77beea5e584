/**
 * The one definition of tickring's DynamoDB tables. The local stack creates them from this list and
 * the CDK stack declares them from it, so local and AWS cannot drift.
 */
export type KeyType = 'S' | 'N';

export interface KeyDefinition {
  readonly name: string;
  readonly type: KeyType;
}

export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyDefinition;
  readonly sortKey?: KeyDefinition;
  /** KEYS_ONLY where the reader re-reads the base item anyway (GSI reads are eventually consistent). */
  readonly projection: 'ALL' | 'KEYS_ONLY';
}

export interface TableDefinition {
  /** Logical name: the key in `TABLES`, the CDK construct id, and the suffix of the local table name. */
  readonly logicalName: TableName;
  readonly partitionKey: KeyDefinition;
  readonly sortKey?: KeyDefinition;
  readonly indexes: readonly IndexDefinition[];
  /** Epoch-seconds attribute that DynamoDB TTL deletes by (lazily: readers still filter on it). */
  readonly ttlAttribute?: string;
}

export type TableName = 'jobs' | 'groups' | 'runs' | 'registry' | 'control';

export const TTL_ATTRIBUTE = 'expiresAt';

export const JOBS_BY_DUE_INDEX = 'byDue';
export const JOBS_BY_APP_INDEX = 'byApp';
export const RUNS_BY_JOB_INDEX = 'byJob';
export const RUNS_BY_APP_INDEX = 'byApp';
export const RUNS_BY_DAY_INDEX = 'byDay';
export const RUNS_RUNNING_INDEX = 'running';
export const RUNS_OUTCOME_PENDING_INDEX = 'outcomePending';

export const TABLES: Readonly<Record<TableName, TableDefinition>> = {
  /** Job definitions. Running jobs carry `dueShard` + `nextTriggerTime`, which feed the sparse due index. */
  jobs: {
    logicalName: 'jobs',
    partitionKey: { name: 'id', type: 'N' },
    indexes: [
      {
        indexName: JOBS_BY_DUE_INDEX,
        partitionKey: { name: 'dueShard', type: 'N' },
        sortKey: { name: 'nextTriggerTime', type: 'N' },
        projection: 'KEYS_ONLY',
      },
      {
        indexName: JOBS_BY_APP_INDEX,
        partitionKey: { name: 'appName', type: 'S' },
        sortKey: { name: 'id', type: 'N' },
        projection: 'KEYS_ONLY',
      },
    ],
  },
  /** Executor groups, keyed by appName. */
  groups: {
    logicalName: 'groups',
    partitionKey: { name: 'appName', type: 'S' },
    indexes: [],
  },
  /**
   * Run (trigger log) records, keyed by logId; expire after the log retention. Every index is
   * KEYS_ONLY: a run is updated about three times after its put, and an ALL index would be
   * rewritten (and billed) on each update. The list indexes' keys never change after the put, so
   * updates do not touch them; the log list reads the keys there and the runs from the table.
   */
  runs: {
    logicalName: 'runs',
    partitionKey: { name: 'logId', type: 'N' },
    indexes: [
      {
        indexName: RUNS_BY_JOB_INDEX,
        partitionKey: { name: 'jobId', type: 'N' },
        sortKey: { name: 'triggerTime', type: 'N' },
        projection: 'KEYS_ONLY',
      },
      {
        indexName: RUNS_BY_APP_INDEX,
        partitionKey: { name: 'appName', type: 'S' },
        sortKey: { name: 'triggerTime', type: 'N' },
        projection: 'KEYS_ONLY',
      },
      {
        indexName: RUNS_BY_DAY_INDEX,
        partitionKey: { name: 'day', type: 'S' },
        sortKey: { name: 'triggerTime', type: 'N' },
        projection: 'KEYS_ONLY',
      },
      {
        // Sparse: only runs still waiting for a result carry `runningBucket`.
        indexName: RUNS_RUNNING_INDEX,
        partitionKey: { name: 'runningBucket', type: 'S' },
        sortKey: { name: 'deadline', type: 'N' },
        projection: 'KEYS_ONLY',
      },
      {
        // Sparse: only finished runs whose consequences (retry / alarm / children) are not done yet
        // carry `outcomeBucket`; the monitors re-drive those past `outcomeDueAt`.
        indexName: RUNS_OUTCOME_PENDING_INDEX,
        partitionKey: { name: 'outcomeBucket', type: 'S' },
        sortKey: { name: 'outcomeDueAt', type: 'N' },
        projection: 'KEYS_ONLY',
      },
    ],
    ttlAttribute: TTL_ATTRIBUTE,
  },
  /** Executor heartbeats: one item per (appName, address). */
  registry: {
    logicalName: 'registry',
    partitionKey: { name: 'appName', type: 'S' },
    sortKey: { name: 'address', type: 'S' },
    indexes: [],
    ttlAttribute: TTL_ATTRIBUTE,
  },
  /** Small coordination items: shard leases, id sequences, fire de-duplication, routing state, reports. */
  control: {
    logicalName: 'control',
    partitionKey: { name: 'pk', type: 'S' },
    indexes: [],
    ttlAttribute: TTL_ATTRIBUTE,
  },
};

export const TABLE_LIST: readonly TableDefinition[] = Object.values(TABLES);
