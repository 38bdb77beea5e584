import type { Run } from '@tickring/core/runs';
import type { JobContext, JobHandler, JobReturn } from '@tickring/executor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eStack, startE2eStack } from './e2e-stack.js';
import { waitFor } from './stand-ins.js';

/**
 * Workflows (issue 17) end to end on one local stack: definitions and runs only through the HTTP
 * admin API, nodes run by real SDK executors over HTTP, each handler recording when it started and
 * ended and the parameter it got. Every scenario has its own group, executors, jobs and workflow,
 * and they run at once (the file's wall time is about its slowest scenario, the schedule's).
 */

// biome-ignore lint/suspicious/noExplicitAny: API views, read field by field
type View = any;

const TERMINAL = ['SUCCEEDED', 'FAILED', 'CANCELLED'];

/** One handler call as the executor saw it. */
interface Call {
  readonly node: string;
  readonly logId: number;
  readonly param: string;
  readonly shardIndex: number;
  readonly shardTotal: number;
  readonly startedAt: number;
  endedAt?: number;
  /** Why its signal was aborted (a kill), if it was. */
  aborted?: string;
}

/** Handlers that record their calls. */
class Probe {
  readonly calls: Call[] = [];

  /** A handler for `node` that records the call around `body`. */
  handler(
    node: string,
    body: (ctx: JobContext) => JobReturn | Promise<JobReturn> = () => undefined,
  ): JobHandler {
    return async (ctx) => {
      const call: Call = {
        node,
        logId: ctx.logId,
        param: ctx.param,
        shardIndex: ctx.shardIndex,
        shardTotal: ctx.shardTotal,
        startedAt: Date.now(),
      };
      this.calls.push(call);
      ctx.signal.addEventListener('abort', () => {
        call.aborted = String((ctx.signal.reason as Error | undefined)?.message ?? ctx.signal.reason);
      });
      try {
        return await body(ctx);
      } finally {
        call.endedAt = Date.now();
      }
    };
  }

  of(node: string): Call[] {
    return this.calls.filter((c) => c.node === node);
  }

  one(node: string): Call {
    const calls = this.of(node);
    if (calls.length !== 1) throw new Error(`node ${node} was called ${calls.length} times, not once`);
    return calls[0] as Call;
  }

  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const c of this.calls) counts[c.node] = (counts[c.node] ?? 0) + 1;
    return counts;
  }
}

/** Sleeps `ms`, or rejects when `signal` is aborted (a killed run stops at once). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** Waits until `ms` have passed since `since`: only for checking that something does NOT happen. */
function quietPeriod(since: number, ms: number, what: string): Promise<true> {
  return waitFor(() => Date.now() >= since + ms, { what, timeoutMs: ms + 5_000, intervalMs: 100 });
}

const nodeOf = (run: View, key: string): View => {
  const node = (run.nodes as View[]).find((n) => n.key === key);
  if (!node) throw new Error(`run ${run.id} has no node ${key}: ${JSON.stringify(run.nodes)}`);
  return node;
};

const statuses = (run: View): Record<string, string> =>
  Object.fromEntries((run.nodes as View[]).map((n) => [n.key, n.status]));

const time = (iso: string | null | undefined): number => (iso ? Date.parse(iso) : Number.NaN);

describe('end to end: workflows', () => {
  let e: E2eStack;
  const began = Date.now();

  beforeAll(async () => {
    e = await startE2eStack('wf');
    console.log(`[measure] workflows: stack started in ${Date.now() - began} ms`);
  });

  afterAll(async () => {
    await e?.stop();
    console.log(`[measure] workflows: file took ${Date.now() - began} ms`);
  });

  // ---------------------------------------------------------------------------------------------
  // Helpers over the API

  /** A group with `count` executors registering these handlers, all online. */
  async function groupWith(label: string, handlers: Record<string, JobHandler>, count = 1): Promise<string> {
    const appName = await e.createAutoGroup(label);
    for (let i = 0; i < count; i++) {
      const executor = await e.startExecutor(appName, handlers);
      await e.waitForExecutor(appName, executor.address);
    }
    return appName;
  }

  /** A job of the group for `handler` (no retries); its id. */
  async function jobFor(
    appName: string,
    handler: string,
    fields: Record<string, unknown> = {},
  ): Promise<number> {
    const job = await e.createJob({
      appName,
      name: `wf ${handler}`,
      executorHandler: handler,
      executorFailRetryCount: 0,
      ...fields,
    });
    return job.id as number;
  }

  async function createWorkflow(body: Record<string, unknown>): Promise<View> {
    const reply = await e.call('POST', '/v1/workflows', body);
    if (reply.status !== 201) throw new Error(`workflow not created: ${JSON.stringify(reply)}`);
    return reply.body;
  }

  /** POST /v1/workflows/{id}/trigger: the reply as it is (202 started or buffered, 409 skipped). */
  function trigger(workflowId: number, input?: unknown) {
    return e.call('POST', `/v1/workflows/${workflowId}/trigger`, input === undefined ? {} : { input });
  }

  /** Triggers the workflow (202 expected); the run as the trigger answered it. */
  async function started(workflowId: number, input?: unknown): Promise<View> {
    const reply = await trigger(workflowId, input);
    if (reply.status !== 202)
      throw new Error(`workflow ${workflowId} not triggered: ${JSON.stringify(reply)}`);
    return reply.body;
  }

  async function getRun(runId: string): Promise<View> {
    const reply = await e.call('GET', `/v1/workflow-runs/${runId}`);
    if (reply.status !== 200) throw new Error(`GET run ${runId}: ${JSON.stringify(reply)}`);
    return reply.body;
  }

  /** Waits until the run satisfies `done` (by default: it has ended). */
  function waitRun(
    runId: string,
    done: (run: View) => boolean = (run) => TERMINAL.includes(run.status),
    timeoutMs = 30_000,
    what = 'ended',
  ): Promise<View> {
    return waitFor(
      async () => {
        const run = await getRun(runId);
        return done(run) ? run : undefined;
      },
      { what: `workflow run ${runId} ${what}`, timeoutMs, intervalMs: 100 },
    );
  }

  /** Every run of the workflow (GET /v1/workflow-runs?workflowId=, all pages). */
  async function runsOfWorkflow(workflowId: number): Promise<View[]> {
    const items: View[] = [];
    let cursor: string | null | undefined;
    do {
      const query = `/v1/workflow-runs?workflowId=${workflowId}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const reply = await e.call('GET', query);
      if (reply.status !== 200) throw new Error(`GET ${query}: ${JSON.stringify(reply)}`);
      items.push(...reply.body.items);
      cursor = reply.body.nextCursor;
    } while (cursor);
    return items;
  }

  /** The job runs of each job, by job id. */
  async function jobRuns(jobIds: Record<string, number>): Promise<Record<string, Run[]>> {
    const entries = await Promise.all(
      Object.entries(jobIds).map(async ([key, id]) => [key, await e.runsOf(id)] as const),
    );
    return Object.fromEntries(entries);
  }

  // ---------------------------------------------------------------------------------------------

  it.concurrent('a. a diamond A → B, C → D: parameters from templates, B and C at once, D after both', async () => {
    const probe = new Probe();
    const appName = await groupWith('wf-diamond', {
      wfA: probe.handler('A', () => ({ date: '2024-05-01', rows: 42 })),
      wfB: probe.handler('B', async (ctx) => {
        await sleep(1_000);
        return `B saw ${ctx.param}`;
      }),
      wfC: probe.handler('C', async (ctx) => {
        await sleep(1_000);
        return `C saw ${ctx.param}`;
      }),
      wfD: probe.handler('D', (ctx) => `D saw ${ctx.param}`),
    });
    const jobs = {
      A: await jobFor(appName, 'wfA'),
      B: await jobFor(appName, 'wfB'),
      C: await jobFor(appName, 'wfC'),
      D: await jobFor(appName, 'wfD'),
    };
    const workflow = await createWorkflow({
      name: 'diamond',
      appName,
      nodes: [
        { key: 'A', jobId: jobs.A },
        {
          key: 'B',
          jobId: jobs.B,
          upstream: [{ key: 'A' }],
          executorParam: 'rows={{ nodes.A.result.rows }} region={{ input.region }}',
        },
        {
          key: 'C',
          jobId: jobs.C,
          upstream: [{ key: 'A', condition: 'ON_SUCCESS' }],
          executorParam: '{{input.region}}/{{ nodes.A.result.date }}/{{ nodes.A.result.rows }}',
        },
        {
          key: 'D',
          jobId: jobs.D,
          upstream: [{ key: 'B' }, { key: 'C' }],
          executorParam: '[{{ nodes.B.result }}] [{{ nodes.C.result }}]',
        },
      ],
    });
    expect(workflow).toMatchObject({ name: 'diamond', appName, version: 1 });

    const t0 = Date.now();
    const triggered = await started(workflow.id, { region: 'eu' });
    expect(triggered).toMatchObject({ workflowId: workflow.id, status: 'RUNNING' });
    const run = await waitRun(triggered.id);
    const took = Date.now() - t0;

    expect(run.status, JSON.stringify(run)).toBe('SUCCEEDED');
    expect(run.failedNodes).toEqual([]);
    expect(statuses(run)).toEqual({ A: 'SUCCEEDED', B: 'SUCCEEDED', C: 'SUCCEEDED', D: 'SUCCEEDED' });
    expect(probe.counts()).toEqual({ A: 1, B: 1, C: 1, D: 1 });
    expect(probe.one('B').param).toBe('rows=42 region=eu');
    expect(probe.one('C').param).toBe('eu/2024-05-01/42');
    expect(probe.one('D').param).toBe('[B saw rows=42 region=eu] [C saw eu/2024-05-01/42]');
    expect(JSON.parse(nodeOf(run, 'A').result)).toEqual({ date: '2024-05-01', rows: 42 });
    expect(nodeOf(run, 'B').result).toBe('B saw rows=42 region=eu');
    expect(nodeOf(run, 'D').result).toBe('D saw [B saw rows=42 region=eu] [C saw eu/2024-05-01/42]');

    // One job run per node, each the node's (its link, its logId in the node's view).
    const runs = await jobRuns(jobs);
    for (const [key, list] of Object.entries(runs)) {
      expect(list, `job runs of node ${key}`).toHaveLength(1);
      const [only] = list as [Run];
      expect(only).toMatchObject({
        triggerType: 'WORKFLOW',
        handleCode: 200,
        workflow: { runId: run.id, node: key, attempt: 1 },
      });
      expect(nodeOf(run, key)).toMatchObject({ attempt: 1, logIds: [only.logId] });
      expect(probe.one(key).logId).toBe(only.logId);
    }
    expect((runs.B as [Run])[0].executorParam).toBe('rows=42 region=eu');
    // The admin API shows a node's job run with the node it belongs to.
    const shown = await e.call('GET', `/v1/logs/${(runs.B as [Run])[0].logId}`);
    expect(shown.body).toMatchObject({
      triggerType: 'WORKFLOW',
      workflow: { runId: run.id, node: 'B', attempt: 1 },
    });

    // B and C overlap; D starts after both ended.
    const [a, b, c, d] = ['A', 'B', 'C', 'D'].map((k) => probe.one(k)) as [Call, Call, Call, Call];
    expect(Math.max(b.startedAt, c.startedAt)).toBeLessThan(Math.min(b.endedAt!, c.endedAt!));
    expect(Math.min(b.startedAt, c.startedAt)).toBeGreaterThanOrEqual(a.endedAt!);
    expect(d.startedAt).toBeGreaterThanOrEqual(Math.max(b.endedAt!, c.endedAt!));
    console.log(
      `[measure] workflows a (diamond): trigger → SUCCEEDED ${took} ms; A end → B/C start ${b.startedAt - a.endedAt!}/${
        c.startedAt - a.endedAt!
      } ms; B/C start ${Math.abs(b.startedAt - c.startedAt)} ms apart; last of B, C end → D start ${
        d.startedAt - Math.max(b.endedAt!, c.endedAt!)
      } ms`,
    );
  });

  it.concurrent('b. ON_FAILURE handles a failure; ON_SUCCESS branches are skipped (propagating); ALWAYS runs after a skip', async () => {
    const probe = new Probe();
    const appName = await groupWith('wf-onfail', {
      wfA: probe.handler('A', () => {
        throw new Error('A exploded: disk full');
      }),
      wfOnFail: probe.handler('onFail', (ctx) => `handled: ${ctx.param.split('\n')[0]}`),
      wfNext: probe.handler('next'),
      wfAfter: probe.handler('after'),
      wfCleanup: probe.handler('cleanup', () => 'cleaned'),
    });
    const jobs = {
      A: await jobFor(appName, 'wfA'),
      onFail: await jobFor(appName, 'wfOnFail'),
      next: await jobFor(appName, 'wfNext'),
      after: await jobFor(appName, 'wfAfter'),
      cleanup: await jobFor(appName, 'wfCleanup'),
    };
    const workflow = await createWorkflow({
      name: 'on failure',
      appName,
      nodes: [
        { key: 'A', jobId: jobs.A },
        {
          key: 'onFail',
          jobId: jobs.onFail,
          upstream: [{ key: 'A', condition: 'ON_FAILURE' }],
          executorParam: 'A said: {{ nodes.A.result }}',
        },
        { key: 'next', jobId: jobs.next, upstream: [{ key: 'A', condition: 'ON_SUCCESS' }] },
        { key: 'after', jobId: jobs.after, upstream: [{ key: 'next' }] },
        { key: 'cleanup', jobId: jobs.cleanup, upstream: [{ key: 'next', condition: 'ALWAYS' }] },
      ],
    });

    const run = await waitRun((await started(workflow.id)).id);
    // progress.ts: a failure is handled by an ON_FAILURE downstream that ran; then the run SUCCEEDED.
    expect(run.status, JSON.stringify(run)).toBe('SUCCEEDED');
    expect(run.failedNodes).toEqual([]);
    expect(statuses(run)).toEqual({
      A: 'FAILED',
      onFail: 'SUCCEEDED',
      next: 'SKIPPED',
      after: 'SKIPPED',
      cleanup: 'SUCCEEDED',
    });
    expect(nodeOf(run, 'A').result).toContain('A exploded: disk full');
    expect(nodeOf(run, 'next').reason).toBe("upstream A failed and the edge's condition is ON_SUCCESS");
    expect(nodeOf(run, 'after').reason).toBe(
      "upstream next was skipped and the edge's condition is ON_SUCCESS",
    );
    expect(nodeOf(run, 'next')).toMatchObject({ attempt: 0, logIds: [] });
    expect(nodeOf(run, 'after')).toMatchObject({ attempt: 0, logIds: [] });
    expect(probe.counts()).toEqual({ A: 1, onFail: 1, cleanup: 1 });
    expect(probe.one('onFail').param).toMatch(/^A said: .*A exploded: disk full/);
    expect(nodeOf(run, 'onFail').result).toBe('handled: A said: Error: A exploded: disk full');
    expect(probe.one('cleanup').startedAt).toBeGreaterThanOrEqual(probe.one('A').endedAt!);

    const runs = await jobRuns(jobs);
    expect(Object.fromEntries(Object.entries(runs).map(([k, list]) => [k, list.length]))).toEqual({
      A: 1,
      onFail: 1,
      next: 0,
      after: 0,
      cleanup: 1,
    });
    expect(runs.A?.[0]).toMatchObject({
      handleCode: 500,
      workflow: { runId: run.id, node: 'A', attempt: 1 },
    });
  });

  it.concurrent('c. a template value that is missing fails the node without running its job; the run FAILED', async () => {
    const probe = new Probe();
    const appName = await groupWith('wf-missing', {
      wfA: probe.handler('A', () => ({ rows: 3 })),
      wfB: probe.handler('B'),
    });
    const jobs = { A: await jobFor(appName, 'wfA'), B: await jobFor(appName, 'wfB') };
    const workflow = await createWorkflow({
      name: 'missing value',
      appName,
      nodes: [
        { key: 'A', jobId: jobs.A },
        {
          key: 'B',
          jobId: jobs.B,
          upstream: [{ key: 'A' }],
          executorParam: 'n={{ nodes.A.result.missing }}',
        },
      ],
    });

    const run = await waitRun((await started(workflow.id)).id);
    expect(run.status, JSON.stringify(run)).toBe('FAILED');
    expect(run.failedNodes).toEqual(['B']);
    expect(statuses(run)).toEqual({ A: 'SUCCEEDED', B: 'FAILED' });
    const b = nodeOf(run, 'B');
    expect(b.result).toContain('nodes.A.result.missing');
    expect(b.result).toContain('could not be rendered');
    expect(b.logIds).toEqual([]);
    expect(probe.counts()).toEqual({ A: 1 });
    const runs = await jobRuns(jobs);
    expect(runs.A).toHaveLength(1);
    expect(runs.B).toEqual([]);
  });

  it.concurrent('d. retry of a FAILED run runs the failed node and what it skipped again, nothing that succeeded', async () => {
    const probe = new Probe();
    let bCalls = 0;
    const appName = await groupWith('wf-retry', {
      wfA: probe.handler('A', () => ({ token: 't-17' })),
      wfB: probe.handler('B', (ctx) => {
        bCalls++;
        if (bCalls === 1) throw new Error('B failed the first time');
        return `B ok with ${ctx.param}`;
      }),
      wfC: probe.handler('C', (ctx) => `C after ${ctx.param}`),
    });
    const jobs = {
      A: await jobFor(appName, 'wfA'),
      B: await jobFor(appName, 'wfB'),
      C: await jobFor(appName, 'wfC'),
    };
    const workflow = await createWorkflow({
      name: 'retry',
      appName,
      nodes: [
        { key: 'A', jobId: jobs.A },
        {
          key: 'B',
          jobId: jobs.B,
          upstream: [{ key: 'A' }],
          executorParam: 'token={{ nodes.A.result.token }}',
        },
        { key: 'C', jobId: jobs.C, upstream: [{ key: 'B' }], executorParam: '{{ nodes.B.result }}' },
      ],
    });

    const runId = (await started(workflow.id)).id as string;
    const failed = await waitRun(runId);
    expect(failed.status, JSON.stringify(failed)).toBe('FAILED');
    expect(failed.failedNodes).toEqual(['B']);
    expect(statuses(failed)).toEqual({ A: 'SUCCEEDED', B: 'FAILED', C: 'SKIPPED' });
    expect(nodeOf(failed, 'B').result).toContain('B failed the first time');

    const retried = await e.call('POST', `/v1/workflow-runs/${runId}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBeLessThan(300);
    expect(retried.body).toMatchObject({ id: runId, status: 'RUNNING' });
    const run = await waitRun(runId);
    expect(run.status, JSON.stringify(run)).toBe('SUCCEEDED');
    expect(run.failedNodes).toEqual([]);
    expect(statuses(run)).toEqual({ A: 'SUCCEEDED', B: 'SUCCEEDED', C: 'SUCCEEDED' });
    expect(Object.fromEntries((run.nodes as View[]).map((n) => [n.key, n.attempt]))).toEqual({
      A: 1,
      B: 2,
      C: 1,
    });
    expect(probe.counts()).toEqual({ A: 1, B: 2, C: 1 });
    // A's result is reused: both of B's calls got the parameter rendered from it.
    expect(probe.of('B').map((c) => c.param)).toEqual(['token=t-17', 'token=t-17']);
    expect(probe.one('C').param).toBe('B ok with token=t-17');

    const runs = await jobRuns(jobs);
    expect(runs.A).toHaveLength(1);
    expect(runs.B?.map((r) => [r.workflow?.attempt, r.handleCode])).toEqual([
      [1, 500],
      [2, 200],
    ]);
    expect(runs.C?.map((r) => r.workflow?.attempt)).toEqual([1]);
    expect(nodeOf(run, 'B').logIds).toEqual([runs.B?.[1]?.logId]);
  });

  it.concurrent('e. cancel: the run is CANCELLED at once, the running node killed, nothing fires afterwards', async () => {
    const probe = new Probe();
    const appName = await groupWith('wf-cancel', {
      wfA: probe.handler('A', async (ctx) => {
        await sleep(30_000, ctx.signal);
        return 'A finished (should have been killed)';
      }),
      wfB: probe.handler('B'),
      wfC: probe.handler('C'),
    });
    const jobs = {
      A: await jobFor(appName, 'wfA'),
      B: await jobFor(appName, 'wfB'),
      C: await jobFor(appName, 'wfC'),
    };
    const workflow = await createWorkflow({
      name: 'cancel',
      appName,
      nodes: [
        { key: 'A', jobId: jobs.A },
        { key: 'B', jobId: jobs.B, upstream: [{ key: 'A' }] },
        { key: 'C', jobId: jobs.C, upstream: [{ key: 'B', condition: 'ALWAYS' }] },
      ],
    });

    const runId = (await started(workflow.id)).id as string;
    await waitFor(() => probe.of('A').length === 1, { what: 'A running at the executor' });
    // The node's run is known to the workflow run (the kill needs it).
    await waitRun(runId, (r) => nodeOf(r, 'A').logIds.length === 1, 10_000, "knowing A's job run");
    const cancelAt = Date.now();
    const cancelled = await e.call('POST', `/v1/workflow-runs/${runId}/cancel`);
    const cancelMs = Date.now() - cancelAt;
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toMatchObject({ id: runId, status: 'CANCELLED' });
    expect(statuses(cancelled.body)).toMatchObject({ B: 'CANCELLED', C: 'CANCELLED' });

    // A's job run is killed (recorded as such), its handler aborted.
    const [aRun] = await e.waitForRuns(jobs.A, 1);
    expect(aRun).toMatchObject({ handleCode: 500, workflow: { runId, node: 'A', attempt: 1 } });
    expect(aRun?.handleMsg).toContain('killed by user');
    await waitFor(() => probe.one('A').endedAt !== undefined, { what: "A's handler to stop" });
    const a = probe.one('A');
    expect(a.aborted).toBeDefined();

    await quietPeriod(Date.now(), 3_000, 'anything fired after the cancel');
    const run = await getRun(runId);
    expect(run.status).toBe('CANCELLED');
    expect(run.finishedAt).toBeTruthy();
    expect(nodeOf(run, 'B')).toMatchObject({
      status: 'CANCELLED',
      reason: 'the run was cancelled',
      logIds: [],
    });
    expect(nodeOf(run, 'C')).toMatchObject({
      status: 'CANCELLED',
      reason: 'the run was cancelled',
      logIds: [],
    });
    // A's outcome (the kill) is recorded in the cancelled run; it fires nothing.
    expect(nodeOf(run, 'A').status).toBe('FAILED');
    expect(probe.counts()).toEqual({ A: 1 });
    const runs = await jobRuns(jobs);
    expect([runs.A?.length, runs.B?.length, runs.C?.length]).toEqual([1, 0, 0]);
    // A cancelled run is not active: the next trigger (SKIP policy) starts.
    const again = await trigger(workflow.id);
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    await waitFor(() => probe.of('A').length === 2, { what: "the second run's A at the executor" });
    await waitRun(again.body.id, (r) => nodeOf(r, 'A').logIds.length === 1, 10_000, "knowing A's job run");
    expect((await e.call('POST', `/v1/workflow-runs/${again.body.id}/cancel`)).status).toBe(200);
    await waitFor(() => probe.of('A').length === 2 && probe.of('A')[1]?.endedAt !== undefined, {
      what: "the second run's A killed",
    });
    console.log(
      `[measure] workflows e (cancel): POST cancel answered in ${cancelMs} ms; A's handler aborted ${
        a.endedAt! - cancelAt
      } ms after the cancel was sent`,
    );
  });

  it.concurrent('f. overlap policies: SKIP refuses, BUFFER_ONE queues one, ALLOW runs both, CANCEL_PREVIOUS replaces', async () => {
    const probe = new Probe();
    const slow = (policy: string, firstCallMs = 2_000) => {
      let calls = 0;
      return probe.handler(policy, async (ctx) => {
        await sleep(++calls === 1 ? firstCallMs : 2_000, ctx.signal);
        return `${policy} done`;
      });
    };
    const policies = ['SKIP', 'BUFFER_ONE', 'ALLOW', 'CANCEL_PREVIOUS'] as const;
    // CANCEL_PREVIOUS's first run can end only by the kill: on a loaded machine the cancel may come
    // seconds after the handler started.
    const handlers = Object.fromEntries(
      policies.map((p) => [`wf${p}`, p === 'CANCEL_PREVIOUS' ? slow(p, 60_000) : slow(p)]),
    );
    // Two executors: ALLOW's two runs of the same job go one to each (ROUND), so they really run at once
    // (an executor runs one job's runs one after the other).
    const appName = await groupWith('wf-overlap', handlers, 2);
    const workflows: Record<string, View> = {};
    for (const policy of policies) {
      const jobId = await jobFor(appName, `wf${policy}`, { executorRouteStrategy: 'ROUND' });
      workflows[policy] = await createWorkflow({
        name: `overlap ${policy}`,
        appName,
        overlapPolicy: policy,
        nodes: [{ key: 'slow', jobId }],
      });
    }
    const wf = (p: (typeof policies)[number]) => workflows[p].id as number;
    const firstCallOf = (policy: string, n = 1) =>
      waitFor(() => probe.of(policy).length >= n, { what: `${policy}: call ${n} at the executor` });

    await Promise.all([
      // SKIP: the second trigger while the first runs is refused (409); the first goes on.
      (async () => {
        const first = await started(wf('SKIP'));
        expect(first.status).toBe('RUNNING');
        const second = await trigger(wf('SKIP'));
        expect(second.status, JSON.stringify(second.body)).toBe(409);
        expect(JSON.stringify(second.body)).toContain('SKIP');
        expect((await waitRun(first.id)).status).toBe('SUCCEEDED');
        expect(await runsOfWorkflow(wf('SKIP'))).toHaveLength(1);
        expect(probe.of('SKIP')).toHaveLength(1);
      })(),
      // BUFFER_ONE: the second waits (QUEUED) and starts when the first ends; a third meanwhile is refused.
      (async () => {
        const first = await started(wf('BUFFER_ONE'));
        const second = await started(wf('BUFFER_ONE'));
        expect([first.status, second.status]).toEqual(['RUNNING', 'QUEUED']);
        const third = await trigger(wf('BUFFER_ONE'));
        expect(third.status, JSON.stringify(third.body)).toBe(409);
        const queued = await getRun(second.id);
        expect(queued.status).toBe('QUEUED');
        const one = await waitRun(first.id);
        const two = await waitRun(second.id);
        expect([one.status, two.status]).toEqual(['SUCCEEDED', 'SUCCEEDED']);
        expect(time(two.startedAt)).toBeGreaterThanOrEqual(time(one.finishedAt));
        const [c1, c2] = probe.of('BUFFER_ONE') as [Call, Call];
        expect(probe.of('BUFFER_ONE')).toHaveLength(2);
        expect(c2.startedAt).toBeGreaterThanOrEqual(c1.endedAt!);
        expect(await runsOfWorkflow(wf('BUFFER_ONE'))).toHaveLength(2);
        console.log(
          `[measure] workflows f (BUFFER_ONE): first run's end → buffered run's start ${
            time(two.startedAt) - time(one.finishedAt)
          } ms; first handler end → second handler start ${c2.startedAt - c1.endedAt!} ms`,
        );
      })(),
      // ALLOW: both run at once.
      (async () => {
        const first = await started(wf('ALLOW'));
        await firstCallOf('ALLOW');
        const second = await started(wf('ALLOW'));
        expect([first.status, second.status]).toEqual(['RUNNING', 'RUNNING']);
        const [one, two] = [await waitRun(first.id), await waitRun(second.id)];
        expect([one.status, two.status]).toEqual(['SUCCEEDED', 'SUCCEEDED']);
        expect(time(two.startedAt)).toBeLessThan(time(one.finishedAt));
        const [c1, c2] = probe.of('ALLOW') as [Call, Call];
        expect(probe.of('ALLOW')).toHaveLength(2);
        expect(c2.startedAt).toBeLessThan(c1.endedAt!);
      })(),
      // CANCEL_PREVIOUS: the second cancels the first (its node killed) and runs.
      (async () => {
        const first = await started(wf('CANCEL_PREVIOUS'));
        await firstCallOf('CANCEL_PREVIOUS');
        await waitRun(
          first.id,
          (r) => nodeOf(r, 'slow').logIds.length === 1,
          10_000,
          "knowing its node's job run",
        );
        const second = await started(wf('CANCEL_PREVIOUS'));
        expect(second.status).toBe('RUNNING');
        const one = await getRun(first.id);
        expect(one.status).toBe('CANCELLED');
        const two = await waitRun(second.id);
        expect(two.status, JSON.stringify(two)).toBe('SUCCEEDED');
        const [c1, c2] = probe.of('CANCEL_PREVIOUS') as [Call, Call];
        expect(probe.of('CANCEL_PREVIOUS')).toHaveLength(2);
        // The kill reaches the first handler on its own time (the cancel's answer does not wait for it).
        await waitFor(() => c1.endedAt !== undefined, { what: "the first run's handler ended by the kill" });
        expect(c1.aborted).toBeDefined();
        expect(c2.aborted).toBeUndefined();
        expect((await getRun(first.id)).status).toBe('CANCELLED');
      })(),
    ]);
  });

  it.concurrent('g. a scheduled workflow (FIX_RATE 2 s, SKIP) starts runs on its schedule until stopped', async () => {
    const probe = new Probe();
    const appName = await groupWith('wf-schedule', { wfTick: probe.handler('tick', () => 'tick') });
    const jobId = await jobFor(appName, 'wfTick');
    const createdAt = Date.now();
    const workflow = await createWorkflow({
      name: 'every 2 s',
      appName,
      scheduleType: 'FIX_RATE',
      scheduleConf: '2',
      triggerStatus: 'RUNNING',
      overlapPolicy: 'SKIP',
      nodes: [{ key: 'tick', jobId }],
    });
    expect(workflow).toMatchObject({ triggerStatus: 'RUNNING', scheduleType: 'FIX_RATE' });
    expect(workflow.starterJobId).toEqual(expect.any(Number));

    await waitFor(
      async () => {
        const runs = await runsOfWorkflow(workflow.id);
        return runs.filter((r) => r.status === 'SUCCEEDED').length >= 2;
      },
      { what: 'two scheduled runs succeeded', timeoutMs: 30_000, intervalMs: 250 },
    );
    const stop = await e.call('POST', `/v1/workflows/${workflow.id}/stop`);
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    expect(stop.body.triggerStatus).toBe('STOPPED');
    const stoppedAt = Date.now();
    // A fire already claimed at the stop may still start a run; give it time to show.
    await quietPeriod(stoppedAt, 1_500, 'runs already on their way at the stop');
    const atStop = await runsOfWorkflow(workflow.id);
    await quietPeriod(Date.now(), 4_500, 'no run after the stop');
    const after = await waitFor(
      async () => {
        const runs = await runsOfWorkflow(workflow.id);
        return runs.every((r) => TERMINAL.includes(r.status)) ? runs : undefined;
      },
      { what: 'every scheduled run ended' },
    );

    expect(after.map((r) => r.id).sort()).toEqual(atStop.map((r) => r.id).sort());
    expect(after.length).toBeGreaterThanOrEqual(2);
    for (const run of after) {
      expect(run.status, JSON.stringify(run)).toBe('SUCCEEDED');
      expect(run.trigger).toMatchObject({ type: 'SCHEDULE' });
      expect(run.id).toBe(`wr-s${run.trigger.starterLogId}`);
      expect(time(run.createdAt)).toBeLessThan(stoppedAt + 1_500);
    }
    expect(probe.of('tick')).toHaveLength(after.length);
    // The starter job's runs are the schedule's fires, each one a run started.
    const starterRuns = await e.runsOf(workflow.starterJobId);
    expect(starterRuns.map((r) => r.logId).sort()).toEqual(after.map((r) => r.trigger.starterLogId).sort());
    const gaps = starterRuns.slice(1).map((r, i) => r.scheduledTime - (starterRuns[i] as Run).scheduledTime);
    expect(gaps.every((g) => g === 2_000)).toBe(true);
    console.log(
      `[measure] workflows g (schedule): ${after.length} runs; create → first run ${
        Math.min(...after.map((r) => time(r.createdAt))) - createdAt
      } ms`,
    );
  });

  it.concurrent("h. a broadcast node finishes when both shards did; its result is both shards' results", async () => {
    const probe = new Probe();
    const appName = await groupWith(
      'wf-broadcast',
      {
        wfShard: probe.handler('S', (ctx) => ({ shard: ctx.shardIndex, of: ctx.shardTotal })),
        wfAfter: probe.handler('after', (ctx) => `after ${ctx.param}`),
      },
      2,
    );
    const jobs = {
      S: await jobFor(appName, 'wfShard', { executorRouteStrategy: 'SHARDING_BROADCAST' }),
      after: await jobFor(appName, 'wfAfter'),
    };
    const workflow = await createWorkflow({
      name: 'broadcast',
      appName,
      nodes: [
        { key: 'S', jobId: jobs.S },
        {
          key: 'after',
          jobId: jobs.after,
          upstream: [{ key: 'S' }],
          executorParam:
            '{{ nodes.S.result[0].shard }},{{ nodes.S.result[1].shard }} of {{ nodes.S.result[1].of }}',
        },
      ],
    });

    const run = await waitRun((await started(workflow.id)).id);
    expect(run.status, JSON.stringify(run)).toBe('SUCCEEDED');
    expect(JSON.parse(nodeOf(run, 'S').result)).toEqual([
      { shard: 0, of: 2 },
      { shard: 1, of: 2 },
    ]);
    expect(
      probe
        .of('S')
        .map((c) => `${c.shardIndex}/${c.shardTotal}`)
        .sort(),
    ).toEqual(['0/2', '1/2']);
    expect(probe.counts()).toEqual({ S: 2, after: 1 });
    expect(probe.one('after').param).toBe('0,1 of 2');
    expect(probe.one('after').startedAt).toBeGreaterThanOrEqual(
      Math.max(...probe.of('S').map((c) => c.endedAt!)),
    );
    const runs = await jobRuns(jobs);
    expect(runs.S).toHaveLength(2);
    expect(runs.after).toHaveLength(1);
    expect(new Set(runs.S?.map((r) => r.executorAddress)).size).toBe(2);
    expect([...nodeOf(run, 'S').logIds].sort()).toEqual(runs.S?.map((r) => r.logId).sort());
  });
});
