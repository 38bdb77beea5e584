import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createExecutor, type Executor, silentLogger } from '../executor/index.js';
import { SqsPoller } from '../local/sqs-poller.js';
import { DISPATCHER_BATCHES_PER_QUEUE, type LocalStack, startLocal } from '../local/start-local.js';
import { silentLogger as silentStackLogger } from '../shared/ports/logger.js';
import { mapLimit } from '../shared/util/concurrency.js';
import { type ResourceReport, ResourceSampler } from './process-stats.js';
import { RequestCounter } from './request-counter.js';
import { type Summary, summarize } from './stats.js';
import type { StandInEndpoints } from './tick-throughput.js';

export interface SteadyStateOptions {
  /** Jobs, each firing every second. */
  readonly jobs: number;
  /** Length of the measured window, s. */
  readonly seconds: number;
  readonly executors: number;
  /** After the window, how long to wait for its last fires before counting the rest as missed, s. */
  readonly drainSeconds: number;
  /**
   * Concurrent dispatcher batches per ring queue. The local stack runs 4 (like a fresh event source
   * mapping); more are added here as extra pollers on the same function host, as Lambda's
   * scale-up would (AWS: 5 at first, +300 a minute, up to 1,000).
   */
  readonly pollers: number;
}

export interface SteadyStateResult {
  readonly jobs: number;
  readonly seconds: number;
  readonly executors: number;
  readonly pollersPerQueue: number;
  readonly routeStrategy: string;
  readonly windowStart: string;
  /** Creating the group and the jobs through the admin API, ms. */
  readonly setupMs: number;
  /** Offered load: jobs × seconds fires scheduled inside the window. */
  readonly expectedFires: number;
  /** Runs the executors started during the window's wall-clock time (any scheduled time), per second. */
  readonly runsPerSecond: { readonly mean: number; readonly minSecond: number; readonly maxSecond: number };
  /** Fires scheduled inside the window that ran (first start per fire). */
  readonly windowFiresRun: number;
  /** Fires scheduled inside the window that had not run when the drain deadline passed. */
  readonly missed: number;
  /** Second and later starts of the same (jobId, scheduledTime) on any executor. */
  readonly duplicates: number;
  /** From the window's end until its last fire started, ms (null when some never ran). */
  readonly drainMs: number | null;
  /** Handler start minus scheduled time, ms, over the window's fires that ran. */
  readonly latenessMs: Summary;
  /** Share of the window's fires that started within 1 s of their time. */
  readonly withinOneSecond: number;
  /** What the run table holds for the window's fires at the end. */
  readonly store: {
    readonly runs: number;
    readonly distinctFires: number;
    readonly succeeded: number;
    readonly notFinished: number;
    readonly failed: number;
  };
  /** Jobs the dispatcher moved to the slow lane (> 10 dispatches over 500 ms in a minute). */
  readonly jobsInSlowLane: number;
  /**
   * How far the tick was behind at the end: now minus the earliest next fire of any job (0 when every
   * job's next fire was still ahead, i.e. the tick had enqueued everything due so far).
   */
  readonly tickLagMs: number;
  /** Ring messages waiting (visible + delayed) when the window ended, and in the DLQs at the end. */
  readonly ringBacklogAtWindowEnd: { readonly fast: number; readonly slow: number };
  /** Ring messages (waiting or in flight) when the drain wait ended: where unrun fires still are. */
  readonly ringDepthAtDeadline: number;
  readonly deadLetters: number;
  /** Requests of the stack's clients during the window, per second. */
  readonly requestsPerSecond: { byOperation: Record<string, number>; dynamodb: number; sqs: number };
  /** Over the window only (CPU, event loop) ... */
  readonly window: ResourceReport;
  /** ... and over the whole section (memory peaks). */
  readonly overall: ResourceReport;
}

/** What startLocal runs per ring queue. */
export const LOCAL_POLLERS = DISPATCHER_BATCHES_PER_QUEUE;
const EVERY_SECOND = '* * * * * ?';
const HANDLER = 'benchNoop';
const REGION = 'us-east-1';
const API_CONCURRENCY = 8;
const POLL_MS = 250;

interface Receipt {
  readonly jobId: number;
  readonly scheduledTime: number;
  readonly receivedAt: number;
}

/**
 * M jobs firing every second through the whole local stack (tick → ring → dispatcher → SDK
 * executors over HTTP → callback), created through the admin API; measured over a window that starts
 * once every job has had its first fire.
 */
export async function benchSteadyState(
  endpoints: StandInEndpoints,
  options: SteadyStateOptions,
  /** Registers a step to run if the bench is abandoned (signal, watchdog) before this returns. */
  onAbandon: (step: () => Promise<void>) => void = () => undefined,
): Promise<SteadyStateResult> {
  const overall = new ResourceSampler();
  overall.start();
  const logRoot = await mkdtemp(join(tmpdir(), 'tickring-bench-'));
  onAbandon(() => rm(logRoot, { recursive: true, force: true }));
  const executors: Executor[] = [];
  const pollers: SqsPoller[] = [];
  let stack: LocalStack | undefined;
  try {
    stack = await startLocal({
      standIns: { dynamoEndpoint: endpoints.dynamodb, sqsEndpoint: endpoints.sqs },
      port: 0,
      inMemory: true,
      logLevel: 'silent',
      resourcePrefix: `bench-steady-${options.jobs}-${randomUUID().slice(0, 8)}-`,
      demo: false,
      region: REGION,
    });
    const api = adminApi(stack);
    if (options.pollers > LOCAL_POLLERS) {
      for (const queue of [stack.resources.queues.ringFast, stack.resources.queues.ringSlow]) {
        const poller = new SqsPoller({
          sqs: stack.clients.sqs,
          host: stack.host,
          functionName: 'dispatcher',
          queueUrl: queue.url,
          queueArn: queue.arn,
          region: REGION,
          concurrency: options.pollers - LOCAL_POLLERS,
          logger: silentStackLogger,
        });
        poller.start();
        pollers.push(poller);
      }
    }
    const counter = new RequestCounter();
    counter.attachDynamo(stack.clients.dynamo);
    counter.attachSqs(stack.clients.sqs);

    const receipts: Receipt[] = [];
    const appName = `bench-${randomUUID().slice(0, 8)}`;
    const setupStarted = performance.now();
    await api.expect(201, 'POST', '/v1/groups', { appName, title: 'bench', addressType: 'AUTO' });
    for (let i = 0; i < options.executors; i++) {
      const executor = createExecutor({
        appName,
        adminAddresses: stack.urls.api,
        accessToken: stack.tokens.accessToken,
        host: '127.0.0.1',
        port: 0,
        logDir: join(logRoot, `executor-${i}`),
        logRetentionDays: 0,
        logger: silentLogger,
      });
      executor.register(HANDLER, (ctx) => {
        receipts.push({ jobId: ctx.jobId, scheduledTime: ctx.logDateTime, receivedAt: Date.now() });
      });
      executors.push(executor);
      await executor.start();
    }
    await waitUntil(
      async () => {
        const reply = await api.expect(200, 'GET', `/v1/executors?appName=${encodeURIComponent(appName)}`);
        const online: { address: string; online: boolean }[] = reply.items?.[0]?.executors ?? [];
        return executors.every((e) => online.some((o) => o.address === e.address && o.online));
      },
      20_000,
      'the executors to be online',
    );

    const routeStrategy = options.executors > 1 ? 'RANDOM' : 'FIRST';
    const created = await mapLimit(
      Array.from({ length: options.jobs }, (_, i) => i),
      API_CONCURRENCY,
      (i) =>
        api.expect(201, 'POST', '/v1/jobs', {
          appName,
          name: `bench ${i}`,
          author: 'bench',
          scheduleType: 'CRON',
          scheduleConf: EVERY_SECOND,
          executorHandler: HANDLER,
          executorRouteStrategy: routeStrategy,
          triggerStatus: 'RUNNING',
        }),
    );
    const setupMs = performance.now() - setupStarted;

    // The window opens one second after the last job's first fire, so every job fires all through it.
    const firstFires = created.map((job) => Date.parse(String(job.triggerNextTime)));
    const windowStart = Math.max(...firstFires) + 1_000;
    const windowEnd = windowStart + options.seconds * 1_000;
    const expectedFires = options.jobs * options.seconds;
    const inWindow = (t: number) => t >= windowStart && t < windowEnd;

    await sleepUntil(windowStart);
    counter.reset();
    const window = new ResourceSampler();
    window.start();
    await sleepUntil(windowEnd);
    const windowUsage = window.stop();
    const requests = counter.snapshot();
    const ringBacklogAtWindowEnd = {
      fast: await queueDepth(stack, stack.resources.queues.ringFast.url),
      slow: await queueDepth(stack, stack.resources.queues.ringSlow.url),
    };

    // Wait (bounded) for the window's last fires; the jobs go on firing meanwhile, as they would.
    const seen = new Map<string, Receipt>();
    let duplicates = 0;
    let scanned = 0;
    const absorb = () => {
      for (; scanned < receipts.length; scanned++) {
        const r = receipts[scanned] as Receipt;
        if (!inWindow(r.scheduledTime)) continue;
        const key = `${r.jobId}#${r.scheduledTime}`;
        if (seen.has(key)) duplicates++;
        else seen.set(key, r);
      }
    };
    const deadline = windowEnd + options.drainSeconds * 1_000;
    for (absorb(); seen.size < expectedFires && Date.now() < deadline; absorb()) {
      await sleep(POLL_MS);
    }
    const ringDepthAtDeadline =
      (await queueDepth(stack, stack.resources.queues.ringFast.url, true)) +
      (await queueDepth(stack, stack.resources.queues.ringSlow.url, true));
    // Results are called back right after the runs; give the last ones a moment to land.
    await sleep(2_000);
    absorb();

    const store = await windowRuns(stack, windowStart, windowEnd);
    const { jobsInSlowLane, tickLagMs } = await jobsState(stack, windowStart);
    const deadLetters =
      (await queueDepth(stack, stack.resources.queues.ringFast.dlqUrl)) +
      (await queueDepth(stack, stack.resources.queues.ringSlow.dlqUrl));

    const lateness = [...seen.values()].map((r) => r.receivedAt - r.scheduledTime);
    const perSecond = Array.from({ length: options.seconds }, () => 0);
    for (const r of receipts) {
      if (r.receivedAt >= windowStart && r.receivedAt < windowEnd) {
        const bucket = Math.floor((r.receivedAt - windowStart) / 1_000);
        perSecond[bucket] = (perSecond[bucket] ?? 0) + 1;
      }
    }
    const lastRun = Math.max(...[...seen.values()].map((r) => r.receivedAt));
    const perSecondRequests = (n: number) => n / windowUsage.wallSeconds;
    return {
      jobs: options.jobs,
      seconds: options.seconds,
      executors: options.executors,
      pollersPerQueue: Math.max(options.pollers, LOCAL_POLLERS),
      routeStrategy,
      windowStart: new Date(windowStart).toISOString(),
      setupMs,
      expectedFires,
      runsPerSecond: {
        mean: perSecond.reduce((s, n) => s + n, 0) / options.seconds,
        minSecond: Math.min(...perSecond),
        maxSecond: Math.max(...perSecond),
      },
      windowFiresRun: seen.size,
      missed: expectedFires - seen.size,
      duplicates,
      drainMs: seen.size === expectedFires ? Math.max(0, lastRun - windowEnd) : null,
      latenessMs: summarize(lateness),
      withinOneSecond: lateness.length ? lateness.filter((l) => l <= 1_000).length / expectedFires : 0,
      store,
      jobsInSlowLane,
      tickLagMs,
      ringBacklogAtWindowEnd,
      ringDepthAtDeadline,
      deadLetters,
      requestsPerSecond: {
        byOperation: Object.fromEntries(
          Object.entries(requests.byOperation).map(([op, n]) => [op, perSecondRequests(n)]),
        ),
        dynamodb: perSecondRequests(requests.dynamodb),
        sqs: perSecondRequests(requests.sqs),
      },
      window: windowUsage,
      overall: overall.stop(),
    };
  } finally {
    overall.stop();
    // Dispatch stops first (so nothing is sent to a stopping executor), then the executors.
    await Promise.allSettled(pollers.map((p) => p.stop()));
    await stack?.stop();
    await Promise.allSettled(executors.map((e) => e.stop()));
    await rm(logRoot, { recursive: true, force: true });
  }
}

// biome-ignore lint/suspicious/noExplicitAny: API bodies are read field by field
type Body = any;

function adminApi(stack: LocalStack) {
  return {
    async expect(status: number, method: string, path: string, body?: unknown): Promise<Body> {
      const headers: Record<string, string> = { authorization: `Bearer ${stack.tokens.adminToken}` };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(`${stack.urls.api}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      if (res.status !== status)
        throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
      return text ? JSON.parse(text) : undefined;
    },
  };
}

/** The window's runs in the run table: one per fire, each called back with success. */
async function windowRuns(stack: LocalStack, from: number, to: number): Promise<SteadyStateResult['store']> {
  const items: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  for (let page = 0; page < 10_000; page++) {
    const result = await stack.clients.doc.send(
      new ScanCommand({
        TableName: stack.resources.tables.runs,
        ProjectionExpression: 'dedupKey, handleCode, triggerCode',
        FilterExpression: 'scheduledTime >= :from AND scheduledTime < :to',
        ExpressionAttributeValues: { ':from': from, ':to': to },
        ExclusiveStartKey: cursor,
        ConsistentRead: true,
      }),
    );
    items.push(...(result.Items ?? []));
    cursor = result.LastEvaluatedKey;
    if (!cursor) break;
  }
  return {
    runs: items.length,
    distinctFires: new Set(items.map((i) => i.dedupKey)).size,
    succeeded: items.filter((i) => i.handleCode === 200).length,
    notFinished: items.filter((i) => i.handleCode === 0 && i.triggerCode !== 500).length,
    failed: items.filter((i) => (i.handleCode !== 0 && i.handleCode !== 200) || i.triggerCode === 500).length,
  };
}

/** Jobs in the slow lane, and how far behind the clock the earliest next fire is. */
async function jobsState(stack: LocalStack, since: number) {
  let jobsInSlowLane = 0;
  let earliestNext = Number.POSITIVE_INFINITY;
  let cursor: Record<string, unknown> | undefined;
  const now = Date.now();
  for (let page = 0; page < 10_000; page++) {
    const result = await stack.clients.doc.send(
      new ScanCommand({
        TableName: stack.resources.tables.jobs,
        ProjectionExpression: 'slowUntil, nextTriggerTime',
        ExclusiveStartKey: cursor,
        ConsistentRead: true,
      }),
    );
    for (const item of result.Items ?? []) {
      if (Number(item.slowUntil ?? 0) > since) jobsInSlowLane++;
      if (typeof item.nextTriggerTime === 'number')
        earliestNext = Math.min(earliestNext, item.nextTriggerTime);
    }
    cursor = result.LastEvaluatedKey;
    if (!cursor) break;
  }
  return { jobsInSlowLane, tickLagMs: Number.isFinite(earliestNext) ? Math.max(0, now - earliestNext) : 0 };
}

/** Messages waiting (visible or delayed) on a queue, and with `inFlight` those being processed too. */
async function queueDepth(stack: LocalStack, queueUrl: string, inFlight = false): Promise<number> {
  const names = ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesDelayed'] as const;
  const { Attributes = {} } = await stack.clients.sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: inFlight ? [...names, 'ApproximateNumberOfMessagesNotVisible'] : [...names],
    }),
  );
  return Object.values(Attributes).reduce((n, v) => n + Number(v ?? 0), 0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const sleepUntil = (epochMs: number) => sleep(epochMs - Date.now());

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}
