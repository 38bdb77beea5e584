import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@tickring/core/common';
import {
  createExecutor,
  type ExecutorLogger,
  type JobContext,
  registerBuiltInHandlers,
} from '@tickring/executor';
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
 * handlers and the demo workflow's on 127.0.0.1:9999, and, on first start, its AUTO group, a
 * `demoJobHandler` job that fires every 5 s, and a small workflow (extract → two transforms in
 * parallel → load, a value passed along) run once at once and then every 10 minutes. Returns the
 * stop function.
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
  for (const [name, handler] of Object.entries(DEMO_WORKFLOW_HANDLERS)) executor.register(name, handler);
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
  await createDemoWorkflow(api, options.logger);
}

/** The demo workflow's steps: each says what it got and returns a JSON result the next ones read. */
const DEMO_WORKFLOW_HANDLERS = {
  demoExtract: async (ctx: JobContext) => {
    await pause(ctx, 500);
    const rows = 1000 + Math.floor(Math.random() * 9000);
    ctx.log(`extracted ${rows} rows for ${ctx.param || 'today'}`);
    return { rows, date: ctx.param || new Date().toISOString().slice(0, 10) };
  },
  demoTransform: async (ctx: JobContext) => {
    const { step, rows } = JSON.parse(ctx.param || '{}') as { step?: string; rows?: number };
    await pause(ctx, 1000);
    ctx.log(`${step}: transformed ${rows} rows`);
    return { step, rows };
  },
  demoLoad: async (ctx: JobContext) => {
    await pause(ctx, 300);
    ctx.log(`loaded: ${ctx.param}`);
    return `loaded ${ctx.param}`;
  },
};

function pause(ctx: JobContext, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    ctx.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

type DemoApi = (method: string, path: string, body?: unknown) => Promise<Response>;

/** Its jobs (run only by the workflow), the workflow, and its first run. */
async function createDemoWorkflow(api: DemoApi, logger: Logger): Promise<void> {
  const job = async (name: string, executorHandler: string): Promise<number> => {
    const created = await api('POST', '/v1/jobs', {
      appName: DEMO_APP_NAME,
      name,
      author: 'tickring',
      executorHandler,
    });
    return ((await created.json()) as { id: number }).id;
  };
  const extract = await job('Demo workflow: extract', 'demoExtract');
  // Two jobs for the two transforms: one job's runs queue behind each other on an executor
  // (its block strategy), and these should run side by side.
  const clean = await job('Demo workflow: clean', 'demoTransform');
  const enrich = await job('Demo workflow: enrich', 'demoTransform');
  const load = await job('Demo workflow: load', 'demoLoad');
  const created = await api('POST', '/v1/workflows', {
    name: 'Demo workflow: extract, transform twice, load',
    appName: DEMO_APP_NAME,
    scheduleType: 'CRON',
    scheduleConf: '0 0/10 * * * ?',
    triggerStatus: 'RUNNING',
    nodes: [
      { key: 'extract', jobId: extract },
      {
        key: 'clean',
        jobId: clean,
        executorParam: '{"step":"clean","rows":{{ nodes.extract.result.rows }}}',
        upstream: [{ key: 'extract' }],
      },
      {
        key: 'enrich',
        jobId: enrich,
        executorParam: '{"step":"enrich","rows":{{ nodes.extract.result.rows }}}',
        upstream: [{ key: 'extract' }],
      },
      {
        key: 'load',
        jobId: load,
        executorParam:
          '{{ nodes.clean.result.rows }} cleaned and {{ nodes.enrich.result.rows }} enriched rows of {{ nodes.extract.result.date }}',
        upstream: [{ key: 'clean' }, { key: 'enrich' }],
      },
    ],
  });
  const workflow = (await created.json()) as { id: number };
  await api('POST', `/v1/workflows/${workflow.id}/trigger`, {});
  logger.info('demo workflow created and started once', {
    workflowId: workflow.id,
    schedule: '0 0/10 * * * ?',
  });
}
