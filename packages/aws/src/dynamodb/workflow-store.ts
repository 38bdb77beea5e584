import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandOutput,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Logger } from '@tickring/core/common';
import { ConflictError, NotFoundError, PermanentError, ValidationError } from '@tickring/core/common';
import type { Page, TriggerStatus } from '@tickring/core/jobs';
import type {
  Admission,
  AdmitResult,
  JsonValue,
  NodeFireState,
  NodeRuns,
  NodeState,
  NodeTimes,
  ShardOutcome,
  StoredRunStatus,
  WorkflowDefinition,
  WorkflowLink,
  WorkflowQuery,
  WorkflowRecord,
  WorkflowRunQuery,
  WorkflowRunRecord,
  WorkflowRunState,
  WorkflowRunTrigger,
  WorkflowStore,
} from '@tickring/core/workflows';
import { createFunctionLogger } from '../observability/logger.js';
import {
  WORKFLOW_RUNS_ACTIVE_INDEX,
  WORKFLOW_RUNS_ALL_INDEX,
  WORKFLOW_RUNS_BY_WORKFLOW_INDEX,
  WORKFLOW_RUNS_STALLED_INDEX,
  WORKFLOWS_LIST_INDEX,
} from '../topology/tables.js';
import { batchGetAll, decodeCursor, encodeCursor, type Item, isConditionFailed } from './util.js';

/**
 * The workflows table holds, by partition:
 * - `W#{id}`: the workflow's head (`head`: the current definition as JSON text, the schedule's
 *   status and starter job, the running count `activeRuns` and the buffered run; `listPk` + `wfId`
 *   list it) and every version of its definition (`v#{version, 10 digits}`), kept while runs may
 *   refer to them (after a delete they expire with the runs);
 * - `R#{runId}`: the run's head (`head`: every field of the record but the node results; each node
 *   that has a result says so, `hasResult`), its node results (`result#{key}`, written in the
 *   transaction that changes them, so a head stays far below 400 KB however long the results are),
 *   and the final outcomes of broadcast shards (`shard#{key}#{attempt}#{index, 6 digits}`);
 * - `counter` / `workflowId`: the id sequence.
 * A run's head carries `runWorkflowId` and `runList` (its workflow's and all runs, by createdAt),
 * and while QUEUED or RUNNING only `activeWorkflowId`, `activeList` and `stalledSince` (the sparse
 * active and stalled indexes, the latter by movedAt's 10 s). Every index is KEYS_ONLY: the
 * readers read the items, and a change of progress or of a running count writes no index entry,
 * but for the stalled entry's move into a new 10 s (at most once per 10 s per run).
 */
const HEAD = 'head';
const LIST_PK = 'workflow';
const RUN_LIST = 'run';
const ACTIVE_LIST = 'active';
const COUNTER_KEY = { pk: 'counter', sk: 'workflowId' } as const;
const RESULT_PREFIX = 'result#';
/** Above every `result#…` key (and below `shard#`): head and results are read by one key range. */
const RESULTS_END = 'result$';
const DAY_S = 86_400;
/** Query rounds one list makes before it answers with a cursor (filters may skip many items). */
const MAX_LIST_ROUNDS = 10;
/** Index entries read per round when a filter may drop some. */
const FILTERED_ROUND = 50;
/** Items of one transaction beside the run's head and the workflow's (DynamoDB allows 100). */
const MAX_RESULT_WRITES = 98;
/** Bytes of results one transaction writes (DynamoDB allows 4 MB a transaction). */
const MAX_RESULT_BYTES = 3_500_000;
/** Times getRun reads again when a result was written after the head it read (a save between pages). */
const READ_ATTEMPTS = 5;
/** Versions of a deleted workflow outlive its runs' retention by this much. */
const VERSION_GRACE_DAYS = 1;
/** Run head attributes that only some runs have: a save of a run without them removes them. */
const OPTIONAL_RUN_ATTRIBUTES = [
  'startedAt',
  'finishedAt',
  'activeWorkflowId',
  'activeList',
  'stalledSince',
] as const;

/**
 * The stalled index files an active run under the 10 s it last moved in, not the millisecond: a
 * run saved several times in 10 s (every node outcome) writes its index entry once, not per save.
 */
const STALLED_BUCKET_MS = 10_000;

function stalledSince(movedAt: number): number {
  return Math.floor(movedAt / STALLED_BUCKET_MS) * STALLED_BUCKET_MS;
}

export interface DynamoWorkflowStoreOptions {
  readonly doc: DynamoDBDocumentClient;
  readonly workflowsTable: string;
  /**
   * A run and its results and shard outcomes expire (DynamoDB TTL) this many days after it last
   * moved (a QUEUED or RUNNING run is looked at by the sweeps, so it does not expire while active).
   */
  readonly retentionDays: number;
  /** Epoch ms, for the expiry of shard outcomes and of a deleted workflow's versions. */
  readonly now?: () => number;
  /** Where a failed clean-up after a delete is reported. */
  readonly logger?: Logger;
}

export class DynamoWorkflowStore implements WorkflowStore {
  private readonly now: () => number;
  private readonly logger: Logger;

  constructor(private readonly options: DynamoWorkflowStoreOptions) {
    this.now = options.now ?? Date.now;
    this.logger = options.logger ?? createFunctionLogger('workflow-store');
  }

  // ------------------------------------------------------------------------------------------
  // Workflows

  async allocateId(): Promise<number> {
    const result = await this.options.doc.send(
      new UpdateCommand({
        TableName: this.options.workflowsTable,
        Key: COUNTER_KEY,
        UpdateExpression: 'ADD #v :one',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(result.Attributes?.value);
  }

  async create(workflow: WorkflowRecord): Promise<void> {
    const definition = JSON.stringify(workflow.definition);
    try {
      await this.options.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.options.workflowsTable,
                Item: workflowHeadItem(workflow, definition),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            { Put: { TableName: this.options.workflowsTable, Item: versionItem(workflow, definition) } },
          ],
        }),
      );
    } catch (err) {
      if (cancellationCodes(err)?.[0] === 'ConditionalCheckFailed') {
        throw new ConflictError(`workflow ${workflow.id} already exists`);
      }
      throw err;
    }
  }

  async get(id: number): Promise<WorkflowRecord | undefined> {
    if (!Number.isSafeInteger(id) || id <= 0) return undefined;
    const { Item: item } = await this.options.doc.send(
      new GetCommand({ TableName: this.options.workflowsTable, Key: workflowKey(id), ConsistentRead: true }),
    );
    return item ? workflowOf(item) : undefined;
  }

  async getVersion(id: number, version: number): Promise<WorkflowDefinition | undefined> {
    if (!Number.isSafeInteger(id) || id <= 0 || !Number.isSafeInteger(version) || version <= 0)
      return undefined;
    const { Item: item } = await this.options.doc.send(
      new GetCommand({
        TableName: this.options.workflowsTable,
        Key: { pk: workflowPk(id), sk: versionSk(version) },
        ConsistentRead: true,
      }),
    );
    return item ? definitionOf(item.definition) : undefined;
  }

  async list(query: WorkflowQuery): Promise<Page<WorkflowRecord>> {
    const apps = query.appNames === undefined ? undefined : new Set(query.appNames);
    if (apps?.size === 0) return { items: [] };
    return this.collect<WorkflowRecord>({
      index: WORKFLOWS_LIST_INDEX,
      keyCondition: 'listPk = :list',
      values: { ':list': LIST_PK },
      forward: true,
      limit: query.limit,
      start: startKey(query.cursor, ['listPk', 'wfId'], { listPk: LIST_PK }),
      filtered: apps !== undefined,
      load: async (entries) => {
        let keys = entries.map(baseKey);
        if (apps) {
          // The group first (a few bytes), then the whole heads of the visible ones only.
          const groups = await batchGetAll(this.options.doc, this.options.workflowsTable, keys, {
            attributes: ['pk', 'appName'],
          });
          const visible = new Set(groups.filter((g) => apps.has(String(g.appName))).map((g) => String(g.pk)));
          keys = keys.filter((k) => visible.has(k.pk));
        }
        const heads = await batchGetAll(this.options.doc, this.options.workflowsTable, keys);
        const byPk = new Map(heads.map((h) => [String(h.pk), h]));
        return entries.map((e) => {
          const head = byPk.get(String(e.pk));
          return head && (!apps || apps.has(String(head.appName))) ? workflowOf(head) : undefined;
        });
      },
    });
  }

  async update(next: WorkflowRecord, expectedVersion: number): Promise<void> {
    const definition = JSON.stringify(next.definition);
    const e = new Expr();
    const set = [
      `${e.name('definition')} = ${e.value(definition)}`,
      `${e.name('version')} = ${e.value(next.version)}`,
      `${e.name('triggerStatus')} = ${e.value(next.triggerStatus)}`,
      `${e.name('updatedAt')} = ${e.value(next.updatedAt)}`,
      `${e.name('appName')} = ${e.value(next.definition.appName)}`,
    ];
    if (next.starterJobId !== undefined)
      set.push(`${e.name('starterJobId')} = ${e.value(next.starterJobId)}`);
    const remove = next.starterJobId === undefined ? ` REMOVE ${e.name('starterJobId')}` : '';
    const condition = `attribute_exists(pk) AND ${e.name('version')} = ${e.value(expectedVersion)}`;
    try {
      await this.options.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.options.workflowsTable,
                Key: workflowKey(next.id),
                UpdateExpression: `SET ${set.join(', ')}${remove}`,
                ConditionExpression: condition,
                ...e.attributes(),
              },
            },
            { Put: { TableName: this.options.workflowsTable, Item: versionItem(next, definition) } },
          ],
        }),
      );
    } catch (err) {
      if (cancellationCodes(err)?.[0] !== 'ConditionalCheckFailed') throw err;
      const current = await this.get(next.id);
      if (!current) throw new NotFoundError(`workflow ${next.id} does not exist`);
      throw new ConflictError(
        `workflow ${next.id} was changed meanwhile (version ${current.version}, not ${expectedVersion}); read it again and retry`,
      );
    }
  }

  async setSchedule(
    id: number,
    triggerStatus: TriggerStatus,
    starterJobId: number | undefined,
    updatedAt: number,
    expectedStarterJobId?: number | null,
  ): Promise<void> {
    const e = new Expr();
    const starter = e.name('starterJobId');
    const expected =
      expectedStarterJobId === undefined
        ? ''
        : expectedStarterJobId === null
          ? ` AND attribute_not_exists(${starter})`
          : ` AND ${starter} = ${e.value(expectedStarterJobId)}`;
    const set = [
      `${e.name('triggerStatus')} = ${e.value(triggerStatus)}`,
      `${e.name('updatedAt')} = ${e.value(updatedAt)}`,
    ];
    if (starterJobId !== undefined) set.push(`${e.name('starterJobId')} = ${e.value(starterJobId)}`);
    const remove = starterJobId === undefined ? ` REMOVE ${e.name('starterJobId')}` : '';
    try {
      await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.workflowsTable,
          Key: workflowKey(id),
          UpdateExpression: `SET ${set.join(', ')}${remove}`,
          ConditionExpression: `attribute_exists(pk)${expected}`,
          ...e.attributes(),
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
      if (expectedStarterJobId !== undefined && (await this.get(id))) {
        throw new ConflictError(`workflow ${id}'s schedule job changed meanwhile; read it again and retry`);
      }
      throw new NotFoundError(`workflow ${id} does not exist`);
    }
  }

  async delete(id: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.options.doc.send(
          new DeleteCommand({
            TableName: this.options.workflowsTable,
            Key: workflowKey(id),
            ConditionExpression:
              'attribute_exists(pk) AND activeRuns = :zero AND attribute_not_exists(bufferedRunId)',
            ExpressionAttributeValues: { ':zero': 0 },
          }),
        );
        break;
      } catch (err) {
        if (!isConditionFailed(err)) throw err;
      }
      const current = await this.get(id);
      if (!current) throw new NotFoundError(`workflow ${id} does not exist`);
      if (current.activeRuns !== 0 || current.bufferedRunId !== undefined) {
        throw new ConflictError(`${describeActive(current)}; cancel them first`);
      }
      // Its last run ended between the delete and the read: try again.
      if (attempt >= 3) throw new ConflictError(`workflow ${id}'s runs kept changing; try again`);
    }
    await this.expireVersions(id).catch((err: unknown) => {
      this.logger.warn('versions of a deleted workflow not set to expire: they are kept', {
        workflowId: id,
        error: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
    });
  }

  /** The versions of a deleted workflow expire after its runs (which may still be read with them). */
  private async expireVersions(id: number): Promise<void> {
    const expiresAt = this.expiry(this.now()) + VERSION_GRACE_DAYS * DAY_S;
    let start: Item | undefined;
    do {
      const page: QueryCommandOutput = await this.options.doc.send(
        new QueryCommand({
          TableName: this.options.workflowsTable,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :v)',
          ExpressionAttributeValues: { ':pk': workflowPk(id), ':v': 'v#' },
          ProjectionExpression: 'pk, sk',
          ExclusiveStartKey: start,
        }),
      );
      for (const key of page.Items ?? []) {
        await this.options.doc.send(
          new UpdateCommand({
            TableName: this.options.workflowsTable,
            Key: { pk: key.pk, sk: key.sk },
            UpdateExpression: 'SET expiresAt = :at',
            ExpressionAttributeValues: { ':at': expiresAt },
          }),
        );
      }
      start = page.LastEvaluatedKey;
    } while (start);
  }

  // ------------------------------------------------------------------------------------------
  // Runs

  async admit(run: WorkflowRunRecord, admission: Admission): Promise<AdmitResult> {
    const expected = admission.as === 'start' ? 'RUNNING' : 'QUEUED';
    if (run.status !== expected) {
      throw new Error(`a run admitted to ${admission.as} is ${expected}; run ${run.id} is ${run.status}`);
    }
    const e = new Expr();
    const conditions = ['attribute_exists(pk)'];
    if (admission.expectActiveRuns !== undefined) {
      conditions.push(`${e.name('activeRuns')} = ${e.value(admission.expectActiveRuns)}`);
    }
    // One run waits at most: buffering never replaces a buffered run (it would be left QUEUED).
    if (admission.expectNoBuffered || admission.as === 'buffer') {
      conditions.push(`attribute_not_exists(${e.name('bufferedRunId')})`);
    }
    const update =
      admission.as === 'start'
        ? `ADD ${e.name('activeRuns')} ${e.value(1)}`
        : `SET ${e.name('bufferedRunId')} = ${e.value(run.id)}`;
    const results = this.resultPuts(undefined, run);
    try {
      await this.options.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: this.options.workflowsTable,
                Item: this.runHeadItem(run),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Update: {
                TableName: this.options.workflowsTable,
                Key: workflowKey(run.workflowId),
                UpdateExpression: update,
                ConditionExpression: conditions.join(' AND '),
                ...e.attributes(),
              },
            },
            ...results,
          ],
        }),
      );
      return 'admitted';
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      if (codes[0] === 'ConditionalCheckFailed') return 'exists';
      if (codes[1] === 'ConditionalCheckFailed' || codes.includes('TransactionConflict')) return 'conflict';
      if (codes.length === 0) {
        // No reasons given: tell the two apart by reading.
        const { Item: head } = await this.options.doc.send(
          new GetCommand({
            TableName: this.options.workflowsTable,
            Key: runKey(run.id),
            ProjectionExpression: 'pk',
            ConsistentRead: true,
          }),
        );
        return head ? 'exists' : 'conflict';
      }
      throw err;
    }
  }

  async getRun(id: string): Promise<WorkflowRunRecord | undefined> {
    for (let attempt = 1; ; attempt++) {
      const items: Item[] = [];
      let start: Item | undefined;
      do {
        const page: QueryCommandOutput = await this.options.doc.send(
          new QueryCommand({
            TableName: this.options.workflowsTable,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :head AND :end',
            ExpressionAttributeValues: { ':pk': runPk(id), ':head': HEAD, ':end': RESULTS_END },
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        );
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
      const head = items.find((i) => i.sk === HEAD);
      if (!head) return undefined;
      const revision = Number(head.revision);
      const results = new Map<string, string>();
      let newer = false;
      for (const item of items) {
        if (typeof item.sk !== 'string' || !item.sk.startsWith(RESULT_PREFIX)) continue;
        if (Number(item.rev) > revision) newer = true;
        results.set(item.sk.slice(RESULT_PREFIX.length), String(item.result ?? ''));
      }
      // A save between two pages: the results read are of a later revision than the head read.
      if (!newer) return runOf(head, results);
      if (attempt >= READ_ATTEMPTS) {
        throw new Error(`run ${id} kept changing while it was read; read it again`);
      }
    }
  }

  async saveRun(prev: WorkflowRunRecord, next: WorkflowRunRecord): Promise<boolean> {
    if (prev.id !== next.id || prev.workflowId !== next.workflowId) {
      throw new Error(`saveRun: run ${next.id} is not run ${prev.id}`);
    }
    const headUpdate = this.runHeadUpdate(prev, next);
    const counts = workflowCountsUpdate(prev, next);
    const results = this.resultPuts(prev, next);
    try {
      await this.options.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Update: { TableName: this.options.workflowsTable, ...headUpdate } },
            ...(counts ? [{ Update: { TableName: this.options.workflowsTable, ...counts.update } }] : []),
            ...results,
          ],
        }),
      );
      return true;
    } catch (err) {
      const codes = cancellationCodes(err);
      if (!codes) throw err;
      // Another save came first (or is being made): the caller reads again.
      if (codes[0] === 'ConditionalCheckFailed' || codes.includes('TransactionConflict')) return false;
      if (counts && codes[1] === 'ConditionalCheckFailed') {
        throw new PermanentError(
          `workflow ${next.workflowId}'s counts do not allow run ${next.id} to go from ${prev.status} to ${next.status} (${counts.what})`,
        );
      }
      throw err;
    }
  }

  async noteNodeRuns(link: WorkflowLink, logIds: readonly number[], shard?: number): Promise<void> {
    const e = new Expr();
    const path = `${e.name('nodeRuns')}.${e.name(link.node)}`;
    const attempt = e.value(link.attempt);
    const value: NodeRuns = { attempt: link.attempt, logIds: [...logIds] };
    const [first] = logIds;
    const oneShard = shard !== undefined && Number.isSafeInteger(shard) && shard >= 0 && first !== undefined;
    try {
      await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.workflowsTable,
          Key: runKey(link.runId),
          ...(oneShard
            ? {
                UpdateExpression: `SET ${path}.${e.name('logIds')}[${shard}] = ${e.value(first)}`,
                ConditionExpression: `${path}.${e.name('attempt')} = ${attempt} AND size(${path}.${e.name('logIds')}) > ${e.value(shard)}`,
              }
            : {
                UpdateExpression: `SET ${path} = ${e.value(value)}`,
                ConditionExpression: `attribute_exists(pk) AND (attribute_not_exists(${path}) OR ${path}.${e.name('attempt')} <= ${attempt})`,
              }),
          ...e.attributes(),
        }),
      );
    } catch (err) {
      // A later attempt is recorded already (or the run is gone): nothing to do.
      if (!isConditionFailed(err)) throw err;
    }
  }

  async nodeFireState(link: WorkflowLink): Promise<NodeFireState> {
    const e = new Expr();
    const key = e.name(link.node);
    const { Item: item } = await this.options.doc.send(
      new GetCommand({
        TableName: this.options.workflowsTable,
        Key: runKey(link.runId),
        ProjectionExpression: `${e.name('status')}, ${e.name('nodes')}.${key}, ${e.name('nodeRuns')}.${key}`,
        ExpressionAttributeNames: e.attributes().ExpressionAttributeNames,
        ConsistentRead: true,
      }),
    );
    const node = recordOf(item?.nodes)[link.node];
    const noted = recordOf(item?.nodeRuns)[link.node];
    return {
      awaited:
        item?.status === 'RUNNING' &&
        isRecord(node) &&
        node.status === 'RUNNING' &&
        Number(node.attempt) === link.attempt,
      claimed: isRecord(noted) && Number(noted.attempt) === link.attempt,
    };
  }

  async touch(id: string, movedAt: number): Promise<void> {
    try {
      await this.options.doc.send(
        new UpdateCommand({
          TableName: this.options.workflowsTable,
          Key: runKey(id),
          UpdateExpression: 'SET movedAt = :at, stalledSince = :since, expiresAt = :expires',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: {
            ':at': movedAt,
            ':since': stalledSince(movedAt),
            ':expires': this.expiry(movedAt),
          },
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err;
    }
  }

  /**
   * Newest first. The records carry no node results (a list shows runs, not their results; read a
   * run with getRun for them): never save a listed record.
   */
  async listRuns(query: WorkflowRunQuery): Promise<Page<WorkflowRunRecord>> {
    const apps = query.appNames === undefined ? undefined : new Set(query.appNames);
    if (apps?.size === 0) return { items: [] };
    const byWorkflow = query.workflowId !== undefined;
    const keep = (item: Item) =>
      (query.status === undefined || item.status === query.status) &&
      (!apps || apps.has(String(item.appName)));
    return this.collect<WorkflowRunRecord>({
      ...(byWorkflow
        ? {
            index: WORKFLOW_RUNS_BY_WORKFLOW_INDEX,
            keyCondition: 'runWorkflowId = :id',
            values: { ':id': query.workflowId },
            start: startKey(query.cursor, ['runWorkflowId', 'createdAt'], {
              runWorkflowId: query.workflowId,
            }),
          }
        : {
            index: WORKFLOW_RUNS_ALL_INDEX,
            keyCondition: 'runList = :list',
            values: { ':list': RUN_LIST },
            start: startKey(query.cursor, ['runList', 'createdAt'], { runList: RUN_LIST }),
          }),
      forward: false,
      limit: query.limit,
      filtered: query.status !== undefined || apps !== undefined,
      load: async (entries) => {
        const heads = await batchGetAll(this.options.doc, this.options.workflowsTable, entries.map(baseKey));
        const byPk = new Map(heads.map((h) => [String(h.pk), h]));
        return entries.map((e) => {
          const head = byPk.get(String(e.pk));
          return head && keep(head) ? runOf(head, new Map()) : undefined;
        });
      },
    });
  }

  async listActive(workflowId: number): Promise<{ id: string; status: StoredRunStatus }[]> {
    const entries = await this.queryAll({
      TableName: this.options.workflowsTable,
      IndexName: WORKFLOW_RUNS_ACTIVE_INDEX,
      KeyConditionExpression: 'activeWorkflowId = :id',
      ExpressionAttributeValues: { ':id': workflowId },
    });
    if (entries.length === 0) return [];
    // The index is eventually consistent: each run's status is read again.
    const heads = await batchGetAll(this.options.doc, this.options.workflowsTable, entries.map(baseKey), {
      attributes: ['id', 'status', 'createdAt'],
    });
    return heads
      .filter((h) => h.status === 'QUEUED' || h.status === 'RUNNING')
      .sort((a, b) => Number(a.createdAt) - Number(b.createdAt) || String(a.id).localeCompare(String(b.id)))
      .map((h) => ({ id: String(h.id), status: h.status as StoredRunStatus }));
  }

  async listStalled(before: number, limit: number): Promise<string[]> {
    const ids: string[] = [];
    if (limit <= 0) return ids;
    let start: Item | undefined;
    do {
      const page: QueryCommandOutput = await this.options.doc.send(
        new QueryCommand({
          TableName: this.options.workflowsTable,
          IndexName: WORKFLOW_RUNS_STALLED_INDEX,
          // Whole buckets before `before`: every run listed has not moved since `before`.
          KeyConditionExpression: 'activeList = :list AND stalledSince < :before',
          ExpressionAttributeValues: { ':list': ACTIVE_LIST, ':before': stalledSince(before) },
          Limit: limit - ids.length,
          ExclusiveStartKey: start,
        }),
      );
      ids.push(...(page.Items ?? []).map((i) => String(i.pk).slice(2)));
      start = page.LastEvaluatedKey;
    } while (start && ids.length < limit);
    return ids;
  }

  async recordShard(link: WorkflowLink, outcome: ShardOutcome): Promise<ShardOutcome[]> {
    const prefix = `shard#${link.node}#${link.attempt}#`;
    try {
      await this.options.doc.send(
        new PutCommand({
          TableName: this.options.workflowsTable,
          Item: {
            pk: runPk(link.runId),
            sk: `${prefix}${String(outcome.index).padStart(6, '0')}`,
            index: outcome.index,
            ok: outcome.ok,
            result: outcome.result,
            expiresAt: this.expiry(this.now()),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (err) {
      if (!isConditionFailed(err)) throw err; // recorded before: the first record stands
    }
    const items = await this.queryAll({
      TableName: this.options.workflowsTable,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': runPk(link.runId), ':prefix': prefix },
      ConsistentRead: true,
    });
    return items
      .map((i) => ({ index: Number(i.index), ok: i.ok === true, result: String(i.result ?? '') }))
      .sort((a, b) => a.index - b.index);
  }

  // ------------------------------------------------------------------------------------------

  private expiry(ms: number): number {
    return Math.floor(ms / 1000) + this.options.retentionDays * DAY_S;
  }

  private runExpiry(run: WorkflowRunRecord): number {
    return this.expiry(Math.max(run.createdAt, run.movedAt));
  }

  private runHeadItem(run: WorkflowRunRecord): Item {
    const nodes: Record<string, Item> = {};
    for (const [key, node] of Object.entries(run.state.nodes)) {
      nodes[key] = {
        status: node.status,
        attempt: node.attempt,
        ...(node.reason !== undefined ? { reason: node.reason } : {}),
        ...(node.result !== undefined ? { hasResult: true } : {}),
      };
    }
    const active = run.status === 'QUEUED' || run.status === 'RUNNING';
    return {
      ...runKey(run.id),
      id: run.id,
      workflowId: run.workflowId,
      version: run.version,
      appName: run.appName,
      workflowName: run.workflowName,
      status: run.status,
      stateStatus: run.state.status,
      input: JSON.stringify(run.state.input),
      nodes,
      revision: run.state.revision,
      failedNodes: [...run.state.failedNodes],
      trigger: { ...run.trigger },
      createdAt: run.createdAt,
      ...(run.startedAt !== undefined ? { startedAt: run.startedAt } : {}),
      ...(run.finishedAt !== undefined ? { finishedAt: run.finishedAt } : {}),
      movedAt: run.movedAt,
      nodeRuns: Object.fromEntries(
        Object.entries(run.nodeRuns).map(([k, v]) => [k, { attempt: v.attempt, logIds: [...v.logIds] }]),
      ),
      nodeTimes: Object.fromEntries(Object.entries(run.nodeTimes).map(([k, v]) => [k, { ...v }])),
      runWorkflowId: run.workflowId,
      runList: RUN_LIST,
      ...(active
        ? {
            activeWorkflowId: run.workflowId,
            activeList: ACTIVE_LIST,
            stalledSince: stalledSince(run.movedAt),
          }
        : {}),
      expiresAt: this.runExpiry(run),
    };
  }

  /**
   * The update of a run's head from `prev` to `next`, on condition that the stored revision and
   * status are prev's. nodeRuns is written per node that changed, never whole: the dispatcher notes
   * node runs beside the engine's saves (noteNodeRuns), and a save must not undo a note.
   */
  private runHeadUpdate(prev: WorkflowRunRecord, next: WorkflowRunRecord) {
    const e = new Expr();
    const item = this.runHeadItem(next);
    const set: string[] = [];
    const remove: string[] = [];
    for (const [name, value] of Object.entries(item)) {
      if (name === 'pk' || name === 'sk' || name === 'nodeRuns') continue;
      set.push(`${e.name(name)} = ${e.value(value)}`);
    }
    for (const name of OPTIONAL_RUN_ATTRIBUTES) {
      if (!(name in item)) remove.push(e.name(name));
    }
    for (const key of new Set([...Object.keys(prev.nodeRuns), ...Object.keys(next.nodeRuns)])) {
      const before = Object.hasOwn(prev.nodeRuns, key) ? prev.nodeRuns[key] : undefined;
      const after = Object.hasOwn(next.nodeRuns, key) ? next.nodeRuns[key] : undefined;
      if (sameNodeRuns(before, after)) continue;
      const runs = e.name('nodeRuns');
      if (after)
        set.push(
          `${runs}.${e.name(key)} = ${e.value({ attempt: after.attempt, logIds: [...after.logIds] })}`,
        );
      else remove.push(`${runs}.${e.name(key)}`);
    }
    return {
      Key: runKey(next.id),
      UpdateExpression: `SET ${set.join(', ')}${remove.length ? ` REMOVE ${remove.join(', ')}` : ''}`,
      ConditionExpression: `${e.name('revision')} = ${e.value(prev.state.revision)} AND ${e.name('status')} = ${e.value(prev.status)}`,
      ...e.attributes(),
    };
  }

  /** Puts of the results `next` has that `prev` did not have (or had otherwise). */
  private resultPuts(prev: WorkflowRunRecord | undefined, next: WorkflowRunRecord) {
    const puts: { Put: { TableName: string; Item: Item } }[] = [];
    let bytes = 0;
    const expiresAt = this.runExpiry(next);
    for (const [key, node] of Object.entries(next.state.nodes)) {
      if (node.result === undefined) continue;
      const before = prev && Object.hasOwn(prev.state.nodes, key) ? prev.state.nodes[key]?.result : undefined;
      if (before === node.result) continue;
      bytes += Buffer.byteLength(node.result) + key.length + 100;
      puts.push({
        Put: {
          TableName: this.options.workflowsTable,
          Item: {
            pk: runPk(next.id),
            sk: `${RESULT_PREFIX}${key}`,
            result: node.result,
            rev: next.state.revision,
            expiresAt,
          },
        },
      });
    }
    if (puts.length > MAX_RESULT_WRITES || bytes > MAX_RESULT_BYTES) {
      throw new PermanentError(
        `run ${next.id}: one save may store at most ${MAX_RESULT_WRITES} new node results of ${MAX_RESULT_BYTES} bytes in all; this one has ${puts.length} of ${bytes}`,
      );
    }
    return puts;
  }

  /**
   * Reads an index newest or oldest first, loading the items of each round of entries and keeping
   * those `load` answers, until `limit` are kept, the index ends, or MAX_LIST_ROUNDS were read. The
   * cursor is the entry of the last item answered (or where the reading stopped).
   */
  private async collect<T>(q: {
    readonly index: string;
    readonly keyCondition: string;
    readonly values: Record<string, unknown>;
    readonly forward: boolean;
    readonly limit: number;
    readonly start: Item | undefined;
    readonly filtered: boolean;
    readonly load: (entries: Item[]) => Promise<(T | undefined)[]>;
  }): Promise<Page<T>> {
    const limit = Math.max(1, Math.floor(q.limit));
    const items: T[] = [];
    let start = q.start;
    for (let round = 0; round < MAX_LIST_ROUNDS; round++) {
      const remaining = limit - items.length;
      const page: QueryCommandOutput = await this.options.doc.send(
        new QueryCommand({
          TableName: this.options.workflowsTable,
          IndexName: q.index,
          KeyConditionExpression: q.keyCondition,
          ExpressionAttributeValues: q.values,
          ScanIndexForward: q.forward,
          Limit: Math.min(100, q.filtered ? Math.max(remaining, FILTERED_ROUND) : remaining),
          ExclusiveStartKey: start,
        }),
      );
      const entries = page.Items ?? [];
      const loaded = entries.length > 0 ? await q.load(entries) : [];
      for (const [i, value] of loaded.entries()) {
        if (value === undefined) continue;
        items.push(value);
        if (items.length === limit) {
          const more = i < entries.length - 1 || page.LastEvaluatedKey !== undefined;
          return { items, ...(more ? { nextCursor: encodeCursor(entries[i]) } : {}) };
        }
      }
      start = page.LastEvaluatedKey;
      if (!start) return { items };
    }
    return { items, nextCursor: encodeCursor(start) };
  }

  private async queryAll(input: ConstructorParameters<typeof QueryCommand>[0]): Promise<Item[]> {
    const items: Item[] = [];
    let start: Item | undefined;
    do {
      const page: QueryCommandOutput = await this.options.doc.send(
        new QueryCommand({ ...input, ExclusiveStartKey: start }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  }
}

// ---------------------------------------------------------------------------------------------
// Keys and items

function workflowPk(id: number): string {
  return `W#${id}`;
}

function workflowKey(id: number): Item {
  return { pk: workflowPk(id), sk: HEAD };
}

function versionSk(version: number): string {
  return `v#${String(version).padStart(10, '0')}`;
}

function runPk(id: string): string {
  return `R#${id}`;
}

function runKey(id: string): Item {
  return { pk: runPk(id), sk: HEAD };
}

/** The table key of an index entry (a KEYS_ONLY entry holds it). */
function baseKey(entry: Item): { pk: string; sk: string } {
  return { pk: String(entry.pk), sk: String(entry.sk) };
}

function workflowHeadItem(workflow: WorkflowRecord, definition: string): Item {
  return {
    ...workflowKey(workflow.id),
    id: workflow.id,
    version: workflow.version,
    definition,
    triggerStatus: workflow.triggerStatus,
    ...(workflow.starterJobId !== undefined ? { starterJobId: workflow.starterJobId } : {}),
    activeRuns: workflow.activeRuns,
    ...(workflow.bufferedRunId !== undefined ? { bufferedRunId: workflow.bufferedRunId } : {}),
    createdAt: workflow.createdAt,
    updatedAt: workflow.updatedAt,
    appName: workflow.definition.appName,
    listPk: LIST_PK,
    wfId: workflow.id,
  };
}

function versionItem(workflow: WorkflowRecord, definition: string): Item {
  return {
    pk: workflowPk(workflow.id),
    sk: versionSk(workflow.version),
    version: workflow.version,
    definition,
    createdAt: workflow.updatedAt,
  };
}

/**
 * The update of the workflow's counts that a run's status change makes, with its condition; none
 * when the status stays (or moves between ends).
 */
function workflowCountsUpdate(
  prev: WorkflowRunRecord,
  next: WorkflowRunRecord,
):
  | {
      readonly what: string;
      readonly update: {
        Key: Item;
        UpdateExpression: string;
        ConditionExpression: string;
        ExpressionAttributeValues: Item;
      };
    }
  | undefined {
  const from = prev.status;
  const to = next.status;
  if (from === to) return undefined;
  if (to === 'QUEUED') throw new Error(`run ${next.id} cannot go back from ${from} to QUEUED`);
  const Key = workflowKey(next.workflowId);
  if (from === 'QUEUED') {
    // The buffered run leaves the buffer: to running, or ended (cancelled) without running.
    const start = to === 'RUNNING';
    return {
      what: start ? 'the buffered run starts' : 'the buffered run ends',
      update: {
        Key,
        UpdateExpression: `REMOVE bufferedRunId${start ? ' ADD activeRuns :one' : ''}`,
        ConditionExpression: 'bufferedRunId = :id',
        ExpressionAttributeValues: { ':id': next.id, ...(start ? { ':one': 1 } : {}) },
      },
    };
  }
  if (from === 'RUNNING') {
    return {
      what: 'one running run less',
      update: {
        Key,
        UpdateExpression: 'ADD activeRuns :minus',
        // A count that would go below 0 is a bug: refused loudly rather than kept negative.
        ConditionExpression: 'attribute_exists(pk) AND activeRuns > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      },
    };
  }
  if (to === 'RUNNING') {
    // An ended run retried.
    return {
      what: 'one running run more',
      update: {
        Key,
        UpdateExpression: 'ADD activeRuns :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
  }
  return undefined;
}

function describeActive(workflow: WorkflowRecord): string {
  const n = workflow.activeRuns;
  const running = `${n} run${n === 1 ? '' : 's'} of the workflow ${n === 1 ? 'is' : 'are'} running`;
  if (workflow.bufferedRunId === undefined) return running;
  return n === 0
    ? `a run of the workflow is waiting (${workflow.bufferedRunId})`
    : `${running} and one is waiting (${workflow.bufferedRunId})`;
}

function sameNodeRuns(a: NodeRuns | undefined, b: NodeRuns | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return (
    a.attempt === b.attempt &&
    a.logIds.length === b.logIds.length &&
    a.logIds.every((id, i) => id === b.logIds[i])
  );
}

// ---------------------------------------------------------------------------------------------
// Reading items back

function workflowOf(item: Item): WorkflowRecord {
  return {
    id: Number(item.id),
    version: Number(item.version),
    definition: definitionOf(item.definition),
    triggerStatus: item.triggerStatus as TriggerStatus,
    ...(typeof item.starterJobId === 'number' ? { starterJobId: item.starterJobId } : {}),
    activeRuns: Number(item.activeRuns ?? 0),
    ...(typeof item.bufferedRunId === 'string' ? { bufferedRunId: item.bufferedRunId } : {}),
    createdAt: Number(item.createdAt),
    updatedAt: Number(item.updatedAt),
  };
}

/** A stored definition, deeply frozen as checked definitions are (the engine caches by frozen object). */
function definitionOf(text: unknown): WorkflowDefinition {
  if (typeof text !== 'string') throw new Error('a stored workflow definition is not JSON text');
  return deepFreeze(JSON.parse(text)) as WorkflowDefinition;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function runOf(item: Item, results: ReadonlyMap<string, string>): WorkflowRunRecord {
  const nodes: Record<string, NodeState> = {};
  for (const [key, raw] of Object.entries(recordOf(item.nodes))) {
    if (!isRecord(raw)) continue;
    const result = raw.hasResult === true ? results.get(key) : undefined;
    nodes[key] = {
      status: raw.status as NodeState['status'],
      attempt: Number(raw.attempt ?? 0),
      ...(typeof raw.reason === 'string' ? { reason: raw.reason } : {}),
      ...(result !== undefined ? { result } : {}),
    };
  }
  const state: WorkflowRunState = {
    status: item.stateStatus as WorkflowRunState['status'],
    input: typeof item.input === 'string' ? (JSON.parse(item.input) as JsonValue) : {},
    nodes,
    revision: Number(item.revision ?? 0),
    failedNodes: Array.isArray(item.failedNodes) ? item.failedNodes.map(String) : [],
  };
  const nodeRuns: Record<string, NodeRuns> = {};
  for (const [key, raw] of Object.entries(recordOf(item.nodeRuns))) {
    if (!isRecord(raw)) continue;
    nodeRuns[key] = {
      attempt: Number(raw.attempt ?? 0),
      logIds: Array.isArray(raw.logIds) ? raw.logIds.map(Number) : [],
    };
  }
  const nodeTimes: Record<string, NodeTimes> = {};
  for (const [key, raw] of Object.entries(recordOf(item.nodeTimes))) {
    if (!isRecord(raw)) continue;
    nodeTimes[key] = {
      ...(typeof raw.firedAt === 'number' ? { firedAt: raw.firedAt } : {}),
      ...(typeof raw.finishedAt === 'number' ? { finishedAt: raw.finishedAt } : {}),
    };
  }
  return {
    id: String(item.id),
    workflowId: Number(item.workflowId),
    version: Number(item.version),
    appName: String(item.appName ?? ''),
    workflowName: String(item.workflowName ?? ''),
    status: item.status as StoredRunStatus,
    state,
    trigger: triggerOf(item.trigger),
    createdAt: Number(item.createdAt),
    ...(typeof item.startedAt === 'number' ? { startedAt: item.startedAt } : {}),
    ...(typeof item.finishedAt === 'number' ? { finishedAt: item.finishedAt } : {}),
    movedAt: Number(item.movedAt ?? item.createdAt),
    nodeRuns,
    nodeTimes,
  };
}

function triggerOf(raw: unknown): WorkflowRunTrigger {
  const t = recordOf(raw);
  return {
    type: t.type === 'SCHEDULE' ? 'SCHEDULE' : 'MANUAL',
    ...(typeof t.starterLogId === 'number' ? { starterLogId: t.starterLogId } : {}),
    ...(typeof t.by === 'string' ? { by: t.by } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function recordOf(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

// ---------------------------------------------------------------------------------------------

/**
 * Placeholders of one expression: every attribute name (map keys included: node keys may be
 * reserved words) and value, short (`#a`, `:a`, base 36) so 200 per-node paths stay within
 * DynamoDB's 4 KB expression limit.
 */
class Expr {
  private readonly names = new Map<string, string>();
  private readonly values: Record<string, unknown> = {};
  private valueCount = 0;

  name(attribute: string): string {
    let placeholder = this.names.get(attribute);
    if (!placeholder) {
      placeholder = `#${this.names.size.toString(36)}`;
      this.names.set(attribute, placeholder);
    }
    return placeholder;
  }

  value(value: unknown): string {
    const placeholder = `:${(this.valueCount++).toString(36)}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  attributes(): {
    ExpressionAttributeNames: Record<string, string>;
    ExpressionAttributeValues?: Record<string, unknown>;
  } {
    return {
      ExpressionAttributeNames: Object.fromEntries([...this.names].map(([attr, ph]) => [ph, attr])),
      ...(this.valueCount > 0 ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}

function cancellationCodes(err: unknown): (string | undefined)[] | undefined {
  const cancelled =
    err instanceof TransactionCanceledException ||
    (err instanceof Error && err.name === 'TransactionCanceledException');
  if (!cancelled) return undefined;
  return ((err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map(
    (r) => r.Code,
  );
}

/**
 * The start key of a list cursor, which must come from the same query: DynamoDB rejects a start key
 * outside the key condition or of another index's shape as a database error (a 500, not a 400).
 */
function startKey(
  cursor: string | undefined,
  indexKeys: readonly [string, string],
  fixed: Readonly<Record<string, unknown>>,
): Item | undefined {
  const key = decodeCursor(cursor);
  if (key === undefined) return undefined;
  const names = Object.keys(key).sort().join(',');
  const expected = ['pk', 'sk', ...indexKeys].sort().join(',');
  const [partition, sort] = indexKeys;
  const fits =
    names === expected &&
    typeof key.pk === 'string' &&
    typeof key.sk === 'string' &&
    key[partition] === fixed[partition] &&
    typeof key[sort] === 'number' &&
    Number.isFinite(key[sort]);
  if (!fits) throw new ValidationError('cursor is not a cursor of this query', 'cursor');
  return key;
}
