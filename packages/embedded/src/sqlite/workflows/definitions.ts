import { ConflictError, NotFoundError } from '@tickring/core/common';
import type { TriggerStatus } from '@tickring/core/jobs';
import {
  describeActiveRuns,
  storedDefinitionOf,
  type WorkflowDefinition,
  type WorkflowRecord,
} from '@tickring/core/workflows';
import { WORKFLOW_COLUMNS, workflowOf } from './rows.js';
import { DAY_S, type WorkflowTables } from './tables.js';

/** Versions of a deleted workflow outlive its runs' retention by this much (as on DynamoDB). */
const VERSION_GRACE_DAYS = 1;
/** How long a missed-deadline claim is kept (the sweep looks only at the last closed window). */
const DEADLINE_MISS_KEPT_DAYS = 7;

/** Workflows and the versions of their definitions: the id sequence, create, read, change, delete. */
export class WorkflowDefinitions {
  constructor(private readonly tables: WorkflowTables) {}

  allocateId(): number {
    const row = this.tables.db
      .prepare(
        `INSERT INTO workflow_ids (name, last_id) VALUES ('workflow', 1)
         ON CONFLICT (name) DO UPDATE SET last_id = last_id + 1
         RETURNING last_id`,
      )
      .get();
    return Number(row?.last_id);
  }

  create(workflow: WorkflowRecord): void {
    const definition = JSON.stringify(workflow.definition);
    this.tables.database.transaction(() => {
      const inserted = this.tables.db
        .prepare(
          `INSERT INTO workflows (${WORKFLOW_COLUMNS}, app_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO NOTHING`,
        )
        .run(
          workflow.id,
          workflow.version,
          definition,
          workflow.triggerStatus,
          workflow.starterJobId ?? null,
          workflow.activeRuns,
          workflow.bufferedRunId ?? null,
          workflow.createdAt,
          workflow.updatedAt,
          workflow.deadlineSetAt ?? null,
          workflow.lastSuccessAt ?? null,
          workflow.definition.appName,
        );
      if (inserted.changes === 0) throw new ConflictError(`workflow ${workflow.id} already exists`);
      this.putVersion(workflow.id, workflow.version, definition, workflow.updatedAt);
    });
  }

  get(id: number): WorkflowRecord | undefined {
    const row = this.tables.db.prepare(`SELECT ${WORKFLOW_COLUMNS} FROM workflows WHERE id = ?`).get(id);
    return row ? workflowOf(row) : undefined;
  }

  getVersion(id: number, version: number): WorkflowDefinition | undefined {
    const row = this.tables.db
      .prepare(
        `SELECT definition FROM workflow_versions
         WHERE workflow_id = ? AND version = ? AND (expires_at IS NULL OR expires_at >= ?)`,
      )
      .get(id, version, this.tables.nowSeconds());
    return row ? storedDefinitionOf(row.definition) : undefined;
  }

  update(next: WorkflowRecord, expectedVersion: number): void {
    const definition = JSON.stringify(next.definition);
    this.tables.database.transaction(() => {
      const current = this.tables.db.prepare('SELECT version FROM workflows WHERE id = ?').get(next.id);
      if (!current) throw new NotFoundError(`workflow ${next.id} does not exist`);
      if (current.version !== expectedVersion) {
        throw new ConflictError(
          `workflow ${next.id} was changed meanwhile (version ${current.version}, not ${expectedVersion}); read it again and retry`,
        );
      }
      // Only the editable fields: the running counts, the last success and the creation time stay the stored ones.
      this.tables.db
        .prepare(
          `UPDATE workflows SET version = ?, definition = ?, app_name = ?, trigger_status = ?,
             starter_job_id = ?, deadline_set_at = ?, updated_at = ?
           WHERE id = ?`,
        )
        .run(
          next.version,
          definition,
          next.definition.appName,
          next.triggerStatus,
          next.starterJobId ?? null,
          next.deadlineSetAt ?? null,
          next.updatedAt,
          next.id,
        );
      this.putVersion(next.id, next.version, definition, next.updatedAt);
    });
  }

  setSchedule(
    id: number,
    triggerStatus: TriggerStatus,
    starterJobId: number | undefined,
    updatedAt: number,
    expectedStarterJobId?: number | null,
  ): void {
    this.tables.database.transaction(() => {
      const current = this.tables.db.prepare('SELECT starter_job_id FROM workflows WHERE id = ?').get(id);
      if (!current) throw new NotFoundError(`workflow ${id} does not exist`);
      if (expectedStarterJobId !== undefined && current.starter_job_id !== expectedStarterJobId) {
        throw new ConflictError(`workflow ${id}'s schedule job changed meanwhile; read it again and retry`);
      }
      this.tables.db
        .prepare('UPDATE workflows SET trigger_status = ?, starter_job_id = ?, updated_at = ? WHERE id = ?')
        .run(triggerStatus, starterJobId ?? null, updatedAt, id);
    });
  }

  /** Deletes the head; its versions stay readable until a day after its runs' retention. */
  delete(id: number): void {
    this.tables.database.transaction(() => {
      const current = this.tables.db
        .prepare('SELECT active_runs, buffered_run_id FROM workflows WHERE id = ?')
        .get(id);
      if (!current) throw new NotFoundError(`workflow ${id} does not exist`);
      const running = Number(current.active_runs);
      const waiting = current.buffered_run_id ?? null;
      if (running !== 0 || waiting !== null) {
        throw new ConflictError(
          `${describeActiveRuns(running, waiting === null ? undefined : String(waiting))}; cancel them first`,
        );
      }
      this.tables.db.prepare('DELETE FROM workflows WHERE id = ?').run(id);
      const expiresAt = this.tables.expiry(this.tables.now()) + VERSION_GRACE_DAYS * DAY_S;
      this.tables.db
        .prepare('UPDATE workflow_versions SET expires_at = ? WHERE workflow_id = ?')
        .run(expiresAt, id);
    });
  }

  /** The first caller's claim of the window ending at `deadlineAt`; claims older than a week go with it. */
  claimDeadlineMiss(id: number, deadlineAt: number): boolean {
    return this.tables.database.transaction(() => {
      this.tables.db
        .prepare('DELETE FROM workflow_deadline_misses WHERE workflow_id = ? AND deadline_at < ?')
        .run(id, deadlineAt - DEADLINE_MISS_KEPT_DAYS * DAY_S * 1000);
      const { changes } = this.tables.db
        .prepare(
          'INSERT INTO workflow_deadline_misses (workflow_id, deadline_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
        )
        .run(id, deadlineAt);
      return changes > 0;
    });
  }

  /** Stores a version (over one a deleted workflow of the same id may have left). */
  private putVersion(id: number, version: number, definition: string, createdAt: number): void {
    this.tables.db
      .prepare(
        `INSERT INTO workflow_versions (workflow_id, version, definition, created_at, expires_at)
         VALUES (?, ?, ?, ?, NULL)
         ON CONFLICT (workflow_id, version) DO UPDATE SET
           definition = excluded.definition, created_at = excluded.created_at, expires_at = NULL`,
      )
      .run(id, version, definition, createdAt);
  }
}
