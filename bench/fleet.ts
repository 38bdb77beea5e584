import { join } from 'node:path';
import { createExecutor, type Executor, type JobContext, silentLogger } from '../executor/index.js';
import type { AdminApi } from './admin-api.js';

/** The no-op handler every bench job runs. */
export const BENCH_HANDLER = 'benchNoop';

export interface Fleet {
  /** One group per executor, in order. */
  readonly appNames: readonly string[];
  readonly executors: readonly Executor[];
  stop(): Promise<void>;
}

export interface FleetOptions {
  readonly api: AdminApi;
  readonly adminUrl: string;
  readonly accessToken: string;
  readonly groups: number;
  /** Prefix of the groups' appNames. */
  readonly appNamePrefix: string;
  /** Each executor logs its runs under its own folder here. */
  readonly logRoot: string;
  /** Called by the handler on every run, before it returns (success). */
  readonly onRun: (ctx: JobContext, executor: Executor) => void;
  readonly onlineTimeoutMs?: number;
}

interface ExecutorsReply {
  readonly items?: readonly { readonly executors?: readonly { address: string; online: boolean }[] }[];
}

/**
 * E executor groups (AUTO), each with one SDK executor on 127.0.0.1 (a real HTTP server, registered
 * through the callback API like any XXL-JOB executor), waited for until the admin lists them online.
 */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const executors: Executor[] = [];
  const stop = async () => {
    await Promise.allSettled(executors.map((e) => e.stop()));
  };
  try {
    const appNames = Array.from({ length: options.groups }, (_, i) => `${options.appNamePrefix}${i}`);
    for (const [i, appName] of appNames.entries()) {
      await options.api.expect(201, 'POST', '/v1/groups', {
        appName,
        title: `bench ${i}`,
        addressType: 'AUTO',
      });
      const executor = createExecutor({
        appName,
        adminAddresses: options.adminUrl,
        accessToken: options.accessToken,
        host: '127.0.0.1',
        port: 0,
        logDir: join(options.logRoot, appName),
        logRetentionDays: 0,
        logger: silentLogger,
      });
      executor.register(BENCH_HANDLER, (ctx) => {
        options.onRun(ctx, executor);
      });
      executors.push(executor);
      await executor.start();
    }
    const deadline = Date.now() + (options.onlineTimeoutMs ?? 30_000);
    for (const [i, appName] of appNames.entries()) {
      const address = executors[i]?.address;
      for (;;) {
        const reply = await options.api.expect<ExecutorsReply>(
          200,
          'GET',
          `/v1/executors?appName=${encodeURIComponent(appName)}`,
        );
        if (reply.items?.[0]?.executors?.some((e) => e.address === address && e.online)) break;
        if (Date.now() > deadline) throw new Error(`executor ${appName} at ${address} never came online`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    return { appNames, executors, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
