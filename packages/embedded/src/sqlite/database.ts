import {
  type BackgroundCheckpoints,
  openSqliteDriver,
  type SqliteDatabase,
  type SqlValue,
  startBackgroundCheckpoints,
} from './driver.js';

export type {
  SqliteDatabase,
  SqliteStatement,
  SqlRow,
  SqlRunResult,
  SqlValue,
  StatementObserver,
} from './driver.js';

export interface EmbeddedDatabaseOptions {
  /** The database file; `:memory:` for a private in-memory database (tests). */
  readonly path: string;
  /** How long a writer waits for another process's write transaction before failing. */
  readonly busyTimeoutMs?: number;
  /**
   * Checkpoint the WAL from a worker thread (every CHECKPOINT_EVERY_MS) instead of inside the commit
   * that crosses SQLite's 1,000 pages: for the connection a whole process writes through (the local
   * stack's), whose every commit would otherwise now and then wait tens of ms for the copy and its
   * syncs. A file only; off by default (a worker per database is too much for tests' many files).
   */
  readonly backgroundCheckpoints?: boolean;
}

/** A failure of the database's background work, as `onBackgroundFailure` tells it. */
export interface BackgroundFailure {
  /** Which work: the WAL checkpointer. */
  readonly sweep: 'wal-checkpoint';
  /** Failures so far (its own count: the checkpointer tells at most one a second). */
  readonly failures: number;
  readonly error: string;
  /** The checkpointer is gone (SQLite's own checkpoints took over). */
  readonly stopped: boolean;
}

/** How often the background checkpointer copies the WAL into the file. */
export const CHECKPOINT_EVERY_MS = 100;

/**
 * One SQLite file holding every table of the embedded engine and its ring.
 *
 * WAL with `synchronous = NORMAL`: a commit is durable against a crash of the process (kill -9 loses
 * nothing acknowledged: the WAL is in the OS's hands), and the file is never corrupted; a power cut or
 * an OS crash may lose the transactions of the last moments (those not yet synced at a WAL
 * checkpoint), never half of one. FULL would sync every commit, at several times the cost per write.
 */
export class EmbeddedDatabase {
  readonly db: SqliteDatabase;
  private readonly schemas = new Set<string>();
  private readonly columns = new Set<string>();
  private readonly checkpoints: BackgroundCheckpoints | undefined;
  private readonly failureListeners = new Set<(failure: BackgroundFailure) => void>();

  constructor(options: EmbeddedDatabaseOptions) {
    this.db = openSqliteDriver(options.path, { busyTimeoutMs: options.busyTimeoutMs ?? 5_000 });
    if (options.path !== ':memory:') this.db.exec('PRAGMA journal_mode = WAL');
    this.db.exec('PRAGMA synchronous = NORMAL');
    this.db.exec('PRAGMA foreign_keys = ON');
    if (options.backgroundCheckpoints && options.path !== ':memory:') {
      this.checkpoints = startBackgroundCheckpoints(options.path, {
        everyMs: CHECKPOINT_EVERY_MS,
        onFailure: ({ failures, error }) =>
          this.tell({ sweep: 'wal-checkpoint', failures, error, stopped: false }),
        onError: (err) => {
          // Without its checkpointer the WAL would only grow: SQLite's own checkpoints take over again.
          if (!this.db.closed) this.db.exec('PRAGMA wal_autocheckpoint = 1000');
          this.tell({ sweep: 'wal-checkpoint', failures: 1, error: String(err), stopped: true });
        },
      });
      this.db.exec('PRAGMA wal_autocheckpoint = 0');
    }
  }

  /**
   * Calls `listener` when the database's own background work fails (the WAL checkpointer): the
   * failure is the caller's to log and count, as any background sweep's. Returns the unsubscribe.
   */
  onBackgroundFailure(listener: (failure: BackgroundFailure) => void): () => void {
    this.failureListeners.add(listener);
    return () => this.failureListeners.delete(listener);
  }

  private tell(failure: BackgroundFailure): void {
    for (const listener of this.failureListeners) listener(failure);
  }

  /**
   * Creates a store's tables once per database (each store owns its `CREATE TABLE IF NOT EXISTS`
   * statements, so a store works on a fresh file and on one written by an earlier start).
   */
  ensureSchema(name: string, ddl: string): void {
    if (this.schemas.has(name)) return;
    this.db.exec(ddl);
    this.schemas.add(name);
  }

  /**
   * Adds the columns a store's table gained since an earlier version wrote the file (`CREATE TABLE IF
   * NOT EXISTS` leaves an old table as it is), once per database, in one write transaction that looks
   * again: two processes opening the file at once add each column once.
   */
  ensureColumns(table: string, columns: readonly (readonly [name: string, type: string])[]): void {
    const key = `${table}(${columns.map(([name]) => name).join(',')})`;
    if (this.columns.has(key)) return;
    const present = () =>
      new Set(
        this.db
          .prepare(`PRAGMA table_info(${table})`)
          .all<{ [column: string]: SqlValue; name: string }>()
          .map((c) => c.name),
      );
    const before = present();
    if (columns.some(([name]) => !before.has(name))) {
      this.transaction(() => {
        const now = present();
        for (const [name, type] of columns) {
          if (!now.has(name)) this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
        }
      });
    }
    this.columns.add(key);
  }

  /**
   * Runs `work` as one write transaction, all or nothing. `BEGIN IMMEDIATE` takes the write lock up
   * front, so two processes on one file queue (busy timeout) instead of failing to upgrade a read lock.
   * Inside a transaction already (a store calling another), it joins it.
   */
  transaction<T>(work: () => T): T {
    if (this.db.inTransaction) return work();
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw err;
    }
  }

  /** A consistent copy of the whole database while it is in use (`VACUUM INTO`: one read transaction). */
  backupTo(file: string): void {
    this.db.prepare('VACUUM INTO ?').run(file);
  }

  /** `PRAGMA integrity_check`: 'ok' or the problems found. */
  integrityCheck(): string {
    const rows = this.db.prepare('PRAGMA integrity_check').all<{ integrity_check: string }>();
    return rows.map((r) => r.integrity_check).join('; ');
  }

  /**
   * Checkpoints the write-ahead log into the file and empties it (the driver's close does not), so a
   * stopped engine leaves one file to copy; a failed checkpoint loses nothing (the WAL stays valid).
   */
  close(): void {
    if (this.db.closed) return;
    this.checkpoints?.stop();
    try {
      if (!this.db.inTransaction) this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } finally {
      this.db.close();
    }
  }
}
