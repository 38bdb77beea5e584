/**
 * One of the bench's executors, in a worker thread of its own: like an executor on another host, it
 * shares the event loop of neither the stack it is measuring nor the other executors. Each run is
 * reported to the parent (batched every few ms) with the time its handler received it.
 */
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { createExecutor, type Executor, type JobContext, silentLogger } from '@tickring/executor';
import {
  BENCH_HANDLER,
  type FleetWorkerData,
  type FleetWorkerMessage,
  type RunNotice,
  WORKFLOW_HANDLER,
} from './fleet-protocol.js';
import { currentThreadId } from './process-stats.js';
import { nodeResult, WORKFLOW_HANDLER_MS } from './workflow-shape.js';

const data = workerData as FleetWorkerData;
const port = parentPort;
if (!port) throw new Error('fleet-worker.ts runs as a worker thread');

let executor: Executor | undefined;
let pending: RunNotice[] = [];
let timer: NodeJS.Timeout | undefined;

const post = (message: FleetWorkerMessage) => port.postMessage(message);
const flush = () => {
  clearTimeout(timer);
  timer = undefined;
  if (pending.length > 0) post({ type: 'runs', runs: pending });
  pending = [];
};

port.on('message', async (message: { type: 'stop' }) => {
  if (message.type !== 'stop') return;
  await executor?.stop().catch(() => undefined);
  flush();
  post({ type: 'stopped' });
});

try {
  const started = createExecutor({
    appName: data.appName,
    adminAddresses: data.adminUrl,
    accessToken: data.accessToken,
    host: '127.0.0.1',
    port: 0,
    logDir: join(data.logRoot, data.appName),
    logRetentionDays: 0,
    logger: silentLogger,
  });
  executor = started;
  const notice = (ctx: JobContext) => {
    pending.push({
      jobId: ctx.jobId,
      logDateTime: ctx.logDateTime,
      logId: ctx.logId,
      receivedAt: Date.now(),
      trigger: ctx.trigger,
      address: started.address,
    });
    timer ??= setTimeout(flush, 20);
  };
  started.register(BENCH_HANDLER, notice);
  // A workflow node: a few ms of "work", then a small JSON result the next nodes' parameters read.
  started.register(WORKFLOW_HANDLER, async (ctx) => {
    notice(ctx);
    await new Promise((r) => setTimeout(r, WORKFLOW_HANDLER_MS));
    return JSON.stringify(nodeResult(ctx.param));
  });
  await started.start();
  const threadId = currentThreadId();
  post({ type: 'ready', address: started.address, ...(threadId === undefined ? {} : { threadId }) });
} catch (err) {
  post({ type: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
