import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedDatabase } from '@tickring/embedded/sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, lockDataDir } from './data-dir-lock.js';
import { BackupError, backupDatabase, restoreDatabase } from './server-backup.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tickring-server-backup-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A data directory with a database that has a jobs table and one row in it (`marker`). */
function dataDirWith(name: string, marker: string): string {
  const dataDir = join(dir, name);
  mkdirSync(dataDir);
  const database = new EmbeddedDatabase({ path: join(dataDir, DATABASE_FILE) });
  database.db.exec('CREATE TABLE jobs (id INTEGER PRIMARY KEY, definition TEXT)');
  database.db.prepare('INSERT INTO jobs (definition) VALUES (?)').run(marker);
  database.close();
  return dataDir;
}

function markerIn(file: string): unknown {
  const database = new EmbeddedDatabase({ path: file });
  try {
    return database.db.prepare('SELECT definition FROM jobs').get()?.definition;
  } finally {
    database.close();
  }
}

const refusal = (work: () => unknown): string => {
  try {
    work();
  } catch (err) {
    if (err instanceof BackupError) return err.message;
    throw err;
  }
  throw new Error('not refused');
};

describe('backupDatabase and restoreDatabase', () => {
  it('backs up into a new file and restores it, keeping the database it replaces aside', () => {
    const source = dataDirWith('source', 'from the backup');
    const file = join(dir, 'backup.db');
    expect(backupDatabase(source, file)).toMatchObject({ file, integrity: 'ok' });
    expect(readdirSync(dir).sort()).toEqual(['backup.db', 'source']);

    const target = dataDirWith('target', 'replaced');
    const restored = restoreDatabase(target, file, new Date('2025-01-31T12:00:00.123Z'));
    const aside = join(target, `${DATABASE_FILE}.before-restore-20250131T120000Z`);
    expect(restored).toMatchObject({ database: join(target, DATABASE_FILE), integrity: 'ok' });
    expect(restored.keptAside).toContain(aside);
    expect(markerIn(join(target, DATABASE_FILE))).toBe('from the backup');
    expect(markerIn(aside)).toBe('replaced');
    expect(existsSync(join(target, 'tickring.lock'))).toBe(false);
  });

  it('refuses a backup over an existing file, from a missing database, into a missing directory', () => {
    const source = dataDirWith('source', 'x');
    const file = join(dir, 'taken.db');
    writeFileSync(file, 'keep me');
    expect(refusal(() => backupDatabase(source, file))).toBe(
      `${file} exists already: a backup never overwrites; name a new file`,
    );
    expect(refusal(() => backupDatabase(join(dir, 'nowhere'), join(dir, 'b.db')))).toContain(
      `no database at ${join(dir, 'nowhere', DATABASE_FILE)}`,
    );
    expect(refusal(() => backupDatabase(source, join(dir, 'no', 'b.db')))).toBe(
      `cannot write ${join(dir, 'no', 'b.db')}: ${join(dir, 'no')} is not a directory`,
    );
  });

  it("refuses to restore a missing file, a file that is not SQLite, a corrupt one, or one not tickring's, and changes nothing", () => {
    const target = dataDirWith('target', 'untouched');
    expect(refusal(() => restoreDatabase(target, join(dir, 'missing.db')))).toBe(
      `no such file: ${join(dir, 'missing.db')}`,
    );
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'hello, not a database');
    expect(refusal(() => restoreDatabase(target, text))).toBe(
      `${text} is not a SQLite database (no SQLite header)`,
    );

    const corrupt = join(dir, 'corrupt.db');
    writeFileSync(corrupt, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(4096, 0xab)]));
    expect(refusal(() => restoreDatabase(target, corrupt))).toMatch(
      /corrupt|cannot be opened as a database|integrity/,
    );

    const other = join(dir, 'other.db');
    const database = new EmbeddedDatabase({ path: other });
    database.db.exec('CREATE TABLE t (x)');
    database.close();
    expect(refusal(() => restoreDatabase(target, other))).toBe(
      `${other} is a SQLite database, but not tickring's (no jobs table)`,
    );

    expect(markerIn(join(target, DATABASE_FILE))).toBe('untouched');
    expect(readdirSync(target).filter((f) => f.includes('restor'))).toEqual([]);
  });

  it('refuses to restore while another process holds the data directory', () => {
    const source = dataDirWith('source', 'x');
    const file = join(dir, 'backup.db');
    backupDatabase(source, file);
    const target = dataDirWith('target', 'kept');
    const release = lockDataDir(target, process.ppid); // a live process that is not us
    try {
      expect(refusal(() => restoreDatabase(target, file))).toBe(
        `cannot restore while a server runs: another tickring (pid ${process.ppid}) is using ${target}; stop it first`,
      );
    } finally {
      rmSync(join(target, 'tickring.lock'), { force: true });
      release();
    }
    expect(markerIn(join(target, DATABASE_FILE))).toBe('kept');
  });
});
