/**
 * What every command's action gets: the streams and output helpers, the global options, and the
 * client (made on first use, so `--help` and usage errors need no configuration).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createClient, TickringApiError, type TickringClient } from '@tickring/client';
import type { Command } from 'commander';
import { type Connection, configPath, loadConfig, loginAgain, resolveConnection } from './config.js';
import { CommandFailedError, InterruptedError, UsageError } from './errors.js';
import type { Io } from './io.js';
import { Output } from './output.js';
import { readAll } from './prompt.js';

export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string })
  .version;

export const USER_AGENT = `tickring-cli/${VERSION}`;

/** The options every command takes (defined on the program). */
export interface GlobalOptions {
  readonly url?: string;
  readonly profile?: string;
  readonly json?: boolean;
}

export class Context {
  readonly out: Output;
  #client: TickringClient | undefined;
  #connection: Connection | undefined;

  constructor(
    readonly io: Io,
    readonly globals: GlobalOptions,
  ) {
    this.out = new Output(io);
  }

  get json(): boolean {
    return this.globals.json === true;
  }

  /** The URL and token to use (flags, environment, profile); a usage error when one is missing. */
  async connection(): Promise<Connection> {
    if (this.#connection) return this.#connection;
    const loaded = await loadConfig(configPath(this.io.env));
    if (loaded.exists && loaded.mode !== undefined && (loaded.mode & 0o077) !== 0) {
      this.out.warn(
        `${loaded.path} can be read by other users (mode ${loaded.mode.toString(8).padStart(4, '0')}): chmod 600 ${loaded.path}`,
      );
    }
    this.#connection = resolveConnection(
      loaded,
      { url: this.globals.url, profile: this.globals.profile },
      this.io.env,
    );
    return this.#connection;
  }

  async client(): Promise<TickringClient> {
    if (!this.#client) {
      const { url, token } = await this.connection();
      this.#client = this.makeClient(url, token);
    }
    return this.#client;
  }

  /** A client of `url` sending `token` (none: only the public routes, e.g. signing in). */
  makeClient(url: string, token?: string): TickringClient {
    try {
      return createClient({
        baseUrl: url,
        ...(token === undefined ? {} : { token }),
        userAgent: USER_AGENT,
        ...(this.io.fetch ? { fetch: this.io.fetch } : {}),
      });
    } catch (err) {
      // The client refuses a URL it cannot read or a token that cannot go in a header (its message
      // never quotes the token).
      if (err instanceof TypeError) throw new UsageError(err.message);
      throw err;
    }
  }

  /** A JSON object from a file (`-` for stdin); a usage error naming the file otherwise. */
  async readJsonFile(file: string): Promise<Record<string, unknown>> {
    let text: string;
    try {
      text = file === '-' ? await readAll(this.io) : await readFile(file, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read ${file}: ${(err as Error).message}`);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new UsageError(`${file} is not JSON: ${(err as Error).message}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new UsageError(`${file} must hold one JSON object`);
    }
    return value as Record<string, unknown>;
  }

  /**
   * What an action's error means to the user: the server refusing (401) the profile's signed-in
   * session is the session having expired (or been ended), to be signed in again.
   */
  explain(err: unknown): unknown {
    const connection = this.#connection;
    if (connection?.session && err instanceof TickringApiError && err.status === 401) {
      return new CommandFailedError(
        `session expired; run ${loginAgain(connection.session.username, connection.profile)}`,
      );
    }
    return err;
  }

  /**
   * A signal aborted by Ctrl-C, for commands that wait (following a log); `release` stops listening.
   */
  interruptible(): { signal: AbortSignal; release: () => void } {
    const controller = new AbortController();
    const release = this.io.onInterrupt(() => controller.abort(new InterruptedError()));
    return { signal: controller.signal, release };
  }
}

/** What an action returns: its exit code (0 when nothing is returned). */
// biome-ignore lint/suspicious/noConfusingVoidType: an action may end with a call that returns nothing.
export type ActionResult = Promise<number | undefined | void>;

/**
 * Wraps a command's action for commander: builds its Context from the global options and records
 * the exit code it returns. `args` are the positional arguments, `opts` the command's own options.
 */
export type ActionRunner = <O extends object>(
  fn: (ctx: Context, args: string[], opts: O) => ActionResult,
) => (...params: unknown[]) => Promise<void>;

export function actionRunner(io: Io, setExit: (code: number) => void): ActionRunner {
  return (fn) =>
    async (...params) => {
      const cmd = params[params.length - 1] as Command;
      const opts = params[params.length - 2] as never;
      const args = params.slice(0, -2) as string[];
      const ctx = new Context(io, cmd.optsWithGlobals() as GlobalOptions);
      let code: Awaited<ActionResult>;
      try {
        code = await fn(ctx, args, opts);
      } catch (err) {
        throw ctx.explain(err);
      }
      setExit(typeof code === 'number' ? code : 0);
    };
}

/** Waits `ms`, or less when `signal` aborts (then rejects with its reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** `promise`, or the abort's reason as soon as `signal` aborts (the request itself is left to end). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
