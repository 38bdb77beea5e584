import type { Server } from 'node:http';
import { InvokeCommand } from '@aws-sdk/client-lambda';
import { type AwsClients, createAwsClients, destroyAwsClients } from '@tickring/aws/clients';
import { LambdaExecutorTransport } from '@tickring/aws/lambda';
import { silentLogger } from '@tickring/core/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpGateway } from './http-gateway.js';
import { LambdaHost } from './lambda-host.js';
import { functionNameOf, lambdaInvokeRoute } from './lambda-invoke-route.js';

const REGION = 'us-east-1';

describe('the local Lambda Invoke API, through the production LambdaClient', () => {
  const host = new LambdaHost(REGION);
  const received: { event: unknown; functionName: string }[] = [];
  let server: Server;
  let clients: AwsClients;
  let releaseSlow: () => void = () => {};

  beforeAll(async () => {
    host.register({
      name: 'echo',
      timeoutMs: 5_000,
      handler: async (event: unknown, context) => {
        received.push({ event, functionName: context.functionName });
        return { echoed: event };
      },
    });
    host.register({
      name: 'slow',
      timeoutMs: 10_000,
      handler: (event: unknown) =>
        new Promise((resolve) => {
          releaseSlow = () => resolve(event);
        }),
    });
    host.register({
      name: 'broken',
      timeoutMs: 5_000,
      handler: async () => {
        throw new TypeError('no such thing');
      },
    });
    const gateway = await startHttpGateway({
      host,
      port: 0,
      functionNames: { api: 'api', callback: 'callback' },
      localRoutes: [lambdaInvokeRoute({ host, region: REGION, logger: silentLogger })],
      logger: silentLogger,
    });
    server = gateway.server;
    clients = createAwsClients({ region: REGION, endpoints: { lambda: `http://127.0.0.1:${gateway.port}` } });
  });

  afterAll(async () => {
    releaseSlow();
    destroyAwsClients(clients);
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('answers an Event invocation with 202 at once and runs the function in the background', async () => {
    const result = await clients.lambda.send(
      new InvokeCommand({ FunctionName: 'slow', InvocationType: 'Event', Payload: Buffer.from('{"n":1}') }),
    );
    expect(result.StatusCode).toBe(202);
    releaseSlow();
    await host.drain(2_000);
  });

  it('answers RequestResponse with 200 and the result, for a name or an ARN', async () => {
    const byName = await clients.lambda.send(
      new InvokeCommand({ FunctionName: 'echo', Payload: Buffer.from(JSON.stringify({ hello: 'world' })) }),
    );
    expect(byName.StatusCode).toBe(200);
    expect(JSON.parse(Buffer.from(byName.Payload ?? []).toString('utf8'))).toEqual({
      echoed: { hello: 'world' },
    });
    const byArn = await clients.lambda.send(
      new InvokeCommand({
        FunctionName: `arn:aws:lambda:${REGION}:000000000000:function:echo`,
        Payload: Buffer.from('7'),
      }),
    );
    expect(JSON.parse(Buffer.from(byArn.Payload ?? []).toString('utf8'))).toEqual({ echoed: 7 });
    expect(received.at(-1)).toEqual({ event: 7, functionName: 'echo' });
  });

  it('reports a thrown error as Lambda does: 200 with FunctionError Unhandled', async () => {
    const result = await clients.lambda.send(
      new InvokeCommand({ FunctionName: 'broken', Payload: Buffer.from('{}') }),
    );
    expect(result.StatusCode).toBe(200);
    expect(result.FunctionError).toBe('Unhandled');
    expect(JSON.parse(Buffer.from(result.Payload ?? []).toString('utf8'))).toMatchObject({
      errorType: 'TypeError',
      errorMessage: 'no such thing',
    });
  });

  it('answers an unknown function with ResourceNotFoundException', async () => {
    const error = await clients.lambda
      .send(new InvokeCommand({ FunctionName: 'nope', InvocationType: 'Event', Payload: Buffer.from('{}') }))
      .catch((err: Error) => err);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('ResourceNotFoundException');
    expect((error as Error).message).toContain(
      'Function not found: arn:aws:lambda:us-east-1:000000000000:function:nope',
    );
  });

  it('is what the dispatcher’s Lambda transport reaches: lambda:<name> accepted, an unknown name a failed trigger', async () => {
    const transport = new LambdaExecutorTransport({ lambda: clients.lambda });
    const param = {
      jobId: 1,
      executorHandler: 'demoJobHandler',
      executorParams: '',
      executorBlockStrategy: 'SERIAL_EXECUTION',
      executorTimeout: 0,
      logId: 9,
      logDateTime: 1,
      glueType: 'BEAN',
      glueSource: '',
      glueUpdatetime: 0,
      broadcastIndex: 0,
      broadcastTotal: 1,
    };
    expect(await transport.run({ address: 'lambda:echo', appName: 'demo-app' }, param)).toEqual({
      code: 200,
      msg: 'lambda echo invoked asynchronously',
    });
    await host.drain(2_000);
    expect(received.at(-1)?.event).toEqual(param);
    const missing = await transport.run({ address: 'lambda:missing-fn', appName: 'demo-app' }, param);
    expect(missing.code).toBe(500);
    expect(missing.msg).toContain('ResourceNotFoundException');
    expect((await transport.beat({ address: 'lambda:echo', appName: 'demo-app' })).code).toBe(200);
    expect((await transport.idleBeat({ address: 'lambda:echo', appName: 'demo-app' }, 1)).code).toBe(200);
    expect(await transport.kill({ address: 'lambda:echo', appName: 'demo-app' }, 1)).toMatchObject({
      code: 500,
      msg: expect.stringContaining('not supported'),
    });
    expect(await transport.log({ address: 'lambda:echo', appName: 'demo-app' })).toMatchObject({
      code: 500,
      msg: expect.stringContaining('CloudWatch'),
    });
  });

  it('reads function names from names, partial and full ARNs, with or without a qualifier', () => {
    expect(functionNameOf('fn')).toBe('fn');
    expect(functionNameOf('fn:live')).toBe('fn');
    expect(functionNameOf('123456789012:function:fn')).toBe('fn');
    expect(functionNameOf('arn:aws:lambda:eu-west-1:123456789012:function:fn:7')).toBe('fn');
  });
});
