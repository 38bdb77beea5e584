import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GlueScriptType } from '@tickring/protocol';
import { AdminClient, parseAdminAddresses } from './admin-client.js';
import { CallbackSender } from './callback-sender.js';
import { ExecutorOptionsError } from './errors.js';
import { ExecutorService } from './executor-service.js';
import { createProtocolServer } from './http-server.js';
import type { JobHandler } from './job-context.js';
import { removeOldLogDays } from './job-log.js';
import type { HandlerRegistration } from './job-worker.js';
import { defaultLogger, type ExecutorLogger, errorText } from './logger.js';
import { RegistryBeat } from './registry-beat.js';
import { type UrlAllowRule, validateAllowList } from './url-allow-list.js';

/**
 * Options of {@link createExecutor}. Only `appName`, `adminAddresses`, `port` and (unless
 * `allowNoToken`) `accessToken` are required; the SDK never reads `process.env`.
 *
 * @example
 * ```ts
 * const options: ExecutorOptions = {
 *   appName: 'my-app',
 *   adminAddresses: 'http://admin-1:8080,http://admin-2:8080',
 *   accessToken: token,
 *   port: 9999,
 *   address: 'http://my-app.internal:9999/', // what the admin should call (containers)
 *   enableGlue: false,
 * };
 * ```
 */
export interface ExecutorOptions {
  /** The executor group's AppName (registryKey). */
  appName: string;
  /** Admin base URLs, e.g. `http://127.0.0.1:8080` or `http://host/xxl-job-admin` (array or comma-separated). */
  adminAddresses: string | readonly string[];
  /** Shared `XXL-JOB-ACCESS-TOKEN`. Required: tokens fail closed. */
  accessToken?: string | undefined;
  /** Run without a token (every request accepted). Only for a trusted network. @default false */
  allowNoToken?: boolean | undefined;
  /** Port to listen on; 0 picks a free one (read {@link Executor.port} after start). */
  port: number;
  /** Interface to bind. @default '0.0.0.0' */
  host?: string | undefined;
  /** Address registered with the admin. @default `http://{host}:{port}/` (the first non-internal IPv4 when host is a wildcard) */
  address?: string | undefined;
  /** Folder of run logs (`yyyy-MM-dd/{logId}.log`), `gluesource/` and `callbacklog/`. @default `{os tmpdir}/tickring-executor/{appName}` */
  logDir?: string | undefined;
  /** Days of run logs kept; below 3 disables the daily cleanup. @default 30 */
  logRetentionDays?: number | undefined;
  /** Allow GLUE script triggers (remote code execution by design: only with a strong token). @default false */
  enableGlue?: boolean | undefined;
  /** Interpreter per GLUE type (e.g. `{ GLUE_PYTHON: '/usr/bin/python3.12' }`). */
  glueInterpreters?: Partial<Record<GlueScriptType, string>> | undefined;
  /** URLs `httpJobHandler` may call (see {@link registerBuiltInHandlers}). @default [] (none) */
  httpAllowList?: readonly UrlAllowRule[] | undefined;
  logger?: ExecutorLogger | undefined;
  /** @default 30_000 */
  registryIntervalMs?: number | undefined;
  /** @default 30_000 */
  callbackRetryIntervalMs?: number | undefined;
  /**
   * How long a finished run's result waits for others to share its callback POST; under load this
   * turns many admin calls (callback Lambda invocations) into few. 0 sends at once. @default 100
   */
  callbackLingerMs?: number | undefined;
  /** A job's worker is removed (and `destroy` runs) after this long without triggers. @default 90_000 */
  idleTimeoutMs?: number | undefined;
  /** After a run's signal is aborted (timeout, kill), how long it may take to settle before it is abandoned. @default 5_000 */
  abortGraceMs?: number | undefined;
  /** On `stop()`, how long running and queued runs may go on before they are aborted. @default 5_000 */
  shutdownTimeoutMs?: number | undefined;
  /** Timeout of each call to an admin. @default 3_000 */
  adminTimeoutMs?: number | undefined;
}

/**
 * A running XXL-JOB compatible executor.
 *
 * @example
 * ```ts
 * const ex = createExecutor({ appName: 'my-app', adminAddresses: 'http://admin:8080', accessToken, port: 9999 });
 * ex.register('demoJobHandler', async (ctx) => { ctx.log('hello'); });
 * await ex.start();
 * process.on('SIGTERM', () => void ex.stop());
 * ```
 */
export interface Executor {
  readonly appName: string;
  /** The address registered with the admin (known after `start()` unless given). Throws before that. */
  readonly address: string;
  /** The port listened on (after `start()`). Throws before that. */
  readonly port: number;
  readonly logDir: string;
  /** The `httpAllowList` option, for {@link registerBuiltInHandlers}. */
  readonly httpAllowList: readonly UrlAllowRule[];
  /**
   * Adds a handler for `executorHandler === name` (glueType BEAN). Names are unique.
   *
   * @example
   * ```ts
   * ex.register('syncUsers', async (ctx) => { await sync(ctx.signal); return 'synced'; }, {
   *   init: () => db.connect(),
   *   destroy: () => db.close(),
   * });
   * ```
   */
  register(name: string, handler: JobHandler, hooks?: Omit<HandlerRegistration, 'handler'>): Executor;
  /**
   * Listens, retries spooled callbacks, registers with the admin and starts the log cleanup.
   *
   * @example
   * ```ts
   * await ex.start();
   * console.log(`executor at ${ex.address}`);
   * ```
   */
  start(): Promise<void>;
  /**
   * Graceful shutdown: refuses new triggers, lets runs finish for `shutdownTimeoutMs` then aborts them,
   * delivers (or spools) their results, removes the registration and closes the server.
   *
   * @example
   * ```ts
   * process.once('SIGTERM', () => void ex.stop().then(() => process.exit(0)));
   * ```
   */
  stop(): Promise<void>;
}

const DEFAULTS = {
  host: '0.0.0.0',
  logRetentionDays: 30,
  registryIntervalMs: 30_000,
  callbackRetryIntervalMs: 30_000,
  callbackLingerMs: 100,
  idleTimeoutMs: 90_000,
  abortGraceMs: 5_000,
  shutdownTimeoutMs: 5_000,
  adminTimeoutMs: 3_000,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new ExecutorOptionsError(`${name} must be a positive number`, name);
  return value;
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw new ExecutorOptionsError(`${name} must be a number >= 0`, name);
  return value;
}

/** The address to register when bound to a wildcard: the first non-internal IPv4, as XXL-JOB's IpUtil. */
function hostForAddress(host: string): string {
  if (host !== '0.0.0.0' && host !== '::' && host !== '') return host.includes(':') ? `[${host}]` : host;
  for (const list of Object.values(networkInterfaces())) {
    for (const ni of list ?? []) if (ni.family === 'IPv4' && !ni.internal) return ni.address;
  }
  return '127.0.0.1';
}

/**
 * Creates an XXL-JOB compatible executor (protocol v2.3–3.5): an HTTP server for `/run`, `/kill`, `/beat`,
 * `/idleBeat`, `/log`, per-job workers with block strategies, timeouts and kill, rolling run logs, callbacks
 * delivered at least once, and registration with the admin. Throws a ExecutorOptionsError on bad options,
 * including a missing `accessToken` without `allowNoToken: true`.
 *
 * @example
 * ```ts
 * import { createExecutor, registerBuiltInHandlers } from '@tickring/executor';
 *
 * const ex = createExecutor({
 *   appName: 'xxl-job-executor-sample',
 *   adminAddresses: ['http://127.0.0.1:8080/xxl-job-admin'],
 *   accessToken: process.env.XXL_JOB_TOKEN,
 *   port: 9999,
 *   logDir: '/var/log/my-executor',
 * });
 * registerBuiltInHandlers(ex);
 * ex.register('myJob', async (ctx) => {
 *   ctx.log('param=%s shard=%d/%d', ctx.param, ctx.shardIndex, ctx.shardTotal);
 *   await doWork({ signal: ctx.signal });
 *   return 'ok';
 * });
 * await ex.start();
 * ```
 */
export function createExecutor(options: ExecutorOptions): Executor {
  const appName = options.appName?.trim() ?? '';
  if (appName === '' || appName.length > 64 || /\s/.test(appName)) {
    throw new ExecutorOptionsError('appName must be 1–64 characters without spaces', 'appName');
  }
  let adminAddresses: string[];
  try {
    adminAddresses = parseAdminAddresses(options.adminAddresses);
  } catch (err) {
    throw new ExecutorOptionsError((err as Error).message, 'adminAddresses');
  }
  const accessToken = options.accessToken?.trim() ? options.accessToken : undefined;
  if (accessToken === undefined && options.allowNoToken !== true) {
    throw new ExecutorOptionsError(
      'accessToken is required (tokens fail closed); pass allowNoToken: true to run an open executor on a trusted network',
      'accessToken',
    );
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65_535) {
    throw new ExecutorOptionsError('port must be an integer 0..65535 (0 = any free port)', 'port');
  }
  const httpAllowList = [...(options.httpAllowList ?? [])];
  try {
    validateAllowList(httpAllowList);
  } catch (err) {
    throw new ExecutorOptionsError((err as Error).message, 'httpAllowList');
  }
  const host = options.host ?? DEFAULTS.host;
  const logDir = options.logDir ?? join(tmpdir(), 'tickring-executor', appName);
  const logger = options.logger ?? defaultLogger;
  const retentionDays = options.logRetentionDays ?? DEFAULTS.logRetentionDays;
  const registryIntervalMs = positive(
    'registryIntervalMs',
    options.registryIntervalMs,
    DEFAULTS.registryIntervalMs,
  );
  const shutdownTimeoutMs = positive(
    'shutdownTimeoutMs',
    options.shutdownTimeoutMs,
    DEFAULTS.shutdownTimeoutMs,
  );
  const adminTimeoutMs = positive('adminTimeoutMs', options.adminTimeoutMs, DEFAULTS.adminTimeoutMs);

  const admin = new AdminClient({
    addresses: adminAddresses,
    accessToken,
    appName,
    timeoutMs: adminTimeoutMs,
  });
  const callbacks = new CallbackSender({
    admin,
    spoolDir: join(logDir, 'callbacklog'),
    retryIntervalMs: positive(
      'callbackRetryIntervalMs',
      options.callbackRetryIntervalMs,
      DEFAULTS.callbackRetryIntervalMs,
    ),
    lingerMs: nonNegative('callbackLingerMs', options.callbackLingerMs, DEFAULTS.callbackLingerMs),
    logger,
  });
  const service = new ExecutorService({
    logDir,
    enableGlue: options.enableGlue === true,
    glueInterpreters: options.glueInterpreters,
    abortGraceMs: positive('abortGraceMs', options.abortGraceMs, DEFAULTS.abortGraceMs),
    idleTimeoutMs: positive('idleTimeoutMs', options.idleTimeoutMs, DEFAULTS.idleTimeoutMs),
    onCallback: (param) => callbacks.push(param),
    onError: (message, attributes) => logger.error(message, attributes),
  });

  let state: 'new' | 'starting' | 'started' | 'stopped' = 'new';
  let server: Server | undefined;
  let port: number | undefined;
  let address = options.address;
  let registry: RegistryBeat | undefined;
  let cleaner: NodeJS.Timeout | undefined;

  const cleanLogs = () =>
    removeOldLogDays(logDir, retentionDays).then(
      (removed) => removed.length > 0 && logger.info('old run logs removed', { removed }),
      (err: unknown) => logger.warn('run log cleanup failed', { error: errorText(err) }),
    );

  const executor: Executor = {
    appName,
    logDir,
    httpAllowList,
    get address(): string {
      if (address === undefined) throw new Error('The executor address is known after start()');
      return address;
    },
    get port(): number {
      if (port === undefined) throw new Error('The executor port is known after start()');
      return port;
    },
    register(name, handler, hooks) {
      service.register(name, { handler, init: hooks?.init, destroy: hooks?.destroy });
      return executor;
    },
    async start() {
      if (state !== 'new') throw new Error(`The executor cannot start: it is ${state}`);
      state = 'starting';
      const srv = createProtocolServer(service, { accessToken, logger });
      try {
        await mkdir(logDir, { recursive: true });
        await new Promise<void>((resolve, reject) => {
          srv.once('error', reject);
          srv.listen(options.port, host, () => {
            srv.off('error', reject);
            resolve();
          });
        });
      } catch (err) {
        state = 'new';
        srv.close();
        throw err;
      }
      server = srv;
      port = (srv.address() as AddressInfo).port;
      address ??= `http://${hostForAddress(host)}:${port}/`;
      callbacks.start();
      registry = new RegistryBeat({ admin, appName, address, intervalMs: registryIntervalMs, logger });
      registry.start();
      if (retentionDays >= 3) {
        void cleanLogs();
        cleaner = setInterval(() => void cleanLogs(), DAY_MS);
        cleaner.unref();
      }
      state = 'started';
      logger.info('executor started', { appName, address, handlers: service.handlerNames() });
    },
    async stop() {
      if (state !== 'started') return;
      state = 'stopped';
      clearInterval(cleaner);
      const closed = new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server?.closeIdleConnections();
      await Promise.all([registry?.stop(), service.shutdown(shutdownTimeoutMs)]);
      await callbacks.stop();
      server?.closeAllConnections();
      await closed;
      logger.info('executor stopped', { appName, address });
    },
  };
  return executor;
}
