import type { Admission, AdmitResult, WorkflowRunRecord } from '@tickring/core/workflows';
import type { WorkflowResults } from './results.js';
import { nodeRunsText, RUN_ROW_COLUMNS, runRowValues } from './rows.js';
import type { WorkflowTables } from './tables.js';

/** A new run admitted to start or to wait, with the workflow's running count or buffer, in one transaction. */
export class WorkflowAdmission {
  constructor(
    private readonly tables: WorkflowTables,
    private readonly results: WorkflowResults,
  ) {}

  admit(run: WorkflowRunRecord, admission: Admission): AdmitResult {
    const expected = admission.as === 'start' ? 'RUNNING' : 'QUEUED';
    if (run.status !== expected) {
      throw new Error(`a run admitted to ${admission.as} is ${expected}; run ${run.id} is ${run.status}`);
    }
    const db = this.tables.db;
    return this.tables.database.transaction((): AdmitResult => {
      // The run first: a repeated start finds its run whatever the counts are now.
      const now = this.tables.nowSeconds();
      const existing = db.prepare('SELECT expires_at FROM workflow_runs WHERE id = ?').get(run.id);
      if (existing && Number(existing.expires_at) >= now) return 'exists';
      const workflow = db
        .prepare('SELECT active_runs, buffered_run_id FROM workflows WHERE id = ?')
        .get(run.workflowId);
      if (!workflow) return 'conflict';
      if (admission.expectActiveRuns !== undefined && workflow.active_runs !== admission.expectActiveRuns) {
        return 'conflict';
      }
      // One run waits at most: buffering never replaces a buffered run (it would be left QUEUED).
      if ((admission.expectNoBuffered || admission.as === 'buffer') && workflow.buffered_run_id !== null) {
        return 'conflict';
      }
      if (existing) {
        // An expired run of this id (DynamoDB's TTL would have removed it) goes now, its results with it.
        db.prepare('DELETE FROM workflow_runs WHERE id = ?').run(run.id);
      }
      db.prepare(
        `INSERT INTO workflow_runs (id, ${RUN_ROW_COLUMNS}, node_runs) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(run.id, ...runRowValues(run, this.tables.runExpiry(run)), nodeRunsText(run.nodeRuns));
      this.results.write(undefined, run);
      if (admission.as === 'start') {
        db.prepare('UPDATE workflows SET active_runs = active_runs + 1 WHERE id = ?').run(run.workflowId);
      } else {
        db.prepare('UPDATE workflows SET buffered_run_id = ? WHERE id = ?').run(run.id, run.workflowId);
      }
      return 'admitted';
    });
  }
}
