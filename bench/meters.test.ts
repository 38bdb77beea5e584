import { Readable } from 'node:stream';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ReceiveMessageCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { METRIC } from '@tickring/core/common';
import { describe, expect, it } from 'vitest';
import { LambdaHost } from '../local/lambda-host.js';
import { DynamoMeter } from './dynamo-meter.js';
import { InvocationMeter } from './invocation-meter.js';
import { SqsMeter } from './sqs-meter.js';
import { TickMeter } from './tick-meter.js';

interface FakeReply {
  readonly status?: number;
  readonly body: unknown;
}

/** A client config whose "network" records each request body and answers with the next reply. */
function fakeNetwork(replies: FakeReply[]) {
  const sent: Record<string, unknown>[] = [];
  const requestHandler = {
    async handle(request: { body?: unknown }) {
      const raw = request.body;
      const text = typeof raw === 'string' ? raw : new TextDecoder().decode(raw as Uint8Array);
      sent.push(JSON.parse(text) as Record<string, unknown>);
      const reply = replies.shift() ?? { body: {} };
      return {
        response: {
          statusCode: reply.status ?? 200,
          headers: { 'content-type': 'application/x-amz-json-1.0' },
          body: Readable.from([Buffer.from(JSON.stringify(reply.body))]),
        },
      };
    },
  };
  const config = {
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    maxAttempts: 1,
    requestHandler,
  };
  return { sent, config };
}

describe('DynamoMeter', () => {
  it('asks every data request for its capacity and adds it up by operation and table, indexes included', async () => {
    const { sent, config } = fakeNetwork([
      {
        body: {
          ConsumedCapacity: {
            TableName: 'p-jobs',
            CapacityUnits: 3,
            Table: { CapacityUnits: 1 },
            GlobalSecondaryIndexes: { byDue: { CapacityUnits: 2 } },
          },
        },
      },
      { body: { Item: { id: { N: '1' } }, ConsumedCapacity: { TableName: 'p-jobs', CapacityUnits: 1 } } },
      {
        status: 400,
        body: {
          __type: 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException',
          message: 'The conditional request failed',
        },
      },
    ]);
    const dynamo = new DynamoDBClient(config);
    const doc = DynamoDBDocumentClient.from(dynamo);
    const meter = new DynamoMeter((table) => table.replace('p-', ''));
    meter.attach(dynamo);

    await doc.send(
      new UpdateCommand({
        TableName: 'p-jobs',
        Key: { id: 1 },
        UpdateExpression: 'SET nextTriggerTime = :n',
        ExpressionAttributeValues: { ':n': 5 },
      }),
    );
    const { Item } = await doc.send(new GetCommand({ TableName: 'p-jobs', Key: { id: 1 } }));
    expect(Item).toEqual({ id: 1 }); // the document client still unmarshalls
    const failed = await doc
      .send(
        new PutCommand({
          TableName: 'p-runs',
          Item: { dedupKey: 'k', body: 'x'.repeat(1500) },
          ConditionExpression: 'attribute_not_exists(dedupKey)',
        }),
      )
      .catch((e: Error) => e);
    expect((failed as Error).name).toBe('ConditionalCheckFailedException');

    expect(sent.map((s) => s.ReturnConsumedCapacity)).toEqual(['INDEXES', 'INDEXES', 'INDEXES']);
    const usage = meter.snapshot();
    expect(usage).toMatchObject({ requests: 3, readUnits: 1, writeUnits: 5 });
    expect(usage.rows).toEqual(
      expect.arrayContaining([
        {
          operation: 'UpdateItem',
          table: 'jobs',
          requests: 1,
          readUnits: 0,
          writeUnits: 3,
          indexUnits: 2,
          failed: 0,
          estimatedWriteUnits: 0,
        },
        {
          operation: 'GetItem',
          table: 'jobs',
          requests: 1,
          readUnits: 1,
          writeUnits: 0,
          indexUnits: 0,
          failed: 0,
          estimatedWriteUnits: 0,
        },
        {
          operation: 'PutItem',
          table: 'runs',
          requests: 1,
          readUnits: 0,
          writeUnits: 2,
          indexUnits: 0,
          failed: 1,
          estimatedWriteUnits: 2,
        },
      ]),
    );
    meter.reset();
    expect(meter.snapshot()).toEqual({ requests: 0, readUnits: 0, writeUnits: 0, rows: [] });
  });
});

describe('SqsMeter', () => {
  it('counts every call, empty receives apart, and large payloads per 64 KB chunk', async () => {
    const { config } = fakeNetwork([
      { body: { Successful: [] } },
      { body: { Successful: [] } },
      { body: {} },
      {
        body: {
          Messages: [
            {
              MessageId: '1',
              ReceiptHandle: 'r',
              Body: 'hello',
              MD5OfBody: '5d41402abc4b2a76b9719d911017c592',
            },
          ],
        },
      },
    ]);
    const sqs = new SQSClient({ ...config, useQueueUrlAsEndpoint: false });
    const meter = new SqsMeter((url) => url.split('/').at(-1) ?? url);
    meter.attach(sqs);
    const queueUrl = 'http://127.0.0.1:9/000000000000/ring-fast';
    const entries = (n: number, size: number) =>
      Array.from({ length: n }, (_, i) => ({ Id: String(i), MessageBody: 'x'.repeat(size) }));
    await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries(10, 100) }));
    await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries(2, 40_000) }));
    await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl }));
    await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl }));
    const usage = meter.snapshot();
    expect(usage.requests).toBe(1 + 2 + 1 + 1);
    expect(usage.rows).toEqual(
      expect.arrayContaining([
        { operation: 'SendMessageBatch', queue: 'ring-fast', requests: 3, messages: 12 },
        { operation: 'ReceiveMessage (empty)', queue: 'ring-fast', requests: 1, messages: 0 },
        { operation: 'ReceiveMessage', queue: 'ring-fast', requests: 1, messages: 1 },
      ]),
    );
  });
});

describe('InvocationMeter', () => {
  it('counts the invocations started in the window and the GB-s spent inside it, from the host', async () => {
    const meter = new InvocationMeter();
    const host = new LambdaHost('us-east-1', meter);
    host.register({ name: 'quick', timeoutMs: 5_000, memoryMb: 512, handler: async () => 'ok' });
    host.register({
      name: 'failing',
      timeoutMs: 5_000,
      memoryMb: 256,
      handler: async () => Promise.reject(new Error('no')),
    });
    const start = Date.now();
    meter.beginWindow();
    await host.invoke('quick', {});
    await host.invoke('quick', {});
    await host.invoke('failing', {}).catch(() => undefined);
    const usage = meter.usage({ start, end: start + 1_000 });
    expect(usage.map((u) => [u.functionName, u.invocations, u.memoryMb])).toEqual([
      ['failing', 1, 256],
      ['quick', 2, 512],
    ]);
  });

  it('counts a long invocation across the window edges with the part inside only', () => {
    const meter = new InvocationMeter();
    const call = { functionName: 'scheduler-tick', requestId: 'a', memoryMb: 512, startedAt: 0 };
    meter.started(call);
    meter.beginWindow();
    // Running from 0 through the whole window [10 s, 70 s): 60 s × 0.5 GB, no invocation started in it.
    expect(meter.usage({ start: 10_000, end: 70_000 }, 75_000)).toEqual([
      {
        functionName: 'scheduler-tick',
        memoryMb: 512,
        invocations: 0,
        meanDurationMs: Number.NaN,
        gbSeconds: 30,
      },
    ]);
    meter.finished({ ...call, endedAt: 40_000, ok: true });
    expect(meter.usage({ start: 10_000, end: 70_000 })[0]?.gbSeconds).toBe(15);
  });
});

describe('TickMeter', () => {
  it('takes the longest tick iteration started in each second, over every tick invocation, and ignores other metrics', () => {
    let now = 0;
    const tick = new TickMeter(() => now);
    const emit = (endedAt: number, ms: number, fn: 'scheduler-tick' | 'dispatcher' = 'scheduler-tick') => {
      now = endedAt;
      tick.sink(fn, METRIC.tickDuration, 'Milliseconds', ms);
    };
    emit(10_040, 40); // second 10: the active tick, and the standby's lease attempt
    emit(10_005, 5);
    emit(11_030, 30);
    emit(13_900, 1_800); // started at 12.1 s: counted in second 12
    emit(11_500, 400, 'dispatcher');
    now = 11_000;
    tick.sink('scheduler-tick', METRIC.firesEnqueued, 'Count', 500);
    expect(tick.load({ start: 10_000, end: 14_000 })).toEqual({
      p50: 40,
      max: 1_800,
      iterationsPerSecond: 1,
      secondsWithoutIteration: 1,
    });
  });
});
