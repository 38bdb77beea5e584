import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError, PermanentError, ValidationError } from '@tickring/core/common';
import type { StoredRunStatus, WorkflowRecord, WorkflowRunRecord } from '@tickring/core/workflows';
import {
  endedRun,
  largestRun,
  WORKFLOW_TIME as T0,
  withNodeSucceeded,
  workflowDefinition,
  workflowRecord,
  workflowRun,
} from '@tickring/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedResources, type TestResources } from '../../../../test/stand-ins.js';
import { resultTag } from './workflows/items.js';
import { DynamoWorkflowStore } from './workflows/workflow-store.js';

// The WorkflowStore's behaviour is pinned by its contract suite (workflow-store.contract.int.test.ts
// runs it on DynamoDB Local); these tests keep what is DynamoDB's own: the items (list keys, results
// beside the head, the sparse active and stalled keys, TTLs, a head's size), the delete's answer, a
// count that the runs contradict, a filtered list that reads more than one round of its index, and a
// run list's cursor in the workflow list (a pair of lists the contract does not try).

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

  /** A store whose requests go through `send` (which sees each command, then passes it on or fails it). */
  function storeSending(send: (command: { constructor: { name: string } }) => Promise<unknown>) {
    return new DynamoWorkflowStore({
      doc: { send } as unknown as DynamoDBDocumentClient,
      workflowsTable: env.resources.tables.workflows,
      retentionDays: 7,
    });
  }

  async function rawItem(pk: string, sk: string) {
    const { Item } = await env.clients.doc.send(
      new GetCommand({ TableName: env.resources.tables.workflows, Key: { pk, sk }, ConsistentRead: true }),
    );
    return Item;
  }

  it("keeps the head's list keys in its item, not in the record, and moves them with an edit", async () => {
    const wf = await newWorkflow();
    const v2 = {
      ...wf,
      version: 2,
      definition: workflowDefinition('wf-app-2', ['a', 'b', 'c'], 'renamed'),
      updatedAt: T0 + 5,
    } satisfies WorkflowRecord;
    await store.update(v2, 1);
    expect(await store.get(wf.id)).toEqual(v2);
    expect(await rawItem(`W#${wf.id}`, 'head')).toMatchObject({
      listPk: 'workflow',
      wfId: wf.id,
      appName: 'wf-app-2',
    });
  });

  it('refuses to delete a workflow while a run is running or waiting, and keeps its versions readable after', async () => {
    const wf = await newWorkflow();
    const run = workflowRun(wf, 'wr-del-1');
    await store.admit(run, { as: 'start', expectActiveRuns: 0, expectNoBuffered: true });
    const queued = workflowRun(wf, 'wr-del-2', { status: 'QUEUED' });
    await store.admit(queued, { as: 'buffer', expectActiveRuns: 1, expectNoBuffered: true });

    await expect(store.delete(wf.id)).rejects.toThrow(/1 run of the workflow is running and one is waiting/);
    const done = endedRun(run, 'SUCCEEDED');
    expect(await store.saveRun(run, done)).toBe(true);
    await expect(store.delete(wf.id)).rejects.toThrow(ConflictError);
    await expect(store.delete(wf.id)).rejects.toThrow(/waiting \(wr-del-2\)/);
    expect(await store.saveRun(queued, endedRun(queued, 'CANCELLED'))).toBe(true);

    await store.delete(wf.id);
    expect(await store.get(wf.id)).toBeUndefined();
    expect(await store.getVersion(wf.id, 1)).toEqual(wf.definition);
    expect((await rawItem(`W#${wf.id}`, 'v#0000000001'))?.expiresAt).toBeGreaterThan(T0 / 1000 + 7 * 86_400);
    expect(await store.getRun(run.id)).toEqual(done);
    await expect(store.delete(wf.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('stores node results beside the run and attaches them on read; a reset node loses its result', async () => {
    const wf = await newWorkflow();
    const run = workflowRun(wf, 'wr-res-1');
    await store.admit(run, { as: 'start', expectNoBuffered: false });
    const next = withNodeSucceeded(run, 'extract', '{"rows": 10, "note": "naïve ✓"}');
    expect(await store.saveRun(run, next)).toBe(true);
    expect(await store.getRun(run.id)).toEqual(next);

    const head = await rawItem(`R#${run.id}`, 'head');
    expect(JSON.stringify(head)).not.toContain('naïve');
    const result = next.state.nodes.extract?.result ?? '';
    expect(head?.nodes.extract).toEqual({ status: 'SUCCEEDED', attempt: 1, resultTag: resultTag(result) });
    expect((await rawItem(`R#${run.id}`, `result#extract#${resultTag(result)}`))?.result).toBe(result);

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
    const again = withNodeSucceeded(reset, 'extract', 'rows=11');
    expect(await store.saveRun(reset, again)).toBe(true);
    expect((await store.getRun(run.id))?.state.nodes.extract?.result).toBe('rows=11');
  });

  it('saves a node’s result and the head without a transaction when no count moves, and a save that lost leaves no trace', async () => {
    const sent: string[] = [];
    const watched = storeSending((command) => {
      sent.push(command.constructor.name);
      return env.clients.doc.send(command as never);
    });
    const wf = await newWorkflow();
    const run = workflowRun(wf, 'wr-race-1');
    await watched.admit(run, { as: 'start', expectNoBuffered: false });
    sent.length = 0;
    // Two engines take the same revision on: the first saves its result, the second loses the race.
    const first = withNodeSucceeded(run, 'extract', 'first');
    const second = withNodeSucceeded(run, 'extract', 'second');
    expect(await watched.saveRun(run, first)).toBe(true);
    expect(sent).toEqual(['PutCommand', 'UpdateCommand']);
    expect(await watched.saveRun(run, second)).toBe(false);
    // The loser's result item is stored, but no head names it: the run reads the winner's.
    expect((await rawItem(`R#${run.id}`, `result#extract#${resultTag('second')}`))?.result).toBe('second');
    expect(await watched.getRun(run.id)).toEqual(first);
    // A run's end moves the workflow's count with its head: that save is one transaction.
    sent.length = 0;
    expect(await watched.saveRun(first, endedRun(first, 'SUCCEEDED'))).toBe(true);
    expect(sent).toEqual(['TransactWriteCommand']);
  });

  it('answers a save that meets another save’s transaction on the head (TransactionConflict) as lost: read again', async () => {
    const conflicting = storeSending((command) => {
      if (command.constructor.name !== 'UpdateCommand') return env.clients.doc.send(command as never);
      const err = new Error('Transaction is ongoing for the item');
      err.name = 'TransactionConflictException';
      return Promise.reject(err);
    });
    const wf = await newWorkflow();
    const run = workflowRun(wf, 'wr-conflict-1');
    await store.admit(run, { as: 'start', expectNoBuffered: false });
    expect(await conflicting.saveRun(run, withNodeSucceeded(run, 'extract', 'x'))).toBe(false);
    expect(await store.getRun(run.id)).toEqual(run);
  });

  it('refuses loudly a result whose key holds another text (a shared tag), leaving the head as it was', async () => {
    const wf = await newWorkflow();
    const run = workflowRun(wf, 'wr-tag-1');
    await store.admit(run, { as: 'start', expectNoBuffered: false });
    await env.clients.doc.send(
      new PutCommand({
        TableName: env.resources.tables.workflows,
        Item: { pk: `R#${run.id}`, sk: `result#extract#${resultTag('mine')}`, result: 'someone else’s' },
      }),
    );
    await expect(store.saveRun(run, withNodeSucceeded(run, 'extract', 'mine'))).rejects.toThrow(
      PermanentError,
    );
    expect(await store.getRun(run.id)).toEqual(run);
  });

  it('reads a run saved before result tags: its one result item per node, named by the node alone', async () => {
    const wf = await newWorkflow();
    const run = workflowRun(wf, 'wr-legacy-1');
    await store.admit(run, { as: 'start', expectNoBuffered: false });
    const next = withNodeSucceeded(run, 'extract', 'legacy rows');
    expect(await store.saveRun(run, next)).toBe(true);
    // Rewrite it as the version before tags left it: the head without resultTag, the item by node.
    const table = env.resources.tables.workflows;
    await env.clients.doc.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: `R#${run.id}`, sk: 'head' },
        UpdateExpression: 'SET nodes.#node.hasResult = :yes REMOVE nodes.#node.resultTag',
        ExpressionAttributeValues: { ':yes': true },
        ExpressionAttributeNames: { '#node': 'extract' },
      }),
    );
    await env.clients.doc.send(
      new PutCommand({
        TableName: table,
        Item: { pk: `R#${run.id}`, sk: 'result#extract', result: 'legacy rows', rev: next.state.revision },
      }),
    );
    await env.clients.doc.send(
      new DeleteCommand({
        TableName: table,
        Key: { pk: `R#${run.id}`, sk: `result#extract#${resultTag('legacy rows')}` },
      }),
    );
    expect(await store.getRun(run.id)).toEqual(next);
    // Saved on by this version, it goes on with tags.
    const ended = endedRun(next, 'SUCCEEDED');
    expect(await store.saveRun(next, ended)).toBe(true);
    expect(await store.getRun(run.id)).toEqual(ended);
  });

  it('keeps the head of a run of 200 nodes with a 15,000-character result each far below an item (400 KB)', async () => {
    const wf = await newWorkflow('wf-big', ['root']);
    const { admitted, saves } = largestRun(wf);
    expect(await store.admit(admitted, { as: 'start', expectNoBuffered: false })).toBe('admitted');
    let run = admitted;
    for (const next of saves) {
      expect(await store.saveRun(run, next)).toBe(true);
      run = next;
    }
    expect(await store.getRun(run.id)).toEqual(run);
    const head = await rawItem(`R#${run.id}`, 'head');
    expect(JSON.stringify(head).length).toBeLessThan(100_000);
  });

  it("writes an active run's active and stalled keys into its head, and takes them out once it ends", async () => {
    const wf = await newWorkflow();
    const run = workflowRun(wf, 'wr-act-1', { createdAt: T0 - 60_000 });
    await store.admit(run, { as: 'start', expectNoBuffered: false });
    expect(await rawItem(`R#${run.id}`, 'head')).toMatchObject({
      activeWorkflowId: wf.id,
      activeList: 'active',
      stalledSince: T0 - 60_000,
    });
    expect(await store.saveRun(run, endedRun(run, 'SUCCEEDED'))).toBe(true);
    const raw = await rawItem(`R#${run.id}`, 'head');
    expect(raw).not.toHaveProperty('activeWorkflowId');
    expect(raw).not.toHaveProperty('activeList');
    expect(raw).not.toHaveProperty('stalledSince');
  });

  it('refuses loudly (PermanentError) a running count that the runs contradict, never taking it below 0', async () => {
    const wf = await newWorkflow();
    const lone = workflowRun(wf, 'wr-cnt-4');
    await store.admit(lone, { as: 'start', expectNoBuffered: false });
    await env.clients.doc.send(
      new UpdateCommand({
        TableName: env.resources.tables.workflows,
        Key: { pk: `W#${wf.id}`, sk: 'head' },
        UpdateExpression: 'SET activeRuns = :zero',
        ExpressionAttributeValues: { ':zero': 0 },
      }),
    );
    await expect(store.saveRun(lone, endedRun(lone, 'FAILED'))).rejects.toBeInstanceOf(PermanentError);
    expect((await store.getRun(lone.id))?.status).toBe('RUNNING');
    expect((await store.get(wf.id))?.activeRuns).toBe(0);
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
      const run = workflowRun(wf, `wr-list-${String(i).padStart(2, '0')}`, { createdAt: T0 + i * 1000 });
      await store.admit(run, { as: 'start', expectNoBuffered: false });
      const stored = status === 'RUNNING' ? run : endedRun(run, status as 'SUCCEEDED' | 'FAILED');
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
    // The records as stored (their running counts and last successes), without the list's keys.
    const stored = workflows.map((w) => {
      const successes = runs.filter((r) => r.workflowId === w.id && r.status === 'SUCCEEDED');
      return {
        ...w,
        activeRuns: runs.filter((r) => r.workflowId === w.id && r.status === 'RUNNING').length,
        ...(successes.length === 0
          ? {}
          : { lastSuccessAt: Math.max(...successes.map((r) => r.finishedAt ?? 0)) }),
      };
    });
    expect(stored[0]?.activeRuns).toBe(3);
    expect((await store.list({ limit: 100 })).items).toEqual(stored);
    expect(stored.filter((w) => w.definition.appName === 'group-b')).toHaveLength(5);
    const first = await store.list({ appNames: ['group-b'], limit: 1 });
    expect(first.items).toEqual([stored[2]]);
    expect(first.nextCursor).toBeDefined();
  });

  it("refuses a cursor of a workflow's runs in the list of workflows", async () => {
    const ofRuns = (await store.listRuns({ workflowId: 1, limit: 2 })).nextCursor;
    expect(ofRuns).toBeDefined();
    await expect(store.list({ limit: 2, cursor: ofRuns })).rejects.toBeInstanceOf(ValidationError);
  });
});
