import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AwsClients, createAwsClients, destroyAwsClients } from '@tickring/aws/clients';
import { QUEUE_LIST } from '@tickring/aws/topology';
import { CONSOLE_DIST_DIR } from '@tickring/console/dist-dir';
import type { Logger } from '@tickring/core/common';
import { systemClock } from '@tickring/core/common';
import type { RingLane } from '@tickring/core/dispatch';
import { bootstrapRotation } from '@tickring/core/identity/use-cases';
import { SqliteRingQueue } from '@tickring/embedded/sqlite';
import * as apiConfig from '../functions/api/config.js';
import * as dispatcherConfig from '../functions/dispatcher/config.js';
import { dispatchSettings } from '../functions/dispatcher/deps.js';
import { createStoreKit, type StoreKit } from '../functions/wiring/stores.js';
import { closeSharedEmbeddedDatabase, sharedEmbeddedDatabase } from '../functions/wiring/stores-sqlite.js';
import { consoleAssetsRoute } from './console-assets.js';
import { type ConsoleLogLevel, consoleLogger } from './console-logger.js';
import { DATABASE_FILE, lockDataDir } from './data-dir-lock.js';
import { startDemo } from './demo.js';
import { LocalDispatcherHandOff } from './dispatcher-hand-off.js';
import { LocalStartError } from './errors.js';
import { RateRule } from './eventbridge.js';
import { functionEnv } from './function-env.js';
import { type HandlerWrapper, localFunctions, type MetricSink } from './functions.js';
import { BackgroundHealth, healthRoute, type Readiness, type StoreHealth } from './health.js';
import { type LocalRoute, startHttpGateway } from './http-gateway.js';
import { type InvocationObserver, LambdaHost } from './lambda-host.js';
import { lambdaInvokeRoute } from './lambda-invoke-route.js';
import { assertPortFree, LOOPBACK, listenHost, reachableHost } from './net.js';
import { provisionResources, type Resources } from './provision.js';
import { replanAfterRestart } from './replan.js';
import { SqliteRingPoller } from './sqlite-ring-poller.js';
import { SqsPoller } from './sqs-poller.js';
import { type DynamoDbLocal, startDynamoDbLocal } from './stand-ins/dynamodb-local.js';
import { type SqsStandIn, startSqsStandIn } from './stand-ins/sqs.js';
import { STOP_PHASE, StopSequence } from './stop-sequence.js';
import { resolveTokens, type Tokens } from './tokens.js';

export const LOCAL_STORES = ['sqlite', 'dynamodb-local'] as const;
export type LocalStoreName = (typeof LOCAL_STORES)[number];

export { DATABASE_FILE } from './data-dir-lock.js';

export interface StartLocalOptions {
  /**
   * `sqlite` (the default): the embedded engine, every store and the ring in one database file, no
   * Java. `dynamodb-local`: DynamoDB Local and the SQS stand-in, the adapters AWS runs (Java 17).
   * Given `standIns`, the default is `dynamodb-local`.
   */
  readonly store?: LocalStoreName;
  /** HTTP port; 0 picks a free one. Default 8080. */
  readonly port?: number;
  /**
   * The IP address the HTTP port listens on (`0.0.0.0` or `::` for every interface). Default
   * 127.0.0.1: a machine's other users and networks reach it only through a reverse proxy.
   */
  readonly host?: string;
  /** Where the data (`tickring.db`, or DynamoDB Local's files) and the tokens live. Default `.tickring`. */
  readonly dataDir?: string;
  /** Keep nothing: on SQLite a database file in a temp directory, removed at stop. */
  readonly inMemory?: boolean;
  /**
   * SQLite, tests only: this database file instead of the data directory's, and no lock on it, so
   * stacks in several processes can share one file as function instances share the tables (in one
   * process they would share its one connection, which the first stop closes).
   */
  readonly databaseFile?: string;
  /** Start the demo executor (127.0.0.1:9999) and, on first start, its group and job. Default true. */
  readonly demo?: boolean;
  /** Port of the demo executor. Default 9999. */
  readonly demoPort?: number;
  readonly adminToken?: string;
  readonly accessToken?: string;
  /** DynamoDB Local: use already running stand-ins (tests share one pair) instead of starting new ones. */
  readonly standIns?: StandInEndpoints;
  /** DynamoDB Local: prefix of table, queue and topic names. Default `tickring-`. */
  readonly resourcePrefix?: string;
  readonly region?: string;
  /** Extra function settings by env var name, e.g. `{ TICKRING_SHARD_COUNT: '2' }`. */
  readonly settings?: Readonly<Record<string, string>>;
  /** How often the tick rule fires. Default one minute, as in AWS. */
  readonly tickPeriodMs?: number;
  /**
   * Tests only: how long a ring message a dispatcher received stays hidden (when it died holding
   * it, how long until it comes back), for queues this start creates. Default as in AWS (90 s).
   */
  readonly ringVisibilitySeconds?: number;
  /** How often the monitors rule fires (lost runs). Default one minute, as in AWS. */
  readonly monitorPeriodMs?: number;
  /** `silent` for tests; `debug` shows every fire. Default `info`. */
  readonly logLevel?: ConsoleLogLevel;
  /** The logger of each source (the stack, each function); default readable lines at `logLevel`. */
  readonly loggerFor?: (source: string) => Logger;
  /** Sees every function invocation start and end (the bench counts them). */
  readonly invocationObserver?: InvocationObserver;
  /** Receives the functions' business metrics (e.g. the tick's `TickDuration`), which are dropped otherwise. */
  readonly onMetric?: MetricSink;
  /** Wraps a function's handler before it is hosted (the bench's fault injection); off by default. */
  readonly wrapHandler?: HandlerWrapper;
  /** The built web console served at `/`. Default `console/dist` (CONSOLE_DIST_DIR, `npm run build`). */
  readonly consoleDistDir?: string;
}

export interface StandInEndpoints {
  readonly dynamoEndpoint: string;
  readonly sqsEndpoint: string;
}

/** What a local stack offers, on either store. */
interface LocalStackBase {
  readonly urls: {
    /** The web console (`/`, on the API's port). */
    readonly console: string;
    readonly api: string;
    readonly health: string;
  };
  readonly tokens: Tokens;
  /** Set once the bootstrap admin token was rotated (POST /v1/tokens/bootstrap/rotate): `tokens.adminToken` no longer works. */
  readonly bootstrapRotated: { readonly rotatedAt: number; readonly rotatedBy: string } | undefined;
  /** The stack's stores, as the functions see them (tests read and seed through them), until its stop. */
  readonly stores: StoreKit;
  readonly clients: AwsClients;
  readonly host: LambdaHost;
  stop(): Promise<void>;
}

/** A stack on DynamoDB Local and the SQS stand-in. */
export interface LocalStack extends LocalStackBase {
  readonly store: 'dynamodb-local';
  readonly urls: LocalStackBase['urls'] & { readonly dynamodb: string; readonly sqs: string };
  readonly resources: Resources;
}

/** A stack on the embedded engine. */
export interface EmbeddedLocalStack extends LocalStackBase {
  readonly store: 'sqlite';
  /** The database file (in memory mode: a temp file, removed at stop). */
  readonly databaseFile: string;
}

export type AnyLocalStack = LocalStack | EmbeddedLocalStack;

/**
 * Concurrent dispatcher batches per ring queue, as Lambda's event source mapping runs them. A batch
 * holds until its fires' second, so this bounds on-time dispatch at about ten fires a second each.
 */
export const DISPATCHER_BATCHES_PER_QUEUE = 10;

/** How long after the database last refused a write (its disk full) `/health` still reports it. */
export const REFUSED_WRITES_SHOWN_MS = 60_000;

/**
 * Starts the whole scheduler on this machine: the data directory's lock, the HTTP port (claimed
 * first, so a taken port fails fast; it answers 503 until the stack is ready), the store (the
 * SQLite file, or DynamoDB Local and the SQS stand-in with their tables and queues), then the real
 * handlers with their event sources. `stop()` stops in order (see STOP_PHASE); a failed start
 * stops what it started.
 */
export function startLocal(
  options: StartLocalOptions &
    ({ readonly store: 'dynamodb-local' } | { readonly standIns: StandInEndpoints }),
): Promise<LocalStack>;
export function startLocal(
  options: StartLocalOptions & { readonly store: 'sqlite' },
): Promise<EmbeddedLocalStack>;
export function startLocal(options?: StartLocalOptions): Promise<AnyLocalStack>;
export async function startLocal(options: StartLocalOptions = {}): Promise<AnyLocalStack> {
  const region = options.region ?? 'us-east-1';
  const store: LocalStoreName = options.store ?? (options.standIns ? 'dynamodb-local' : 'sqlite');
  const dataDir =
    options.inMemory || options.databaseFile ? undefined : resolve(options.dataDir ?? '.tickring');
  const logLevel = options.logLevel ?? 'info';
  const log = options.loggerFor ?? ((source: string): Logger => consoleLogger(source, logLevel));
  const logger = log('local');
  let state: Readiness = 'starting';
  // The gateway serves until its own phase of the stop: executors report their last results.
  let serving = false;
  const stops = new StopSequence(logger);
  const stopAll = async () => {
    if (state !== 'starting') state = 'stopping';
    await stops.run();
  };

  try {
    if (store === 'sqlite' && (options.standIns || options.resourcePrefix)) {
      throw new LocalStartError(
        "standIns and resourcePrefix are DynamoDB Local's: use them with store dynamodb-local",
      );
    }
    if (store === 'dynamodb-local' && options.databaseFile) {
      throw new LocalStartError("databaseFile is the SQLite store's: use it with store sqlite");
    }
    const listenOn = listenHost(options.host);
    if (dataDir) stops.add(STOP_PHASE.dataDir, 'data directory lock', lockDataDir(dataDir));
    const requestedPort = options.port ?? 8080;
    await assertPortFree(requestedPort, 'tickring HTTP API', listenOn);
    const tokens = resolveTokens(
      { adminToken: options.adminToken, accessToken: options.accessToken },
      dataDir,
    );

    const host = new LambdaHost(region, options.invocationObserver);
    const abort = new AbortController();
    const background = new BackgroundHealth();
    // Filled in once the store is up (/health reads it only when the stack is ready).
    let storeHealth: StoreHealth = store === 'sqlite' ? { kind: store, database: '' } : { kind: store };
    const localRoutes: LocalRoute[] = [
      healthRoute(
        () => storeHealth,
        host,
        () => state,
        background,
      ),
      // Lambda's Invoke API, so the production LambdaClient reaches the hosted functions (lambda:<name> executors).
      lambdaInvokeRoute({ host, region, logger: log('lambda') }),
      // The web console: GET/HEAD outside the API's prefixes. A local route, so it is served while the
      // stack starts (and stops) too: the bundle is static, and the console shows its own "not ready"
      // from /v1's 503 + Retry-After, rather than a browser showing a JSON error on a reload.
      consoleAssetsRoute({ distDir: options.consoleDistDir ?? CONSOLE_DIST_DIR }),
    ];
    const gateway = await startHttpGateway({
      host,
      port: requestedPort,
      listenOn,
      functionNames: { api: 'api', callback: 'callback' },
      localRoutes,
      logger,
      readiness: () => (serving ? 'ready' : state === 'starting' ? 'starting' : 'stopping'),
    });
    stops.add(STOP_PHASE.gateway, 'HTTP gateway', async () => {
      serving = false;
      await host.drain(5_000);
      await closeServer(gateway.server);
    });
    // How the stack calls itself (the Lambda endpoint, the executors' admin address).
    const baseUrl = `http://${reachableHost(listenOn)}:${gateway.port}`;
    const common = {
      region,
      adminToken: tokens.adminToken,
      accessToken: tokens.accessToken,
      tokenKey: tokens.tokenKey,
      adminBaseUrl: baseUrl,
      settings: options.settings,
    };

    let env: Record<string, string>;
    let clients: AwsClients;
    let started: { store: 'sqlite'; databaseFile: string; ring: SqliteRingQueue } | DynamoStarted;
    if (store === 'sqlite') {
      const databaseFile = openDatabaseFile(options, dataDir, stops);
      // Nothing of this stack may reach AWS: the clients' DynamoDB, SQS and SNS go to a closed port.
      const nowhere = `http://${LOOPBACK}:9`;
      clients = createAwsClients({
        region,
        endpoints: { dynamodb: nowhere, sqs: nowhere, sns: nowhere, lambda: baseUrl },
      });
      stops.add(STOP_PHASE.clients, 'AWS clients', () => destroyAwsClients(clients));
      env = functionEnv({ ...common, endpoints: { lambda: baseUrl }, sqliteFile: databaseFile });
      const database = sharedEmbeddedDatabase(databaseFile);
      // A full disk refuses writes (a 503 each): /health says so for a minute after the last refusal.
      background.watch('database writes', () => {
        const refused = database.db.refusedWrites;
        if (!refused || Date.now() - refused.last > REFUSED_WRITES_SHOWN_MS) return undefined;
        return { since: refused.since, consecutiveFailures: refused.count, lastError: refused.error };
      });
      const ring = new SqliteRingQueue({ database });
      started = { store, databaseFile, ring };
      storeHealth = { kind: 'sqlite', database: databaseFile };
    } else {
      const dynamo = await startDynamoLocal(options, dataDir, baseUrl, stops);
      clients = dynamo.clients;
      env = functionEnv({ ...common, endpoints: dynamo.endpoints, resources: dynamo.resources });
      started = dynamo;
      storeHealth = { kind: 'dynamodb-local', dynamo: dynamo.health.dynamo, sqs: dynamo.health.sqs };
    }

    // The api's stores are all of them: every table, the ring, the alarm topic.
    const stores = createStoreKit(apiConfig.loadConfig(env).store, { clients, clock: systemClock, logger });
    // Decided workflow nodes go to the hosted dispatcher at once (onto the ring when it fails);
    // stopped with the ring pollers.
    const handOff = new LocalDispatcherHandOff(host, 'dispatcher', stores.ring(), log('dispatcher'));
    // After the pollers (a phase's steps run last added first): nodes decided later go on the ring.
    stops.add(STOP_PHASE.ring, 'dispatcher hand-off', async () => {
      handOff.close();
      await host.drain(10_000, ['dispatcher']);
    });
    for (const spec of localFunctions(env, {
      clients,
      clock: systemClock,
      loggerFor: (name) => log(name),
      signal: abort.signal,
      onMetric: options.onMetric,
      wrapHandler: options.wrapHandler,
      handOff,
    })) {
      host.register(spec);
    }

    if (started.store === 'sqlite') {
      // The SQLite ring is durable: what the tick planned before a stop or crash is still on it. What a
      // dispatcher held when its process died comes back after its visibility timeout (90 s); alone on
      // the file (the data directory is ours), bring it back as soon as the claims it may have made
      // are stale: a dispatcher claims a fire within maxWaitMs of receiving it.
      if (dataDir) {
        const dispatch = dispatchSettings(dispatcherConfig.loadConfig(env));
        const holdMs = dispatch.maxWaitMs + dispatch.claimStaleMs + 1_000;
        const visibilityMs =
          1000 *
          Math.min(...QUEUE_LIST.map((q) => options.ringVisibilitySeconds ?? q.visibilityTimeoutSeconds));
        const returned = await started.ring.returnHeldSooner(visibilityMs - holdMs);
        if (returned > 0) {
          logger.warn('ring messages held by a stopped dispatcher come back sooner', { messages: returned });
        }
      }
      for (const queue of QUEUE_LIST) {
        const lane: RingLane = queue.logicalName === 'ringSlow' ? 'slow' : 'fast';
        const poller = new SqliteRingPoller({
          ring: started.ring,
          lane,
          host,
          functionName: 'dispatcher',
          region,
          visibilitySeconds: options.ringVisibilitySeconds ?? queue.visibilityTimeoutSeconds,
          maxReceiveCount: queue.deadLetter.maxReceiveCount,
          concurrency: DISPATCHER_BATCHES_PER_QUEUE,
          logger,
        });
        poller.start();
        stops.add(STOP_PHASE.ring, `ring poller ${queue.baseName}`, () => poller.stop());
      }
    } else {
      // Our own SQS stand-in starts empty: the fires planned before a stop or crash are gone from it.
      if (dataDir && !options.standIns) await replanAfterRestart(env, clients, logger);
      for (const queue of QUEUE_LIST) {
        const poller = new SqsPoller({
          sqs: clients.sqs,
          host,
          functionName: 'dispatcher',
          queueUrl: started.resources.queues[queue.logicalName].url,
          queueArn: started.resources.queues[queue.logicalName].arn,
          region,
          concurrency: DISPATCHER_BATCHES_PER_QUEUE,
          logger,
        });
        poller.start();
        stops.add(STOP_PHASE.ring, `ring poller ${queue.baseName}`, () => poller.stop());
      }
    }

    const rules = [
      new RateRule({
        host,
        region,
        ruleName: 'tickring-scheduler-tick',
        functionName: 'scheduler-tick',
        periodMs: options.tickPeriodMs ?? 60_000,
        targets: 2,
        logger,
        background,
      }),
      new RateRule({
        host,
        region,
        ruleName: 'tickring-monitors',
        functionName: 'monitors',
        periodMs: options.monitorPeriodMs ?? 60_000,
        targets: 1,
        logger,
        background,
        onResult: (result) => background.monitorsResult(result),
      }),
    ];
    for (const rule of rules) rule.start();
    stops.add(STOP_PHASE.schedule, 'scheduled rules', async () => {
      for (const rule of rules) rule.stop();
      abort.abort(); // the tick loops end within a second and hand their leases over
      await host.drain(10_000, ['scheduler-tick', 'monitors']);
    });

    state = 'ready';
    serving = true;
    logger.debug('ready', { url: baseUrl, store });

    const bootstrapRotated = await bootstrapRotation({ store: stores.principals() });
    if (bootstrapRotated !== undefined && (options.demo ?? true)) {
      logger.info('demo not set up: the admin token was rotated, and the demo sets itself up with it', {});
    } else if (options.demo ?? true) {
      try {
        const stopDemo = await startDemo({
          adminBaseUrl: baseUrl,
          adminToken: tokens.adminToken,
          accessToken: tokens.accessToken,
          dataDir,
          port: options.demoPort,
          logger: log('demo'),
        });
        stops.add(STOP_PHASE.executors, 'demo executor', stopDemo);
      } catch (err) {
        // The scheduler is useful without its demo (e.g. when port 9999 is taken): say so and go on.
        logger.warn('demo not started', { error: err instanceof Error ? err.message : String(err) });
      }
    }

    const base = {
      tokens,
      bootstrapRotated,
      stores,
      clients,
      host,
      stop: stopAll,
    };
    const urls = { console: `${baseUrl}/`, api: baseUrl, health: `${baseUrl}/health` };
    if (started.store === 'sqlite') {
      return { ...base, store: 'sqlite', urls, databaseFile: started.databaseFile };
    }
    return {
      ...base,
      store: 'dynamodb-local',
      urls: { ...urls, dynamodb: started.endpoints.dynamodb, sqs: started.endpoints.sqs },
      resources: started.resources,
    };
  } catch (err) {
    await stopAll();
    if (err instanceof LocalStartError) throw err;
    throw new LocalStartError(
      `tickring failed to start: ${err instanceof Error ? err.message : String(err)}`,
      {
        cause: err,
      },
    );
  }
}

/**
 * The SQLite file: the data directory's `tickring.db` (under its lock), the file the caller names,
 * or one in a temp directory removed at stop. Opened now (the process's one connection, which the
 * functions share) and closed after everything that uses it has stopped.
 */
function openDatabaseFile(
  options: StartLocalOptions,
  dataDir: string | undefined,
  stops: StopSequence,
): string {
  let file: string;
  if (dataDir) file = join(dataDir, DATABASE_FILE);
  else if (options.databaseFile) file = resolve(options.databaseFile);
  else {
    const temp = mkdtempSync(join(tmpdir(), 'tickring-'));
    stops.add(STOP_PHASE.standIns, 'temporary database', () =>
      rmSync(temp, { recursive: true, force: true }),
    );
    file = join(temp, DATABASE_FILE);
  }
  sharedEmbeddedDatabase(file);
  stops.add(STOP_PHASE.standIns, 'database', () => closeSharedEmbeddedDatabase(file));
  return file;
}

interface DynamoStarted {
  readonly store: 'dynamodb-local';
  readonly clients: AwsClients;
  readonly endpoints: { readonly dynamodb: string; readonly sqs: string; readonly lambda: string };
  readonly resources: Resources;
  readonly health: {
    readonly dynamo: DynamoDbLocal | { endpoint: string };
    readonly sqs: SqsStandIn | { endpoint: string };
  };
}

/** DynamoDB Local and the SQS stand-in (the caller's, or our own), the clients, the tables and queues. */
async function startDynamoLocal(
  options: StartLocalOptions,
  dataDir: string | undefined,
  baseUrl: string,
  stops: StopSequence,
): Promise<DynamoStarted> {
  const region = options.region ?? 'us-east-1';
  let health: DynamoStarted['health'];
  if (options.standIns) {
    const { dynamoEndpoint, sqsEndpoint } = options.standIns;
    health = { dynamo: { endpoint: dynamoEndpoint }, sqs: { endpoint: sqsEndpoint } };
  } else {
    const dynamo = await startDynamoDbLocal({ dataDir: dataDir ? join(dataDir, 'dynamodb') : undefined });
    stops.add(STOP_PHASE.standIns, 'DynamoDB Local', () => dynamo.stop());
    const sqs = await startSqsStandIn();
    stops.add(STOP_PHASE.standIns, 'SQS stand-in', () => sqs.stop());
    health = { dynamo, sqs };
  }
  const endpoints = { dynamodb: health.dynamo.endpoint, sqs: health.sqs.endpoint, lambda: baseUrl };
  const clients = createAwsClients({ region, endpoints: { ...endpoints, sns: endpoints.sqs } });
  stops.add(STOP_PHASE.clients, 'AWS clients', () => destroyAwsClients(clients));
  const resources = await provisionResources(clients, options.resourcePrefix ?? 'tickring-', {
    ...(options.ringVisibilitySeconds === undefined
      ? {}
      : { ringVisibilitySeconds: options.ringVisibilitySeconds }),
  });
  return { store: 'dynamodb-local', clients, endpoints, resources, health };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
