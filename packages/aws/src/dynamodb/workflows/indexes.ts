import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { ValidationError } from '@tickring/core/common';
import type { Page } from '@tickring/core/jobs';
import {
  type StoredRunStatus,
  stalledSince,
  type WorkflowQuery,
  type WorkflowRecord,
  type WorkflowRunQuery,
  type WorkflowRunRecord,
} from '@tickring/core/workflows';
import {
  WORKFLOW_RUNS_ACTIVE_INDEX,
  WORKFLOW_RUNS_ALL_INDEX,
  WORKFLOW_RUNS_BY_WORKFLOW_INDEX,
  WORKFLOW_RUNS_STALLED_INDEX,
  WORKFLOWS_LIST_INDEX,
} from '../../topology/tables.js';
import { batchGetAll, decodeCursor, encodeCursor, type Item } from '../util.js';
import { runOf, workflowOf } from './items.js';
import { ACTIVE_LIST, baseKey, LIST_PK, RUN_LIST } from './keys.js';
import type { WorkflowsTable } from './table.js';

/** Query rounds one list makes before it answers with a cursor (filters may skip many items). */
const MAX_LIST_ROUNDS = 10;
/** Index entries read per round when a filter may drop some. */
const FILTERED_ROUND = 50;

/** The lists of workflows and runs, read from the table's KEYS_ONLY indexes. */
export class WorkflowIndexes {
  constructor(private readonly table: WorkflowsTable) {}

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
          const groups = await batchGetAll(this.table.doc, this.table.workflowsTable, keys, {
            attributes: ['pk', 'appName'],
          });
          const visible = new Set(groups.filter((g) => apps.has(String(g.appName))).map((g) => String(g.pk)));
          keys = keys.filter((k) => visible.has(k.pk));
        }
        const heads = await batchGetAll(this.table.doc, this.table.workflowsTable, keys);
        const byPk = new Map(heads.map((h) => [String(h.pk), h]));
        return entries.map((e) => {
          const head = byPk.get(String(e.pk));
          return head && (!apps || apps.has(String(head.appName))) ? workflowOf(head) : undefined;
        });
      },
    });
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
    const created = createdCondition(query);
    return this.collect<WorkflowRunRecord>({
      ...(byWorkflow
        ? {
            index: WORKFLOW_RUNS_BY_WORKFLOW_INDEX,
            keyCondition: `runWorkflowId = :id${created.condition}`,
            values: { ':id': query.workflowId, ...created.values },
            start: startKey(query.cursor, ['runWorkflowId', 'createdAt'], {
              runWorkflowId: query.workflowId,
            }),
          }
        : {
            index: WORKFLOW_RUNS_ALL_INDEX,
            keyCondition: `runList = :list${created.condition}`,
            values: { ':list': RUN_LIST, ...created.values },
            start: startKey(query.cursor, ['runList', 'createdAt'], { runList: RUN_LIST }),
          }),
      forward: false,
      limit: query.limit,
      filtered: query.status !== undefined || apps !== undefined,
      load: async (entries) => {
        const heads = await batchGetAll(this.table.doc, this.table.workflowsTable, entries.map(baseKey));
        const byPk = new Map(heads.map((h) => [String(h.pk), h]));
        return entries.map((e) => {
          const head = byPk.get(String(e.pk));
          return head && keep(head) ? runOf(head, new Map()) : undefined;
        });
      },
    });
  }

  async listActive(workflowId: number): Promise<{ id: string; status: StoredRunStatus }[]> {
    const entries = await this.table.queryAll({
      TableName: this.table.workflowsTable,
      IndexName: WORKFLOW_RUNS_ACTIVE_INDEX,
      KeyConditionExpression: 'activeWorkflowId = :id',
      ExpressionAttributeValues: { ':id': workflowId },
    });
    if (entries.length === 0) return [];
    // The index is eventually consistent: each run's status is read again.
    const heads = await batchGetAll(this.table.doc, this.table.workflowsTable, entries.map(baseKey), {
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
      const page: QueryCommandOutput = await this.table.doc.send(
        new QueryCommand({
          TableName: this.table.workflowsTable,
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
      const page: QueryCommandOutput = await this.table.doc.send(
        new QueryCommand({
          TableName: this.table.workflowsTable,
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
}

/** The sort key's part of a run list's key condition: its created range (both indexes sort by createdAt). */
function createdCondition(query: Pick<WorkflowRunQuery, 'createdFrom' | 'createdBefore'>): {
  condition: string;
  values: Record<string, number>;
} {
  const { createdFrom: from, createdBefore: before } = query;
  if (from !== undefined && before !== undefined)
    return {
      condition: ' AND createdAt BETWEEN :createdFrom AND :createdLast',
      values: { ':createdFrom': from, ':createdLast': Math.max(from, before - 1) },
    };
  if (from !== undefined)
    return { condition: ' AND createdAt >= :createdFrom', values: { ':createdFrom': from } };
  if (before !== undefined)
    return { condition: ' AND createdAt < :createdBefore', values: { ':createdBefore': before } };
  return { condition: '', values: {} };
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
