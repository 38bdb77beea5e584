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
import type { SqlValue } from '../database.js';
import { cursorInteger, decodeCursor, pageLimit, pageOfRows } from '../page-cursor.js';
import { RUN_COLUMNS, runOf, WORKFLOW_COLUMNS, workflowOf } from './rows.js';
import type { WorkflowTables } from './tables.js';

/** Where a list cursor may be used: the workflows, all runs, or one workflow's runs (as the DynamoDB index keys). */
type ListKind = 'workflows' | 'runs' | `runs-of-${number}`;

type Position = readonly [number, string];

/** Rows of the groups a caller may see: one parameter (a JSON array), so one statement serves any list of groups. */
const IN_GROUPS = 'app_name IN (SELECT value FROM json_each(?))';

/** The lists of workflows and runs, each read by an index in its order. */
export class WorkflowIndexes {
  constructor(private readonly tables: WorkflowTables) {}

  /** By id. */
  list(query: WorkflowQuery): Page<WorkflowRecord> {
    if (query.appNames?.length === 0) return { items: [] };
    const from = positionOf(query.cursor, 'workflows');
    const limit = pageLimit(query.limit);
    const where = ['id > ?'];
    const params: SqlValue[] = [from?.[0] ?? Number.MIN_SAFE_INTEGER];
    if (query.appNames !== undefined) {
      where.push(IN_GROUPS);
      params.push(JSON.stringify(query.appNames));
    }
    const rows = this.tables.db
      .prepare(`SELECT ${WORKFLOW_COLUMNS} FROM workflows WHERE ${where.join(' AND ')} ORDER BY id LIMIT ?`)
      .all(...params, limit + 1);
    return pageOfRows(rows, limit, workflowOf, (last) => after('workflows', last.id, ''));
  }

  /**
   * Newest first (ties by id, descending). The records carry no node results (a list shows runs, not
   * their results; read a run with getRun for them): never save a listed record.
   */
  listRuns(query: WorkflowRunQuery): Page<WorkflowRunRecord> {
    if (query.appNames?.length === 0) return { items: [] };
    const list: ListKind = query.workflowId === undefined ? 'runs' : `runs-of-${query.workflowId}`;
    const from = positionOf(query.cursor, list);
    const limit = pageLimit(query.limit);
    const where = ['expires_at >= ?'];
    const params: SqlValue[] = [this.tables.nowSeconds()];
    if (query.workflowId !== undefined) {
      where.push('workflow_id = ?');
      params.push(query.workflowId);
    }
    if (query.status !== undefined) {
      where.push('status = ?');
      params.push(query.status);
    }
    if (query.createdFrom !== undefined) {
      where.push('created_at >= ?');
      params.push(query.createdFrom);
    }
    if (query.createdBefore !== undefined) {
      where.push('created_at < ?');
      params.push(query.createdBefore);
    }
    if (query.appNames !== undefined) {
      where.push(IN_GROUPS);
      params.push(JSON.stringify(query.appNames));
    }
    if (from) {
      where.push('(created_at, id) < (?, ?)');
      params.push(...from);
    }
    const rows = this.tables.db
      .prepare(
        `SELECT ${RUN_COLUMNS} FROM workflow_runs WHERE ${where.join(' AND ')}
         ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .all(...params, limit + 1);
    return pageOfRows(
      rows,
      limit,
      (row) => runOf(row),
      (last) => after(list, last.created_at, last.id),
    );
  }

  /** The workflow's QUEUED and RUNNING runs, oldest first. */
  listActive(workflowId: number): { id: string; status: StoredRunStatus }[] {
    return this.tables.db
      .prepare(
        `SELECT id, status FROM workflow_runs
         WHERE workflow_id = ? AND stalled_since IS NOT NULL AND expires_at >= ?
         ORDER BY created_at, id`,
      )
      .all(workflowId, this.tables.nowSeconds())
      .map((row) => ({ id: String(row.id), status: String(row.status) as StoredRunStatus }));
  }

  /**
   * Active runs whose 10 s bucket ended before `before`'s began (so none has moved since `before`),
   * by bucket, then by when they moved.
   */
  listStalled(before: number, limit: number): string[] {
    if (!(limit > 0)) return [];
    return this.tables.db
      .prepare(
        `SELECT id FROM workflow_runs
         WHERE stalled_since IS NOT NULL AND stalled_since < ? AND expires_at >= ?
         ORDER BY stalled_since, moved_at, id LIMIT ?`,
      )
      .all(stalledSince(before), this.tables.nowSeconds(), Math.floor(limit))
      .map((row) => String(row.id));
  }
}

/**
 * Where a cursor of `list` stopped: its sort key, a number and a text for ties; ValidationError for a
 * cursor of another list (the DynamoDB adapter's cursor is a key of the index its list reads).
 */
function positionOf(cursor: string | undefined, list: ListKind): Position | undefined {
  const position = decodeCursor(cursor);
  if (position === undefined) return undefined;
  if (position.list !== list || typeof position.id !== 'string') {
    throw new ValidationError('cursor is not a cursor of this query', 'cursor');
  }
  return [cursorInteger(position.at), position.id];
}

/** The cursor position after `at` (and `id` on a tie) in `list`. */
function after(list: ListKind, at: SqlValue | undefined, id: SqlValue | undefined) {
  return { list, at: Number(at), id: String(id) };
}
