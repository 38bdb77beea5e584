import { PermanentError } from '@tickring/core/common';
import {
  type NodeFireState,
  nodeRunsAfterSave,
  notedNodeRuns,
  stalledSince,
  succeededAt,
  type WorkflowLink,
  type WorkflowRunRecord,
} from '@tickring/core/workflows';
import type { WorkflowResults } from './results.js';
import { nodeRunsOf, nodeRunsText, RUN_COLUMNS, RUN_ROW_COLUMNS, runOf, runRowValues } from './rows.js';
import type { WorkflowTables } from './tables.js';

/** `column = ?, …` of RUN_ROW_COLUMNS, for an update of a run's row. */
const RUN_ROW_SET = RUN_ROW_COLUMNS.split(', ')
  .map((column) => `${column} = ?`)
  .join(', ');

/**
 * A run's state as the engine and the dispatcher move it: read whole, saved from one revision to the
 * next (with the workflow's counts), node runs noted, touched by the sweeps.
 */
export class WorkflowRunStates {
  constructor(
    private readonly tables: WorkflowTables,
    private readonly results: WorkflowResults,
  ) {}

  /** The head and its results in one statement: one snapshot, whatever another connection commits meanwhile. */
  getRun(id: string): WorkflowRunRecord | undefined {
    const row = this.tables.db
      .prepare(
        `SELECT ${RUN_COLUMNS},
           (SELECT json_group_object(node, result) FROM workflow_run_results WHERE run_id = workflow_runs.id)
             AS results
         FROM workflow_runs WHERE id = ? AND expires_at >= ?`,
      )
      .get(id, this.tables.nowSeconds());
    if (!row) return undefined;
    return runOf(row, JSON.parse(String(row.results)) as Record<string, string>);
  }

  saveRun(prev: WorkflowRunRecord, next: WorkflowRunRecord): boolean {
    if (prev.id !== next.id || prev.workflowId !== next.workflowId) {
      throw new Error(`saveRun: run ${next.id} is not run ${prev.id}`);
    }
    if (next.status === 'QUEUED' && prev.status !== 'QUEUED') {
      throw new Error(`run ${next.id} cannot go back from ${prev.status} to QUEUED`);
    }
    const db = this.tables.db;
    return this.tables.database.transaction(() => {
      const stored = db
        .prepare('SELECT revision, status, node_runs FROM workflow_runs WHERE id = ? AND expires_at >= ?')
        .get(prev.id, this.tables.nowSeconds());
      // Another save came first (or the run is gone): the caller reads again.
      if (!stored || stored.revision !== prev.state.revision || stored.status !== prev.status) return false;
      this.moveCounts(prev, next);
      const success = succeededAt(prev, next);
      if (success !== undefined)
        db.prepare('UPDATE workflows SET last_success_at = ? WHERE id = ?').run(success, next.workflowId);
      const nodeRuns = nodeRunsAfterSave(nodeRunsOf(stored.node_runs), prev, next);
      db.prepare(`UPDATE workflow_runs SET ${RUN_ROW_SET}, node_runs = ? WHERE id = ?`).run(
        ...runRowValues(next, this.tables.runExpiry(next)),
        nodeRunsText(nodeRuns),
        next.id,
      );
      this.results.write(prev, next);
      return true;
    });
  }

  noteNodeRuns(link: WorkflowLink, logIds: readonly number[], shard?: number): void {
    const db = this.tables.db;
    this.tables.database.transaction(() => {
      const row = db
        .prepare('SELECT node_runs FROM workflow_runs WHERE id = ? AND expires_at >= ?')
        .get(link.runId, this.tables.nowSeconds());
      if (!row) return;
      const nodeRuns = nodeRunsOf(row.node_runs);
      const noted = Object.hasOwn(nodeRuns, link.node) ? nodeRuns[link.node] : undefined;
      const next = notedNodeRuns(noted, link, logIds, shard);
      if (!next) return;
      nodeRuns[link.node] = next;
      db.prepare('UPDATE workflow_runs SET node_runs = ? WHERE id = ?').run(
        nodeRunsText(nodeRuns),
        link.runId,
      );
    });
  }

  nodeFireState(link: WorkflowLink): NodeFireState {
    const row = this.tables.db
      .prepare('SELECT status, head, node_runs FROM workflow_runs WHERE id = ? AND expires_at >= ?')
      .get(link.runId, this.tables.nowSeconds());
    if (!row) return { awaited: false, claimed: false };
    const nodes = (
      JSON.parse(String(row.head)) as { nodes: Record<string, { status: string; attempt: number }> }
    ).nodes;
    const node = Object.hasOwn(nodes, link.node) ? nodes[link.node] : undefined;
    const nodeRuns = nodeRunsOf(row.node_runs);
    const noted = Object.hasOwn(nodeRuns, link.node) ? nodeRuns[link.node] : undefined;
    return {
      awaited: row.status === 'RUNNING' && node?.status === 'RUNNING' && node.attempt === link.attempt,
      claimed: noted?.attempt === link.attempt,
    };
  }

  /** Sets movedAt (and the stalled bucket of an active run), leaving the revision. */
  touch(id: string, movedAt: number): void {
    this.tables.db
      .prepare(
        `UPDATE workflow_runs
         SET moved_at = ?, stalled_since = CASE WHEN stalled_since IS NULL THEN NULL ELSE ? END, expires_at = ?
         WHERE id = ? AND expires_at >= ?`,
      )
      .run(movedAt, stalledSince(movedAt), this.tables.expiry(movedAt), id, this.tables.nowSeconds());
  }

  /**
   * The workflow's counts follow the run's status change; PermanentError when they do not allow it
   * (a count that would go below 0, a buffered run that is not this one): a bug, refused loudly.
   */
  private moveCounts(prev: WorkflowRunRecord, next: WorkflowRunRecord): void {
    const from = prev.status;
    const to = next.status;
    if (from === to) return;
    const db = this.tables.db;
    let what: string;
    let changes: number;
    if (from === 'QUEUED') {
      // The buffered run leaves the buffer: to running, or ended (cancelled) without running.
      const start = to === 'RUNNING';
      what = start ? 'the buffered run starts' : 'the buffered run ends';
      changes = db
        .prepare(
          `UPDATE workflows SET buffered_run_id = NULL, active_runs = active_runs + ?
           WHERE id = ? AND buffered_run_id = ?`,
        )
        .run(start ? 1 : 0, next.workflowId, next.id).changes;
    } else if (from === 'RUNNING') {
      what = 'one running run less';
      changes = db
        .prepare('UPDATE workflows SET active_runs = active_runs - 1 WHERE id = ? AND active_runs > 0')
        .run(next.workflowId).changes;
    } else if (to === 'RUNNING') {
      // An ended run retried.
      what = 'one running run more';
      changes = db
        .prepare('UPDATE workflows SET active_runs = active_runs + 1 WHERE id = ?')
        .run(next.workflowId).changes;
    } else {
      return; // from one end to another
    }
    if (changes === 0) {
      throw new PermanentError(
        `workflow ${next.workflowId}'s counts do not allow run ${next.id} to go from ${from} to ${to} (${what})`,
      );
    }
  }
}
