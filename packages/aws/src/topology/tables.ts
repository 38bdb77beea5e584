import type { AttributeDefinition, CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

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

export type TableName =
  | 'jobs'
  | 'groups'
  | 'runs'
  | 'registry'
  | 'control'
  | 'principals'
  | 'audit'
  | 'workflows'
  | 'calendars'
  | 'backfills'
  | 'alerts';

export const TTL_ATTRIBUTE = 'expiresAt';

export const JOBS_BY_DUE_INDEX = 'byDue';
export const JOBS_BY_APP_INDEX = 'byApp';
export const RUNS_OUTCOME_PENDING_INDEX = 'outcomePending';
export const AUDIT_BY_TARGET_INDEX = 'byTarget';
export const WORKFLOWS_LIST_INDEX = 'workflowList';
export const WORKFLOW_RUNS_BY_WORKFLOW_INDEX = 'runsByWorkflow';
export const WORKFLOW_RUNS_ALL_INDEX = 'runsAll';
export const WORKFLOW_RUNS_ACTIVE_INDEX = 'activeByWorkflow';
export const WORKFLOW_RUNS_STALLED_INDEX = 'stalledRuns';
export const ALERTS_FEED_INDEX = 'alertFeed';
export const ALERTS_BY_JOB_INDEX = 'alertsByJob';
export const ALERTS_DUE_INDEX = 'alertsDue';

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
   * Run (trigger log) records in their job's partition (`pk` = `J#{jobId}`, `sk` = logId), beside
   * the dispatch and watch pages that list them by time (see DynamoRunStore); all expire after the
   * log retention. A run writes no index entry unless its consequences are pending: a run costs its
   * put and its result, and the pages one write per dispatcher record.
   */
  runs: {
    logicalName: 'runs',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'N' },
    indexes: [
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
  /**
   * People and credentials: users, their sessions, API tokens and failed-login counters, each kind
   * in its own partition (`pk` = the kind, `sk` = its id); secrets only as hashes. Sessions and
   * counters expire.
   */
  principals: {
    logicalName: 'principals',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    indexes: [],
    ttlAttribute: TTL_ATTRIBUTE,
  },
  /**
   * The audit log: one record per accepted change, in its UTC day's partition (`pk` = `day#YYYY-MM-DD`,
   * `sk` = time + id, newest read first), also by its target (`target`, e.g. `job#7`); kept for
   * the audit retention.
   */
  audit: {
    logicalName: 'audit',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    indexes: [
      {
        indexName: AUDIT_BY_TARGET_INDEX,
        partitionKey: { name: 'target', type: 'S' },
        sortKey: { name: 'sk', type: 'S' },
        projection: 'ALL',
      },
    ],
    ttlAttribute: TTL_ATTRIBUTE,
  },
  /**
   * Workflows and their runs (see DynamoWorkflowStore): a workflow's head (`W#{id}` / `head`) and
   * each version of its definition (`W#{id}` / `v#{version}`); a run's head (`R#{runId}` / `head`),
   * its node results (`result#{key}#{tag}`: one per result text) and broadcast shard outcomes (`shard#…`) beside it; the id
   * counter (`counter` / `workflowId`). Every index is KEYS_ONLY: the readers re-read the items,
   * and a change of a run's progress or a workflow's running count writes no index entry.
   */
  workflows: {
    logicalName: 'workflows',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    indexes: [
      {
        // Every workflow head (`listPk` = 'workflow'), by id.
        indexName: WORKFLOWS_LIST_INDEX,
        partitionKey: { name: 'listPk', type: 'S' },
        sortKey: { name: 'wfId', type: 'N' },
        projection: 'KEYS_ONLY',
      },
      {
        // A workflow's runs by creation time.
        indexName: WORKFLOW_RUNS_BY_WORKFLOW_INDEX,
        partitionKey: { name: 'runWorkflowId', type: 'N' },
        sortKey: { name: 'createdAt', type: 'N' },
        projection: 'KEYS_ONLY',
      },
      {
        // Every run (`runList` = 'run') by creation time.
        indexName: WORKFLOW_RUNS_ALL_INDEX,
        partitionKey: { name: 'runList', type: 'S' },
        sortKey: { name: 'createdAt', type: 'N' },
        projection: 'KEYS_ONLY',
      },
      {
        // Sparse: a workflow's QUEUED and RUNNING runs only.
        indexName: WORKFLOW_RUNS_ACTIVE_INDEX,
        partitionKey: { name: 'activeWorkflowId', type: 'N' },
        sortKey: { name: 'createdAt', type: 'N' },
        projection: 'KEYS_ONLY',
      },
      {
        // Sparse: every QUEUED and RUNNING run (`activeList` = 'active') by when it last moved.
        indexName: WORKFLOW_RUNS_STALLED_INDEX,
        partitionKey: { name: 'activeList', type: 'S' },
        // The minute of movedAt: a run's saves within a minute leave its index entry alone.
        sortKey: { name: 'stalledSince', type: 'N' },
        projection: 'KEYS_ONLY',
      },
    ],
    ttlAttribute: TTL_ATTRIBUTE,
  },
  /**
   * Business calendars (see DynamoCalendarStore): all in one partition (`pk` = 'calendar'), by id
   * (`sk`), so a list is one Query in id order; each write is conditional on the item's `version`.
   */
  calendars: {
    logicalName: 'calendars',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    indexes: [],
  },
  /**
   * Backfills (see DynamoBackfillStore): a job's in its partition (`J#{jobId}`, by id: newest first),
   * and a mark per job with an active one in the `active` partition, which the monitors' sweep reads.
   */
  backfills: {
    logicalName: 'backfills',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    indexes: [],
  },
  /**
   * Alert channels (`channel` / id), silences (`silence` / id) and alerts (`A#{id}` / `alert`; see
   * DynamoAlertStore): the history newest first (`alertFeed`), a job's (`alertsByJob`), and the alerts
   * the delivery sweep has work on (`alertsDue`, sparse, keys only).
   */
  alerts: {
    logicalName: 'alerts',
    partitionKey: { name: 'pk', type: 'S' },
    sortKey: { name: 'sk', type: 'S' },
    indexes: [
      {
        indexName: ALERTS_FEED_INDEX,
        partitionKey: { name: 'feed', type: 'S' },
        sortKey: { name: 'order', type: 'S' },
        projection: 'ALL',
      },
      {
        indexName: ALERTS_BY_JOB_INDEX,
        partitionKey: { name: 'jobId', type: 'N' },
        sortKey: { name: 'order', type: 'S' },
        projection: 'ALL',
      },
      {
        indexName: ALERTS_DUE_INDEX,
        partitionKey: { name: 'dueFeed', type: 'S' },
        sortKey: { name: 'dueAt', type: 'N' },
        projection: 'KEYS_ONLY',
      },
    ],
  },
};

export const TABLE_LIST: readonly TableDefinition[] = Object.values(TABLES);

/**
 * The CreateTable request of `def` under the physical name `tableName` (on-demand; its keys and
 * indexes, no TTL: that is a request of its own), as the local stack and the tests make tables.
 */
export function createTableInput(def: TableDefinition, tableName: string): CreateTableCommandInput {
  const keys = [def.partitionKey, def.sortKey, ...def.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  const attributes = new Map<string, AttributeDefinition>();
  for (const key of keys) {
    if (key) attributes.set(key.name, { AttributeName: key.name, AttributeType: key.type });
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes.values()],
    KeySchema: [
      { AttributeName: def.partitionKey.name, KeyType: 'HASH' },
      ...(def.sortKey ? [{ AttributeName: def.sortKey.name, KeyType: 'RANGE' as const }] : []),
    ],
    GlobalSecondaryIndexes: def.indexes.length
      ? def.indexes.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey.name, KeyType: 'HASH' as const },
            ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' as const }] : []),
          ],
          Projection: { ProjectionType: index.projection },
        }))
      : undefined,
  };
}
