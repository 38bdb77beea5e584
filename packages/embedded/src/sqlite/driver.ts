/**
 * The one file that knows which SQLite driver runs underneath: `libsql` (a synchronous,
 * better-sqlite3-shaped API whose prebuilt binary ships inside the npm package, so it installs with no
 * compiler and runs on Node 20, 22 and 24). Moving to `node:sqlite` once Node 22.13 is the floor changes
 * this file only: everything else sees `SqliteDatabase`.
 */
import { createRequire } from 'node:module';

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

export interface SqliteDatabase {
  exec(sql: string): void;
  /** Prepared once per SQL text and kept: statements are reused across calls. */
  prepare(sql: string): SqliteStatement;
  readonly inTransaction: boolean;
  readonly closed: boolean;
  /** Idempotent; any later call throws. */
  close(): void;
}

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
  return {
    exec: (sql) => open().exec(sql),
    prepare(sql) {
      const known = statements.get(sql);
      if (known) return known;
      const prepared = open().prepare(sql);
      const statement: SqliteStatement = {
        // Parameters go as one checked array: libsql takes a lone object argument (null too) for named
        // parameters, and a boolean brings the whole process down instead of throwing.
        run: (...params) => ({ changes: prepared.run(bind(sql, params)).changes }),
        get: <Row extends SqlRow>(...params: SqlValue[]) =>
          withoutMetadata(prepared.get(bind(sql, params))) as Row | undefined,
        all: <Row extends SqlRow>(...params: SqlValue[]) => prepared.all(bind(sql, params)) as Row[],
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
