import { type Clock, systemClock } from '@tickring/core/common';
import type { WorkflowRunRecord } from '@tickring/core/workflows';
import type { EmbeddedDatabase } from '../database.js';
import { ExpirySweep } from '../expiry-sweep.js';

export const DAY_S = 86_400;

export interface SqliteWorkflowStoreOptions {
  readonly database: EmbeddedDatabase;
  /**
   * A run, its results and its shard outcomes expire this many days after it last moved, as the
   * DynamoDB adapter's TTL has them (a QUEUED or RUNNING run is touched by the sweeps, so it does not
   * expire while active). Expired rows are hidden from every read at once and deleted by a sweep
   * the store's writes run at most once a minute.
   */
  readonly retentionDays: number;
  /** What "expired" is measured against, and the expiry of shards and of deleted workflows' versions. */
  readonly clock?: Clock;
}

/**
 * The workflow store's tables, by role:
 * - `workflow_ids`: the id sequence (one row);
 * - `workflows`: each workflow's head (the current definition as JSON text, its schedule and starter
 *   job, the running count and the buffered run, when its deadline was set and its last success),
 *   and `workflow_versions`: every version of every definition, kept while runs may read them (a
 *   deleted workflow's versions get an expiry);
 * - `workflow_runs`: a run's head: the columns lists and conditions read (status, revision, times, the
 *   10 s bucket of `moved_at` while active, NULL once ended) and the rest of the record as JSON
 *   (`head`; each node with a result says so, `hasResult`), its node runs as JSON of their own
 *   (the dispatcher notes them beside the engine's saves);
 * - `workflow_run_results`: one row per node result (a run holds up to 200 of 15,000 characters),
 *   written in the transaction of the save that changes it, deleted with its run (a foreign key);
 * - `workflow_shards`: the first outcome of each broadcast shard of a node's attempt;
 * - `workflow_deadline_misses`: the missed-deadline alarms claimed, one per workflow and window (7 days).
 * `expires_at` is in epoch seconds, the value of the DynamoDB adapter's TTL attribute: a row is
 * visible while it is not before now (DynamoDB's TTL deletes what is before now).
 */
export const WORKFLOW_SCHEMA = `
CREATE TABLE IF NOT EXISTS workflow_ids (
  name TEXT PRIMARY KEY,
  last_id INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS workflows (
  id INTEGER PRIMARY KEY,
  version INTEGER NOT NULL,
  app_name TEXT NOT NULL,
  definition TEXT NOT NULL,
  trigger_status TEXT NOT NULL,
  starter_job_id INTEGER,
  active_runs INTEGER NOT NULL,
  buffered_run_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  deadline_set_at INTEGER,
  last_success_at INTEGER
);
CREATE TABLE IF NOT EXISTS workflow_versions (
  workflow_id INTEGER NOT NULL,
  version INTEGER NOT NULL,
  definition TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  PRIMARY KEY (workflow_id, version)
);
CREATE TABLE IF NOT EXISTS workflow_runs (
  id TEXT PRIMARY KEY,
  workflow_id INTEGER NOT NULL,
  app_name TEXT NOT NULL,
  status TEXT NOT NULL,
  revision INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  moved_at INTEGER NOT NULL,
  stalled_since INTEGER,
  expires_at INTEGER NOT NULL,
  head TEXT NOT NULL,
  node_runs TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS workflow_runs_by_created ON workflow_runs (created_at, id);
CREATE INDEX IF NOT EXISTS workflow_runs_by_workflow ON workflow_runs (workflow_id, created_at, id);
CREATE INDEX IF NOT EXISTS workflow_runs_by_expiry ON workflow_runs (expires_at);
CREATE INDEX IF NOT EXISTS workflow_runs_stalled ON workflow_runs (stalled_since, moved_at, id)
  WHERE stalled_since IS NOT NULL;
CREATE TABLE IF NOT EXISTS workflow_run_results (
  run_id TEXT NOT NULL REFERENCES workflow_runs (id) ON DELETE CASCADE,
  node TEXT NOT NULL,
  result TEXT NOT NULL,
  PRIMARY KEY (run_id, node)
);
CREATE TABLE IF NOT EXISTS workflow_shards (
  run_id TEXT NOT NULL,
  node TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  shard INTEGER NOT NULL,
  ok INTEGER NOT NULL,
  result TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (run_id, node, attempt, shard)
);
CREATE INDEX IF NOT EXISTS workflow_shards_by_expiry ON workflow_shards (expires_at);
CREATE INDEX IF NOT EXISTS workflow_versions_by_expiry ON workflow_versions (expires_at)
  WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS workflow_deadline_misses (
  workflow_id INTEGER NOT NULL,
  deadline_at INTEGER NOT NULL,
  PRIMARY KEY (workflow_id, deadline_at)
);
`;

/** Columns `workflows` gained after files were written without them: added when such a file is opened. */
const ADDED_WORKFLOW_COLUMNS = [
  ['deadline_set_at', 'INTEGER'],
  ['last_success_at', 'INTEGER'],
] as const;

/** The database and settings every role of the workflow store shares. */
export class WorkflowTables {
  readonly database: EmbeddedDatabase;
  readonly retentionDays: number;
  readonly clock: Clock;
  /** Deletes expired runs (their results with them), shard outcomes and versions of deleted workflows. */
  readonly sweep: ExpirySweep;

  constructor(options: SqliteWorkflowStoreOptions) {
    this.database = options.database;
    this.retentionDays = options.retentionDays;
    this.clock = options.clock ?? systemClock;
    this.database.ensureSchema('workflows', WORKFLOW_SCHEMA);
    // A file an earlier version wrote has `workflows` without the columns added since.
    this.database.ensureColumns('workflows', ADDED_WORKFLOW_COLUMNS);
    this.sweep = new ExpirySweep(
      this.database,
      ['workflow_runs', 'workflow_shards', 'workflow_versions'],
      this.clock,
    );
  }

  get db() {
    return this.database.db;
  }

  now(): number {
    return this.clock.now();
  }

  /** Now in epoch seconds: a row is visible while its `expires_at` is not before it. */
  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  /** Epoch seconds, `retentionDays` after `ms`. */
  expiry(ms: number): number {
    return Math.floor(ms / 1000) + this.retentionDays * DAY_S;
  }

  runExpiry(run: Pick<WorkflowRunRecord, 'createdAt' | 'movedAt'>): number {
    return this.expiry(Math.max(run.createdAt, run.movedAt));
  }
}
