import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '@tickring/executor';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { triggerParam } from '../../packages/executor/test-support/admin-driver.js';
import { FakeAdmin } from '../../packages/executor/test-support/fake-admin.js';
import type { ExecutorRunnerConfig } from './config.js';
import { createHandler } from './handler.js';

const TOKEN = 'runner-token';
let admin: FakeAdmin;
let hanging: Server;
let hangingUrl: string;

beforeEach(async () => {
  admin = await FakeAdmin.start({ token: TOKEN });
  // A service that never answers: what a "long handler" waits on.
  hanging = createServer(() => {});
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/slow`;
});

afterEach(async () => {
  hanging.closeAllConnections();
  await new Promise<void>((resolve) => hanging.close(() => resolve()));
  await admin.close();
});

const config = (overrides: Partial<ExecutorRunnerConfig> = {}): ExecutorRunnerConfig => ({
  adminAddresses: [admin.baseUrl],
  accessToken: { value: TOKEN },
  httpAllowList: [hangingUrl],
  reportMarginMs: 200,
  abortGraceMs: 200,
  ...overrides,
});

/** A Lambda-like context whose remaining time counts down from `ms`. */
function lambdaContext(ms: number) {
  const deadline = Date.now() + ms;
  return {
    awsRequestId: 'req-1',
    functionName: 'tickring-executor-runner',
    getRemainingTimeInMillis: () => deadline - Date.now(),
  };
}

describe('executor-runner handler', () => {
  it('runs the TriggerParam event with a built-in handler and reports the result to the admin', async () => {
    const handler = createHandler(config(), { logger: silentLogger });
    const event = triggerParam({
      jobId: 3,
      logId: 501,
      executorHandler: 'demoJobHandler',
      executorParams: 'x',
    });
    const result = await handler(event, lambdaContext(30_000));
    expect(result).toEqual({ logId: 501, logDateTim: event.logDateTime, handleCode: 200 });
    expect(admin.callbackFor(501)).toEqual(result);
    const request = admin.requests.find((r) => r.path === 'callback');
    expect(request?.headers['xxl-job-access-token']).toBe(TOKEN);
    expect(request?.body).toEqual([result]);
  });

  it("turns a handler outliving the Lambda's remaining time into a 502 timeout, reported in time", async () => {
    const handler = createHandler(config(), { logger: silentLogger });
    const event = triggerParam({
      logId: 502,
      executorHandler: 'httpJobHandler',
      executorParams: JSON.stringify({ url: hangingUrl, timeoutMs: 60_000 }),
      executorTimeout: 60,
    });
    const started = Date.now();
    const result = await handler(event, lambdaContext(1_500));
    expect(result.handleCode).toBe(502);
    expect(result.handleMsg).toBe("job execute timeout (the Lambda's remaining time ran out)");
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(admin.callbackFor(502)).toMatchObject({ handleCode: 502 });
  });

  it('reports an unknown handler as a failed run', async () => {
    const handler = createHandler(config(), { logger: silentLogger });
    const result = await handler(
      triggerParam({ logId: 503, executorHandler: 'nope' }),
      lambdaContext(10_000),
    );
    expect(result).toMatchObject({ handleCode: 500, handleMsg: 'job handler [nope] not found.' });
    expect(admin.callbackFor(503)).toMatchObject({ handleCode: 500 });
  });

  it('throws when no admin accepts the result, so Lambda retries the event', async () => {
    admin.mode = 'down';
    const handler = createHandler(config(), { logger: silentLogger });
    await expect(handler(triggerParam({ logId: 504 }), lambdaContext(10_000))).rejects.toThrow(
      /callback of logId 504 not accepted by any admin: .*HTTP 500/,
    );
  });

  it('reads the token from the secret once, at the first invocation', async () => {
    const reads: string[] = [];
    const readSecret = async (arn: string) => {
      reads.push(arn);
      return TOKEN;
    };
    const handler = createHandler(config({ accessToken: { secretArn: 'arn:secret' } }), {
      logger: silentLogger,
      readSecret,
    });
    await handler(triggerParam({ logId: 505 }), lambdaContext(10_000));
    await handler(triggerParam({ logId: 506 }), lambdaContext(10_000));
    expect(reads).toEqual(['arn:secret']);
    expect(admin.callbackFor(506)).toMatchObject({ handleCode: 200 });
  });
});
