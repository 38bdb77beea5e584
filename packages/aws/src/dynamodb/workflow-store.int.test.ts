import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError, PermanentError, ValidationError } from '@tickring/core/common';
import type { StoredRunStatus, WorkflowRecord, WorkflowRunRecord } from '@tickring/core/workflows';
import {
  type NodeState,
  parseWorkflow,
  type WorkflowDefinition,
  type WorkflowRunState,
} from '@tickring/core/workflows';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';
import { DynamoWorkflowStore } from './workflows/workflow-store.js';

const T0 = Date.now();

function definition(
  appName: string,
  keys: readonly string[] = ['extract', 'load'],
  name = 'nightly etl',
): WorkflowDefinition {
  return parseWorkflow({
    name,
    appName,
    overlapPolicy: 'BUFFER_ONE',
    nodes: keys.map((key, i) => ({
      key,
      jobId: i + 1,
      upstream: i === 0 ? [] : [{ key: keys[0] }],
      ...(i === 1 ? { executorParam: `{{ nodes.${keys[0]}.result }}` } : {}),
    })),
  });
}

function workflowRecord(id: number, appName = 'wf-app', keys?: readonly string[]): WorkflowRecord {
  return {
    id,
    version: 1,
    definition: definition(appName, keys),
    triggerStatus: 'STOPPED',
    activeRuns: 0,
    createdAt: T0,
    updatedAt: T0,
  };
}

function runningState(keys: readonly string[], revision = 1): WorkflowRunState {
  const nodes: Record<string, NodeState> = {};
  for (const [i, key] of keys.entries()) {
    nodes[key] = i === 0 ? { status: 'RUNNING', attempt: 1 } : { status: 'PENDING', attempt: 0 };
  }
  return {
    status: 'RUNNING',
    input: { day: '2024-05-01', deep: { list: [1, 'two', null] } },
    nodes,
    revision,
    failedNodes: [],
  };
}

/** A run of `wf` as the engine admits it: RUNNING with its roots fired, or QUEUED with no nodes. */
function runRecord(
  wf: WorkflowRecord,
  id: string,
  fields: Partial<WorkflowRunRecord> & { readonly createdAt?: number } = {},
): WorkflowRunRecord {
  const createdAt = fields.createdAt ?? T0;
  const queued = fields.status === 'QUEUED';
  const keys = wf.definition.nodes.map((n) => n.key);
  return {
    id,
    workflowId: wf.id,
    version: wf.version,
    appName: wf.definition.appName,
    workflowName: wf.definition.name,
    status: 'RUNNING',
    state: queued
      ? { status: 'RUNNING', input: { day: '2024-05-01' }, nodes: {}, revision: 0, failedNodes: [] }
      : runningState(keys),
    trigger: { type: 'MANUAL', by: 'alice' },
    createdAt,
    ...(queued ? {} : { startedAt: createdAt }),
    movedAt: createdAt,
    nodeRuns: {},
    nodeTimes: queued ? {} : { [keys[0]!]: { firedAt: createdAt } },
    ...fields,
  };
}

/** The run with node `key` finished SUCCEEDED with `result` (a new revision). */
function finished(
  run: WorkflowRunRecord,
  key: string,
  result: string,
  at = run.movedAt + 1,
): WorkflowRunRecord {
  return {
    ...run,
    state: {
      ...run.state,
      nodes: { ...run.state.nodes, [key]: { status: 'SUCCEEDED', attempt: 1, result } },
      revision: run.state.revision + 1,
    },
    movedAt: at,
    nodeTimes: { ...run.nodeTimes, [key]: { ...run.nodeTimes[key], finishedAt: at } },
  };
}

/** The run ended with `status` (every node's state left as it is). */
function ended(run: WorkflowRunRecord, status: 'SUCCEEDED' | 'FAILED' | 'CANCELLED', at = run.movedAt + 1) {
  return {
    ...run,
    status,
    state: { ...run.state, status, revision: run.state.revision + 1 },
    finishedAt: at,
    movedAt: at,
  } satisfies WorkflowRunRecord;
}

describe('DynamoWorkflowStore (DynamoDB Local)', () => {
  let env: TestResources;
  let store: DynamoWorkflowStore;
  let nextId = 100;

  beforeAll(async () => {
    env = await isolatedResources('workflows');
    store = new DynamoWorkflowStore({
      doc: env.clients.doc,
      workflowsTable: env.resources.tables.workflows,
      retentionDays: 7,
    });
  });
  afterAll(() => env?.close());

  async function newWorkflow(appName = 'wf-app', keys?: readonly string[]): Promise<WorkflowRecord> {
    const wf = workflowRecord(nextId++, appName, keys);
    await store.create(wf);
    return wf;
  }

  async function rawItem(pk: string, sk: string) {
    const { Item } = await env.clients.doc.send(
      new GetCommand({ TableName: env.resources.tables.workflows, Key: { pk, sk }, ConsistentRead: true }),
    );
    return Item;
  }

  it('allocates ids 1, 2, 3, ...', async () => {
    expect([await store.allocateId(), await store.allocateId(), await store.allocateId()]).toEqual([1, 2, 3]);
  });

  it('creates a workflow once, reads it back exactly, and keeps every version of its definition', async () => {
    const wf = {
      ...workflowRecord(nextId++),
      triggerStatus: 'RUNNING',
      starterJobId: 42,
    } satisfies WorkflowRecord;
    await store.create(wf);
    await expect(store.create(wf)).rejects.toBeInstanceOf(ConflictError);

    const read = await store.get(wf.id);
    expect(read).toEqual(wf);
    expect(Object.isFrozen(read?.definition.nodes[0])).toBe(true);
    expect(await store.getVersion(wf.id, 1)).toEqual(wf.definition);

    const v2 = {
      ...wf,
      version: 2,
      definition: definition('wf-app-2', ['a', 'b', 'c'], 'renamed'),
      triggerStatus: 'STOPPED',
      starterJobId: undefined,
      updatedAt: T0 + 5,
    } satisfies WorkflowRecord;
    await store.update(v2, 1);
    const { starterJobId: _gone, ...v2Stored } = v2;
    expect(await store.get(wf.id)).toEqual(v2Stored);
    expect(await store.getVersion(wf.id, 1)).toEqual(wf.definition);
    expect(await store.getVersion(wf.id, 2)).toEqual(v2.definition);
    expect(await store.getVersion(wf.id, 3)).toBeUndefined();

    // A stale version: refused, nothing changed.
    const stale = { ...v2, version: 2, definition: definition('wf-app', ['z']) };
    await expect(store.update(stale, 1)).rejects.toBeInstanceOf(ConflictError);
    expect((await store.get(wf.id))?.definition).toEqual(v2.definition);
    await expect(store.update({ ...workflowRecord(99_999), version: 2 }, 1)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await store.get(99_999)).toBeUndefined();

    // The head keeps no list keys in the record.
    const raw = await rawItem(`W#${wf.id}`, 'head');
    expect(raw).toMatchObject({ listPk: 'workflow', wfId: wf.id, appName: 'wf-app-2' });
  });

  it('keeps the running counts through an update, and sets the schedule without a new version', async () => {
    const wf = await newWorkflow();
    expect(await store.admit(runRecord(wf, 'wr-upd-1'), { as: 'start', expectNoBuffered: false })).toBe(
      'admitted',
    );
    await store.update({ ...wf, version: 2, updatedAt: T0 + 1 }, 1);
    expect((await store.get(wf.id))?.activeRuns).toBe(1);

    await store.setSchedule(wf.id, 'RUNNING', 7, T0 + 2);
    expect(await store.get(wf.id)).toMatchObject({
      version: 2,
      triggerStatus: 'RUNNING',
      starterJobId: 7,
      updatedAt: T0 + 2,
    });
    await store.setSchedule(wf.id, 'STOPPED', undefined, T0 + 3);
    const read = await store.get(wf.id);
    expect(read).toMatchObject({ triggerStatus: 'STOPPED', updatedAt: T0 + 3 });
    expect(read).not.toHaveProperty('starterJobId');
    await expect(store.setSchedule(99_998, 'RUNNING', 1, T0)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refuses to delete a workflow while a run is running or waiting, and keeps its versions readable after', async () => {
    const wf = await newWorkflow();
    const run = runRecord(wf, 'wr-del-1');
    await store.admit(run, { as: 'start', expectActiveRuns: 0, expectNoBuffered: true });
    const queued = runRecord(wf, 'wr-del-2', { status: 'QUEUED' });
    await store.admit(queued, { as: 'buffer', expectActiveRuns: 1, expectNoBuffered: true });

    await expect(store.delete(wf.id)).rejects.toThrow(/1 run of the workflow is running and one is waiting/);
    const done = ended(run, 'SUCCEEDED');
    expect(await store.saveRun(run, done)).toBe(true);
    await expect(store.delete(wf.id)).rejects.toThrow(ConflictError);
    await expect(store.delete(wf.id)).rejects.toThrow(/waiting \(wr-del-2\)/);
    expect(await store.saveRun(queued, ended(queued, 'CANCELLED'))).toBe(true);

    await store.delete(wf.id);
    expect(await store.get(wf.id)).toBeUndefined();
    expect(await store.getVersion(wf.id, 1)).toEqual(wf.definition);
    expect((await rawItem(`W#${wf.id}`, 'v#0000000001'))?.expiresAt).toBeGreaterThan(T0 / 1000 + 7 * 86_400);
    expect(await store.getRun(run.id)).toEqual(done);
    await expect(store.delete(wf.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('admits a run to start or to wait, once, against the counts the decision was made on', async () => {
    const wf = await newWorkflow();
    const first = runRecord(wf, 'wr-adm-1');
    expect(await store.admit(first, { as: 'start', expectActiveRuns: 0, expectNoBuffered: true })).toBe(
      'admitted',
    );
    expect(await store.getRun(first.id)).toEqual(first);
    expect((await store.get(wf.id))?.activeRuns).toBe(1);

    // The same id again (a repeated scheduled start): nothing written.
    const again = { ...first, workflowName: 'another' };
    expect(await store.admit(again, { as: 'start', expectNoBuffered: false })).toBe('exists');
    expect((await store.getRun(first.id))?.workflowName).toBe(first.workflowName);
    expect((await store.get(wf.id))?.activeRuns).toBe(1);

    // Decided on a count that has changed: nothing written.
    const late = runRecord(wf, 'wr-adm-2');
    expect(await store.admit(late, { as: 'start', expectActiveRuns: 0, expectNoBuffered: true })).toBe(
      'conflict',
    );
    expect(await store.getRun(late.id)).toBeUndefined();

    const queued = runRecord(wf, 'wr-adm-3', { status: 'QUEUED' });
    expect(await store.admit(queued, { as: 'buffer', expectActiveRuns: 1, expectNoBuffered: true })).toBe(
      'admitted',
    );
    expect(await store.get(wf.id)).toMatchObject({ activeRuns: 1, bufferedRunId: queued.id });

    // One waits at most; a start decided with none waiting conflicts too.
    const second = runRecord(wf, 'wr-adm-4', { status: 'QUEUED' });
    expect(await store.admit(second, { as: 'buffer', expectActiveRuns: 1, expectNoBuffered: true })).toBe(
      'conflict',
    );
    expect(await store.admit(second, { as: 'buffer', expectNoBuffered: false })).toBe('conflict');
    expect(await store.admit(late, { as: 'start', expectActiveRuns: 1, expectNoBuffered: true })).toBe(
      'conflict',
    );
    // ALLOW: whatever the counts.
    expect(await store.admit(late, { as: 'start', expectNoBuffered: false })).toBe('admitted');
    expect(await store.get(wf.id)).toMatchObject({ activeRuns: 2, bufferedRunId: queued.id });
    expect(await store.getRun(second.id)).toBeUndefined();

    // A workflow that is gone.
    const orphan = runRecord({ ...wf, id: 99_997 }, 'wr-adm-5');
    expect(await store.admit(orphan, { as: 'start', expectNoBuffered: false })).toBe('conflict');
    expect(await store.getRun(orphan.id)).toBeUndefined();
  });

  it('saves a run only over the revision (and status) it read', async () => {
    const wf = await newWorkflow();
    const run = runRecord(wf, 'wr-rev-1');
    await store.admit(run, { as: 'start', expectNoBuffered: false });
    const next = finished(run, 'extract', 'rows=10');
    expect(await store.saveRun(run, next)).toBe(true);
    // Another writer's view, read before that save: refused, nothing changed.
    expect(await store.saveRun(run, finished(run, 'extract', 'rows=99'))).toBe(false);
    expect(await store.saveRun(run, ended(run, 'CANCELLED'))).toBe(false);
    expect(await store.getRun(run.id)).toEqual(next);
    expect((await store.get(wf.id))?.activeRuns).toBe(1);
    // The status is part of the condition as well.
    expect(await store.saveRun({ ...next, status: 'QUEUED' }, ended(next, 'CANCELLED'))).toBe(false);
    expect(await store.saveRun(next, ended(next, 'SUCCEEDED'))).toBe(true);
    expect((await store.getRun(run.id))?.status).toBe('SUCCEEDED');
  });

  it('stores node results beside the run and attaches them on read; a reset node loses its result', async () => {
    const wf = await newWorkflow();
    const run = runRecord(wf, 'wr-res-1');
    await store.admit(run, { as: 'start', expectNoBuffered: false });
    const next = finished(run, 'extract', '{"rows": 10, "note": "naïve ✓"}');
    expect(await store.saveRun(run, next)).toBe(true);
    expect(await store.getRun(run.id)).toEqual(next);

    const head = await rawItem(`R#${run.id}`, 'head');
    expect(JSON.stringify(head)).not.toContain('naïve');
    expect(head?.nodes.extract).toEqual({ status: 'SUCCEEDED', attempt: 1, hasResult: true });
    expect((await rawItem(`R#${run.id}`, 'result#extract'))?.result).toBe(next.state.nodes.extract?.result);

    // A retry resets the node: no result any more, though its old item is still stored.
    const reset = {
      ...next,
      state: {
        ...next.state,
        nodes: { ...next.state.nodes, extract: { status: 'PENDING', attempt: 1 } },
        revision: 3,
      },
    } satisfies WorkflowRunRecord;
    expect(await store.saveRun(next, reset)).toBe(true);
    expect((await store.getRun(run.id))?.state.nodes.extract).toEqual({ status: 'PENDING', attempt: 1 });
    // Its next result replaces the old one.
    const again = finished(reset, 'extract', 'rows=11');
    expect(await store.saveRun(reset, again)).toBe(true);
    expect((await store.getRun(run.id))?.state.nodes.extract?.result).toBe('rows=11');
  });

  it('round-trips a run of 200 nodes with a 15,000-character result each', async () => {
    const keys = Array.from(
      { length: 200 },
      (_, i) => `node_${String(i).padStart(3, '0')}-${'k'.repeat(50)}`,
    );
    const wf = workflowRecord(nextId++, 'wf-big', ['root']);
    await store.create(wf);
    const nodes: Record<string, NodeState> = Object.fromEntries(
      keys.map((k) => [k, { status: 'RUNNING', attempt: 1 } satisfies NodeState]),
    );
    let run: WorkflowRunRecord = {
      ...runRecord(wf, 'wr-big-1'),
      state: { ...runningState([]), nodes },
      nodeTimes: Object.fromEntries(keys.map((k) => [k, { firedAt: T0 }])),
    };
    expect(await store.admit(run, { as: 'start', expectNoBuffered: false })).toBe('admitted');
    // 50 results a save (the engine saves one per outcome; a transaction holds up to 100 items).
    for (let from = 0; from < keys.length; from += 50) {
      const results: Record<string, NodeState> = {};
      for (const [i, k] of keys.slice(from, from + 50).entries()) {
        results[k] = { status: 'SUCCEEDED', attempt: 1, result: `${from + i}:`.padEnd(15_000, 'ü') };
      }
      const next: WorkflowRunRecord = {
        ...run,
        state: { ...run.state, nodes: { ...run.state.nodes, ...results }, revision: run.state.revision + 1 },
        movedAt: run.movedAt + 1,
        // The first save also records every node's runs: 200 paths in one update expression.
        ...(from === 0
          ? { nodeRuns: Object.fromEntries(keys.map((k, i) => [k, { attempt: 1, logIds: [2 ** 40 + i] }])) }
          : {}),
      };
      expect(await store.saveRun(run, next)).toBe(true);
      run = next;
    }
    const read = await store.getRun(run.id);
    expect(read).toEqual(run);
    expect(read?.state.nodes[keys[199]!]?.result).toHaveLength(15_000);
    const head = await rawItem(`R#${run.id}`, 'head');
    expect(JSON.stringify(head).length).toBeLessThan(100_000);
  });

  it('keeps the running count and the buffered run with the status changes', async () => {
    const wf = await newWorkflow();
    const running = runRecord(wf, 'wr-cnt-1');
    await store.admit(running, { as: 'start', expectActiveRuns: 0, expectNoBuffered: true });
    const queued = runRecord(wf, 'wr-cnt-2', { status: 'QUEUED', createdAt: T0 + 1 });
    await store.admit(queued, { as: 'buffer', expectActiveRuns: 1, expectNoBuffered: true });
    expect(await store.get(wf.id)).toMatchObject({ activeRuns: 1, bufferedRunId: queued.id });

    // RUNNING → SUCCEEDED: one running less.
    expect(await store.saveRun(running, ended(running, 'SUCCEEDED'))).toBe(true);
    let head = await store.get(wf.id);
    expect(head).toMatchObject({ activeRuns: 0, bufferedRunId: queued.id });

    // QUEUED → RUNNING: the buffered run becomes a running one.
    const started: WorkflowRunRecord = {
      ...queued,
      status: 'RUNNING',
      state: runningState(wf.definition.nodes.map((n) => n.key)),
      startedAt: T0 + 5,
      movedAt: T0 + 5,
    };
    expect(await store.saveRun(queued, started)).toBe(true);
    head = await store.get(wf.id);
    expect(head?.activeRuns).toBe(1);
    expect(head).not.toHaveProperty('bufferedRunId');

    // RUNNING → FAILED, then a retry (FAILED → RUNNING) counts it again.
    const failed = ended(started, 'FAILED');
    expect(await store.saveRun(started, failed)).toBe(true);
    expect((await store.get(wf.id))?.activeRuns).toBe(0);
    const { finishedAt: _f, ...unfinished } = failed;
    const retried: WorkflowRunRecord = {
      ...unfinished,
      status: 'RUNNING',
      state: { ...failed.state, status: 'RUNNING', revision: failed.state.revision + 1 },
      movedAt: failed.movedAt + 1,
    };
    expect(await store.saveRun(failed, retried)).toBe(true);
    expect((await store.get(wf.id))?.activeRuns).toBe(1);
    expect(await store.getRun(retried.id)).toEqual(retried); // finishedAt removed
    expect(await store.saveRun(retried, ended(retried, 'SUCCEEDED'))).toBe(true);

    // QUEUED → CANCELLED frees the buffer and runs nothing.
    const waiting = runRecord(wf, 'wr-cnt-3', { status: 'QUEUED', createdAt: T0 + 9 });
    expect(await store.admit(waiting, { as: 'buffer', expectNoBuffered: true })).toBe('admitted');
    expect(await store.saveRun(waiting, ended(waiting, 'CANCELLED'))).toBe(true);
    head = await store.get(wf.id);
    expect(head?.activeRuns).toBe(0);
    expect(head).not.toHaveProperty('bufferedRunId');

    // Same status: the workflow is not written.
    const other = await newWorkflow();
    const lone = runRecord(other, 'wr-cnt-4');
    await store.admit(lone, { as: 'start', expectNoBuffered: false });
    const before = await store.get(other.id);
    expect(await store.saveRun(lone, finished(lone, 'extract', 'ok'))).toBe(true);
    expect(await store.get(other.id)).toEqual(before);

    // A count that does not match the runs (a bug) is refused loudly, never taken below 0.
    await env.clients.doc.send(
      new UpdateCommand({
        TableName: env.resources.tables.workflows,
        Key: { pk: `W#${other.id}`, sk: 'head' },
        UpdateExpression: 'SET activeRuns = :zero',
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
    const read = (await store.getRun(lone.id))!;
    await expect(store.saveRun(read, ended(read, 'FAILED'))).rejects.toBeInstanceOf(PermanentError);
    expect((await store.getRun(lone.id))?.status).toBe('RUNNING');
    expect((await store.get(other.id))?.activeRuns).toBe(0);
  });

  it("lists a workflow's active runs and the stalled runs, and drops them once they end", async () => {
    const wf = await newWorkflow();
    // The stalled index files runs by the 10 s they last moved in: times here are on those bounds.
    const B = Math.floor(T0 / 10_000) * 10_000;
    const old = runRecord(wf, 'wr-act-1', { createdAt: B - 60_000 });
    const recent = runRecord(wf, 'wr-act-2', { createdAt: B - 30_000 });
    const queued = runRecord(wf, 'wr-act-3', { status: 'QUEUED', createdAt: B - 20_000 });
    await store.admit(recent, { as: 'start', expectNoBuffered: false });
    await store.admit(old, { as: 'start', expectNoBuffered: false });
    await store.admit(queued, { as: 'buffer', expectNoBuffered: true });

    expect(await store.listActive(wf.id)).toEqual([
      { id: old.id, status: 'RUNNING' },
      { id: recent.id, status: 'RUNNING' },
      { id: queued.id, status: 'QUEUED' },
    ]);
    const stalled = await store.listStalled(B, 100);
    expect(stalled.filter((id) => id.startsWith('wr-act-'))).toEqual([old.id, recent.id, queued.id]);
    expect(await store.listStalled(B - 40_000, 100)).toContain(old.id);
    expect(await store.listStalled(B - 40_000, 100)).not.toContain(recent.id);
    expect(await store.listStalled(B, 1)).toHaveLength(1);

    // A touch moves a run out of the stalled ones (it keeps the revision).
    await store.touch(old.id, B + 1_000);
    expect(await store.listStalled(B, 100)).not.toContain(old.id);
    expect(await store.getRun(old.id)).toEqual({ ...old, movedAt: B + 1_000 });
    await store.touch('wr-nobody', B); // a run that is gone: nothing

    expect(await store.saveRun(recent, ended(recent, 'SUCCEEDED'))).toBe(true);
    expect(await store.saveRun(queued, ended(queued, 'CANCELLED'))).toBe(true);
    expect(await store.listActive(wf.id)).toEqual([{ id: old.id, status: 'RUNNING' }]);
    expect(await store.listStalled(B + 20_000, 100)).toEqual(expect.arrayContaining([old.id]));
    expect(await store.listStalled(B + 20_000, 100)).not.toContain(recent.id);
    expect(await store.listStalled(B + 20_000, 100)).not.toContain(queued.id);
    const raw = await rawItem(`R#${recent.id}`, 'head');
    expect(raw).not.toHaveProperty('activeWorkflowId');
    expect(raw).not.toHaveProperty('activeList');
  });

  it('notes the job runs of a node, keeping the later attempt, and no save undoes a note', async () => {
    const wf = await newWorkflow('wf-app', ['status', 'load']); // a node key that is a reserved word
    const run = runRecord(wf, 'wr-note-1');
    await store.admit(run, { as: 'start', expectNoBuffered: false });
    const link = { runId: run.id, node: 'status' };
    await store.noteNodeRuns({ ...link, attempt: 2 }, [11, 12]);
    await store.noteNodeRuns({ ...link, attempt: 1 }, [5]);
    expect((await store.getRun(run.id))?.nodeRuns).toEqual({ status: { attempt: 2, logIds: [11, 12] } });
    await store.noteNodeRuns({ ...link, attempt: 2 }, [13]); // the same attempt's latest retry
    expect((await store.getRun(run.id))?.nodeRuns.status).toEqual({ attempt: 2, logIds: [13] });
    await store.noteNodeRuns({ ...link, attempt: 3 }, [2 ** 52 + 7]);
    expect((await store.getRun(run.id))?.nodeRuns.status).toEqual({ attempt: 3, logIds: [2 ** 52 + 7] });
    await store.noteNodeRuns({ runId: 'wr-nobody', node: 'a', attempt: 1 }, [1]);
    expect(await store.getRun('wr-nobody')).toBeUndefined();

    // The engine saves from a record read before the note: the note stays.
    const next = finished(run, 'status', 'done');
    expect(await store.saveRun(run, next)).toBe(true);
    expect((await store.getRun(run.id))?.nodeRuns).toEqual({ status: { attempt: 3, logIds: [2 ** 52 + 7] } });
    // A save that changes a node's runs writes that node's only.
    const read = (await store.getRun(run.id))!;
    const moved = {
      ...finished(read, 'load', 'x'),
      nodeRuns: { ...read.nodeRuns, load: { attempt: 1, logIds: [99] } },
    };
    await store.noteNodeRuns({ runId: run.id, node: 'status', attempt: 4 }, [21]);
    expect(await store.saveRun(read, moved)).toBe(true);
    expect((await store.getRun(run.id))?.nodeRuns).toEqual({
      status: { attempt: 4, logIds: [21] },
      load: { attempt: 1, logIds: [99] },
    });
  });

  it("answers whether a node's attempt is still awaited, and whether runs were claimed for it", async () => {
    const wf = await newWorkflow();
    const run = runRecord(wf, 'wr-await-1');
    await store.admit(run, { as: 'start', expectNoBuffered: false });
    const state = (node: string, attempt: number, runId = run.id) =>
      store.nodeFireState({ runId, node, attempt });
    expect(await state('extract', 1)).toEqual({ awaited: true, claimed: false });
    expect(await state('extract', 2)).toEqual({ awaited: false, claimed: false });
    expect(await state('load', 1)).toEqual({ awaited: false, claimed: false });
    expect(await state('nope', 1)).toEqual({ awaited: false, claimed: false });
    expect(await state('extract', 1, 'wr-nobody')).toEqual({ awaited: false, claimed: false });
    await store.noteNodeRuns({ runId: run.id, node: 'extract', attempt: 1 }, [41, 42]);
    expect(await state('extract', 1)).toEqual({ awaited: true, claimed: true });
    // A broadcast shard's retry replaces that shard's run only, and only in the attempt recorded.
    await store.noteNodeRuns({ runId: run.id, node: 'extract', attempt: 1 }, [52], 1);
    await store.noteNodeRuns({ runId: run.id, node: 'extract', attempt: 2 }, [99], 0);
    expect((await store.getRun(run.id))?.nodeRuns.extract).toEqual({ attempt: 1, logIds: [41, 52] });
    expect(await store.saveRun(run, ended(run, 'CANCELLED'))).toBe(true);
    expect(await state('extract', 1)).toEqual({ awaited: false, claimed: true });
  });

  it("records each shard's first outcome and answers all of the node's attempt", async () => {
    const link = { runId: 'wr-shard-1', node: 'fan', attempt: 1 };
    expect(await store.recordShard(link, { index: 1, ok: true, result: 'one' })).toEqual([
      { index: 1, ok: true, result: 'one' },
    ]);
    expect(await store.recordShard(link, { index: 1, ok: false, result: 'again' })).toEqual([
      { index: 1, ok: true, result: 'one' },
    ]);
    await store.recordShard({ ...link, attempt: 10 }, { index: 0, ok: true, result: 'other attempt' });
    await store.recordShard({ ...link, node: 'fan-out' }, { index: 0, ok: true, result: 'other node' });
    expect(await store.recordShard(link, { index: 10, ok: false, result: 'ten' })).toEqual([
      { index: 1, ok: true, result: 'one' },
      { index: 10, ok: false, result: 'ten' },
    ]);
    expect(await store.recordShard(link, { index: 0, ok: true, result: '' })).toEqual([
      { index: 0, ok: true, result: '' },
      { index: 1, ok: true, result: 'one' },
      { index: 10, ok: false, result: 'ten' },
    ]);
  });
});

describe('DynamoWorkflowStore lists (DynamoDB Local)', () => {
  let env: TestResources;
  let store: DynamoWorkflowStore;
  const workflows: WorkflowRecord[] = [];
  const runs: WorkflowRunRecord[] = [];

  beforeAll(async () => {
    env = await isolatedResources('workflow-lists');
    store = new DynamoWorkflowStore({
      doc: env.clients.doc,
      workflowsTable: env.resources.tables.workflows,
      retentionDays: 7,
    });
    for (let id = 1; id <= 7; id++) {
      const wf = workflowRecord(id, id % 3 === 0 ? 'group-b' : 'group-a');
      await store.create(wf);
      workflows.push(wf);
    }
    // More than one round of index entries (a filtered list reads 50 a round), group-b now and then.
    const more = Array.from({ length: 60 }, (_, i) =>
      workflowRecord(8 + i, i % 20 === 19 ? 'group-b' : 'group-c'),
    );
    await Promise.all(more.map((wf) => store.create(wf)));
    workflows.push(...more);
    // 12 runs of workflows 1 (group-a) and 3 (group-b), one every second, in mixed statuses.
    const statuses: StoredRunStatus[] = ['SUCCEEDED', 'FAILED', 'RUNNING', 'SUCCEEDED'];
    for (let i = 0; i < 12; i++) {
      const wf = workflows[i % 2 === 0 ? 0 : 2]!;
      const status = statuses[i % statuses.length]!;
      const run = runRecord(wf, `wr-list-${String(i).padStart(2, '0')}`, { createdAt: T0 + i * 1000 });
      await store.admit(run, { as: 'start', expectNoBuffered: false });
      const stored = status === 'RUNNING' ? run : ended(run, status as 'SUCCEEDED' | 'FAILED');
      if (stored !== run) expect(await store.saveRun(run, stored)).toBe(true);
      runs.push(stored);
    }
  });
  afterAll(() => env?.close());

  async function allWorkflows(query: { appNames?: string[]; limit: number }): Promise<number[]> {
    const ids: number[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 200; pages++) {
      const page = await store.list({ ...query, cursor });
      expect(page.items.length).toBeLessThanOrEqual(query.limit);
      ids.push(...page.items.map((w) => w.id));
      cursor = page.nextCursor;
      if (!cursor) return ids;
    }
    throw new Error('too many pages');
  }

  async function allRuns(query: Parameters<DynamoWorkflowStore['listRuns']>[0]): Promise<string[]> {
    const ids: string[] = [];
    let cursor = query.cursor;
    for (let pages = 0; pages < 200; pages++) {
      const page = await store.listRuns({ ...query, cursor });
      expect(page.items.length).toBeLessThanOrEqual(query.limit);
      ids.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
      if (!cursor) return ids;
    }
    throw new Error('too many pages');
  }

  it('lists workflows by id, each once at any page size, filtered by group', async () => {
    const idsOf = (apps?: string[]) =>
      workflows.filter((w) => !apps || apps.includes(w.definition.appName)).map((w) => w.id);
    for (const limit of [1, 2, 5, 100]) {
      // (Unfiltered at limit 1 would be 67 pages of the same reads as limit 2.)
      if (limit > 1) expect(await allWorkflows({ limit }), `limit ${limit}`).toEqual(idsOf());
      expect(await allWorkflows({ appNames: ['group-b'], limit }), `limit ${limit}`).toEqual(
        idsOf(['group-b']),
      );
      expect(await allWorkflows({ appNames: ['group-a', 'group-b'], limit }), `limit ${limit}`).toEqual(
        idsOf(['group-a', 'group-b']),
      );
    }
    expect(await allWorkflows({ appNames: [], limit: 5 })).toEqual([]);
    expect(await allWorkflows({ appNames: ['nobody'], limit: 5 })).toEqual([]);
    // The records as stored (their running counts), without the list's keys.
    const stored = workflows.map((w) => ({
      ...w,
      activeRuns: runs.filter((r) => r.workflowId === w.id && r.status === 'RUNNING').length,
    }));
    expect(stored[0]?.activeRuns).toBe(3);
    expect((await store.list({ limit: 100 })).items).toEqual(stored);
    expect(stored.filter((w) => w.definition.appName === 'group-b')).toHaveLength(5);
    const first = await store.list({ appNames: ['group-b'], limit: 1 });
    expect(first.items).toEqual([stored[2]]);
    expect(first.nextCursor).toBeDefined();
  });

  it('lists runs newest first: of a workflow, of all, by status and group, page by page', async () => {
    const newestFirst = (keep: (r: WorkflowRunRecord) => boolean) =>
      runs
        .filter(keep)
        .sort((a, b) => b.createdAt - a.createdAt)
        .map((r) => r.id);
    for (const limit of [1, 3, 100]) {
      expect(await allRuns({ limit }), `limit ${limit}`).toEqual(newestFirst(() => true));
      expect(await allRuns({ workflowId: 1, limit }), `limit ${limit}`).toEqual(
        newestFirst((r) => r.workflowId === 1),
      );
      expect(await allRuns({ status: 'FAILED', limit }), `limit ${limit}`).toEqual(
        newestFirst((r) => r.status === 'FAILED'),
      );
      expect(await allRuns({ workflowId: 3, status: 'SUCCEEDED', limit })).toEqual(
        newestFirst((r) => r.workflowId === 3 && r.status === 'SUCCEEDED'),
      );
      expect(await allRuns({ appNames: ['group-b'], limit })).toEqual(
        newestFirst((r) => r.appName === 'group-b'),
      );
    }
    expect(await allRuns({ workflowId: 2, limit: 5 })).toEqual([]);
    expect(await allRuns({ appNames: [], limit: 5 })).toEqual([]);

    // The records as stored (a list carries no node results; these have none).
    const page = await store.listRuns({ workflowId: 1, limit: 2 });
    expect(page.items).toEqual(
      runs
        .filter((r) => r.workflowId === 1)
        .slice(-2)
        .reverse(),
    );
    // A cursor continues where the page ended, and fits only its own query.
    const rest = await allRuns({ workflowId: 1, limit: 2, cursor: page.nextCursor });
    expect([...page.items.map((r) => r.id), ...rest]).toEqual(newestFirst((r) => r.workflowId === 1));
    await expect(store.listRuns({ workflowId: 3, limit: 2, cursor: page.nextCursor })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(store.listRuns({ limit: 2, cursor: page.nextCursor })).rejects.toBeInstanceOf(
      ValidationError,
    );
    const ofList = (await store.list({ limit: 1 })).nextCursor;
    await expect(store.listRuns({ limit: 2, cursor: ofList })).rejects.toBeInstanceOf(ValidationError);
    await expect(store.list({ limit: 2, cursor: page.nextCursor })).rejects.toBeInstanceOf(ValidationError);
  });
});
