/**
 * The WorkflowStore port in memory, with the DynamoDB adapter's conditions and answers: it passes
 * the same contract suite (contracts/workflow-store.ts). Records are copied in and out (nothing is
 * shared with the caller); definitions are answered deeply frozen, as the adapter answers them.
 * Every method checks and writes without awaiting in between, so concurrent calls serialize like
 * conditional writes. Nothing expires (the adapter's TTLs are its own).
 */

import { ConflictError, NotFoundError, PermanentError, ValidationError } from '@tickring/core/common';
import type { Page, TriggerStatus } from '@tickring/core/jobs';
import {
  type Admission,
  type AdmitResult,
  createdWithin,
  deepFreeze,
  isActiveRun,
  type NodeFireState,
  nodeRunsAfterSave,
  notedNodeRuns,
  type ShardOutcome,
  type StoredRunStatus,
  stalledSince,
  succeededAt,
  type WorkflowDefinition,
  type WorkflowLink,
  type WorkflowQuery,
  type WorkflowRecord,
  type WorkflowRunQuery,
  type WorkflowRunRecord,
  type WorkflowStore,
} from '@tickring/core/workflows';
import { decodeCursor, pageOf } from './cursor.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Where a list cursor may be used: a workflow list, all runs, or one workflow's runs. */
type ListKind = 'workflows' | 'runs' | `runs-of-${number}`;

/** A list's sort key: a number, then a text for ties. */
type SortKey = readonly [number, string];

export class MemoryWorkflowStore implements WorkflowStore {
  private lastId = 0;
  private readonly workflows = new Map<number, WorkflowRecord>();
  /** Deeply frozen definitions by `${id}#${version}`, kept after a delete (runs still read them). */
  private readonly versions = new Map<string, WorkflowDefinition>();
  private readonly runs = new Map<string, WorkflowRunRecord>();
  /** Shard outcomes by node attempt, then by shard index. */
  private readonly shards = new Map<string, Map<number, ShardOutcome>>();
  /** Missed-deadline claims, `${id}#${deadlineAt}` (kept for good: nothing expires here). */
  private readonly deadlineMisses = new Set<string>();

  // ------------------------------------------------------------------------------------------
  // Workflows

  async allocateId(): Promise<number> {
    return ++this.lastId;
  }

  async create(workflow: WorkflowRecord): Promise<void> {
    if (this.workflows.has(workflow.id)) throw new ConflictError(`workflow ${workflow.id} already exists`);
    const definition = frozenCopy(workflow.definition);
    this.workflows.set(workflow.id, { ...deepCopy(workflow), definition });
    this.versions.set(versionKey(workflow.id, workflow.version), definition);
  }

  async get(id: number): Promise<WorkflowRecord | undefined> {
    return workflowCopy(this.workflows.get(id));
  }

  async getVersion(id: number, version: number): Promise<WorkflowDefinition | undefined> {
    return this.versions.get(versionKey(id, version));
  }

  async list(query: WorkflowQuery): Promise<Page<WorkflowRecord>> {
    const apps = query.appNames === undefined ? undefined : new Set(query.appNames);
    const matching = [...this.workflows.values()]
      .filter((w) => !apps || apps.has(w.definition.appName))
      .sort((a, b) => a.id - b.id);
    return page(matching, 'workflows', query, (w) => [w.id, ''], true, workflowCopy);
  }

  async update(next: WorkflowRecord, expectedVersion: number): Promise<void> {
    const current = this.workflows.get(next.id);
    if (!current) throw new NotFoundError(`workflow ${next.id} does not exist`);
    if (current.version !== expectedVersion) {
      throw new ConflictError(
        `workflow ${next.id} was changed meanwhile (version ${current.version}, not ${expectedVersion}); read it again and retry`,
      );
    }
    const definition = frozenCopy(next.definition);
    const { starterJobId: _old, deadlineSetAt: _set, ...kept } = current;
    // Only the editable fields: the running counts, the last success and the creation time stay the stored ones.
    this.workflows.set(next.id, {
      ...kept,
      version: next.version,
      definition,
      triggerStatus: next.triggerStatus,
      ...(next.starterJobId === undefined ? {} : { starterJobId: next.starterJobId }),
      ...(next.deadlineSetAt === undefined ? {} : { deadlineSetAt: next.deadlineSetAt }),
      updatedAt: next.updatedAt,
    });
    this.versions.set(versionKey(next.id, next.version), definition);
  }

  async setSchedule(
    id: number,
    triggerStatus: TriggerStatus,
    starterJobId: number | undefined,
    updatedAt: number,
    expectedStarterJobId?: number | null,
  ): Promise<void> {
    const current = this.workflows.get(id);
    if (!current) throw new NotFoundError(`workflow ${id} does not exist`);
    if (expectedStarterJobId !== undefined && (current.starterJobId ?? null) !== expectedStarterJobId) {
      throw new ConflictError(`workflow ${id}'s schedule job changed meanwhile; read it again and retry`);
    }
    const { starterJobId: _old, ...kept } = current;
    this.workflows.set(id, {
      ...kept,
      triggerStatus,
      ...(starterJobId === undefined ? {} : { starterJobId }),
      updatedAt,
    });
  }

  async delete(id: number): Promise<void> {
    const current = this.workflows.get(id);
    if (!current) throw new NotFoundError(`workflow ${id} does not exist`);
    if (current.activeRuns !== 0 || current.bufferedRunId !== undefined) {
      const waiting =
        current.bufferedRunId === undefined ? '' : ` and one waiting (${current.bufferedRunId})`;
      throw new ConflictError(
        `workflow ${id} has ${current.activeRuns} run(s) running${waiting}; cancel them first`,
      );
    }
    this.workflows.delete(id);
  }

  // ------------------------------------------------------------------------------------------
  // Runs

  async admit(run: WorkflowRunRecord, admission: Admission): Promise<AdmitResult> {
    const expected = admission.as === 'start' ? 'RUNNING' : 'QUEUED';
    if (run.status !== expected) {
      throw new Error(`a run admitted to ${admission.as} is ${expected}; run ${run.id} is ${run.status}`);
    }
    // The run first: a repeated start finds its run whatever the counts are now.
    if (this.runs.has(run.id)) return 'exists';
    const workflow = this.workflows.get(run.workflowId);
    if (!workflow) return 'conflict';
    if (admission.expectActiveRuns !== undefined && workflow.activeRuns !== admission.expectActiveRuns) {
      return 'conflict';
    }
    // One run waits at most: buffering never replaces a buffered run.
    if ((admission.expectNoBuffered || admission.as === 'buffer') && workflow.bufferedRunId !== undefined) {
      return 'conflict';
    }
    this.runs.set(run.id, deepCopy(run));
    this.workflows.set(
      workflow.id,
      admission.as === 'start'
        ? { ...workflow, activeRuns: workflow.activeRuns + 1 }
        : { ...workflow, bufferedRunId: run.id },
    );
    return 'admitted';
  }

  async getRun(id: string): Promise<WorkflowRunRecord | undefined> {
    const run = this.runs.get(id);
    return run && deepCopy(run);
  }

  async saveRun(prev: WorkflowRunRecord, next: WorkflowRunRecord): Promise<boolean> {
    if (prev.id !== next.id || prev.workflowId !== next.workflowId) {
      throw new Error(`saveRun: run ${next.id} is not run ${prev.id}`);
    }
    const stored = this.runs.get(prev.id);
    if (!stored || stored.state.revision !== prev.state.revision || stored.status !== prev.status)
      return false;
    const counts = this.countsAfter(prev, next);
    // A node's runs are written only where the save changes them: a note made since the read stays.
    const nodeRuns = nodeRunsAfterSave(stored.nodeRuns, prev, next);
    this.runs.set(next.id, deepCopy({ ...next, nodeRuns }));
    if (counts) this.workflows.set(counts.id, counts);
    const success = succeededAt(prev, next);
    const workflow = this.workflows.get(next.workflowId);
    if (success !== undefined && workflow)
      this.workflows.set(workflow.id, { ...workflow, lastSuccessAt: success });
    return true;
  }

  async noteNodeRuns(link: WorkflowLink, logIds: readonly number[], shard?: number): Promise<void> {
    const run = this.runs.get(link.runId);
    if (!run) return;
    const noted = Object.hasOwn(run.nodeRuns, link.node) ? run.nodeRuns[link.node] : undefined;
    const next = notedNodeRuns(noted, link, logIds, shard);
    if (!next) return;
    this.runs.set(run.id, { ...run, nodeRuns: { ...run.nodeRuns, [link.node]: next } });
  }

  async nodeFireState(link: WorkflowLink): Promise<NodeFireState> {
    const run = this.runs.get(link.runId);
    const node = run && Object.hasOwn(run.state.nodes, link.node) ? run.state.nodes[link.node] : undefined;
    const noted = run && Object.hasOwn(run.nodeRuns, link.node) ? run.nodeRuns[link.node] : undefined;
    return {
      awaited: run?.status === 'RUNNING' && node?.status === 'RUNNING' && node.attempt === link.attempt,
      claimed: noted?.attempt === link.attempt,
    };
  }

  async touch(id: string, movedAt: number): Promise<void> {
    const run = this.runs.get(id);
    if (run) this.runs.set(id, { ...run, movedAt });
  }

  /**
   * Newest first. As the DynamoDB adapter's, the records carry no node results (read a run with
   * getRun for them): never save a listed record.
   */
  async listRuns(query: WorkflowRunQuery): Promise<Page<WorkflowRunRecord>> {
    const apps = query.appNames === undefined ? undefined : new Set(query.appNames);
    const matching = [...this.runs.values()]
      .filter(
        (r) =>
          (query.workflowId === undefined || r.workflowId === query.workflowId) &&
          (query.status === undefined || r.status === query.status) &&
          createdWithin(r.createdAt, query) &&
          (!apps || apps.has(r.appName)),
      )
      .sort((a, b) => b.createdAt - a.createdAt || compareText(b.id, a.id));
    const list: ListKind = query.workflowId === undefined ? 'runs' : `runs-of-${query.workflowId}`;
    return page(matching, list, query, (r) => [r.createdAt, r.id], false, withoutResults);
  }

  async claimDeadlineMiss(id: number, deadlineAt: number): Promise<boolean> {
    const key = `${id}#${deadlineAt}`;
    if (this.deadlineMisses.has(key)) return false;
    this.deadlineMisses.add(key);
    return true;
  }

  async listActive(workflowId: number): Promise<{ id: string; status: StoredRunStatus }[]> {
    return [...this.runs.values()]
      .filter((r) => r.workflowId === workflowId && isActiveRun(r.status))
      .sort((a, b) => a.createdAt - b.createdAt || compareText(a.id, b.id))
      .map((r) => ({ id: r.id, status: r.status }));
  }

  async listStalled(before: number, limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    return [...this.runs.values()]
      .filter((r) => isActiveRun(r.status) && stalledSince(r.movedAt) < stalledSince(before))
      .sort((a, b) => a.movedAt - b.movedAt || compareText(a.id, b.id))
      .slice(0, limit)
      .map((r) => r.id);
  }

  async recordShard(link: WorkflowLink, outcome: ShardOutcome): Promise<ShardOutcome[]> {
    const key = JSON.stringify([link.runId, link.node, link.attempt]);
    let recorded = this.shards.get(key);
    if (!recorded) {
      recorded = new Map();
      this.shards.set(key, recorded);
    }
    // The first record of a shard stands.
    if (!recorded.has(outcome.index)) recorded.set(outcome.index, { ...outcome });
    return [...recorded.values()].map((s) => ({ ...s })).sort((a, b) => a.index - b.index);
  }

  // ------------------------------------------------------------------------------------------

  /**
   * The workflow's head after a run's status change (undefined: the status stays, or moves between
   * ends); PermanentError when the counts do not allow it, as the adapter refuses it.
   */
  private countsAfter(prev: WorkflowRunRecord, next: WorkflowRunRecord): WorkflowRecord | undefined {
    const from = prev.status;
    const to = next.status;
    if (from === to) return undefined;
    if (to === 'QUEUED') throw new Error(`run ${next.id} cannot go back from ${from} to QUEUED`);
    const workflow = this.workflows.get(next.workflowId);
    const refuse = (what: string) =>
      new PermanentError(
        `workflow ${next.workflowId}'s counts do not allow run ${next.id} to go from ${from} to ${to} (${what})`,
      );
    if (from === 'QUEUED') {
      const start = to === 'RUNNING';
      if (workflow?.bufferedRunId !== next.id) {
        throw refuse(start ? 'the buffered run starts' : 'the buffered run ends');
      }
      const { bufferedRunId: _gone, ...rest } = workflow;
      return { ...rest, activeRuns: rest.activeRuns + (start ? 1 : 0) };
    }
    if (from === 'RUNNING') {
      // A count that would go below 0 is a bug: refused loudly rather than kept negative.
      if (!workflow || workflow.activeRuns <= 0) throw refuse('one running run less');
      return { ...workflow, activeRuns: workflow.activeRuns - 1 };
    }
    if (to === 'RUNNING') {
      if (!workflow) throw refuse('one running run more');
      return { ...workflow, activeRuns: workflow.activeRuns + 1 };
    }
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------

function versionKey(id: number, version: number): string {
  return `${id}#${version}`;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function workflowCopy(workflow: WorkflowRecord | undefined): WorkflowRecord | undefined {
  if (!workflow) return undefined;
  // The definition is frozen and shared; the rest is a copy.
  const { definition, ...rest } = workflow;
  return { ...deepCopy(rest), definition };
}

function withoutResults(run: WorkflowRunRecord): WorkflowRunRecord {
  const copy = deepCopy(run) as Mutable<WorkflowRunRecord>;
  const nodes = Object.fromEntries(
    Object.entries(copy.state.nodes).map(([key, { result: _result, ...node }]) => [key, node]),
  );
  copy.state = { ...copy.state, nodes };
  return copy;
}

/**
 * A copy of plain JSON-like data (objects, arrays, primitives). Strings are shared, not copied: they
 * cannot change, and a run holds megabytes of node results (structuredClone copies them, slowly).
 */
function deepCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(deepCopy) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) copy[key] = deepCopy(v);
  return copy as T;
}

function frozenCopy<T>(value: T): T {
  return deepFreeze(deepCopy(value));
}

/**
 * One page of `items` (sorted as the list answers them) after the cursor's item. The cursor names
 * its list, so it continues that list only (as the adapter's, whose cursor is an index's key).
 */
function page<T>(
  items: readonly T[],
  list: ListKind,
  query: { readonly limit: number; readonly cursor?: string },
  sortKey: (item: T) => SortKey,
  ascending: boolean,
  copy: (item: T) => T | undefined,
): Page<T> {
  const after = cursorOf(query.cursor, list);
  const direction = ascending ? 1 : -1;
  const rest = after
    ? items.filter((item) => {
        const [n, text] = sortKey(item);
        return ((n - after[0]) * direction || compareText(text, after[1]) * direction) > 0;
      })
    : items;
  const { items: chosen, nextCursor } = pageOf(rest, Math.floor(query.limit), (last) => ({
    list,
    after: sortKey(last),
  }));
  return { items: chosen.map((item) => copy(item) as T), ...(nextCursor ? { nextCursor } : {}) };
}

/** Where a cursor of `list` stopped; ValidationError for a cursor of another list (or none at all). */
function cursorOf(text: string | undefined, list: ListKind): SortKey | undefined {
  const cursor = decodeCursor(text);
  if (cursor === undefined) return undefined;
  const after = cursor.after;
  const fits =
    cursor.list === list &&
    Array.isArray(after) &&
    after.length === 2 &&
    Number.isFinite(after[0]) &&
    typeof after[1] === 'string';
  if (!fits) throw new ValidationError('cursor is not a cursor of this query', 'cursor');
  return after as unknown as SortKey;
}
