import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { type AwsClients, createAwsClients, destroyAwsClients } from '@tickring/aws/clients';
import { DynamoPrincipalStore } from '@tickring/aws/dynamodb';
import { QUEUES } from '@tickring/aws/topology';
import { CONSOLE_DIST_DIR } from '@tickring/console/dist-dir';
import type { Logger } from '@tickring/core/common';
import { systemClock } from '@tickring/core/common';
import { bootstrapRotation } from '@tickring/core/identity/use-cases';
import { consoleAssetsRoute } from './console-assets.js';
import { consoleLogger } from './console-logger.js';
import { lockDataDir } from './data-dir-lock.js';
import { startDemo } from './demo.js';
import { LocalStartError } from './errors.js';
import { RateRule } from './eventbridge.js';
import { functionEnv } from './function-env.js';
import { type HandlerWrapper, localFunctions, type MetricSink } from './functions.js';
import { BackgroundHealth, healthRoute, type Readiness } from './health.js';
import { type LocalRoute, startHttpGateway } from './http-gateway.js';
import { type InvocationObserver, LambdaHost } from './lambda-host.js';
import { lambdaInvokeRoute } from './lambda-invoke-route.js';
import { assertPortFree, LOOPBACK } from './net.js';
import { provisionResources, type Resources } from './provision.js';
import { replanAfterRestart } from './replan.js';
import { SqsPoller } from './sqs-poller.js';
import { type DynamoDbLocal, startDynamoDbLocal } from './stand-ins/dynamodb-local.js';
import { type SqsStandIn, startSqsStandIn } from './stand-ins/sqs.js';
import { STOP_PHASE, StopSequence } from './stop-sequence.js';
import { resolveTokens, type Tokens } from './tokens.js';

export interface StartLocalOptions {
  /** HTTP port on 127.0.0.1; 0 picks a free one. Default 8080. */
  readonly port?: number;
  /** Where DynamoDB Local's file and the tokens live. Default `.tickring`. */
  readonly dataDir?: string;
  /** Keep nothing on disk. */
  readonly inMemory?: boolean;
  /** Start the demo executor (127.0.0.1:9999) and, on first start, its group and job. Default true. */
  readonly demo?: boolean;
  /** Port of the demo executor. Default 9999. */
  readonly demoPort?: number;
  readonly adminToken?: string;
  readonly accessToken?: string;
  /** Use already running stand-ins (tests share one pair) instead of starting new ones. */
  readonly standIns?: { readonly dynamoEndpoint: string; readonly sqsEndpoint: string };
  /** Prefix of table, queue and topic names. Default `tickring-`. */
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
  readonly logLevel?: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** Sees every function invocation start and end (the bench counts them). */
  readonly invocationObserver?: InvocationObserver;
  /** Receives the functions' business metrics (e.g. the tick's `TickDuration`), which are dropped otherwise. */
  readonly onMetric?: MetricSink;
  /** Wraps a function's handler before it is hosted (the bench's fault injection); off by default. */
  readonly wrapHandler?: HandlerWrapper;
  /** The built web console served at `/`. Default `console/dist` (CONSOLE_DIST_DIR, `npm run build`). */
  readonly consoleDistDir?: string;
}

export interface LocalStack {
  readonly urls: {
    /** The web console (`/`, on the API's port). */
    readonly console: string;
    readonly api: string;
    readonly health: string;
    readonly dynamodb: string;
    readonly sqs: string;
  };
  readonly tokens: Tokens;
  /** Set once the bootstrap admin token was rotated (POST /v1/tokens/bootstrap/rotate): `tokens.adminToken` no longer works. */
  readonly bootstrapRotated: { readonly rotatedAt: number; readonly rotatedBy: string } | undefined;
  readonly resources: Resources;
  readonly clients: AwsClients;
  readonly host: LambdaHost;
  stop(): Promise<void>;
}

/**
 * Concurrent dispatcher batches per ring queue, as Lambda's event source mapping runs them. A batch
 * holds until its fires' second, so this bounds on-time dispatch at about ten fires a second each.
 */
export const DISPATCHER_BATCHES_PER_QUEUE = 10;

/**
 * Starts the whole scheduler on this machine: the data directory's lock, the HTTP port (claimed
 * first, so a taken port fails fast; it answers 503 until the stack is ready), DynamoDB Local and
 * the SQS stand-in, the tables and queues, the fires a restart lost from the ring, then the real
 * handlers with their event sources. `stop()` stops in order (see STOP_PHASE); a failed start
 * stops what it started.
 */
export async function startLocal(options: StartLocalOptions = {}): Promise<LocalStack> {
  const region = options.region ?? 'us-east-1';
  const dataDir = options.inMemory ? undefined : resolve(options.dataDir ?? '.tickring');
  const logLevel = options.logLevel ?? 'info';
  const log = (source: string): Logger => consoleLogger(source, logLevel);
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
    if (dataDir) stops.add(STOP_PHASE.dataDir, 'data directory lock', lockDataDir(dataDir));
    const requestedPort = options.port ?? 8080;
    await assertPortFree(requestedPort, 'tickring HTTP API');
    const tokens = resolveTokens(
      { adminToken: options.adminToken, accessToken: options.accessToken },
      dataDir,
    );

    const host = new LambdaHost(region, options.invocationObserver);
    const abort = new AbortController();
    const background = new BackgroundHealth();
    const health: { dynamo?: DynamoDbLocal | { endpoint: string }; sqs?: SqsStandIn | { endpoint: string } } =
      {};
    const localRoutes: LocalRoute[] = [
      healthRoute(
        () => health,
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
    const baseUrl = `http://${LOOPBACK}:${gateway.port}`;

    let dynamoEndpoint: string;
    let sqsEndpoint: string;
    if (options.standIns) {
      ({ dynamoEndpoint, sqsEndpoint } = options.standIns);
      health.dynamo = { endpoint: dynamoEndpoint };
      health.sqs = { endpoint: sqsEndpoint };
    } else {
      const dynamo = await startDynamoDbLocal({ dataDir: dataDir ? join(dataDir, 'dynamodb') : undefined });
      stops.add(STOP_PHASE.standIns, 'DynamoDB Local', () => dynamo.stop());
      const sqs = await startSqsStandIn();
      stops.add(STOP_PHASE.standIns, 'SQS stand-in', () => sqs.stop());
      dynamoEndpoint = dynamo.endpoint;
      sqsEndpoint = sqs.endpoint;
      health.dynamo = dynamo;
      health.sqs = sqs;
    }

    const endpoints = { dynamodb: dynamoEndpoint, sqs: sqsEndpoint, sns: sqsEndpoint, lambda: baseUrl };
    const clients = createAwsClients({ region, endpoints });
    stops.add(STOP_PHASE.clients, 'AWS clients', () => destroyAwsClients(clients));
    const resources = await provisionResources(clients, options.resourcePrefix ?? 'tickring-', {
      ...(options.ringVisibilitySeconds === undefined
        ? {}
        : { ringVisibilitySeconds: options.ringVisibilitySeconds }),
    });

    const env = functionEnv({
      region,
      endpoints,
      resources,
      adminToken: tokens.adminToken,
      accessToken: tokens.accessToken,
      tokenKey: tokens.tokenKey,
      adminBaseUrl: baseUrl,
      settings: options.settings,
    });
    for (const spec of localFunctions(env, {
      clients,
      clock: systemClock,
      loggerFor: (name) => log(name),
      signal: abort.signal,
      onMetric: options.onMetric,
      wrapHandler: options.wrapHandler,
    })) {
      host.register(spec);
    }

    // Our own SQS stand-in starts empty: the fires planned before a stop or crash are gone from it.
    if (dataDir && !options.standIns) await replanAfterRestart(env, clients, logger);

    for (const queue of Object.values(QUEUES)) {
      const poller = new SqsPoller({
        sqs: clients.sqs,
        host,
        functionName: 'dispatcher',
        queueUrl: resources.queues[queue.logicalName].url,
        queueArn: resources.queues[queue.logicalName].arn,
        region,
        concurrency: DISPATCHER_BATCHES_PER_QUEUE,
        logger,
      });
      poller.start();
      stops.add(STOP_PHASE.ring, `ring poller ${queue.baseName}`, () => poller.stop());
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
    logger.debug('ready', { url: baseUrl });

    const bootstrapRotated = await bootstrapRotation({
      store: new DynamoPrincipalStore({ doc: clients.doc, table: resources.tables.principals }),
    });
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

    return {
      urls: {
        console: `${baseUrl}/`,
        api: baseUrl,
        health: `${baseUrl}/health`,
        dynamodb: dynamoEndpoint,
        sqs: sqsEndpoint,
      },
      tokens,
      bootstrapRotated,
      resources,
      clients,
      host,
      stop: stopAll,
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

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
