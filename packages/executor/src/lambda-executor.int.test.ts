import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { triggerParam } from '../test-support/admin-driver.js';
import { FakeAdmin } from '../test-support/fake-admin.js';
import { ExecutorOptionsError } from './errors.js';
import type { JobContext } from './job-context.js';
import { CallbackDeliveryError, lambdaExecutor } from './lambda-executor.js';
import { silentLogger } from './logger.js';

const TOKEN = 'lambda-token';
let admin: FakeAdmin;
beforeEach(async () => {
  admin = await FakeAdmin.start({ token: TOKEN, contextPath: '/xxl-job-admin' });
});
afterEach(async () => {
  await admin.close();
});

const context = (ms: number) => {
  const deadline = Date.now() + ms;
  return { awsRequestId: 'r', functionName: 'f', getRemainingTimeInMillis: () => deadline - Date.now() };
};

const waitOnSignal = (ctx: JobContext) =>
  new Promise<string>((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));

describe('lambdaExecutor', () => {
  it('runs init once per container and reports each run', async () => {
    const calls: string[] = [];
    const run = lambdaExecutor({
      handlers: {
        job: {
          handler: (ctx) => {
            calls.push(`run ${ctx.logId} ${ctx.param} ${ctx.shardIndex}/${ctx.shardTotal}`);
            return 'ok';
          },
          init: () => calls.push('init'),
        },
      },
      adminAddresses: `${admin.baseUrl}/`,
      accessToken: TOKEN,
      logger: silentLogger,
    });
    await run(
      triggerParam({
        logId: 1,
        executorHandler: 'job',
        executorParams: 'a',
        broadcastIndex: 1,
        broadcastTotal: 2,
      }),
      context(10_000),
    );
    await run(triggerParam({ logId: 2, executorHandler: 'job', executorParams: 'b' }), context(10_000));
    expect(calls).toEqual(['init', 'run 1 a 1/2', 'run 2 b 0/1']);
    expect(admin.callbacks.map((c) => [c.logId, c.handleCode, c.handleMsg])).toEqual([
      [1, 200, 'ok'],
      [2, 200, 'ok'],
    ]);
  });

  it('uses executorTimeout when it is shorter than the remaining time', async () => {
    const run = lambdaExecutor({
      handlers: { slow: waitOnSignal },
      adminAddresses: admin.baseUrl,
      accessToken: TOKEN,
      logger: silentLogger,
    });
    const result = await run(
      triggerParam({ logId: 3, executorHandler: 'slow', executorTimeout: 1 }),
      context(60_000),
    );
    expect(result).toMatchObject({ handleCode: 502, handleMsg: 'job execute timeout' });
  });

  it('reports a handler that ignores its signal within the remaining time, and says so', async () => {
    const run = lambdaExecutor({
      handlers: { stubborn: () => new Promise<void>(() => {}) },
      adminAddresses: admin.baseUrl,
      accessToken: TOKEN,
      logger: silentLogger,
      reportMarginMs: 300,
      abortGraceMs: 200,
    });
    const started = Date.now();
    const result = await run(triggerParam({ logId: 4, executorHandler: 'stubborn' }), context(1_200));
    expect(Date.now() - started).toBeLessThan(1_200);
    expect(result.handleCode).toBe(502);
    expect(result.handleMsg).toContain('the handler did not stop within 200 ms');
    expect(admin.callbackFor(4)).toMatchObject({ handleCode: 502 });
  });

  it('reports a redelivered logId again instead of running it again', async () => {
    let runs = 0;
    const run = lambdaExecutor({
      handlers: {
        job: () => {
          runs++;
        },
      },
      adminAddresses: admin.baseUrl,
      accessToken: TOKEN,
      logger: silentLogger,
      callbackAttempts: 1,
    });
    admin.mode = 'down';
    await expect(
      run(triggerParam({ logId: 5, executorHandler: 'job' }), context(10_000)),
    ).rejects.toBeInstanceOf(CallbackDeliveryError);
    admin.mode = 'up';
    await run(triggerParam({ logId: 5, executorHandler: 'job' }), context(10_000));
    expect(runs).toBe(1);
    expect(admin.callbacks.filter((c) => c.logId === 5)).toHaveLength(1);
  });

  it('refuses GLUE triggers and rejects events that are not TriggerParams', async () => {
    const run = lambdaExecutor({
      handlers: {},
      adminAddresses: admin.baseUrl,
      accessToken: TOKEN,
      logger: silentLogger,
    });
    const glue = await run(
      triggerParam({ logId: 6, glueType: 'GLUE_SHELL', glueSource: 'id' }),
      context(10_000),
    );
    expect(glue).toMatchObject({
      handleCode: 500,
      handleMsg: 'glueType[GLUE_SHELL] is not supported by a Lambda executor; use a BEAN handler.',
    });
    await expect(run({ hello: 'world' }, context(10_000))).rejects.toThrow(ExecutorOptionsError);
    await expect(run({ hello: 'world' }, context(10_000))).rejects.toThrow(/jobId is required/);
  });

  it('fails closed without a token', () => {
    expect(() => lambdaExecutor({ handlers: {}, adminAddresses: admin.baseUrl })).toThrow(
      /accessToken is required/,
    );
  });
});
