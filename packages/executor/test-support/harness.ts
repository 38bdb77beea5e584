import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createExecutor, type Executor, type ExecutorOptions } from '../src/executor.js';
import { silentLogger } from '../src/logger.js';
import { AdminDriver } from './admin-driver.js';
import { FakeAdmin } from './fake-admin.js';

export const TOKEN = 'test-token-0123456789';

/** Short timings so tests run fast; every one of them is an option of the real executor. */
export const FAST = {
  registryIntervalMs: 100,
  callbackRetryIntervalMs: 100,
  idleTimeoutMs: 60_000,
  abortGraceMs: 300,
  shutdownTimeoutMs: 500,
  adminTimeoutMs: 2_000,
} as const;

export interface Harness {
  admin: FakeAdmin;
  ex: Executor;
  driver: AdminDriver;
  logDir: string;
  /** Stops the executor and the admin and removes the temp dir. */
  close(): Promise<void>;
}

/**
 * A fake admin on 127.0.0.1:0, a temp logDir and an executor on 127.0.0.1:0 talking to it, plus a driver
 * speaking to the executor as the Java admin does (token header in lower case).
 */
export async function startHarness(
  options: Partial<ExecutorOptions> & { register?: (ex: Executor) => void; contextPath?: string } = {},
): Promise<Harness> {
  const admin = await FakeAdmin.start({ token: TOKEN, contextPath: options.contextPath ?? '/xxl-job-admin' });
  const logDir = options.logDir ?? (await mkdtemp(join(tmpdir(), 'tickring-ex-')));
  const ex = createExecutor({
    appName: 'tickring-test',
    adminAddresses: [admin.baseUrl],
    accessToken: TOKEN,
    port: 0,
    host: '127.0.0.1',
    logDir,
    logger: silentLogger,
    ...FAST,
    ...options,
  });
  options.register?.(ex);
  await ex.start();
  const driver = new AdminDriver(ex.address, TOKEN, 'xxl-job-access-token');
  return {
    admin,
    ex,
    driver,
    logDir,
    async close() {
      await ex.stop();
      await admin.close();
      await rm(logDir, { recursive: true, force: true });
    },
  };
}
