import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  linkSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EmbeddedDatabase } from '@tickring/embedded/sqlite';
import { DATABASE_FILE, lockDataDir } from './data-dir-lock.js';
import { LocalStartError } from './errors.js';

/** A backup or restore that cannot go ahead: the message names the problem and what to do. */
export class BackupError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'BackupError';
  }
}

export interface BackupResult {
  readonly file: string;
  readonly bytes: number;
  /** `ok`, or SQLite's list of problems. */
  readonly integrity: string;
}

export interface RestoreResult {
  readonly database: string;
  readonly bytes: number;
  readonly integrity: string;
  /** The files the database was made of before the restore, now renamed (empty on a fresh data directory). */
  readonly keptAside: readonly string[];
}

const SQLITE_HEADER = 'SQLite format 3\0';

/**
 * An online copy of DIR/tickring.db into `file`, which must not exist yet. Our own connection runs
 * `VACUUM INTO` as one read transaction: in WAL mode it does not block the server's writes (nor they
 * it), and the copy is the database as of the moment it began. The copy is written beside `file`
 * under a temporary name, checked (`PRAGMA integrity_check`), and only then linked into place, so a
 * failed or interrupted backup never leaves a `file` that looks like a good one.
 */
export function backupDatabase(dataDir: string, file: string): BackupResult {
  const source = join(dataDir, DATABASE_FILE);
  if (!existsSync(source)) {
    throw new BackupError(
      `no database at ${source}: is --data-dir right? (the server creates it on its first start)`,
    );
  }
  if (existsSync(file))
    throw new BackupError(`${file} exists already: a backup never overwrites; name a new file`);
  if (!existsSync(dirname(file)) || !statSync(dirname(file)).isDirectory()) {
    throw new BackupError(`cannot write ${file}: ${dirname(file)} is not a directory`);
  }
  const partial = join(dirname(file), `.${basename(file)}.partial-${process.pid}`);
  removeDatabaseFiles(partial);
  try {
    const database = openDatabase(source, `the database ${source}`);
    try {
      database.backupTo(partial);
    } catch (err) {
      throw new BackupError(`backup of ${source} failed: ${messageOf(err)}`, { cause: err });
    } finally {
      // Not EmbeddedDatabase.close(): its WAL checkpoint would compete with the running server's writes.
      database.db.close();
    }
    const integrity = checkedCopy(partial, `the copy of ${source}`);
    if (integrity !== 'ok')
      throw new BackupError(`the copy of ${source} fails SQLite's integrity check: ${integrity}`);
    try {
      linkSync(partial, file); // fails if `file` appeared meanwhile: never overwrites
    } catch (err) {
      throw new BackupError(`cannot write ${file}: ${messageOf(err)}`, { cause: err });
    }
    return { file, bytes: statSync(file).size, integrity };
  } finally {
    removeDatabaseFiles(partial);
  }
}

/**
 * Puts the backup `file` in place as DIR/tickring.db, only while no server holds DIR (its lock is
 * taken for the whole restore). The backup is first copied into DIR and checked there (SQLite's
 * header, `integrity_check`, tickring's tables), so `file` itself is never changed and a bad backup
 * touches nothing. Then the old database and its `-wal` are renamed to
 * `tickring.db.before-restore-<time>` (and `...-wal`: together they are the old database, whatever
 * its last stop was), its `-shm` removed, and the checked copy renamed into place.
 */
export function restoreDatabase(dataDir: string, file: string, now = new Date()): RestoreResult {
  if (!existsSync(file)) throw new BackupError(`no such file: ${file}`);
  if (!statSync(file).isFile()) throw new BackupError(`${file} is not a file`);
  if (!hasSqliteHeader(file)) throw new BackupError(`${file} is not a SQLite database (no SQLite header)`);
  let release: () => void;
  try {
    release = lockDataDir(dataDir);
  } catch (err) {
    if (err instanceof LocalStartError) {
      throw new BackupError(
        `cannot restore while a server runs: ${err.message.replace(/;.*$/, '')}; stop it first`,
      );
    }
    throw err;
  }
  try {
    const stamp = now
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    const target = join(dataDir, DATABASE_FILE);
    const incoming = join(dataDir, `${DATABASE_FILE}.restoring-${stamp}`);
    removeDatabaseFiles(incoming);
    try {
      copyFileSync(file, incoming, constants.COPYFILE_EXCL);
      const integrity = checkedCopy(incoming, file);
      if (integrity !== 'ok') throw new BackupError(`${file} fails SQLite's integrity check: ${integrity}`);
      const keptAside: string[] = [];
      const aside = `${target}.before-restore-${stamp}`;
      for (const suffix of ['', '-wal']) {
        if (!existsSync(target + suffix)) continue;
        renameSync(target + suffix, aside + suffix);
        keptAside.push(aside + suffix);
      }
      rmSync(`${target}-shm`, { force: true });
      renameSync(incoming, target);
      return { database: target, bytes: statSync(target).size, integrity, keptAside };
    } finally {
      removeDatabaseFiles(incoming);
    }
  } finally {
    release();
  }
}

/**
 * Opens a copy, runs SQLite's integrity check on it and checks it is tickring's (its jobs table);
 * leaves it one self-contained file (rollback journal, as `VACUUM INTO` wrote it; the server turns WAL
 * back on when it opens it). Returns the integrity check's answer.
 */
function checkedCopy(path: string, what: string): string {
  const copy = openDatabase(path, what);
  try {
    let integrity: string;
    try {
      integrity = copy.integrityCheck();
    } catch (err) {
      throw new BackupError(`${what} is corrupt: ${messageOf(err)}`, { cause: err });
    }
    if (integrity !== 'ok') return integrity;
    const jobs = copy.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'jobs'")
      .get();
    if (jobs === undefined)
      throw new BackupError(`${what} is a SQLite database, but not tickring's (no jobs table)`);
    copy.db.exec('PRAGMA journal_mode = DELETE');
    return integrity;
  } finally {
    copy.db.close();
  }
}

function openDatabase(path: string, what: string): EmbeddedDatabase {
  try {
    return new EmbeddedDatabase({ path });
  } catch (err) {
    throw new BackupError(`${what} cannot be opened as a database: ${messageOf(err)}`, { cause: err });
  }
}

function hasSqliteHeader(path: string): boolean {
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(path, 'r');
  try {
    return (
      readSync(fd, header, 0, header.length, 0) === header.length &&
      header.toString('latin1') === SQLITE_HEADER
    );
  } finally {
    closeSync(fd);
  }
}

/** A database file with the `-wal` and `-shm` a failed check may have left beside it. */
function removeDatabaseFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
