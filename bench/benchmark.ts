import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { createAwsClients, destroyAwsClients } from '@tickring/aws/clients';
import { FUNCTIONS, type FunctionName } from '@tickring/aws/topology';
import { createClient } from '@tickring/client';
import type { Schedule } from '@tickring/core/schedule';
import { type LocalStack, startLocal } from '../local/start-local.js';
import { DynamoMeter } from './dynamo-meter.js';
import { FaultInjector, type FaultOptions } from './faults.js';
import { countFires, expectedFires, type TimeWindow } from './fire-count.js';
import { type Fleet, startFleet } from './fleet.js';
import { type FunctionUsage, InvocationMeter } from './invocation-meter.js';
import { measureLimits, type StandInLimits } from './limits.js';
import { ResourceSampler } from './process-stats.js';
import { ReceiptLog } from './receipt-log.js';
import { type BenchResult, benchLine, price } from './result.js';
import { SendMeter } from './send-meter.js';
import { SqsMeter } from './sqs-meter.js';
import type { StandInEndpoints } from './stand-ins.js';
import { TickMeter } from './tick-meter.js';
import { createBenchJobs, createIdleJobs } from './workload.js';

/** The workload of a run (the command line's flags, see `options.ts`). */
export interface Workload {
  /** Jobs that fire on `schedule`. */
  readonly jobs: number;
  /** Length of the measured window, s. */
  readonly seconds: number;
  /** The window opens this long after the last job's first fire, s. */
  readonly warmupSeconds: number;
  readonly schedule: Schedule;
  /** Executor groups, each with one SDK executor; the jobs are spread round-robin over them. */
  readonly executors: number;
  /** Jobs that are never due (half stopped, half running with a far-future schedule). */
  readonly idleJobs: number;
  /** TICKRING_SHARD_COUNT. */
  readonly shards: number;
  /** After the window, how long to wait for its last fires before counting the rest as missed, s. */
  readonly drainSeconds: number;
}

export interface BenchmarkOptions extends Workload {
  /** Seconds of each stand-in throughput measurement; 0 skips the limits (reported as null). */
  readonly limitSeconds: number;
  readonly faults?: FaultOptions;
  readonly region?: string;
  /** Progress lines for people; silent by default. */
  readonly log?: (message: string) => void;
  /** Gets the stop steps of what is started, for a caller that may have to abandon the run (signal, watchdog). */
  readonly onAbandon?: (step: () => Promise<void>) => void;
}

const DRAIN_POLL_MS = 250;
const LIMITS_DELAYED_MESSAGES = 300;

/**
 * One benchmark on given stand-ins: measures their limits, starts an isolated in-memory local stack
 * with meters on its SDK clients, function host and tick metrics, E executor groups with one SDK
 * executor each, K idle and N measured jobs; waits until every job has had its first fire, measures
 * a window of S seconds, waits (bounded) for the window's last fires, and counts.
 */
export async function runBenchmark(
  endpoints: StandInEndpoints,
  options: BenchmarkOptions,
): Promise<BenchResult> {
  const log = options.log ?? (() => undefined);
  const onAbandon = options.onAbandon ?? (() => undefined);
  const region = options.region ?? 'us-east-1';

  let limits: StandInLimits | null = null;
  if (options.limitSeconds > 0) {
    log('measuring the stand-ins alone (conditional PutItem/s, SQS msg/s, SQS delay precision) ...');
    limits = await measureLimits(endpoints, region, {
      seconds: options.limitSeconds,
      delayedMessages: LIMITS_DELAYED_MESSAGES,
    });
  }

  const runId = randomUUID().slice(0, 8);
  const prefix = `bench-${runId}-`;
  const tokens = {
    adminToken: randomBytes(20).toString('hex'),
    accessToken: randomBytes(20).toString('hex'),
  };
  const faults = new FaultInjector(options.faults ?? {}, tokens.accessToken);
  const invocations = new InvocationMeter();
  const tick = new TickMeter();
  const sends = new SendMeter();
  const dynamo = new DynamoMeter((table) => table.replace(prefix, ''));
  const sqs = new SqsMeter((url) => (url.split('/').at(-1) ?? url).replace(prefix, ''));
  const receipts = new ReceiptLog();
  const setupClients = createAwsClients({
    region,
    endpoints: { dynamodb: endpoints.dynamodb, sqs: endpoints.sqs, sns: endpoints.sqs },
  });
  const logRoot = await mkdtemp(join(tmpdir(), 'tickring-bench-'));
  let stack: LocalStack | undefined;
  let fleet: Fleet | undefined;
  // The stack stops before the executors, so no fire is sent to a stopping executor.
  let stopping: Promise<void> | undefined;
  const stopAll = () => {
    stopping ??= (async () => {
      await stack?.stop().catch(() => undefined);
      await fleet?.stop().catch(() => undefined);
      destroyAwsClients(setupClients);
      await rm(logRoot, { recursive: true, force: true });
    })();
    return stopping;
  };
  onAbandon(stopAll);

  try {
    log(`starting the local stack (in memory, ${options.shards} shards) ...`);
    stack = await startLocal({
      standIns: { dynamoEndpoint: endpoints.dynamodb, sqsEndpoint: endpoints.sqs },
      port: 0,
      inMemory: true,
      demo: false,
      logLevel: 'silent',
      region,
      resourcePrefix: prefix,
      ...tokens,
      settings: { TICKRING_SHARD_COUNT: String(options.shards) },
      invocationObserver: invocations,
      onMetric: (...metric) => {
        tick.sink(...metric);
        sends.sink(...metric);
      },
      wrapHandler: faults.enabled ? faults.wrapHandler : undefined,
    });
    // Every function shares these two clients (local/functions.ts), so they see all the stack's requests.
    dynamo.attach(stack.clients.dynamo);
    sqs.attach(stack.clients.sqs);
    const api = createClient({ baseUrl: stack.urls.api, token: tokens.adminToken });

    let started = performance.now();
    if (options.idleJobs > 0) {
      log(`writing ${options.idleJobs} idle jobs through the JobStore adapter ...`);
      const idleApp = `${prefix}idle`;
      await api.createGroup({ body: { appName: idleApp, title: 'idle', addressType: 'AUTO' } });
      await createIdleJobs(setupClients, stack.resources.tables, options.shards, idleApp, options.idleJobs);
    }
    const idleSeconds = (performance.now() - started) / 1000;

    started = performance.now();
    log(`starting ${options.executors} executor(s) ...`);
    fleet = await startFleet({
      api,
      adminUrl: stack.urls.api,
      accessToken: tokens.accessToken,
      groups: options.executors,
      appNamePrefix: `${prefix}app-`,
      logRoot,
      onRun: (run) => {
        receipts.record(run.jobId, run.logDateTime, run.receivedAt);
        faults.onRun(run);
      },
    });
    const executorSeconds = (performance.now() - started) / 1000;

    started = performance.now();
    log(`creating ${options.jobs} jobs (${scheduleText(options.schedule)}) through the admin API ...`);
    const jobs = await createBenchJobs(api, fleet.appNames, options.jobs, options.schedule);
    const jobSeconds = (performance.now() - started) / 1000;

    // The window opens after every job's first fire, so every job fires all through it, and after a
    // warm-up: jobs made in one go are first planned together, and fall out of step after a plan.
    const start = Math.max(...jobs.map((j) => j.firstFire)) + Math.max(1, options.warmupSeconds) * 1000;
    const window: TimeWindow = { start, end: start + options.seconds * 1000 };
    const expected = expectedFires(jobs, window);
    faults.arm(window);
    log(`warming up until ${iso(window.start)}; then measuring ${options.seconds} s ...`);

    await sleepUntil(window.start);
    dynamo.reset();
    sqs.reset();
    invocations.beginWindow();
    const sampler = new ResourceSampler();
    sampler.start();
    await sleepUntil(window.end);
    const dynamoUsage = dynamo.snapshot();
    const sqsUsage = sqs.snapshot();
    const functions = withIdleFunctions(invocations.usage(window), stack.host.names());
    const resources = sampler.stop();
    const tickLoad = tick.load(window);
    const sendLateness = sends.load(window);

    log(`window over; waiting up to ${options.drainSeconds} s for its last fires ...`);
    const deadline = window.end + options.drainSeconds * 1000;
    let missing = receipts.notYetRun(expected);
    while (missing > 0 && Date.now() < deadline) {
      await sleep(DRAIN_POLL_MS);
      missing = receipts.notYetRun(expected);
    }
    const drainedInSeconds = missing === 0 ? Math.max(0, Date.now() - window.end) / 1000 : null;
    const count = countFires(expected, receipts.receipts, window);
    const deadLetters = await deadLetterCount(setupClients.sqs, stack);

    const { per, usd } = price(dynamoUsage, sqsUsage, functions, count.executed);
    return {
      line: benchLine(options, count, per, usd, limits, tickLoad),
      details: {
        schedule: options.schedule,
        executors: options.executors,
        idleJobs: options.idleJobs,
        shards: options.shards,
        window: { start: iso(window.start), end: iso(window.end) },
        setupSeconds: { idleJobs: idleSeconds, executors: executorSeconds, jobs: jobSeconds },
        unexpected: count.unexpected,
        receipts: receipts.receipts.length,
        drainedInSeconds,
        faults: faults.done,
        perTrigger: per,
        usd,
        dynamodb: dynamoUsage,
        sqs: sqsUsage,
        functions,
        tick: tickLoad,
        warmupSeconds: options.warmupSeconds,
        sendLatenessMs: sendLateness,
        limits,
        deadLetters,
        resources,
      },
    };
  } finally {
    log('stopping the stack and the executors ...');
    await stopAll();
  }
}

export async function deadLetterCount(
  client: LocalStack['clients']['sqs'],
  stack: LocalStack,
): Promise<number> {
  let total = 0;
  for (const queue of Object.values(stack.resources.queues)) {
    const { Attributes = {} } = await client.send(
      new GetQueueAttributesCommand({
        QueueUrl: queue.dlqUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    total += Object.values(Attributes).reduce((n, v) => n + Number(v ?? 0), 0);
  }
  return total;
}

/** The usage rows, plus a zero row for each hosted function that did not run in the window. */
export function withIdleFunctions(
  usage: readonly FunctionUsage[],
  hosted: readonly string[],
): FunctionUsage[] {
  const idle = hosted
    .filter((name) => !usage.some((u) => u.functionName === name))
    .map((name) => ({
      functionName: name,
      memoryMb: FUNCTIONS[name as FunctionName]?.memoryMb ?? Number.NaN,
      invocations: 0,
      meanDurationMs: Number.NaN,
      gbSeconds: 0,
    }));
  return [...usage, ...idle].sort((a, b) => a.functionName.localeCompare(b.functionName));
}

export const scheduleText = (schedule: Schedule): string => `${schedule.type} ${schedule.conf}`;
const iso = (ms: number): string => new Date(ms).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const sleepUntil = (epochMs: number) => sleep(epochMs - Date.now());
