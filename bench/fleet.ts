import { Worker } from 'node:worker_threads';
import type { TickringClient } from '@tickring/client';
import {
  BENCH_HANDLER,
  type FleetWorkerData,
  type FleetWorkerMessage,
  type RunNotice,
  WORKFLOW_HANDLER,
} from './fleet-protocol.js';

export { BENCH_HANDLER, type RunNotice, WORKFLOW_HANDLER };

export interface Fleet {
  /** One group per executor, in order. */
  readonly appNames: readonly string[];
  /** The executors' addresses, in the same order. */
  readonly addresses: readonly string[];
  /** The OS ids (Linux) of the executors' worker threads, one each, for their CPU. */
  readonly threadIds: readonly number[];
  stop(): Promise<void>;
}

export interface FleetOptions {
  readonly api: TickringClient;
  readonly adminUrl: string;
  readonly accessToken: string;
  readonly groups: number;
  /** Prefix of the groups' appNames. */
  readonly appNamePrefix: string;
  /** Each executor logs its runs under its own folder here. */
  readonly logRoot: string;
  /** Every run an executor's handler received (reported a few ms later, with its receipt time). */
  readonly onRun: (run: RunNotice) => void;
  readonly onlineTimeoutMs?: number;
  /**
   * An executor's worker that failed or exited after it started, not stopped by `stop` (the runs it
   * was sent from then on are missed, and the summary alone would not say why).
   */
  readonly onLost?: (message: string) => void;
}

/**
 * E executor groups (AUTO), each with one SDK executor on 127.0.0.1 (a real HTTP server, registered
 * through the callback API like any XXL-JOB executor), each in a worker thread of its own so that
 * they share neither the measured stack's event loop nor one another's (like executors on other
 * hosts); waited for until the admin lists them online.
 */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const appNames = Array.from({ length: options.groups }, (_, i) => `${options.appNamePrefix}${i}`);
  for (const [i, appName] of appNames.entries()) {
    await options.api.createGroup({ body: { appName, title: `bench ${i}`, addressType: 'AUTO' } });
  }
  const workers = appNames.map((appName) => startWorker(appName, options));
  const stop = async () => {
    await Promise.all(workers.map((w) => w.stop()));
  };
  try {
    const started = await Promise.all(workers.map((w) => w.ready));
    const addresses = started.map((s) => s.address);
    const deadline = Date.now() + (options.onlineTimeoutMs ?? 30_000);
    for (const [i, appName] of appNames.entries()) {
      const address = addresses[i];
      for (;;) {
        const reply = await options.api.listExecutors({ query: { appName } });
        if (reply.items[0]?.executors.some((e) => e.address === address && e.online)) break;
        if (Date.now() > deadline) throw new Error(`executor ${appName} at ${address} never came online`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const threadIds = started.flatMap((s) => (s.threadId === undefined ? [] : [s.threadId]));
    return { appNames, addresses, threadIds, stop };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}

/** An executor's worker once it listens: its address and its OS thread id (Linux). */
export interface StartedWorker {
  readonly address: string;
  readonly threadId: number | undefined;
}

export interface FleetWorker {
  readonly ready: Promise<StartedWorker>;
  stop(): Promise<void>;
}

/** The executor's worker thread. The boot file registers tsx in the worker, then imports fleet-worker.ts. */
function spawnExecutorWorker(data: FleetWorkerData): Worker {
  return new Worker(new URL('./fleet-worker-boot.mjs', import.meta.url), { workerData: data });
}

/** Starts one executor's worker (`spawn`: which thread; another only in this file's tests). */
export function startWorker(
  appName: string,
  options: Pick<FleetOptions, 'adminUrl' | 'accessToken' | 'logRoot' | 'onRun' | 'onLost'>,
  spawn: (data: FleetWorkerData) => Worker = spawnExecutorWorker,
): FleetWorker {
  const worker = spawn({
    appName,
    adminUrl: options.adminUrl,
    accessToken: options.accessToken,
    logRoot: options.logRoot,
  });
  let stopped: (() => void) | undefined;
  let exited = false;
  let started = false;
  let stopping = false;
  let failStart: (err: Error) => void = () => undefined;
  let reported = false;
  const lost = (err: Error) => {
    if (!started) failStart(err);
    else if (!stopping && !reported) {
      reported = true; // a worker that throws fails, then exits: one loss
      options.onLost?.(err.message);
    }
  };
  worker.on('error', (err) => lost(new Error(`executor ${appName}'s worker failed: ${err.message}`)));
  worker.once('exit', (code) => {
    exited = true;
    stopped?.();
    lost(new Error(`executor ${appName}'s worker exited (${code})`));
  });
  const ready = new Promise<StartedWorker>((resolve, reject) => {
    failStart = reject;
    worker.on('message', (message: FleetWorkerMessage) => {
      if (message.type === 'ready') {
        started = true;
        resolve({ address: message.address, threadId: message.threadId });
      } else if (message.type === 'failed')
        reject(new Error(`executor ${appName} did not start: ${message.error}`));
      else if (message.type === 'runs') for (const run of message.runs) options.onRun(run);
      else if (message.type === 'stopped') stopped?.();
    });
  });
  ready.catch(() => undefined); // awaited by startFleet; a failure after a stop is not unhandled
  const stop = async () => {
    stopping = true;
    if (exited) return;
    // Its executor stops and reports it; a worker that exits instead (or never answers) ends the wait.
    const done = new Promise<void>((resolve) => {
      stopped = resolve;
      setTimeout(resolve, 15_000).unref();
    });
    worker.postMessage({ type: 'stop' });
    await done;
    await worker.terminate();
  };
  return { ready, stop };
}
