/**
 * The one file that knows which SQLite driver runs underneath: `libsql` (a synchronous,
 * better-sqlite3-shaped API whose prebuilt binary ships inside the npm package, so it installs with no
 * compiler and runs on Node 20, 22 and 24). Moving to `node:sqlite` once Node 22.13 is the floor changes
 * this file only: everything else sees `SqliteDatabase`.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { StoreUnavailableError } from '@tickring/core/common';

/** A value SQLite stores and returns: numbers are IEEE doubles (exact up to 2^53, like logIds). */
export type SqlValue = string | number | bigint | null | Uint8Array;
export type SqlRow = Record<string, SqlValue>;

export interface SqlRunResult {
  /** Rows the statement inserted, updated or deleted (0: an insert that met `ON CONFLICT DO NOTHING`). */
  readonly changes: number;
}

export interface SqliteStatement {
  run(...params: SqlValue[]): SqlRunResult;
  get<Row extends SqlRow = SqlRow>(...params: SqlValue[]): Row | undefined;
  all<Row extends SqlRow = SqlRow>(...params: SqlValue[]): Row[];
}

/**
 * Sees every statement the connection runs (its SQL text, how it was called, how long it took):
 * what a benchmark counts per fire. Off unless set; then the cost is one clock read before and after.
 */
export type StatementObserver = (sql: string, call: 'run' | 'get' | 'all' | 'exec', ms: number) => void;

export interface SqliteDatabase {
  exec(sql: string): void;
  /** Prepared once per SQL text and kept: statements are reused across calls. */
  prepare(sql: string): SqliteStatement;
  readonly inTransaction: boolean;
  readonly closed: boolean;
  /** Idempotent; any later call throws. */
  close(): void;
  /** Sets (or with undefined, removes) the one observer of this connection's statements. */
  observe(observer: StatementObserver | undefined): void;
  /**
   * The writes refused because the disk (or the file's page limit) is full, the latest run of them
   * (undefined before the first): what `/health` reports while the last is recent. A full disk lets
   * small writes through beside refused ones (free pages, the WAL's room), so a write that went
   * through does not end it.
   */
  readonly refusedWrites: RefusedWrites | undefined;
}

/** Writes refused for a full disk: a run of them, each less than `REFUSAL_RUN_GAP_MS` after the one before. */
export interface RefusedWrites {
  /** Epoch ms of the run's first refusal and of its last. */
  readonly since: number;
  readonly last: number;
  readonly count: number;
  readonly error: string;
}

/** A refusal this long after the one before begins a new run. */
export const REFUSAL_RUN_GAP_MS = 60_000;

interface LibsqlStatement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): Record<string, unknown> | undefined;
  all(...params: unknown[]): Record<string, unknown>[];
}
interface LibsqlDatabase {
  exec(sql: string): void;
  prepare(sql: string): LibsqlStatement;
  readonly inTransaction: boolean;
  close(): void;
}
type LibsqlConstructor = new (path: string, options?: { timeout?: number }) => LibsqlDatabase;

const require = createRequire(import.meta.url);

/** Opens (creating) the database file; `:memory:` for a private in-memory one. */
export function openSqliteDriver(path: string, options: { busyTimeoutMs: number }): SqliteDatabase {
  const Database = require('libsql') as LibsqlConstructor;
  const db = new Database(path, { timeout: options.busyTimeoutMs });
  const statements = new Map<string, SqliteStatement>();
  // libsql panics (the whole process ends) on a call to a closed database: refuse it here instead.
  let closed = false;
  const open = () => {
    if (closed) throw new Error(`the database ${path} is closed`);
    return db;
  };
  const bind = (sql: string, params: readonly unknown[]) => {
    open();
    return bindable(sql, params);
  };
  let observer: StatementObserver | undefined;
  let refused: RefusedWrites | undefined;
  // A full disk is the operator's to fix, not a bug: a 503 that says so (nothing was written; the
  // transaction it was part of rolls back), and the refusals /health reports.
  const checked = <T>(work: () => T): T => {
    try {
      return work();
    } catch (err) {
      if ((err as { code?: unknown } | null)?.code !== 'SQLITE_FULL') throw err;
      const error = err instanceof Error ? err.message : String(err);
      const now = Date.now();
      const run = refused && now - refused.last <= REFUSAL_RUN_GAP_MS ? refused : undefined;
      refused = { since: run?.since ?? now, last: now, count: (run?.count ?? 0) + 1, error };
      throw new StoreUnavailableError(
        // Without the file's path: the answer may reach an API caller (the log and /health have it).
        `the database cannot take writes: ${error} (free space on its disk; the refused write changed nothing)`,
        30,
        { cause: err },
      );
    }
  };
  const observed = <T>(sql: string, call: 'run' | 'get' | 'all' | 'exec', work: () => T): T => {
    if (!observer) return checked(work);
    const started = performance.now();
    try {
      return checked(work);
    } finally {
      observer?.(sql, call, performance.now() - started);
    }
  };
  return {
    exec: (sql) => observed(sql, 'exec', () => open().exec(sql)),
    prepare(sql) {
      const known = statements.get(sql);
      if (known) return known;
      const prepared = open().prepare(sql);
      const statement: SqliteStatement = {
        // Parameters go as one checked array: libsql takes a lone object argument (null too) for named
        // parameters, and a boolean brings the whole process down instead of throwing.
        run: (...params) =>
          observed(sql, 'run', () => ({ changes: prepared.run(bind(sql, params)).changes })),
        get: <Row extends SqlRow>(...params: SqlValue[]) =>
          observed(sql, 'get', () => withoutMetadata(prepared.get(bind(sql, params))) as Row | undefined),
        all: <Row extends SqlRow>(...params: SqlValue[]) =>
          observed(sql, 'all', () => prepared.all(bind(sql, params)) as Row[]),
      };
      statements.set(sql, statement);
      return statement;
    },
    get inTransaction() {
      return !closed && db.inTransaction;
    },
    get closed() {
      return closed;
    },
    close() {
      if (closed) return;
      closed = true;
      db.close();
    },
    observe(next) {
      observer = next;
    },
    get refusedWrites() {
      return refused;
    },
  };
}

function bindable(sql: string, params: readonly unknown[]): readonly unknown[] {
  for (const [i, value] of params.entries()) {
    const ok =
      value === null ||
      typeof value === 'string' ||
      typeof value === 'number' ||
      typeof value === 'bigint' ||
      value instanceof Uint8Array;
    if (!ok) throw new TypeError(`parameter ${i + 1} of "${sql}" is a ${typeof value}, not an SQL value`);
  }
  return params;
}

/** libsql adds its timing as an enumerable `_metadata` field to a row read with `get`. */
function withoutMetadata(row: Record<string, unknown> | undefined): SqlRow | undefined {
  if (row === undefined) return undefined;
  const { _metadata: _, ...rest } = row;
  return rest as SqlRow;
}

/** A worker thread checkpointing a database file's WAL on a connection of its own. */
export interface BackgroundCheckpoints {
  /**
   * Stops it and waits (synchronously, at most `waitMs`) until its connection is closed, so no
   * checkpoint of it runs beside the caller's last one; idempotent.
   */
  stop(waitMs?: number): void;
}

/**
 * The worker's whole code: plain CommonJS, so it loads without the TypeScript loader that the rest
 * of the engine runs under. Every `everyMs` (and never two at once) a PASSIVE checkpoint: it copies
 * what it can of the WAL into the file (and syncs them: synchronous NORMAL) without waiting for or
 * blocking the writers, and a writer rewinds the WAL once all of it has been copied.
 */
const CHECKPOINT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const state = new Int32Array(workerData.state);
const db = new Database(workerData.path, { timeout: 0 });
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
function stop() {
  clearInterval(timer);
  try { db.close(); } catch {}
  Atomics.store(state, 1, 1);
  Atomics.notify(state, 1);
  parentPort.close();
}
// Failures are counted here and told at most once a second (a checkpoint every everyMs could flood).
let failures = 0;
let toldAt = 0;
const timer = setInterval(() => {
  if (Atomics.load(state, 0) === 1) return stop();
  try {
    checkpoint.get();
  } catch (err) {
    failures++;
    const now = Date.now();
    if (now - toldAt < 1000) return;
    toldAt = now;
    parentPort.postMessage({ failures, error: String((err && err.message) || err) });
  }
}, workerData.everyMs);
parentPort.on('message', stop);
`;

/** Checkpoints that failed so far (`failures`, counted from the start) and the last error. */
export interface CheckpointFailure {
  readonly failures: number;
  readonly error: string;
}

/**
 * Checkpoints `path`'s WAL every `everyMs` from a worker thread, so its copying and syncing (tens of
 * ms for a thousand pages on a busy disk) never blocks the connection that writes; that connection
 * then turns its own checkpoints off (`PRAGMA wal_autocheckpoint = 0`). The worker does not keep
 * the process alive. `onFailure` hears of failed checkpoints (at most once a second, with the count
 * so far); `onError`, of the worker's end (it could not open the file, or died): no more checkpoints.
 */
export function startBackgroundCheckpoints(
  path: string,
  options: {
    readonly everyMs: number;
    readonly onFailure: (failure: CheckpointFailure) => void;
    readonly onError: (err: Error) => void;
  },
): BackgroundCheckpoints {
  // [0]: stop asked; [1]: the worker's connection is closed.
  const state = new SharedArrayBuffer(8);
  const flags = new Int32Array(state);
  const worker = new Worker(CHECKPOINT_WORKER, {
    eval: true,
    workerData: { driver: require.resolve('libsql'), path, everyMs: options.everyMs, state },
  });
  worker.unref();
  worker.on('message', (failure: CheckpointFailure) => options.onFailure(failure));
  worker.on('error', options.onError);
  let stopped = false;
  return {
    stop(waitMs = 2_000) {
      if (stopped) return;
      stopped = true;
      Atomics.store(flags, 0, 1);
      worker.postMessage('stop');
      Atomics.wait(flags, 1, 0, waitMs);
      void worker.terminate();
    },
  };
}
