import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RegistryStore } from '@tickring/core/executors';
import type { Run, RunStore } from '@tickring/core/runs';
import { createExecutor, type Executor, type JobHandler, silentLogger } from '@tickring/executor';
import { inject } from 'vitest';
import {
  type AnyLocalStack,
  type LocalStoreName,
  type StartLocalOptions,
  startLocal,
} from '../local/start-local.js';
import { checked } from './openapi-check.js';
import { CHEAP_PASSWORD_HASHING } from './password-hashing.js';
import { waitFor } from './stand-ins.js';

/** An answer of the admin API: the status and the parsed JSON body. */
export interface ApiReply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: API bodies are read field by field
  readonly body: any;
}

export interface E2eExecutorOptions {
  /** Where the executor registers and calls back; the stack's API by default. */
  readonly adminAddresses?: string;
  readonly registryIntervalMs?: number;
}

/**
 * The whole local stack (tick, ring, dispatcher, callback, API) on the embedded engine (a SQLite
 * file of its own) or on the shared stand-ins (tables and queues of its own), driven only through
 * its HTTP admin API and real SDK executors, plus the run store to read results.
 */
export interface E2eStack {
  readonly stack: AnyLocalStack;
  readonly runs: RunStore;
  readonly registry: RegistryStore;
  /** Calls the admin API with the admin token. */
  call(method: string, path: string, body?: unknown): Promise<ApiReply>;
  /** POST /v1/groups for an AUTO group; returns its appName. */
  createAutoGroup(label: string): Promise<string>;
  /** POST /v1/jobs (201 expected); returns the job as the API shows it. */
  // biome-ignore lint/suspicious/noExplicitAny: the job view, read field by field
  createJob(fields: Record<string, unknown>): Promise<any>;
  /** POST /v1/jobs/{id}/trigger (202 expected); returns the accepted fire. */
  trigger(jobId: number, body?: unknown): Promise<{ jobId: number; dedupKey: string; scheduledTime: string }>;
  /** Every run of the job, fresh from the table, in scheduled-time order (logId for ties). */
  runsOf(jobId: number): Promise<Run[]>;
  /** Waits until the job has at least `count` runs and all of them satisfy `done`. */
  waitForRuns(jobId: number, count: number, done?: (run: Run) => boolean, timeoutMs?: number): Promise<Run[]>;
  /** A real SDK executor on 127.0.0.1 with these handlers, started (it registers at once). */
  startExecutor(
    appName: string,
    handlers: Record<string, JobHandler>,
    options?: E2eExecutorOptions,
  ): Promise<Executor>;
  /** Waits until GET /v1/executors shows `address` online (or, with `online: false`, offline) in the group. */
  waitForExecutor(appName: string, address: string, online?: boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface E2eStackOptions {
  /** Default `sqlite`; `dynamodb-local` runs on the integration run's DynamoDB Local and SQS stand-in. */
  readonly store?: LocalStoreName;
  /** How often the monitors rule fires (its backfill sweep drives running backfills); default a minute. */
  readonly monitorPeriodMs?: number;
}

export async function startE2eStack(
  label: string,
  settings: Record<string, string> = {},
  options: E2eStackOptions = {},
): Promise<E2eStack> {
  const common: StartLocalOptions = {
    port: 0,
    inMemory: true,
    // E2E_TEST_LOG=info (or debug) shows the stack's log lines while debugging a test.
    logLevel:
      process.env.E2E_TEST_LOG === 'info' || process.env.E2E_TEST_LOG === 'debug'
        ? process.env.E2E_TEST_LOG
        : 'silent',
    demo: false,
    settings: { ...CHEAP_PASSWORD_HASHING, ...settings },
    ...(options.monitorPeriodMs === undefined ? {} : { monitorPeriodMs: options.monitorPeriodMs }),
  };
  const stack =
    options.store === 'dynamodb-local'
      ? await startLocal({
          ...common,
          standIns: inject('standIns'),
          resourcePrefix: `e2e-${label}-${randomUUID().slice(0, 8)}-`,
        })
      : await startLocal({ ...common, store: 'sqlite' });
  const runs = stack.stores.runs(30);
  const registry = stack.stores.registry();
  const logRoot = await mkdtemp(join(tmpdir(), `tickring-e2e-${label}-`));
  const executors: Executor[] = [];

  const call = async (method: string, path: string, body?: unknown): Promise<ApiReply> => {
    const headers: Record<string, string> = { authorization: `Bearer ${stack.tokens.adminToken}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${stack.urls.api}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return checked(method, path, { status: res.status, body: text ? JSON.parse(text) : undefined });
  };

  const runsOf = async (jobId: number): Promise<Run[]> => {
    const logIds: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await runs.list({ jobId, limit: 100, cursor });
      logIds.push(...page.items.map((r) => r.logId));
      cursor = page.nextCursor;
    } while (cursor);
    const fresh = await runs.getMany(logIds); // the index lags the table
    return fresh.sort((a, b) => a.scheduledTime - b.scheduledTime || a.logId - b.logId);
  };

  return {
    stack,
    runs,
    registry,
    call,
    async createAutoGroup(prefix) {
      const appName = `${prefix}-${randomUUID().slice(0, 8)}`;
      const reply = await call('POST', '/v1/groups', { appName, title: prefix, addressType: 'AUTO' });
      if (reply.status !== 201) throw new Error(`group not created: ${JSON.stringify(reply)}`);
      return appName;
    },
    async createJob(fields) {
      const reply = await call('POST', '/v1/jobs', { name: 'e2e', author: 'e2e', ...fields });
      if (reply.status !== 201) throw new Error(`job not created: ${JSON.stringify(reply)}`);
      return reply.body;
    },
    async trigger(jobId, body) {
      const reply = await call('POST', `/v1/jobs/${jobId}/trigger`, body);
      if (reply.status !== 202) throw new Error(`job ${jobId} not triggered: ${JSON.stringify(reply)}`);
      return reply.body;
    },
    runsOf,
    waitForRuns(jobId, count, done = (r) => r.handleCode !== 0 || r.triggerCode === 500, timeoutMs = 30_000) {
      return waitFor(
        async () => {
          const found = await runsOf(jobId);
          return found.length >= count && found.every(done) ? found : undefined;
        },
        { what: `${count} finished run(s) of job ${jobId}`, timeoutMs, intervalMs: 200 },
      );
    },
    async startExecutor(appName, handlers, options = {}) {
      const executor = createExecutor({
        appName,
        adminAddresses: options.adminAddresses ?? stack.urls.api,
        accessToken: stack.tokens.accessToken,
        host: '127.0.0.1',
        port: 0,
        logDir: join(logRoot, `${appName}-${executors.length}`),
        logRetentionDays: 0,
        logger: silentLogger,
        ...(options.registryIntervalMs === undefined
          ? {}
          : { registryIntervalMs: options.registryIntervalMs }),
      });
      for (const [name, handler] of Object.entries(handlers)) executor.register(name, handler);
      executors.push(executor);
      await executor.start();
      return executor;
    },
    async waitForExecutor(appName, address, online = true, timeoutMs = 20_000) {
      await waitFor(
        async () => {
          const reply = await call('GET', `/v1/executors?appName=${encodeURIComponent(appName)}`);
          if (reply.status !== 200) throw new Error(`GET /v1/executors: ${JSON.stringify(reply)}`);
          const executors: { address: string; online: boolean }[] = reply.body.items[0]?.executors ?? [];
          const entry = executors.find((e) => e.address === address);
          return online ? entry?.online === true : entry?.online !== true;
        },
        { what: `${address} ${online ? 'online' : 'offline'} in ${appName}`, timeoutMs, intervalMs: 100 },
      );
    },
    async stop() {
      await Promise.allSettled(executors.map((e) => e.stop()));
      await stack.stop();
      await rm(logRoot, { recursive: true, force: true });
    },
  };
}

/** A local HTTP endpoint that answers 200 and keeps every JSON body POSTed to it (an alarm webhook). */
export interface Webhook {
  readonly url: string;
  readonly bodies: unknown[];
  close(): Promise<void>;
}

export async function startWebhook(): Promise<Webhook> {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.statusCode = 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/alarm`,
    bodies,
    close: () => closeServer(server),
  };
}

/**
 * Forwards every request to `target` (an executor's way to the admin). `cut()` closes it, so the
 * executor behind it can no longer reach the admin at all, not even to say goodbye (registryRemove):
 * to the admin it looks like a crashed or partitioned executor.
 */
export interface Relay {
  readonly url: string;
  /** Paths forwarded so far, in order. */
  readonly paths: string[];
  cut(): Promise<void>;
}

export async function startRelay(target: string): Promise<Relay> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      paths.push(req.url ?? '/');
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && key !== 'host' && key !== 'content-length') headers[key] = value;
      }
      const method = req.method ?? 'GET';
      const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks);
      fetch(`${target}${req.url ?? '/'}`, { method, headers, body })
        .then(async (upstream) => {
          const text = await upstream.text();
          res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    paths,
    cut: () => closeServer(server),
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The p-th percentile (0..100, nearest rank) of the values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}
