import type { TickringClient } from '@tickring/client';
import { mapLimit } from '@tickring/core/common';
import type { RunStore } from '@tickring/core/runs';
import type { WorkflowRunRecord, WorkflowStore } from '@tickring/core/workflows';
import {
  type BenchRunOptions,
  type BenchTarget,
  type StoreUsage,
  withBenchStack,
  withIdleFunctions,
} from './bench-stack.js';
import { WORKFLOW_HANDLER } from './fleet.js';
import { ResourceSampler } from './process-stats.js';
import {
  cpuLine,
  type IdleRates,
  lineLimits,
  price,
  storeRequests,
  type WorkflowBenchResult,
} from './result.js';
import {
  analyseRuns,
  type JobRunView,
  type RunView,
  SHAPE_TEXT,
  TRIGGER_SPREAD_MS,
  WORKFLOW_HANDLER_MS,
  WORKFLOW_SHAPE,
} from './workflow-shape.js';

/** The workflow mode's workload (the command line's flags, see `options.ts`). */
export interface WorkflowWorkload {
  /** Workflow runs measured. */
  readonly workflows: number;
  /** Executor groups, one SDK executor and one workflow each; the runs go round-robin over them. */
  readonly executors: number;
  /** TICKRING_SHARD_COUNT. */
  readonly shards: number;
}

export type WorkflowBenchmarkOptions = WorkflowWorkload & BenchRunOptions;

/** How long an idle stack is metered before the runs (its tick, pollers and beats). */
const IDLE_SECONDS = 3;
/** After the last run ended, what it set off still gets this long (its last writes) before the meters stop. */
const GRACE_MS = 500;
/** Runs not ended this long after the last trigger are reported as not succeeded. */
const WAIT_MS = 60_000;
const READ_CONCURRENCY = 8;

/**
 * The workflow mode: measures the store's limits, starts the local stack with its meters and E
 * executor groups (an SDK executor each), makes one 5-node workflow per group (ALLOW), runs one
 * unmeasured warm-up run of each, meters the idle stack for a few seconds, then triggers N runs
 * through the admin API evenly over TRIGGER_SPREAD_MS and waits until every one has ended. What
 * each node's run and each workflow run recorded is read back through the production adapters on
 * the bench's own (unmetered) clients or connection.
 */
export async function runWorkflowBenchmark(
  target: BenchTarget,
  options: WorkflowBenchmarkOptions,
): Promise<WorkflowBenchResult> {
  return withBenchStack(target, options, async (bench) => {
    const { log, limits, tokens, invocations, meter } = bench;
    /** Every time an executor's handler received a job run, by logId. */
    const receipts = new Map<number, number[]>();
    let workflowReceipts = 0;

    const { stack, api } = await bench.start({ shards: options.shards, requestLatency: true });
    const admin = adminCaller(stack.urls.api, tokens.adminToken);
    const unmetered = bench.unmetered();
    const store = unmetered.workflows();
    const runStore = unmetered.runs();

    let started = performance.now();
    const fleet = await bench.startFleet({
      groups: options.executors,
      onRun: (run) => {
        const times = receipts.get(run.logId) ?? [];
        times.push(run.receivedAt);
        receipts.set(run.logId, times);
        if (run.trigger.executorHandler === WORKFLOW_HANDLER) workflowReceipts++;
      },
    });
    const executorSeconds = (performance.now() - started) / 1000;

    started = performance.now();
    log(`creating ${fleet.appNames.length} workflow(s) of 5 nodes (${SHAPE_TEXT}) through the admin API ...`);
    const workflowIds: number[] = [];
    for (const appName of fleet.appNames) workflowIds.push(await createBenchWorkflow(api, admin, appName));
    const workflowSeconds = (performance.now() - started) / 1000;

    started = performance.now();
    log('one warm-up run of each workflow (not measured) ...');
    const warmups = await Promise.all(workflowIds.map((id) => trigger(admin, id, -1)));
    const warmed = await waitForRuns(store, warmups, () => true, Date.now() + WAIT_MS);
    const stuck = warmups.filter((id) => warmed.get(id)?.status !== 'SUCCEEDED');
    if (stuck.length > 0) {
      throw new Error(
        `the warm-up run(s) ${stuck.join(', ')} did not succeed: ${stuck.map((id) => warmed.get(id)?.status ?? 'not ended in 60 s').join(', ')}`,
      );
    }
    const warmupSeconds = (performance.now() - started) / 1000;

    await sleep(GRACE_MS);
    log(`metering the idle stack for ${IDLE_SECONDS} s ...`);
    meter.reset();
    await sleep(IDLE_SECONDS * 1000);
    const idle = idleRates(meter.snapshot(), IDLE_SECONDS);

    log(
      `triggering ${options.workflows} workflow runs over ${TRIGGER_SPREAD_MS / 1000} s and waiting for them to end ...`,
    );
    meter.reset();
    invocations.beginWindow();
    const sampler = new ResourceSampler(undefined, fleet.threadIds);
    sampler.start();
    const receiptsBefore = workflowReceipts;
    const expectedReceipts = options.workflows * WORKFLOW_SHAPE.length;
    const phaseStart = Date.now();
    const interval = TRIGGER_SPREAD_MS / options.workflows;
    const runIds = await Promise.all(
      Array.from({ length: options.workflows }, async (_, i) => {
        await sleep(phaseStart + i * interval - Date.now());
        return trigger(admin, workflowIds[i % workflowIds.length] as number, i);
      }),
    );
    // Read the runs only once every node has reached a handler (or the receipts stopped coming):
    // polling the runs while they run would load the store being measured.
    const ended = await waitForRuns(
      store,
      runIds,
      quietOrDone(() => workflowReceipts - receiptsBefore, expectedReceipts),
      Date.now() + WAIT_MS,
    );
    await sleep(GRACE_MS);
    const phaseEnd = Date.now();
    const usage = meter.snapshot();
    const storeRequestMs = meter.requestLatency();
    const functions = withIdleFunctions(
      invocations.usage({ start: phaseStart, end: phaseEnd }),
      stack.host.names(),
    );
    const resources = sampler.stop();

    log('reading the runs back ...');
    const records = await mapLimit(
      runIds,
      READ_CONCURRENCY,
      async (id) => ended.get(id) ?? (await store.getRun(id)),
    );
    const logIds = new Set<number>(receipts.keys());
    for (const record of records) {
      for (const node of Object.values(record?.nodeRuns ?? {}))
        for (const logId of node.logIds) logIds.add(logId);
    }
    const jobRuns = await readJobRuns(runStore, [...logIds]);
    const views = records.map((record, i) => runView(runIds[i] as string, i, record));
    const analysis = analyseRuns(views, jobRuns, receipts);
    const deadLetters = await bench.deadLetters();

    const nodeRuns = analysis.nodeRuns;
    const { per, usd } = price(usage, functions, nodeRuns);
    const perRun = (n: number) => (nodeRuns > 0 ? n / nodeRuns : Number.NaN);
    const succeeded = analysis.statuses.SUCCEEDED ?? 0;
    const { latenessMs } = analysis;
    return {
      line: {
        mode: 'workflows',
        store: bench.store,
        workflows: options.workflows,
        nodesPerRun: WORKFLOW_SHAPE.length,
        succeeded,
        notSucceeded: options.workflows - succeeded,
        nodeRuns,
        missingNodes: analysis.missingNodes,
        duplicateNodes: analysis.duplicateNodes,
        wrongResults: analysis.wrongResults,
        latenessMs: { p50: latenessMs.p50, p95: latenessMs.p95, p99: latenessMs.p99, max: latenessMs.max },
        perNodeRun: {
          dynamodbReadUnits: per.dynamodbReadUnits,
          dynamodbWriteUnits: per.dynamodbWriteUnits,
          storeRequests: perRun(storeRequests(usage)),
          sqsRequests: per.sqsRequests,
          lambdaInvocations: per.lambdaInvocations,
        },
        usdPerMillionNodeRuns: usd.total,
        limits: lineLimits(bench.store, limits),
        cpuCores: cpuLine(resources),
      },
      details: {
        executors: options.executors,
        shards: options.shards,
        shape: SHAPE_TEXT,
        handlerMs: WORKFLOW_HANDLER_MS,
        triggerSpreadMs: TRIGGER_SPREAD_MS,
        phase: {
          start: new Date(phaseStart).toISOString(),
          end: new Date(phaseEnd).toISOString(),
          seconds: (phaseEnd - phaseStart) / 1000,
        },
        setupSeconds: { executors: executorSeconds, workflows: workflowSeconds, warmup: warmupSeconds },
        statuses: analysis.statuses,
        expectedNodeRuns: analysis.expectedNodeRuns,
        retriedNodes: analysis.retriedNodes,
        latenessMs: analysis.latenessMs,
        toFiredMs: analysis.toFiredMs,
        firedToDispatchedMs: analysis.firedToDispatchedMs,
        dispatchedToReceivedMs: analysis.dispatchedToReceivedMs,
        toReceivedMs: analysis.toReceivedMs,
        rootStartMs: analysis.rootStartMs,
        runMs: analysis.runMs,
        storeRequestMs,
        perNodeRun: per,
        usd,
        idle,
        usage,
        functions,
        limits,
        deadLetters,
        resources,
      },
    };
  });
}

/** The admin API's workflow routes (the typed client has none yet): JSON in, JSON out, errors thrown. */
type AdminCall = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<unknown>;

function adminCaller(baseUrl: string, token: string): AdminCall {
  const base = baseUrl.replace(/\/+$/, '');
  return async (method, path, body) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    return text === '' ? undefined : JSON.parse(text);
  };
}

/** One job per node (NONE schedule: they run only as nodes), then the workflow over them (ALLOW). */
async function createBenchWorkflow(api: TickringClient, admin: AdminCall, appName: string): Promise<number> {
  const jobIds = new Map<string, number>();
  for (const node of WORKFLOW_SHAPE) {
    const job = await api.createJob({
      body: {
        appName,
        name: `bench workflow node ${node.key}`,
        author: 'bench',
        scheduleType: 'NONE',
        scheduleConf: '',
        misfireStrategy: 'DO_NOTHING',
        executorHandler: WORKFLOW_HANDLER,
        executorRouteStrategy: 'FIRST',
        triggerStatus: 'STOPPED',
      },
    });
    jobIds.set(node.key, job.id);
  }
  const created = (await admin('POST', '/v1/workflows', {
    name: `bench workflow ${appName}`,
    appName,
    overlapPolicy: 'ALLOW',
    nodes: WORKFLOW_SHAPE.map((node) => ({
      key: node.key,
      jobId: jobIds.get(node.key),
      executorParam: node.executorParam,
      ...(node.upstream.length === 0 ? {} : { upstream: node.upstream.map((key) => ({ key })) }),
    })),
  })) as { id?: unknown };
  if (typeof created?.id !== 'number')
    throw new Error(`POST /v1/workflows answered no id: ${JSON.stringify(created)}`);
  return created.id;
}

/** Triggers a run with input {seq}; answers its id. */
async function trigger(admin: AdminCall, workflowId: number, seq: number): Promise<string> {
  const reply = (await admin('POST', `/v1/workflows/${workflowId}/trigger`, { input: { seq } })) as {
    id?: unknown;
    run?: { id?: unknown };
  };
  const id = reply?.id ?? reply?.run?.id;
  if (typeof id !== 'string')
    throw new Error(`the trigger of workflow ${workflowId} answered no run id: ${JSON.stringify(reply)}`);
  return id;
}

const ENDED = (record: WorkflowRunRecord | undefined) =>
  record !== undefined && record.status !== 'RUNNING' && record.status !== 'QUEUED';

/**
 * Reads the runs (through the bench's own client) whenever `ready()` says so, until all have ended
 * or the deadline; answers the ended ones.
 */
async function waitForRuns(
  store: WorkflowStore,
  runIds: readonly string[],
  ready: () => boolean,
  deadline: number,
): Promise<Map<string, WorkflowRunRecord>> {
  const ended = new Map<string, WorkflowRunRecord>();
  while (ended.size < runIds.length && Date.now() < deadline) {
    if (ready()) {
      const open = runIds.filter((id) => !ended.has(id));
      const records = await mapLimit(open, READ_CONCURRENCY, (id) => store.getRun(id));
      records.forEach((record, i) => {
        if (record && ENDED(record)) ended.set(open[i] as string, record);
      });
      if (ended.size === runIds.length) break;
    }
    await sleep(50);
  }
  return ended;
}

/** Ready once `count()` reached `expected`, or when it has not moved for a second (a run failed, or is stuck). */
function quietOrDone(count: () => number, expected: number): () => boolean {
  let last = -1;
  let changedAt = Date.now();
  return () => {
    const now = count();
    if (now !== last) {
      last = now;
      changedAt = Date.now();
    }
    return now >= expected || Date.now() - changedAt > 1_000;
  };
}

async function readJobRuns(store: RunStore, logIds: readonly number[]): Promise<Map<number, JobRunView>> {
  const chunks: number[][] = [];
  for (let i = 0; i < logIds.length; i += 100) chunks.push(logIds.slice(i, i + 100));
  const runs = (await mapLimit(chunks, 4, (chunk) => store.getMany(chunk))).flat();
  return new Map(
    runs.map((run) => [
      run.logId,
      {
        logId: run.logId,
        ...(run.workflow ? { workflow: run.workflow } : {}),
        dispatchedAt: run.dispatchedAt,
        handleTime: run.handleTime,
        handleCode: run.handleCode,
      },
    ]),
  );
}

function runView(id: string, seq: number, record: WorkflowRunRecord | undefined): RunView {
  if (!record)
    return { id, seq, status: 'NOT FOUND', createdAt: 0, nodeRuns: {}, nodeTimes: {}, results: {} };
  const results: Record<string, string | undefined> = {};
  for (const [key, node] of Object.entries(record.state.nodes)) results[key] = node.result;
  return {
    id,
    seq,
    status: ENDED(record) ? record.status : `${record.status} (not ended)`,
    createdAt: record.createdAt,
    ...(record.finishedAt === undefined ? {} : { finishedAt: record.finishedAt }),
    nodeRuns: record.nodeRuns,
    nodeTimes: record.nodeTimes,
    results,
  };
}

function idleRates(usage: StoreUsage, seconds: number): IdleRates {
  const aws = usage.store === 'dynamodb-local';
  return {
    seconds,
    dynamodbReadUnitsPerSecond: aws ? usage.dynamodb.readUnits / seconds : Number.NaN,
    dynamodbWriteUnitsPerSecond: aws ? usage.dynamodb.writeUnits / seconds : Number.NaN,
    storeRequestsPerSecond: storeRequests(usage) / seconds,
    sqsRequestsPerSecond: aws ? usage.sqs.requests / seconds : Number.NaN,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
