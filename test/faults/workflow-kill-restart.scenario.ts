import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExecutor, type Executor, type JobContext, silentLogger } from '@tickring/executor';
import { afterAll, describe, expect, it } from 'vitest';
import type { LocalStoreName } from '../../local/start-local.js';
import { waitFor } from '../stand-ins.js';
import {
  adminClient,
  createAutoGroup,
  createNodeJobs,
  freePort,
  killAllStacks,
  logSummary,
  portIsClosed,
  portOf,
  quietPeriod,
  type RunView,
  randomToken,
  runsOf,
  type StackProcess,
  spawnStack,
  waitForExecutorOnline,
} from './fault-kit.js';

/**
 * kill -9 of the whole local stack (a data dir: its SQLite file, or its own DynamoDB Local and SQS
 * stand-in) twice during one run of a workflow A → B → C → D whose nodes run on an executor outside the killed
 * process (this test's own SDK executor), each time restarted on the same data dir and port:
 *
 * 1. While B runs (A has finished and fired B; B's end is not reported yet). B ends while the stack
 *    is down: the executor spools its result and sends it again until the restarted stack takes it;
 *    B's outcome then advances the run and C runs.
 * 2. At the C → D transition: the instant the stack has answered C's result (its callback stored
 *    it, advanced the run and put D's fire on the ring), before a dispatcher claims that fire. On SQLite
 *    the ring is in the file: the restarted stack dispatches D's fire. On DynamoDB Local the ring
 *    lives in the killed process's memory (the SQS stand-in), so the fire is gone: only the
 *    monitors' stalled-run sweep fires D again, once the run has not moved for
 *    TICKRING_WORKFLOW_STALLED_SECONDS (5 s here, 60 by default; to 10 s more); the monitors run
 *    every 5 s here instead of every minute. Either way, no more than once.
 *
 * The run ends SUCCEEDED, each node's job run exactly once, each handler called once.
 */

const B_SLEEPS_MS = 3_000;
/** How far into B's sleep the first kill lands. */
const KILL_INTO_B_MS = 1_000;
const MONITOR_PERIOD_MS = 5_000;
const STALLED_SECONDS = 5;

/**
 * Forwards the executor's calls to the admin at `target`; `killAfterCallbackOf(logId, kill)` runs
 * `kill` the moment the admin has answered 200 to a callback carrying that run's result.
 */
async function startRelay(target: string): Promise<{
  url: string;
  killAfterCallbackOf(logId: number, kill: () => Promise<void>): void;
  killedAt(): number | undefined;
  close(): Promise<void>;
}> {
  let armed: { logId: number; kill: () => Promise<void> } | undefined;
  let killedAt: number | undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && key !== 'host' && key !== 'content-length') headers[key] = value;
      }
      const body = Buffer.concat(chunks);
      fetch(`${target}${req.url ?? '/'}`, { method: req.method ?? 'POST', headers, body })
        .then(async (upstream) => {
          const text = await upstream.text();
          const target = armed;
          if (
            target &&
            req.url === '/api/callback' &&
            upstream.status === 200 &&
            body.toString('utf8').includes(`"logId":${target.logId}`)
          ) {
            armed = undefined;
            killedAt = Date.now();
            await target.kill();
          }
          res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    killAfterCallbackOf(logId, kill) {
      armed = { logId, kill };
    },
    killedAt: () => killedAt,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function workflowKillRestartScenario(store: LocalStoreName): void {
  describe(`fault on ${store}: kill -9 of the stack during a workflow run, restart on the same data dir`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tickring-fault-wf-kill-'));
    const logDir = mkdtempSync(join(tmpdir(), 'tickring-fault-wf-kill-executor-'));
    let executor: Executor | undefined;
    let relay: Awaited<ReturnType<typeof startRelay>> | undefined;
    const stacks: StackProcess[] = [];

    afterAll(async () => {
      await executor?.stop();
      await relay?.close();
      await Promise.all(stacks.map((s) => s.stop()));
      await killAllStacks();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(logDir, { recursive: true, force: true });
    });

    it('finishes the run SUCCEEDED after each restart, each node run once', async () => {
      const began = Date.now();
      const port = await freePort();
      const adminToken = randomToken();
      const accessToken = randomToken();
      const options = {
        store,
        port,
        dataDir,
        demo: false,
        logLevel: 'info',
        adminToken,
        accessToken,
        monitorPeriodMs: MONITOR_PERIOD_MS,
        settings: { TICKRING_WORKFLOW_STALLED_SECONDS: String(STALLED_SECONDS) },
      };
      let stack = await spawnStack(options, { label: 'wf-stack-1' });
      stacks.push(stack);
      const firstReadyMs = Date.now() - began;
      const api = adminClient(stack.api, adminToken);
      relay = await startRelay(stack.api);
      const killAndReap = async (killed: StackProcess) => {
        await killed.killHard();
        const { dynamodb } = killed;
        await Promise.all([
          dynamodb === undefined
            ? undefined
            : waitFor(() => portIsClosed(portOf(dynamodb)), {
                what: "the killed stack's DynamoDB Local to exit",
                timeoutMs: 15_000,
              }),
          killed.reaped(),
        ]);
      };

      const appName = 'fault-wf-kill9';
      await createAutoGroup(api, appName);
      const calls: { node: string; logId: number; param: string; startedAt: number; endedAt?: number }[] = [];
      const handler =
        (node: string, ms: number, result: (ctx: JobContext) => unknown) =>
        async (ctx: JobContext): Promise<string> => {
          const call: (typeof calls)[number] = {
            node,
            logId: ctx.logId,
            param: ctx.param,
            startedAt: Date.now(),
          };
          calls.push(call);
          await new Promise((r) => setTimeout(r, ms));
          call.endedAt = Date.now();
          return result(ctx) as string;
        };
      executor = createExecutor({
        appName,
        adminAddresses: relay.url,
        accessToken,
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
        handler('A', 0, () => ({ batch: 'b-9' })),
      );
      executor.register(
        'wfB',
        handler('B', B_SLEEPS_MS, (ctx) => `B done with ${ctx.param}`),
      );
      executor.register(
        'wfC',
        handler('C', 0, (ctx) => `C got ${ctx.param}`),
      );
      executor.register(
        'wfD',
        handler('D', 0, (ctx) => `D got ${ctx.param}`),
      );
      await executor.start();
      await waitForExecutorOnline(api, appName);
      const jobs = await createNodeJobs(api, appName, ['A', 'B', 'C', 'D']);
      const created = await api('POST', '/v1/workflows', {
        name: 'killed mid-run',
        appName,
        nodes: [
          { key: 'A', jobId: jobs.A },
          { key: 'B', jobId: jobs.B, upstream: [{ key: 'A' }], executorParam: '{{ nodes.A.result.batch }}' },
          { key: 'C', jobId: jobs.C, upstream: [{ key: 'B' }], executorParam: '{{ nodes.B.result }}' },
          { key: 'D', jobId: jobs.D, upstream: [{ key: 'C' }], executorParam: '{{ nodes.C.result }}' },
        ],
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const triggered = await api('POST', `/v1/workflows/${created.body.id}/trigger`, {});
      expect(triggered.status, JSON.stringify(triggered.body)).toBe(202);
      const runId = triggered.body.id as string;
      const nodeStatuses = async () => {
        const reply = await api('GET', `/v1/workflow-runs/${runId}`);
        return Object.fromEntries(
          (reply.body.nodes as { key: string; status: string }[]).map((n) => [n.key, n.status]),
        );
      };

      // 1. Killed while B runs, and known to the run as its node's job run.
      const bCall = await waitFor(() => calls.find((c) => c.node === 'B'), {
        what: 'B running',
        timeoutMs: 20_000,
      });
      expect(await nodeStatuses()).toEqual({ A: 'SUCCEEDED', B: 'RUNNING', C: 'PENDING', D: 'PENDING' });
      await new Promise((r) => setTimeout(r, Math.max(0, bCall.startedAt + KILL_INTO_B_MS - Date.now())));
      // From the restart on, the stack is killed again as soon as it has taken C's result.
      const armKillAtC = () => {
        const cCall = calls.find((c) => c.node === 'C');
        if (cCall) relay!.killAfterCallbackOf(cCall.logId, () => killAndReap(stack));
        return cCall !== undefined;
      };
      const first = stack;
      const kill1At = Date.now();
      await killAndReap(first);
      expect(bCall.endedAt, 'B still running at the kill').toBeUndefined();
      stack = await spawnStack(options, { label: 'wf-stack-2' });
      stacks.push(stack);
      const ready1At = Date.now();

      // 2. Killed the moment C's result is taken: D's fire, just put on the ring, goes with the process.
      // (C is quick: its callback is sent right after it starts, so the kill is armed as C starts.)
      await waitFor(armKillAtC, { what: 'C running', timeoutMs: 30_000, intervalMs: 5 });
      await waitFor(() => relay!.killedAt() !== undefined, {
        what: "the kill after C's result",
        timeoutMs: 20_000,
      });
      const kill2At = relay.killedAt() as number;
      const second = stack;
      await second.exited;
      const dBeforeRestart = calls.filter((c) => c.node === 'D').length;
      stack = await spawnStack(options, { label: 'wf-stack-3' });
      stacks.push(stack);
      const ready2At = Date.now();

      const run = await waitFor(
        async () => {
          const reply = await api('GET', `/v1/workflow-runs/${runId}`);
          return ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(reply.body?.status) ? reply.body : undefined;
        },
        { what: `workflow run ${runId} ended after the restarts`, timeoutMs: 100_000, intervalMs: 250 },
      );
      const endedAt = Date.now();
      await quietPeriod(Date.now(), 2_000, 'anything run twice');

      const logLines = [...first.lines, ...second.lines, ...stack.lines];
      expect(run.status, `${JSON.stringify(run)}\nWARN/ERROR: ${logSummary(logLines)}`).toBe('SUCCEEDED');
      type NodeView = { key: string; status: string; attempt: number; logIds: number[]; result: string };
      const byNode = Object.fromEntries((run.nodes as NodeView[]).map((n) => [n.key, n]));
      expect(Object.values(byNode).map((n) => [n.key, n.status, n.attempt])).toEqual([
        ['A', 'SUCCEEDED', 1],
        ['B', 'SUCCEEDED', 1],
        ['C', 'SUCCEEDED', 1],
        ['D', 'SUCCEEDED', 1],
      ]);
      expect(byNode.D?.result).toBe('D got C got B done with b-9');
      const runs = new Map<string, RunView[]>();
      for (const [node, jobId] of Object.entries(jobs)) runs.set(node, await runsOf(api, jobId));
      expect(Object.fromEntries([...runs].map(([node, list]) => [node, list.length]))).toEqual({
        A: 1,
        B: 1,
        C: 1,
        D: 1,
      });
      for (const [node, list] of runs) {
        expect(list[0], `node ${node}'s run`).toMatchObject({ status: 'success', triggerType: 'WORKFLOW' });
        expect(byNode[node]?.logIds).toEqual([list[0]?.logId]);
      }
      expect(calls.map((c) => c.node)).toEqual(['A', 'B', 'C', 'D']);

      const bStored = Date.parse(runs.get('B')?.[0]?.handleTime ?? '');
      const cCall = calls.find((c) => c.node === 'C');
      const dCall = calls.find((c) => c.node === 'D');
      const sweepLine = stack.lines.find((l) => l.includes('[monitors] workflow nodes fired again'));
      console.log(
        `[faults wf-kill, ${store}] run ${runId} ${run.status}; first stack ready in ${firstReadyMs} ms. ` +
          `Kill 1, ${kill1At - bCall.startedAt} ms into B (B ended ${(bCall.endedAt ?? 0) - kill1At} ms after it, ` +
          `the stack down): restarted ready ${ready1At - kill1At} ms after the kill; B's result stored ${bStored - ready1At} ms ` +
          `and C started ${(cCall?.startedAt ?? 0) - ready1At} ms after ready. Kill 2, as C's result was taken ` +
          `(D run before the restart: ${dBeforeRestart}): restarted ready ${ready2At - kill2At} ms after the kill; D fired ` +
          `${sweepLine ? 'again by the stalled-run sweep' : 'WITHOUT the sweep (from the ring)'} and started ${
            (dCall?.startedAt ?? 0) - kill2At
          } ms after the kill; run ended ${endedAt - ready2At} ms after ready. Whole test ${Date.now() - began} ms. ` +
          `WARN/ERROR lines: ${logSummary(logLines)}`,
      );
    }, 170_000);
  });
}
