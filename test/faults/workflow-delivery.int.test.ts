import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FUNCTIONS } from '@tickring/aws/topology';
import { type HandedOffFires, isHandedOffFires, parseRingMessage } from '@tickring/core/dispatch';
import { createExecutor, type Executor, type JobContext, silentLogger } from '@tickring/executor';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HandlerWrapper } from '../../local/functions.js';
import type { LambdaHandler } from '../../local/lambda-host.js';
import type { AnyLocalStack } from '../../local/start-local.js';
import { waitFor } from '../stand-ins.js';
import {
  type Api,
  createAutoGroup,
  createNodeJobs,
  quietPeriod,
  type RunView,
  runsOf,
  startSharedStack,
  waitForExecutorOnline,
} from './fault-kit.js';

/**
 * A workflow's node fires delivered three times, and every callback sent three times: still one job
 * run per node, each handler called once, the run SUCCEEDED.
 *
 * - The fires: the dispatcher is wrapped (startLocal's `wrapHandler`, as the bench injects its
 *   faults) so that each node fire handed to it directly (an asynchronous invocation on AWS), or a
 *   ring record carrying one (a retry, a fire re-sent by the monitors), reaches it three times, as
 *   at-least-once delivery may: the event itself, a copy in a second
 *   invocation at the same moment (two dispatchers race for the claim), and a copy 700 ms later
 *   (while the slow nodes run, after the quick ones have finished and the run moved on).
 * - The callbacks: the real SDK executor reaches the admin through a relay that sends each
 *   `/api/callback` POST three times: twice at once, and once more 500 ms later.
 */

const LATE_COPY_MS = 700;
const LATE_CALLBACK_MS = 500;

/**
 * Workflow node fires handed to the dispatcher again, and what became of the copies: a ring record
 * carrying one, or a node handed to the dispatcher directly (an asynchronous invocation, at least
 * once on Lambda too).
 */
class RingDuplicator {
  /** Deliveries per node fire (dedupKey), the original's included. */
  readonly deliveries = new Map<string, number>();
  readonly copyFailures: string[] = [];
  private readonly pending = new Set<Promise<unknown>>();

  readonly wrapHandler: HandlerWrapper = (functionName, handler) => {
    if (functionName !== 'dispatcher') return handler;
    const dispatch = handler as LambdaHandler<SQSEvent | HandedOffFires, SQSBatchResponse>;
    return (async (event: SQSEvent | HandedOffFires, context: Context) => {
      if (isHandedOffFires(event)) {
        const keys = event.fires.filter((f) => f.workflow !== undefined).map((f) => f.dedupKey);
        if (keys.length > 0) {
          this.counted(keys);
          this.copy(dispatch, () => event, 0);
          this.copy(dispatch, () => event, LATE_COPY_MS);
        }
        return dispatch(event, context);
      }
      const workflowRecords = event.Records.filter((record) => {
        try {
          const { fires } = parseRingMessage(record.body);
          const keys = fires.filter((f) => f.workflow !== undefined).map((f) => f.dedupKey);
          this.counted(keys);
          return keys.length > 0;
        } catch {
          return false;
        }
      });
      if (workflowRecords.length > 0) {
        // Copies with fresh message ids, as SQS hands a message again.
        const copies = () => ({ Records: workflowRecords.map((r) => ({ ...r, messageId: randomUUID() })) });
        this.copy(dispatch, copies, 0);
        this.copy(dispatch, copies, LATE_COPY_MS);
      }
      return dispatch(event, context);
    }) as LambdaHandler;
  };

  /** Each fire is delivered three times: the original and two copies. */
  private counted(keys: readonly string[]): void {
    for (const key of keys) this.deliveries.set(key, (this.deliveries.get(key) ?? 0) + 3);
  }

  /** Hands a copy to the dispatcher in an invocation of its own, `afterMs` from now. */
  private copy(
    dispatch: LambdaHandler<SQSEvent | HandedOffFires, SQSBatchResponse>,
    event: () => SQSEvent | HandedOffFires,
    afterMs: number,
  ): void {
    const done = new Promise((r) => setTimeout(r, afterMs))
      .then(() => {
        const deadline = Date.now() + FUNCTIONS.dispatcher.timeoutSeconds * 1000;
        const context = {
          awsRequestId: randomUUID(),
          functionName: 'dispatcher',
          getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
        } as unknown as Context;
        return dispatch(event(), context);
      })
      .then((reply) => {
        if ((reply?.batchItemFailures.length ?? 0) > 0) {
          this.copyFailures.push(`copy after ${afterMs} ms: ${JSON.stringify(reply)}`);
        }
      })
      .catch((err: unknown) => this.copyFailures.push(`copy after ${afterMs} ms threw: ${String(err)}`))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** Waits for the copies still on their way. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}

/** Forwards an executor's calls to the admin; each `/api/callback` POST is sent three times. */
interface CallbackTripler {
  readonly url: string;
  /** Every callback POST sent to the admin: the logIds it carried and the answer. */
  readonly sent: {
    readonly logIds: number[];
    readonly copy: number;
    readonly status: number;
    readonly body: string;
  }[];
  settled(): Promise<void>;
  close(): Promise<void>;
}

async function startCallbackTripler(target: string): Promise<CallbackTripler> {
  const sent: CallbackTripler['sent'] = [];
  const pending = new Set<Promise<unknown>>();
  const forward = async (path: string, headers: Record<string, string>, body: Buffer, copy: number) => {
    const res = await fetch(`${target}${path}`, { method: 'POST', headers, body });
    const text = await res.text();
    if (path === '/api/callback') {
      const parsed = JSON.parse(body.toString('utf8')) as
        | { logId: number }[]
        | { callbackList: { logId: number }[] };
      const items = Array.isArray(parsed) ? parsed : parsed.callbackList;
      sent.push({ logIds: items.map((i) => i.logId), copy, status: res.status, body: text });
    }
    return { status: res.status, text };
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && key !== 'host' && key !== 'content-length') headers[key] = value;
      }
      const path = req.url ?? '/';
      const body = Buffer.concat(chunks);
      const track = (p: Promise<unknown>) => {
        const t = p.catch(() => undefined).finally(() => pending.delete(t));
        pending.add(t);
      };
      if (path === '/api/callback') {
        track(forward(path, headers, body, 2));
        track(
          new Promise((r) => setTimeout(r, LATE_CALLBACK_MS)).then(() => forward(path, headers, body, 3)),
        );
      }
      forward(path, headers, body, 1)
        .then(({ status, text }) => res.writeHead(status, { 'content-type': 'application/json' }).end(text))
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sent,
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('fault: workflow node fires delivered three times, callbacks sent three times', () => {
  const ring = new RingDuplicator();
  let stack: AnyLocalStack;
  let api: Api;
  let tripler: CallbackTripler | undefined;
  let executor: Executor | undefined;
  let logDir: string | undefined;

  beforeAll(async () => {
    ({ stack, api } = await startSharedStack({
      wrapHandler: ring.wrapHandler,
      // FAULTS_LOG=1 shows the stack's log (what each copy came to).
      logLevel: process.env.FAULTS_LOG === '1' ? 'info' : 'silent',
    }));
  });

  afterAll(async () => {
    await ring.settled();
    await tripler?.settled();
    await executor?.stop();
    await tripler?.close();
    await stack?.stop();
    if (logDir) await rm(logDir, { recursive: true, force: true });
  });

  it('runs each node once: one job run per node, each handler called once, the run SUCCEEDED', async () => {
    const appName = 'fault-wf-delivery';
    await createAutoGroup(api, appName);
    tripler = await startCallbackTripler(stack.urls.api);
    logDir = await mkdtemp(join(tmpdir(), 'tickring-fault-wf-'));
    const calls: { node: string; logId: number; param: string; at: number }[] = [];
    const handler =
      (node: string, ms: number, result: (ctx: JobContext) => unknown) => async (ctx: JobContext) => {
        calls.push({ node, logId: ctx.logId, param: ctx.param, at: Date.now() });
        await new Promise((r) => setTimeout(r, ms));
        return result(ctx) as string;
      };
    executor = createExecutor({
      appName,
      adminAddresses: tripler.url,
      accessToken: stack.tokens.accessToken,
      host: '127.0.0.1',
      port: 0,
      logDir,
      logRetentionDays: 0,
      logger: silentLogger,
      registryIntervalMs: 1_000,
      callbackRetryIntervalMs: 1_000,
    });
    executor.register(
      'wfA',
      handler('A', 0, () => ({ rows: 5 })),
    );
    executor.register(
      'wfB',
      handler('B', 1_500, (ctx) => `B(${ctx.param})`),
    );
    executor.register(
      'wfC',
      handler('C', 1_500, (ctx) => `C(${ctx.param})`),
    );
    executor.register(
      'wfD',
      handler('D', 0, (ctx) => `D(${ctx.param})`),
    );
    await executor.start();
    await waitForExecutorOnline(api, appName);
    const jobs = await createNodeJobs(api, appName, ['A', 'B', 'C', 'D']);
    const created = await api('POST', '/v1/workflows', {
      name: 'delivered three times',
      appName,
      nodes: [
        { key: 'A', jobId: jobs.A },
        { key: 'B', jobId: jobs.B, upstream: [{ key: 'A' }], executorParam: 'b{{ nodes.A.result.rows }}' },
        { key: 'C', jobId: jobs.C, upstream: [{ key: 'A' }], executorParam: 'c{{ nodes.A.result.rows }}' },
        {
          key: 'D',
          jobId: jobs.D,
          upstream: [{ key: 'B' }, { key: 'C' }],
          executorParam: '{{ nodes.B.result }}+{{ nodes.C.result }}',
        },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const triggered = await api('POST', `/v1/workflows/${created.body.id}/trigger`, {});
    expect(triggered.status, JSON.stringify(triggered.body)).toBe(202);
    const runId = triggered.body.id as string;
    const run = await waitFor(
      async () => {
        const reply = await api('GET', `/v1/workflow-runs/${runId}`);
        return ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(reply.body?.status) ? reply.body : undefined;
      },
      { what: `workflow run ${runId} ended`, timeoutMs: 30_000 },
    );
    // The late copies (fires, callbacks) land after the end too.
    await quietPeriod(Date.now(), 2_000, 'late copies of fires and callbacks');
    await ring.settled();
    await tripler.settled();

    // The faults really happened: each node's fire went to the dispatcher three times, each callback
    // was sent three times and answered 200 every time (a repeat is "log repeate callback", not an error).
    // (At least three: a node the engine fired again, not claimed yet when a stale copy moved nothing,
    // comes back through the ring, tripled again.)
    const nodeKeys = ['A', 'B', 'C', 'D'].map((node) => `wf#${runId}#${node}#1`);
    for (const key of nodeKeys)
      expect(ring.deliveries.get(key), `deliveries of ${key}`).toBeGreaterThanOrEqual(3);
    expect(ring.copyFailures).toEqual([]);
    const callbacksPerLog = new Map<number, number>();
    for (const s of tripler.sent)
      for (const id of s.logIds) callbacksPerLog.set(id, (callbacksPerLog.get(id) ?? 0) + 1);
    expect(tripler.sent.filter((s) => s.status !== 200 || JSON.parse(s.body).code !== 200)).toEqual([]);

    expect(run.status, JSON.stringify(run)).toBe('SUCCEEDED');
    const after = (await api('GET', `/v1/workflow-runs/${runId}`)).body;
    expect(after.status).toBe('SUCCEEDED');
    type NodeView = { key: string; status: string; attempt: number; logIds: number[]; result: string };
    const byNode = Object.fromEntries((after.nodes as NodeView[]).map((n) => [n.key, n]));
    expect(Object.values(byNode).map((n) => [n.status, n.attempt])).toEqual([
      ['SUCCEEDED', 1],
      ['SUCCEEDED', 1],
      ['SUCCEEDED', 1],
      ['SUCCEEDED', 1],
    ]);
    expect(byNode.D?.result).toBe('D(B(b5)+C(c5))');

    const runs = new Map<string, RunView[]>();
    for (const [node, jobId] of Object.entries(jobs)) runs.set(node, await runsOf(api, jobId));
    expect(Object.fromEntries([...runs].map(([node, list]) => [node, list.length]))).toEqual({
      A: 1,
      B: 1,
      C: 1,
      D: 1,
    });
    for (const [node, list] of runs) {
      const [only] = list as [RunView];
      expect(only, `node ${node}'s run`).toMatchObject({ status: 'success', triggerType: 'WORKFLOW' });
      expect(byNode[node]?.logIds).toEqual([only.logId]);
      // Its result was sent three times.
      expect(callbacksPerLog.get(only.logId), `callbacks of node ${node}'s run`).toBe(3);
    }
    expect(calls.map((c) => c.node).sort()).toEqual(['A', 'B', 'C', 'D']);
    expect(calls.map((c) => c.logId).sort()).toEqual(
      [...runs.values()].map((l) => (l[0] as RunView).logId).sort(),
    );

    console.log(
      `[faults wf-delivery] run ${runId} ${after.status}: deliveries per node fire ${nodeKeys
        .map((k) => ring.deliveries.get(k))
        .join('/')}, callback POSTs ${tripler.sent.length} (each result 3 times, all answered 200); ` +
        `job runs per node ${[...runs.values()].map((l) => l.length).join('/')}, handler calls ${calls.length}`,
    );
  });
});
