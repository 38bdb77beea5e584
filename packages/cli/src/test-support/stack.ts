/**
 * For integration tests: the scheduler's local stack with real SDK executors (`test/e2e-stack.ts`,
 * on the embedded engine: a SQLite file of its own per stack).
 *
 * The module is imported by a computed specifier: the scheduler's sources are checked by the root
 * tsconfig, and a static import would make this package's stricter one (exactOptionalPropertyTypes)
 * check them too. The part used here is typed below.
 */
import type { Executor, JobHandler } from '@tickring/executor';

export interface ApiReply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: API bodies are read field by field
  readonly body: any;
}

export interface Stack {
  readonly stack: {
    readonly urls: { readonly api: string };
    readonly tokens: { readonly adminToken: string; readonly accessToken: string };
  };
  /** The admin API with the admin token (answers checked against the OpenAPI document). */
  call(method: string, path: string, body?: unknown): Promise<ApiReply>;
  createAutoGroup(label: string): Promise<string>;
  // biome-ignore lint/suspicious/noExplicitAny: the job as the API shows it
  createJob(fields: Record<string, unknown>): Promise<any>;
  startExecutor(appName: string, handlers: Record<string, JobHandler>): Promise<Executor>;
  waitForExecutor(appName: string, address: string, online?: boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const E2E_STACK = '../../../../test/e2e-stack.js';

export async function startStack(label: string): Promise<Stack> {
  const module = (await import(/* @vite-ignore */ E2E_STACK)) as {
    startE2eStack(label: string): Promise<Stack>;
  };
  return module.startE2eStack(label);
}

/** Polls `check` until it returns something other than undefined/false. */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 30_000, intervalMs = 100, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
