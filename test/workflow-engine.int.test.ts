import { DynamoWorkflowStore } from '@tickring/aws/dynamodb';
import { noMetrics } from '@tickring/core/common';
import type { FireMessage, RingEntry } from '@tickring/core/dispatch';
import type { Job } from '@tickring/core/jobs';
import type { Alarm, Run } from '@tickring/core/runs';
import type { WorkflowLink, WorkflowRecord } from '@tickring/core/workflows';
import { validateWorkflow, type WorkflowDefinition } from '@tickring/core/workflows';
import { WorkflowEngine } from '@tickring/core/workflows/use-cases';
import { FakeClock, makeRun } from '@tickring/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedResources, type TestResources } from './stand-ins.js';

/**
 * The engine over the real workflow store (DynamoDB Local): what it fires, when, and that repeated
 * or concurrent outcomes decide once. Job runs are made up here (no dispatcher, no executor): the
 * end-to-end tests run them for real (test/workflows.int.test.ts).
 */

const silent = { debug() {}, info() {}, warn() {}, error() {} };

interface Harness {
  readonly engine: WorkflowEngine;
  readonly store: DynamoWorkflowStore;
  readonly clock: FakeClock;
  readonly fired: FireMessage[];
  readonly alarms: Alarm[];
  readonly killed: number[];
  readonly runs: Map<number, Run>;
  /** logIds a dispatch record lists as sent (what `dispatchedUnder` answers). */
  readonly sent: Set<number>;
}

let resources: TestResources;
let nextWorkflowId = 1;

beforeAll(async () => {
  resources = await isolatedResources('wfe');
});
afterAll(() => resources?.close());

function harness(): Harness {
  const clock = new FakeClock(1_800_000_000_000);
  const fired: FireMessage[] = [];
  const alarms: Alarm[] = [];
  const killed: number[] = [];
  const runs = new Map<number, Run>();
  const sent = new Set<number>();
  const store = new DynamoWorkflowStore({
    doc: resources.clients.doc,
    workflowsTable: resources.resources.tables.workflows,
    retentionDays: 1,
  });
  const job = (id: number): Job =>
    ({ id, name: `job ${id}`, appName: 'wf-app', alarmEmail: '', alarmWebhook: '' }) as unknown as Job;
  const engine = new WorkflowEngine({
    workflows: store,
    jobs: { get: async (id) => job(id) },
    runs: {
      get: async (logId) => runs.get(logId),
      getMany: async (logIds) => logIds.flatMap((id) => (runs.has(id) ? [runs.get(id)!] : [])) as never,
      dispatchedUnder: async () => sent,
      allocateLogIds: async (_jobId, count) => Array.from({ length: count }, () => nextLogId++),
    },
    ring: {
      enqueue: async (entries: readonly RingEntry[]) => {
        fired.push(...entries.map((e) => e.message));
      },
    },
    alarms: {
      publish: async (alarm) => {
        alarms.push(alarm);
        return true;
      },
    },
    clock,
    logger: silent,
    metrics: noMetrics,
    killRun: async (logId) => {
      killed.push(logId);
    },
  });
  return { engine, store, clock, fired, alarms, killed, runs, sent };
}

async function createWorkflow(h: Harness, body: Record<string, unknown>): Promise<WorkflowRecord> {
  const checked = validateWorkflow({ name: 'wf', appName: 'wf-app', ...body });
  if (!('ok' in checked)) throw new Error(JSON.stringify(checked.problems));
  const id = nextWorkflowId++ + Math.floor(Math.random() * 1e6) * 1000;
  const record: WorkflowRecord = {
    id,
    version: 1,
    definition: checked.ok as WorkflowDefinition,
    triggerStatus: 'STOPPED',
    activeRuns: 0,
    createdAt: h.clock.now(),
    updatedAt: h.clock.now(),
  };
  await h.store.create(record);
  return record;
}

let nextLogId = 1_000;

/** A made-up job run of the node's fire: ended as `ok` says, with `result` as handleMsg. */
function finishedRun(
  link: WorkflowLink,
  ok: boolean,
  result: string,
  shard?: { index: number; total: number },
): Run {
  const logId = nextLogId++;
  return makeRun({
    logId,
    workflow: link,
    handleCode: ok ? 200 : 500,
    handleMsg: result,
    ...(shard ? { shardIndex: shard.index, shardTotal: shard.total } : {}),
  });
}

function firedNodes(h: Harness, runId: string): string[] {
  return h.fired.filter((m) => m.workflow?.runId === runId).map((m) => m.workflow!.node);
}

function linkOf(h: Harness, runId: string, node: string): WorkflowLink {
  const message = [...h.fired].reverse().find((m) => m.workflow?.runId === runId && m.workflow.node === node);
  if (!message?.workflow) throw new Error(`node ${node} was not fired`);
  return message.workflow;
}

const DIAMOND = {
  nodes: [
    { key: 'a', jobId: 1 },
    { key: 'b', jobId: 2, executorParam: 'rows={{ nodes.a.result.rows }}', upstream: [{ key: 'a' }] },
    { key: 'c', jobId: 3, executorParam: '{{ input.region }}', upstream: [{ key: 'a' }] },
    { key: 'd', jobId: 4, upstream: [{ key: 'b' }, { key: 'c' }] },
  ],
};

describe('WorkflowEngine over the workflow store', () => {
  it('fires a diamond in order with rendered parameters, the join once after both branches', async () => {
    const h = harness();
    const wf = await createWorkflow(h, DIAMOND);
    const started = await h.engine.start({
      workflowId: wf.id,
      input: { region: 'eu' },
      trigger: { type: 'MANUAL' },
    });
    if (started.kind !== 'started') throw new Error(started.kind);
    const runId = started.run.id;
    expect(firedNodes(h, runId)).toEqual(['a']);
    const a = h.fired[0]!;
    expect(a).toMatchObject({ jobId: 1, triggerType: 'WORKFLOW', dedupKey: `wf#${runId}#a#1` });
    expect(a.executorParam).toBeUndefined(); // no template: the job's own parameter

    await h.engine.onNodeRunFinished(finishedRun(linkOf(h, runId, 'a'), true, '{"rows":42}'), {
      retried: false,
    });
    expect(firedNodes(h, runId)).toEqual(['a', 'b', 'c']);
    expect(h.fired.find((m) => m.workflow?.node === 'b')?.executorParam).toBe('rows=42');
    expect(h.fired.find((m) => m.workflow?.node === 'c')?.executorParam).toBe('eu');

    // B and C finish at the same moment: both are recorded, D fires once.
    await Promise.all([
      h.engine.onNodeRunFinished(finishedRun(linkOf(h, runId, 'b'), true, 'b done'), { retried: false }),
      h.engine.onNodeRunFinished(finishedRun(linkOf(h, runId, 'c'), true, 'c done'), { retried: false }),
    ]);
    expect(firedNodes(h, runId).filter((k) => k === 'd')).toHaveLength(1);
    await h.engine.onNodeRunFinished(finishedRun(linkOf(h, runId, 'd'), true, 'd done'), { retried: false });
    const run = await h.store.getRun(runId);
    expect(run?.status).toBe('SUCCEEDED');
    expect(run?.state.nodes.a?.result).toBe('{"rows":42}');
    expect((await h.store.get(wf.id))?.activeRuns).toBe(0);
  });

  it('decides a repeated outcome once: nothing is fired again for nodes a dispatcher has claimed', async () => {
    const h = harness();
    const wf = await createWorkflow(h, DIAMOND);
    const started = await h.engine.start({
      workflowId: wf.id,
      trigger: { type: 'MANUAL' },
      input: { region: 'x' },
    });
    if (started.kind !== 'started') throw new Error(started.kind);
    const runId = started.run.id;
    const aRun = finishedRun(linkOf(h, runId, 'a'), true, '{"rows":1}');
    await h.engine.onNodeRunFinished(aRun, { retried: false });
    for (const node of ['b', 'c']) await h.engine.noteNodeRuns(linkOf(h, runId, node), [nextLogId++]);
    const before = h.fired.length;
    await h.engine.onNodeRunFinished(aRun, { retried: false });
    await h.engine.onNodeRunFinished(aRun, { retried: false });
    expect(h.fired.length).toBe(before);
  });

  it('fires again, on a repeated outcome, the nodes its first delivery decided but no dispatcher claimed (a crash after the write)', async () => {
    const h = harness();
    const wf = await createWorkflow(h, DIAMOND);
    const started = await h.engine.start({
      workflowId: wf.id,
      trigger: { type: 'MANUAL' },
      input: { region: 'x' },
    });
    if (started.kind !== 'started') throw new Error(started.kind);
    const runId = started.run.id;
    const aRun = finishedRun(linkOf(h, runId, 'a'), true, '{"rows":1}');
    await h.engine.onNodeRunFinished(aRun, { retried: false });
    const firstFires = h.fired.filter((m) => m.workflow?.node === 'b' || m.workflow?.node === 'c');
    await h.engine.onNodeRunFinished(aRun, { retried: false });
    const again = h.fired.filter((m) => m.workflow?.node === 'b' || m.workflow?.node === 'c');
    expect(again).toHaveLength(4);
    // The same fires (same dedupKeys): the dispatcher runs each once.
    expect(new Set(again.map((m) => m.dedupKey))).toEqual(new Set(firstFires.map((m) => m.dedupKey)));
  });

  it('fails a node whose parameter cannot be rendered, without a job run, and alarms the failed run once', async () => {
    const h = harness();
    const wf = await createWorkflow(h, {
      nodes: [
        { key: 'a', jobId: 1 },
        { key: 'b', jobId: 2, executorParam: '{{ nodes.a.result.missing }}', upstream: [{ key: 'a' }] },
      ],
    });
    const started = await h.engine.start({ workflowId: wf.id, trigger: { type: 'MANUAL' } });
    if (started.kind !== 'started') throw new Error(started.kind);
    const runId = started.run.id;
    const aRun = finishedRun(linkOf(h, runId, 'a'), true, '{"rows":1}');
    h.runs.set(aRun.logId, aRun);
    await h.engine.noteNodeRuns(linkOf(h, runId, 'a'), [aRun.logId]);
    await h.engine.onNodeRunFinished(aRun, { retried: false });
    expect(firedNodes(h, runId)).toEqual(['a']);
    const run = await h.store.getRun(runId);
    expect(run?.status).toBe('FAILED');
    expect(run?.state.failedNodes).toEqual(['b']);
    expect(run?.state.nodes.b?.result).toContain('nodes.a.result.missing');
    // b never ran: its alarm describes a run that never was (logId 0, the reason as its message).
    expect(h.alarms).toHaveLength(1);
    expect(h.alarms[0]?.workflow).toEqual({ id: wf.id, name: 'wf', runId, failedNodes: ['b'] });
    expect(h.alarms[0]?.run).toMatchObject({ logId: 0, jobId: 2, handleCode: 500 });
    expect(h.alarms[0]?.run?.handleMsg).toContain('nodes.a.result.missing');
  });

  it('alarms a failed run once, naming the workflow and the failed node', async () => {
    const h = harness();
    const wf = await createWorkflow(h, { nodes: [{ key: 'only', jobId: 5 }] });
    const started = await h.engine.start({ workflowId: wf.id, trigger: { type: 'MANUAL' } });
    if (started.kind !== 'started') throw new Error(started.kind);
    const link = linkOf(h, started.run.id, 'only');
    const failed = finishedRun(link, false, 'boom');
    h.runs.set(failed.logId, failed);
    await h.engine.noteNodeRuns(link, [failed.logId]);
    await h.engine.onNodeRunFinished(failed, { retried: false });
    await h.engine.onNodeRunFinished(failed, { retried: false });
    expect(h.alarms).toHaveLength(1);
    expect(h.alarms[0]?.summary).toContain(`Workflow ${wf.id} (wf)`);
    expect(h.alarms[0]?.summary).toContain('only: boom');
  });

  it('waits for a retry: a failed run with a retry on its way does not finish the node', async () => {
    const h = harness();
    const wf = await createWorkflow(h, { nodes: [{ key: 'only', jobId: 5 }] });
    const started = await h.engine.start({ workflowId: wf.id, trigger: { type: 'MANUAL' } });
    if (started.kind !== 'started') throw new Error(started.kind);
    const link = linkOf(h, started.run.id, 'only');
    await h.engine.onNodeRunFinished(finishedRun(link, false, 'first try failed'), { retried: true });
    expect((await h.store.getRun(started.run.id))?.state.nodes.only?.status).toBe('RUNNING');
    await h.engine.onNodeRunFinished(finishedRun(link, true, 'second try'), { retried: false });
    expect((await h.store.getRun(started.run.id))?.status).toBe('SUCCEEDED');
  });

  it('finishes a broadcast node with its last shard; its result is the shards’ results in order', async () => {
    const h = harness();
    const wf = await createWorkflow(h, {
      nodes: [
        { key: 'fan', jobId: 1 },
        { key: 'after', jobId: 2, executorParam: '{{ nodes.fan.result[1].n }}', upstream: [{ key: 'fan' }] },
      ],
    });
    const started = await h.engine.start({ workflowId: wf.id, trigger: { type: 'MANUAL' } });
    if (started.kind !== 'started') throw new Error(started.kind);
    const link = linkOf(h, started.run.id, 'fan');
    const shard1 = finishedRun(link, true, '{"n":1}', { index: 1, total: 2 });
    await h.engine.onNodeRunFinished(shard1, { retried: false });
    await h.engine.onNodeRunFinished(shard1, { retried: false });
    expect(firedNodes(h, started.run.id)).toEqual(['fan']);
    await h.engine.onNodeRunFinished(finishedRun(link, true, 'plain text', { index: 0, total: 2 }), {
      retried: false,
    });
    expect(firedNodes(h, started.run.id)).toEqual(['fan', 'after']);
    const run = await h.store.getRun(started.run.id);
    expect(JSON.parse(run?.state.nodes.fan?.result ?? 'null')).toEqual(['plain text', { n: 1 }]);
    expect(h.fired.at(-1)?.executorParam).toBe('1');
  });

  it('under SKIP, two starts at the same moment start one run', async () => {
    const h = harness();
    const wf = await createWorkflow(h, { overlapPolicy: 'SKIP', nodes: [{ key: 'a', jobId: 1 }] });
    const results = await Promise.all(
      [1, 2, 3].map(() => h.engine.start({ workflowId: wf.id, trigger: { type: 'MANUAL' } })),
    );
    expect(results.filter((r) => r.kind === 'started')).toHaveLength(1);
    expect(results.filter((r) => r.kind === 'skipped')).toHaveLength(2);
    expect((await h.store.get(wf.id))?.activeRuns).toBe(1);
  });

  it('cancels: running nodes are killed, pending ones cancelled, the buffered run starts', async () => {
    const h = harness();
    const wf = await createWorkflow(h, {
      overlapPolicy: 'BUFFER_ONE',
      nodes: [
        { key: 'a', jobId: 1 },
        { key: 'b', jobId: 2, upstream: [{ key: 'a' }] },
      ],
    });
    const first = await h.engine.start({ workflowId: wf.id, trigger: { type: 'MANUAL' } });
    const second = await h.engine.start({ workflowId: wf.id, trigger: { type: 'MANUAL' } });
    if (first.kind !== 'started' || second.kind !== 'buffered')
      throw new Error(`${first.kind} ${second.kind}`);
    await h.engine.noteNodeRuns(linkOf(h, first.run.id, 'a'), [777]);
    const cancelled = await h.engine.cancel(first.run.id);
    expect(cancelled.status).toBe('CANCELLED');
    expect(cancelled.state.nodes.b?.status).toBe('CANCELLED');
    expect(h.killed).toEqual([777]);
    expect((await h.store.getRun(second.run.id))?.status).toBe('RUNNING');
    expect(firedNodes(h, second.run.id)).toEqual(['a']);
    // Nothing fires in the cancelled run when its killed node's outcome comes.
    await h.engine.onNodeRunFinished(finishedRun(linkOf(h, first.run.id, 'a'), false, 'killed by user'), {
      retried: false,
    });
    expect(firedNodes(h, first.run.id)).toEqual(['a']);
    expect(await h.engine.nodeFireState(linkOf(h, first.run.id, 'a'))).toEqual({
      awaited: false,
      claimed: true,
    });
  });

  it("the monitors' sweep fires again a running node no dispatcher claimed, once the run has not moved for a minute", async () => {
    const h = harness();
    const wf = await createWorkflow(h, { overlapPolicy: 'ALLOW', nodes: [{ key: 'a', jobId: 1 }] });
    const started = await h.engine.start({ workflowId: wf.id, trigger: { type: 'MANUAL' } });
    if (started.kind !== 'started') throw new Error(started.kind);
    const before = firedNodes(h, started.run.id).length;
    h.clock.advance(59_000);
    await h.engine.sweepStalledRuns();
    expect(firedNodes(h, started.run.id).length).toBe(before);
    h.clock.advance(12_000);
    const swept = await h.engine.sweepStalledRuns();
    expect(swept.redriven).toBeGreaterThanOrEqual(1);
    expect(firedNodes(h, started.run.id).length).toBe(before + 1);
    // Looked at: not again within the minute.
    await h.engine.sweepStalledRuns();
    expect(firedNodes(h, started.run.id).length).toBe(before + 1);
  });

  it('a start repeated under the same run id finds it started, whatever the overlap policy', async () => {
    const h = harness();
    const wf = await createWorkflow(h, { overlapPolicy: 'CANCEL_PREVIOUS', nodes: [{ key: 'a', jobId: 1 }] });
    const request = { workflowId: wf.id, runId: 'wr-s4242', trigger: { type: 'SCHEDULE' as const } };
    expect((await h.engine.start(request)).kind).toBe('started');
    expect(await h.engine.start(request)).toEqual({ kind: 'exists', runId: 'wr-s4242' });
    expect((await h.store.getRun('wr-s4242'))?.status).toBe('RUNNING');
  });

  it('a dropped fire ends the attempt only when nothing runs for it', async () => {
    const h = harness();
    const wf = await createWorkflow(h, {
      overlapPolicy: 'ALLOW',
      nodes: [
        { key: 'a', jobId: 1 },
        { key: 'b', jobId: 2 },
        { key: 'c', jobId: 3 },
      ],
    });
    const started = await h.engine.start({ workflowId: wf.id, trigger: { type: 'MANUAL' } });
    if (started.kind !== 'started') throw new Error(started.kind);
    const runId = started.run.id;
    const [a, b, c] = ['a', 'b', 'c'].map((k) => linkOf(h, runId, k)) as [
      WorkflowLink,
      WorkflowLink,
      WorkflowLink,
    ];
    await h.engine.noteNodeRuns(a, [501]);
    await h.engine.cancel(runId);
    // a: a copy of a claimed fire (its run is on its way): nothing recorded.
    await h.engine.onFireDropped(a, await h.engine.nodeFireState(a), { reason: 'cancelled' });
    // b: never claimed: failed, "not started".
    await h.engine.onFireDropped(b, await h.engine.nodeFireState(b), { reason: 'cancelled' });
    // c: its retry dropped: its failed run ends it.
    const failed = finishedRun(c, false, 'c failed first');
    h.runs.set(failed.logId, failed);
    await h.engine.onFireDropped(c, await h.engine.nodeFireState(c), {
      reason: 'cancelled',
      retryOf: failed.logId,
    });
    const run = await h.store.getRun(runId);
    expect(run?.state.nodes.a?.status).toBe('RUNNING');
    expect(run?.state.nodes.b).toMatchObject({ status: 'FAILED', result: 'not started: cancelled' });
    expect(run?.state.nodes.c).toMatchObject({ status: 'FAILED', result: 'c failed first' });
  });

  it('refuses to retry a run cancelled while it waited in the buffer (it never started)', async () => {
    const h = harness();
    const wf = await createWorkflow(h, { overlapPolicy: 'BUFFER_ONE', nodes: [{ key: 'a', jobId: 1 }] });
    await h.engine.start({ workflowId: wf.id, trigger: { type: 'MANUAL' } });
    const queued = await h.engine.start({ workflowId: wf.id, trigger: { type: 'MANUAL' } });
    if (queued.kind !== 'buffered') throw new Error(queued.kind);
    await h.engine.cancel(queued.run.id);
    await expect(h.engine.retry(queued.run.id)).rejects.toThrow(/never started/);
  });

  it('the sweep fires again a node whose claimed run was never sent, and leaves one that was sent (a long job) alone', async () => {
    const h = harness();
    const wf = await createWorkflow(h, {
      overlapPolicy: 'ALLOW',
      nodes: [
        { key: 'lost', jobId: 1 },
        { key: 'long', jobId: 2 },
      ],
    });
    const started = await h.engine.start({ workflowId: wf.id, trigger: { type: 'MANUAL' } });
    if (started.kind !== 'started') throw new Error(started.kind);
    const runId = started.run.id;
    for (const [key, logId] of [
      ['lost', 901],
      ['long', 902],
    ] as const) {
      const link = linkOf(h, runId, key);
      h.runs.set(logId, {
        ...makeRun({ logId, workflow: link }),
        claimToken: `c${logId}`,
        claimAt: 0,
      } as Run);
      await h.engine.noteNodeRuns(link, [logId]);
    }
    h.sent.add(902);
    const before = { lost: 1, long: 1 };
    h.clock.advance(75_000);
    await h.engine.sweepStalledRuns();
    const count = (key: string) => firedNodes(h, runId).filter((k) => k === key).length;
    expect({ lost: count('lost'), long: count('long') }).toEqual({
      lost: before.lost + 1,
      long: before.long,
    });
  });
});
