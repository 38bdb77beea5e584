import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExecutor, type ExecutorLogger, registerBuiltInHandlers } from '@tickring/executor';
import type { Logger } from '../shared/ports/logger.js';
import { LOOPBACK } from './net.js';

export const DEMO_APP_NAME = 'tickring-demo';
export const DEMO_EXECUTOR_PORT = 9999;

export interface DemoOptions {
  readonly adminBaseUrl: string;
  readonly adminToken: string;
  readonly accessToken: string;
  readonly dataDir: string | undefined;
  readonly port?: number;
  readonly logger: Logger;
}

/**
 * The demo a newcomer sees on `npm start`: an SDK executor `tickring-demo` with the built-in
 * handlers on 127.0.0.1:9999, and, on first start, its AUTO group and a `demoJobHandler` job that
 * fires every 5 s. Returns the stop function.
 */
export async function startDemo(options: DemoOptions): Promise<() => Promise<void>> {
  const { logger } = options;
  const executorLogger: ExecutorLogger = {
    debug: () => {},
    info: (message, ...attributes) => logger.debug(message, Object.assign({}, ...attributes)),
    warn: (message, ...attributes) => logger.warn(message, Object.assign({}, ...attributes)),
    error: (message, ...attributes) => logger.error(message, Object.assign({}, ...attributes)),
  };
  const executor = createExecutor({
    appName: DEMO_APP_NAME,
    adminAddresses: options.adminBaseUrl,
    accessToken: options.accessToken,
    host: LOOPBACK,
    port: options.port ?? DEMO_EXECUTOR_PORT,
    logDir: options.dataDir ? join(options.dataDir, 'executor-logs') : join(tmpdir(), 'tickring-demo-logs'),
    logger: executorLogger,
  });
  registerBuiltInHandlers(executor);
  await executor.start();
  try {
    await ensureDemoJob(options);
  } catch (err) {
    await executor.stop(); // not left running when its job cannot be set up
    throw err;
  }
  logger.info('demo executor running', { appName: DEMO_APP_NAME, address: executor.address });
  return () => executor.stop();
}

async function ensureDemoJob(options: DemoOptions): Promise<void> {
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${options.adminBaseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${options.adminToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status >= 400 && response.status !== 404) {
      throw new Error(`demo setup: ${method} ${path} answered ${response.status}: ${await response.text()}`);
    }
    return response;
  };
  const existing = await api('GET', `/v1/groups/${DEMO_APP_NAME}`);
  if (existing.status === 200) return; // not the first start: keep whatever the user made of it
  await api('POST', '/v1/groups', {
    appName: DEMO_APP_NAME,
    title: 'tickring demo executor',
    addressType: 'AUTO',
  });
  await api('POST', '/v1/jobs', {
    appName: DEMO_APP_NAME,
    name: 'Demo job: every 5 seconds',
    author: 'tickring',
    scheduleType: 'CRON',
    scheduleConf: '0/5 * * * * ?',
    executorHandler: 'demoJobHandler',
    executorParam: 'hello from tickring',
    triggerStatus: 'RUNNING',
  });
  options.logger.info('demo group and job created', { appName: DEMO_APP_NAME, schedule: '0/5 * * * * ?' });
}
