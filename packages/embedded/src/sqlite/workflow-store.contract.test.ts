import { parseWorkflow, type WorkflowRunRecord, type WorkflowStore } from '@tickring/core/workflows';
import { FakeClock, workflowStoreContract } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import type { EmbeddedDatabase } from './database.js';
import { tempDatabases } from './temp-databases.js';
import { SqliteWorkflowStore } from './workflows/workflow-store.js';

const databases = tempDatabases('workflow-store');
let pairs = 0;

workflowStoreContract(
  'SQLite',
  () => new SqliteWorkflowStore({ database: databases.fresh(), retentionDays: 7 }),
);

/**
 * Two function instances on one file: each call goes to the other connection in turn, so whatever one
 * writes the other must read, count and condition on (nothing of the store is kept in the process).
 */
workflowStoreContract('SQLite, two connections to one file', () => {
  const file = `pair-${++pairs}.db`;
  const instances = [0, 1].map(
    () => new SqliteWorkflowStore({ database: databases.open(file), retentionDays: 7 }),
  );
  let turn = 0;
  return new Proxy(instances[0]!, {
    get(_first, name) {
      const store = instances[turn++ % instances.length]!;
      const member: unknown = Reflect.get(store, name);
      return typeof member === 'function' ? member.bind(store) : member;
    },
  }) as WorkflowStore;
});

describe('SqliteWorkflowStore expiry (as DynamoDB TTL would remove)', () => {
  const DAY_MS = 86_400_000;
  const T0 = Date.UTC(2024, 4, 1);

  function setup() {
    const clock = new FakeClock(T0);
    const database = databases.fresh();
    const store = new SqliteWorkflowStore({ database, retentionDays: 2, clock });
    return { store, database, advance: (ms: number) => clock.advance(ms) };
  }

  /** Rows stored in each of the store's tables that expire, whether readers see them or not. */
  function rows(database: EmbeddedDatabase) {
    const count = (table: string) =>
      Number(database.db.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n);
    return {
      runs: count('workflow_runs'),
      results: count('workflow_run_results'),
      shards: count('workflow_shards'),
      versions: count('workflow_versions'),
    };
  }

  const definition = parseWorkflow({
    name: 'ttl',
    appName: 'wf-app',
    overlapPolicy: 'ALLOW',
    nodes: [{ key: 'only', jobId: 1, upstream: [] }],
  });

  function run(id: string, workflowId: number): WorkflowRunRecord {
    return {
      id,
      workflowId,
      version: 1,
      appName: 'wf-app',
      workflowName: 'ttl',
      status: 'RUNNING',
      state: {
        status: 'RUNNING',
        input: {},
        nodes: { only: { status: 'SUCCEEDED', attempt: 1, result: 'old' } },
        revision: 1,
        failedNodes: [],
      },
      trigger: { type: 'MANUAL' },
      createdAt: T0,
      startedAt: T0,
      movedAt: T0,
      nodeRuns: {},
      nodeTimes: {},
    };
  }

  async function newWorkflow(store: SqliteWorkflowStore) {
    const id = await store.allocateId();
    await store.create({
      id,
      version: 1,
      definition,
      triggerStatus: 'STOPPED',
      activeRuns: 0,
      createdAt: T0,
      updatedAt: T0,
    });
    return id;
  }

  it('hides a run from every read once its retention after it last moved has passed, and frees its id', async () => {
    const { store, advance } = setup();
    const workflowId = await newWorkflow(store);
    const old = run('wr-ttl-1', workflowId);
    expect(await store.admit(old, { as: 'start', expectNoBuffered: false })).toBe('admitted');
    advance(2 * DAY_MS - 1_000);
    await store.touch(old.id, T0 + DAY_MS); // a sweep looked at it: a day more
    advance(DAY_MS);
    expect(await store.getRun(old.id)).toEqual({ ...old, movedAt: T0 + DAY_MS });

    advance(DAY_MS);
    expect(await store.getRun(old.id)).toBeUndefined();
    expect((await store.listRuns({ limit: 10 })).items).toEqual([]);
    expect(await store.listActive(workflowId)).toEqual([]);
    expect(await store.listStalled(T0 + 10 * DAY_MS, 10)).toEqual([]);
    expect(await store.nodeFireState({ runId: old.id, node: 'only', attempt: 1 })).toEqual({
      awaited: false,
      claimed: false,
    });
    expect(await store.saveRun(old, { ...old, state: { ...old.state, revision: 2 } })).toBe(false);

    // Admitted again under the same id: a new run, none of the old one's results.
    const fresh: WorkflowRunRecord = {
      ...run(old.id, workflowId),
      state: { ...old.state, nodes: { only: { status: 'RUNNING', attempt: 1 } } },
      createdAt: T0 + 4 * DAY_MS,
      movedAt: T0 + 4 * DAY_MS,
    };
    expect(await store.admit(fresh, { as: 'start', expectNoBuffered: false })).toBe('admitted');
    expect(await store.getRun(old.id)).toEqual(fresh);
  });

  it('deletes expired runs with their results, shard outcomes, and a deleted workflow’s versions, by a sweep of its writes', async () => {
    const { store, database, advance } = setup();
    const workflowId = await newWorkflow(store);
    const link = { runId: 'wr-ttl-2', node: 'only', attempt: 1 };
    await store.admit(run(link.runId, workflowId), { as: 'start', expectNoBuffered: false });
    await store.recordShard(link, { index: 0, ok: true, result: 'x' });
    const deleted = await newWorkflow(store);
    await store.delete(deleted);
    expect(rows(database)).toEqual({ runs: 1, results: 1, shards: 1, versions: 2 });

    // Past the retention: the next write sweeps the run (its result with it); the shard recorded
    // again is a new first record. A deleted workflow's versions outlive the runs' retention by a day.
    advance(2 * DAY_MS + 1_000);
    expect(await store.recordShard(link, { index: 0, ok: false, result: 'y' })).toEqual([
      { index: 0, ok: false, result: 'y' },
    ]);
    expect(rows(database)).toEqual({ runs: 0, results: 0, shards: 1, versions: 2 });
    expect(await store.getVersion(deleted, 1)).toEqual(definition);

    advance(DAY_MS);
    expect(await store.getVersion(deleted, 1)).toBeUndefined();
    await store.recordShard({ ...link, attempt: 2 }, { index: 0, ok: true, result: 'z' });
    expect(rows(database)).toEqual({ runs: 0, results: 0, shards: 2, versions: 1 });
    expect(await store.getVersion(workflowId, 1)).toEqual(definition);
  });
});

describe('SqliteWorkflowStore on a file written before the deadline columns', () => {
  it('adds them when the file is opened, keeping its workflows, and stores both from then on', async () => {
    const file = 'before-deadlines.db';
    const old = databases.open(file);
    // The head table as it was first released, with a workflow in it.
    old.db.exec(`CREATE TABLE workflows (
      id INTEGER PRIMARY KEY, version INTEGER NOT NULL, app_name TEXT NOT NULL, definition TEXT NOT NULL,
      trigger_status TEXT NOT NULL, starter_job_id INTEGER, active_runs INTEGER NOT NULL,
      buffered_run_id TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)`);
    const definition = parseWorkflow({ name: 'old', appName: 'wf-app', nodes: [{ key: 'a', jobId: 1 }] });
    old.db
      .prepare(
        `INSERT INTO workflows (id, version, app_name, definition, trigger_status, active_runs, created_at, updated_at)
         VALUES (1, 1, 'wf-app', ?, 'STOPPED', 0, 5, 6)`,
      )
      .run(JSON.stringify(definition));

    const stores = [0, 1].map(
      () => new SqliteWorkflowStore({ database: databases.open(file), retentionDays: 7 }),
    );
    const store = stores[0]!;
    expect(await store.get(1)).toEqual({
      id: 1,
      version: 1,
      definition,
      triggerStatus: 'STOPPED',
      activeRuns: 0,
      createdAt: 5,
      updatedAt: 6,
    });
    await store.update({ ...(await store.get(1))!, version: 2, deadlineSetAt: 7, updatedAt: 7 }, 1);
    expect(await stores[1]!.get(1)).toMatchObject({ version: 2, deadlineSetAt: 7 });
  });
});
