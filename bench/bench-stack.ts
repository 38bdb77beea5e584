import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { type AwsClients, createAwsClients, destroyAwsClients } from '@tickring/aws/clients';
import { DynamoJobStore, DynamoRunStore, DynamoWorkflowStore } from '@tickring/aws/dynamodb';
import { FUNCTIONS, type FunctionName } from '@tickring/aws/topology';
import { createClient, type TickringClient } from '@tickring/client';
import { silentLogger } from '@tickring/core/common';
import type { JobStore } from '@tickring/core/jobs';
import type { RunStore } from '@tickring/core/runs';
import type { WorkflowStore } from '@tickring/core/workflows';
import {
  EmbeddedDatabase,
  SqliteJobStore,
  SqliteRunStore,
  SqliteWorkflowStore,
} from '@tickring/embedded/sqlite';
import { sharedEmbeddedDatabase } from '../functions/wiring/stores-sqlite.js';
import type { ConsoleLogLevel } from '../local/console-logger.js';
import {
  type AnyLocalStack,
  type EmbeddedLocalStack,
  type LocalStack,
  type LocalStoreName,
  type StartLocalOptions,
  startLocal,
} from '../local/start-local.js';
import { DynamoMeter, type DynamoUsage } from './dynamo-meter.js';
import { type Fleet, type FleetOptions, startFleet } from './fleet.js';
import { type FunctionUsage, InvocationMeter } from './invocation-meter.js';
import { measureLimits, type StandInLimits } from './limits.js';
import { measureSqliteLimits, type SqliteLimits } from './sqlite-limits.js';
import { SqliteMeter, type SqliteUsage } from './sqlite-meter.js';
import { SqsMeter, type SqsUsage } from './sqs-meter.js';
import type { StandInEndpoints } from './stand-ins.js';
import { type LatencySummary, latencySummary } from './workflow-shape.js';

const LIMITS_DELAYED_MESSAGES = 300;

/** The store a bench runs the stack on: the embedded engine, or DynamoDB Local and the SQS stand-in. */
export type BenchStore = LocalStoreName;

/** Where a bench runs: the stand-ins' endpoints come with DynamoDB Local. */
export type BenchTarget =
  | { readonly store: 'sqlite' }
  | { readonly store: 'dynamodb-local'; readonly endpoints: StandInEndpoints };

/** What the store manages alone, measured in the same run before the stack starts. */
export type StoreLimits =
  | ({ readonly store: 'dynamodb-local' } & StandInLimits)
  | ({ readonly store: 'sqlite' } & SqliteLimits);

/** What the stack asked of its store over a window. */
export type StoreUsage =
  | { readonly store: 'dynamodb-local'; readonly dynamodb: DynamoUsage; readonly sqs: SqsUsage }
  | { readonly store: 'sqlite'; readonly sqlite: SqliteUsage };

/** What every bench mode is given beside its workload. */
export interface BenchRunOptions {
  /** Seconds of each store throughput measurement; 0 skips the limits (reported as null). */
  readonly limitSeconds: number;
  readonly region?: string;
  /** Progress lines for people; silent by default. */
  readonly log?: (message: string) => void;
  /** Gets the stop steps of what is started, for a caller that may have to abandon the run (signal, watchdog). */
  readonly onAbandon?: (step: () => Promise<void>) => void;
  /** The stack's own logs, at this level and above (default silent: the bench's progress lines only). */
  readonly stackLogLevel?: ConsoleLogLevel;
}

export interface StartedBenchStack {
  readonly stack: AnyLocalStack;
  /** The admin API, with the run's admin token. */
  readonly api: TickringClient;
}

/** The meters on the stack's store: its SDK clients (DynamoDB Local) or its SQLite connection. */
export interface StoreMeter {
  reset(): void;
  snapshot(): StoreUsage;
  /** Each store request (DynamoDB attempt, SQLite statement) since the reset, sent → answered, ms. */
  requestLatency(): LatencySummary;
}

/** Stores on their own connection or clients: what the bench writes and reads back is not metered. */
export interface UnmeteredStores {
  jobs(shardCount: number): JobStore;
  runs(): RunStore;
  workflows(): WorkflowStore;
}

/**
 * What a bench mode runs on: the store's limits, its own resource prefix and tokens, meters for the
 * store and the function invocations, the bench's own (unmetered) stores, then the local stack and
 * the executors, which `stop` stops with everything else.
 */
export interface BenchStack {
  readonly store: BenchStore;
  /** `options.log`, or silence. */
  readonly log: (message: string) => void;
  /** What the store managed alone, measured before anything started; null when not measured. */
  readonly limits: StoreLimits | null;
  /** Prefix of the run's groups (and on DynamoDB Local its tables and queues): `bench-<8 hex>-`. */
  readonly prefix: string;
  readonly tokens: { readonly adminToken: string; readonly accessToken: string };
  readonly invocations: InvocationMeter;
  readonly meter: StoreMeter;
  /** Starts the local stack in memory (a temp SQLite file, or tables on the stand-ins), with the meters attached. */
  start(options: {
    readonly shards: number;
    readonly onMetric?: StartLocalOptions['onMetric'];
    readonly wrapHandler?: StartLocalOptions['wrapHandler'];
    /** Keep each store request's duration (the workflow mode's latency summary). */
    readonly requestLatency?: boolean;
  }): Promise<StartedBenchStack>;
  /** The bench's own stores on the started stack's data. */
  unmetered(): UnmeteredStores;
  /** Ring messages dead-lettered (DynamoDB Local: left in the DLQs); null on SQLite (the poller logs and drops them). */
  deadLetters(): Promise<number | null>;
  /** Starts E executor groups (`<prefix>app-<i>`) on the started stack. */
  startFleet(options: Pick<FleetOptions, 'groups' | 'onRun'>): Promise<Fleet>;
  /** Stops the stack, then the executors, and drops the clients and logs; the same promise to every caller. */
  stop(): Promise<void>;
}

/** Measures the store's limits alone; null when `seconds` is 0. */
export async function measureStoreLimits(
  target: BenchTarget,
  seconds: number,
  region: string,
  log: (message: string) => void,
): Promise<StoreLimits | null> {
  if (seconds <= 0) return null;
  if (target.store === 'sqlite') {
    log('measuring SQLite alone (conditional inserts/s, updates/s, range reads/s, ring msgs/s) ...');
    return { store: 'sqlite', ...(await measureSqliteLimits({ seconds })) };
  }
  log('measuring the stand-ins alone (conditional PutItem/s, SQS msg/s, SQS delay precision) ...');
  const limits = await measureLimits(target.endpoints, region, {
    seconds,
    delayedMessages: LIMITS_DELAYED_MESSAGES,
  });
  return { store: 'dynamodb-local', ...limits };
}

/**
 * Measures the store's limits alone, then prepares a bench run's stack (nothing started yet) and
 * hands its `stop` to `onAbandon`.
 */
async function openBenchStack(target: BenchTarget, options: BenchRunOptions): Promise<BenchStack> {
  const log = options.log ?? (() => undefined);
  const region = options.region ?? 'us-east-1';
  const limits = await measureStoreLimits(target, options.limitSeconds, region, log);

  const prefix = `bench-${randomUUID().slice(0, 8)}-`;
  const tokens = {
    adminToken: randomBytes(20).toString('hex'),
    accessToken: randomBytes(20).toString('hex'),
  };
  const invocations = new InvocationMeter();
  const logRoot = await mkdtemp(join(tmpdir(), 'tickring-bench-'));
  const store = target.store === 'sqlite' ? sqliteBackend() : dynamoBackend(target.endpoints, region, prefix);
  let started: StartedBenchStack | undefined;
  let fleet: Fleet | undefined;
  // The stack stops before the executors, so no fire is sent to a stopping executor.
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      store.closeUnmetered();
      await started?.stack.stop().catch(() => undefined);
      await fleet?.stop().catch(() => undefined);
      store.close();
      await rm(logRoot, { recursive: true, force: true });
    })();
    return stopping;
  };
  options.onAbandon?.(stop);
  const stackOf = () => {
    if (!started) throw new Error('start the bench stack first');
    return started.stack;
  };

  return {
    store: target.store,
    log,
    limits,
    prefix,
    tokens,
    invocations,
    meter: store.meter,
    async start({ shards, onMetric, wrapHandler, requestLatency = false }) {
      log(`starting the local stack on ${target.store} (in memory, ${shards} shards) ...`);
      const common = {
        port: 0,
        inMemory: true,
        demo: false,
        logLevel: options.stackLogLevel ?? 'silent',
        region,
        ...tokens,
        settings: { TICKRING_SHARD_COUNT: String(shards) },
        invocationObserver: invocations,
        onMetric,
        wrapHandler,
      } as const;
      const stack =
        target.store === 'sqlite'
          ? await startLocal({ ...common, store: 'sqlite' })
          : await startLocal({
              ...common,
              standIns: { dynamoEndpoint: target.endpoints.dynamodb, sqsEndpoint: target.endpoints.sqs },
              resourcePrefix: prefix,
            });
      store.attach(stack, requestLatency);
      started = { stack, api: createClient({ baseUrl: stack.urls.api, token: tokens.adminToken }) };
      return started;
    },
    unmetered: () => store.unmetered(stackOf()),
    deadLetters: () => store.deadLetters(stackOf()),
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
        onLost: (message) => log(`WARNING: ${message}: the fires routed to it from now on are missed`),
      });
      return fleet;
    },
    stop,
  };
}

/** What differs between the stores: the meters, the unmetered stores, dead letters, what to close. */
interface StoreBackend {
  readonly meter: StoreMeter;
  attach(stack: AnyLocalStack, requestLatency: boolean): void;
  unmetered(stack: AnyLocalStack): UnmeteredStores;
  deadLetters(stack: AnyLocalStack): Promise<number | null>;
  /** Closes the unmetered stores' connection (before the stack stops and removes its file). */
  closeUnmetered(): void;
  close(): void;
}

function sqliteBackend(): StoreBackend {
  let sqlite = new SqliteMeter();
  let reader: EmbeddedDatabase | undefined;
  const embedded = (stack: AnyLocalStack): EmbeddedLocalStack => {
    if (stack.store !== 'sqlite') throw new Error('not a stack on SQLite');
    return stack;
  };
  return {
    meter: {
      reset: () => sqlite.reset(),
      snapshot: () => ({ store: 'sqlite', sqlite: sqlite.snapshot() }),
      requestLatency: () => sqlite.latency(),
    },
    attach(stack, requestLatency) {
      sqlite = new SqliteMeter({ keepDurations: requestLatency });
      // The connection every hosted function shares (functions/wiring/stores-sqlite.ts): all the stack's SQL.
      sharedEmbeddedDatabase(embedded(stack).databaseFile).db.observe(sqlite.observer);
    },
    unmetered(stack) {
      // A second connection to the file, as another process would have: its statements are not observed.
      reader ??= new EmbeddedDatabase({ path: embedded(stack).databaseFile });
      const database = reader;
      return {
        jobs: (shardCount) => new SqliteJobStore({ database, shardCount }),
        runs: () => new SqliteRunStore({ database, retentionDays: 1 }),
        workflows: () => new SqliteWorkflowStore({ database, retentionDays: 1 }),
      };
    },
    deadLetters: async () => null,
    closeUnmetered() {
      // The driver's own close: no checkpoint from this connection while the stack still writes.
      reader?.db.close();
    },
    close: () => undefined,
  };
}

function dynamoBackend(endpoints: StandInEndpoints, region: string, prefix: string): StoreBackend {
  const dynamo = new DynamoMeter((table) => table.replace(prefix, ''));
  const sqs = new SqsMeter((url) => (url.split('/').at(-1) ?? url).replace(prefix, ''));
  const timer = new RequestTimer();
  // The bench's own clients on the stand-ins, not metered: setup writes and reading back.
  const clients = createAwsClients({
    region,
    endpoints: { dynamodb: endpoints.dynamodb, sqs: endpoints.sqs, sns: endpoints.sqs },
  });
  const onDynamo = (stack: AnyLocalStack): LocalStack => {
    if (stack.store !== 'dynamodb-local') throw new Error('not a stack on DynamoDB Local');
    return stack;
  };
  return {
    meter: {
      reset() {
        dynamo.reset();
        sqs.reset();
        timer.reset();
      },
      snapshot: () => ({ store: 'dynamodb-local', dynamodb: dynamo.snapshot(), sqs: sqs.snapshot() }),
      requestLatency: () => timer.summary(),
    },
    attach(stack, requestLatency) {
      // Every function shares these two clients (local/functions.ts), so they see all the stack's requests.
      dynamo.attach(stack.clients.dynamo);
      sqs.attach(stack.clients.sqs);
      if (requestLatency) timer.attach(stack.clients.dynamo);
    },
    unmetered(stack) {
      const { tables } = onDynamo(stack).resources;
      return {
        jobs: (shardCount) =>
          new DynamoJobStore({
            doc: clients.doc,
            jobsTable: tables.jobs,
            controlTable: tables.control,
            shardCount,
          }),
        runs: () =>
          new DynamoRunStore({
            doc: clients.doc,
            runsTable: tables.runs,
            controlTable: tables.control,
            retentionDays: 1,
            logger: silentLogger,
          }),
        workflows: () =>
          new DynamoWorkflowStore({
            doc: clients.doc,
            workflowsTable: tables.workflows,
            retentionDays: 1,
            logger: silentLogger,
          }),
      };
    },
    deadLetters: (stack) => deadLetterCount(clients.sqs, onDynamo(stack)),
    closeUnmetered: () => undefined,
    close: () => destroyAwsClients(clients),
  };
}

/** Runs `run` on a bench stack (see `openBenchStack`), which is stopped after it, however it ends. */
export async function withBenchStack<T>(
  target: BenchTarget,
  options: BenchRunOptions,
  run: (bench: BenchStack) => Promise<T>,
): Promise<T> {
  const bench = await openBenchStack(target, options);
  try {
    return await run(bench);
  } finally {
    bench.log('stopping the stack and the executors ...');
    await bench.stop();
  }
}

/**
 * How long each DynamoDB request of a client took (every attempt, signed to answered): what the
 * chain of requests behind a workflow node's lateness waited for. One more middleware on the client.
 */
class RequestTimer {
  private times: number[] = [];

  attach(client: DynamoDBClient): void {
    client.middlewareStack.add(
      (next) => async (args) => {
        const started = performance.now();
        try {
          return await next(args);
        } finally {
          this.times.push(performance.now() - started);
        }
      },
      { step: 'finalizeRequest', priority: 'low', name: 'benchRequestTimer', override: true },
    );
  }

  reset(): void {
    this.times = [];
  }

  summary(): LatencySummary {
    return latencySummary(this.times);
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
