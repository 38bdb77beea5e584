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
  /** The executors' worker thread's OS id (Linux), for its CPU. */
  readonly threadId: number | undefined;
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
}

/**
 * E executor groups (AUTO), each with one SDK executor on 127.0.0.1 (a real HTTP server, registered
 * through the callback API like any XXL-JOB executor), run in a worker thread so that they do not
 * share the measured stack's event loop; waited for until the admin lists them online.
 */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const appNames = Array.from({ length: options.groups }, (_, i) => `${options.appNamePrefix}${i}`);
  for (const [i, appName] of appNames.entries()) {
    await options.api.createGroup({ body: { appName, title: `bench ${i}`, addressType: 'AUTO' } });
  }
  const data: FleetWorkerData = {
    appNames,
    adminUrl: options.adminUrl,
    accessToken: options.accessToken,
    logRoot: options.logRoot,
  };
  // The boot file registers tsx in the worker, then imports fleet-worker.ts.
  const worker = new Worker(new URL('./fleet-worker-boot.mjs', import.meta.url), { workerData: data });
  let stopped: (() => void) | undefined;
  const ready = new Promise<{ addresses: readonly string[]; threadId: number | undefined }>(
    (resolve, reject) => {
      worker.on('message', (message: FleetWorkerMessage) => {
        if (message.type === 'ready') resolve({ addresses: message.addresses, threadId: message.threadId });
        else if (message.type === 'failed')
          reject(new Error(`the executors did not start: ${message.error}`));
        else if (message.type === 'runs') for (const run of message.runs) options.onRun(run);
        else if (message.type === 'stopped') stopped?.();
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the executors' worker exited (${code})`)));
    },
  );
  const stop = async () => {
    const done = new Promise<void>((resolve) => {
      stopped = resolve;
      setTimeout(resolve, 15_000).unref();
    });
    worker.postMessage({ type: 'stop' });
    await done;
    await worker.terminate();
  };
  try {
    const { addresses, threadId } = await ready;
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
    return { appNames, addresses, threadId, stop };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}
