import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { type AwsClients, createAwsClients, destroyAwsClients } from '@tickring/aws/clients';
import { FUNCTIONS, type FunctionName } from '@tickring/aws/topology';
import { createClient, type TickringClient } from '@tickring/client';
import { type LocalStack, type StartLocalOptions, startLocal } from '../local/start-local.js';
import { DynamoMeter } from './dynamo-meter.js';
import { type Fleet, type FleetOptions, startFleet } from './fleet.js';
import { type FunctionUsage, InvocationMeter } from './invocation-meter.js';
import { measureLimits, type StandInLimits } from './limits.js';
import { SqsMeter } from './sqs-meter.js';
import type { StandInEndpoints } from './stand-ins.js';

const LIMITS_DELAYED_MESSAGES = 300;

/** What every bench mode is given beside its workload. */
export interface BenchRunOptions {
  /** Seconds of each stand-in throughput measurement; 0 skips the limits (reported as null). */
  readonly limitSeconds: number;
  readonly region?: string;
  /** Progress lines for people; silent by default. */
  readonly log?: (message: string) => void;
  /** Gets the stop steps of what is started, for a caller that may have to abandon the run (signal, watchdog). */
  readonly onAbandon?: (step: () => Promise<void>) => void;
}

export interface StartedBenchStack {
  readonly stack: LocalStack;
  /** The admin API, with the run's admin token. */
  readonly api: TickringClient;
}

/**
 * What a bench mode runs on: the stand-ins' limits, its own resource prefix and tokens, meters for
 * the stack's SDK clients and function invocations, the bench's own (unmetered) clients, then the
 * local stack and the executors, which `stop` stops with everything else.
 */
export interface BenchStack {
  /** `options.log`, or silence. */
  readonly log: (message: string) => void;
  /** What the stand-ins managed alone, measured before anything started; null when not measured. */
  readonly limits: StandInLimits | null;
  /** Prefix of the run's tables, queues and groups: `bench-<8 hex>-`. */
  readonly prefix: string;
  readonly tokens: { readonly adminToken: string; readonly accessToken: string };
  readonly invocations: InvocationMeter;
  readonly dynamo: DynamoMeter;
  readonly sqs: SqsMeter;
  /** The bench's own clients on the stand-ins, not metered: setup writes and reading back. */
  readonly clients: AwsClients;
  /** Starts the local stack in memory on the stand-ins, with the meters attached. */
  start(options: {
    readonly shards: number;
    readonly onMetric?: StartLocalOptions['onMetric'];
    readonly wrapHandler?: StartLocalOptions['wrapHandler'];
  }): Promise<StartedBenchStack>;
  /** Starts E executor groups (`<prefix>app-<i>`) on the started stack. */
  startFleet(options: Pick<FleetOptions, 'groups' | 'onRun'>): Promise<Fleet>;
  /** Stops the stack, then the executors, and drops the clients and logs; the same promise to every caller. */
  stop(): Promise<void>;
}

/**
 * Measures the stand-ins' limits alone, then prepares a bench run's stack (nothing started yet) and
 * hands its `stop` to `onAbandon`.
 */
async function openBenchStack(endpoints: StandInEndpoints, options: BenchRunOptions): Promise<BenchStack> {
  const log = options.log ?? (() => undefined);
  const region = options.region ?? 'us-east-1';
  let limits: StandInLimits | null = null;
  if (options.limitSeconds > 0) {
    log('measuring the stand-ins alone (conditional PutItem/s, SQS msg/s, SQS delay precision) ...');
    limits = await measureLimits(endpoints, region, {
      seconds: options.limitSeconds,
      delayedMessages: LIMITS_DELAYED_MESSAGES,
    });
  }

  const prefix = `bench-${randomUUID().slice(0, 8)}-`;
  const tokens = {
    adminToken: randomBytes(20).toString('hex'),
    accessToken: randomBytes(20).toString('hex'),
  };
  const invocations = new InvocationMeter();
  const dynamo = new DynamoMeter((table) => table.replace(prefix, ''));
  const sqs = new SqsMeter((url) => (url.split('/').at(-1) ?? url).replace(prefix, ''));
  const clients = createAwsClients({
    region,
    endpoints: { dynamodb: endpoints.dynamodb, sqs: endpoints.sqs, sns: endpoints.sqs },
  });
  const logRoot = await mkdtemp(join(tmpdir(), 'tickring-bench-'));
  let started: StartedBenchStack | undefined;
  let fleet: Fleet | undefined;
  // The stack stops before the executors, so no fire is sent to a stopping executor.
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await started?.stack.stop().catch(() => undefined);
      await fleet?.stop().catch(() => undefined);
      destroyAwsClients(clients);
      await rm(logRoot, { recursive: true, force: true });
    })();
    return stopping;
  };
  options.onAbandon?.(stop);

  return {
    log,
    limits,
    prefix,
    tokens,
    invocations,
    dynamo,
    sqs,
    clients,
    async start({ shards, onMetric, wrapHandler }) {
      log(`starting the local stack (in memory, ${shards} shards) ...`);
      const stack = await startLocal({
        standIns: { dynamoEndpoint: endpoints.dynamodb, sqsEndpoint: endpoints.sqs },
        port: 0,
        inMemory: true,
        demo: false,
        logLevel: 'silent',
        region,
        resourcePrefix: prefix,
        ...tokens,
        settings: { TICKRING_SHARD_COUNT: String(shards) },
        invocationObserver: invocations,
        onMetric,
        wrapHandler,
      });
      // Every function shares these two clients (local/functions.ts), so they see all the stack's requests.
      dynamo.attach(stack.clients.dynamo);
      sqs.attach(stack.clients.sqs);
      started = { stack, api: createClient({ baseUrl: stack.urls.api, token: tokens.adminToken }) };
      return started;
    },
    async startFleet({ groups, onRun }) {
      if (!started) throw new Error('start the bench stack before its executors');
      log(`starting ${groups} executor(s) ...`);
      fleet = await startFleet({
        api: started.api,
        adminUrl: started.stack.urls.api,
        accessToken: tokens.accessToken,
        groups,
        appNamePrefix: `${prefix}app-`,
        logRoot,
        onRun,
      });
      return fleet;
    },
    stop,
  };
}

/** Runs `run` on a bench stack (see `openBenchStack`), which is stopped after it, however it ends. */
export async function withBenchStack<T>(
  endpoints: StandInEndpoints,
  options: BenchRunOptions,
  run: (bench: BenchStack) => Promise<T>,
): Promise<T> {
  const bench = await openBenchStack(endpoints, options);
  try {
    return await run(bench);
  } finally {
    bench.log('stopping the stack and the executors ...');
    await bench.stop();
  }
}

/** Messages left in the stack's dead-letter queues (visible or in flight). */
export async function deadLetterCount(client: AwsClients['sqs'], stack: LocalStack): Promise<number> {
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
