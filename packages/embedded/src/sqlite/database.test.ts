import { closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type BackgroundFailure, EmbeddedDatabase } from './database.js';

const dir = mkdtempSync(join(tmpdir(), 'tickring-db-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('EmbeddedDatabase', () => {
  it('leaves one file at a clean close: the write-ahead log is checkpointed into it and emptied', () => {
    const path = join(dir, 'close.db');
    const database = new EmbeddedDatabase({ path });
    database.ensureSchema('t', 'CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY)');
    database.transaction(() => {
      for (let i = 0; i < 100; i++) database.db.prepare('INSERT INTO t (k) VALUES (?)').run(`k${i}`);
    });
    database.close();
    const wal = `${path}-wal`;
    expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
    const reopened = new EmbeddedDatabase({ path });
    expect(reopened.db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 100 });
    expect(reopened.integrityCheck()).toBe('ok');
    reopened.close();
  });

  it('rolls a failed transaction back whole', () => {
    const database = new EmbeddedDatabase({ path: join(dir, 'tx.db') });
    database.ensureSchema('t', 'CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY)');
    expect(() =>
      database.transaction(() => {
        database.db.prepare('INSERT INTO t (k) VALUES (?)').run('a');
        database.db.prepare('INSERT INTO t (k) VALUES (?)').run('a');
      }),
    ).toThrow();
    expect(database.db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 });
    database.close();
  });

  it('adds a table’s missing columns to a file an earlier version wrote, keeping its rows, and leaves present ones', () => {
    const file = join(dir, 'columns.db');
    const old = new EmbeddedDatabase({ path: file });
    old.db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, a TEXT)');
    old.db.prepare('INSERT INTO t (k, a) VALUES (?, ?)').run('row', 'kept');
    old.close();
    const database = new EmbeddedDatabase({ path: file });
    database.ensureColumns('t', [
      ['a', 'TEXT'],
      ['b', 'INTEGER'],
      ['c', 'TEXT'],
    ]);
    // Asked again (another store, the same open database): nothing to add, no error.
    database.ensureColumns('t', [['b', 'INTEGER']]);
    const names = database.db
      .prepare('PRAGMA table_info(t)')
      .all<{ name: string; type: string }>()
      .map((c) => `${c.name} ${c.type}`);
    expect(names).toEqual(['k TEXT', 'a TEXT', 'b INTEGER', 'c TEXT']);
    expect(database.db.prepare('SELECT k, a, b, c FROM t').all()).toEqual([
      { k: 'row', a: 'kept', b: null, c: null },
    ]);
    database.close();
    // A second connection to the file, as another process: the columns are there, none added twice.
    const again = new EmbeddedDatabase({ path: file });
    again.ensureColumns('t', [['c', 'TEXT']]);
    expect(again.db.prepare('PRAGMA table_info(t)').all()).toHaveLength(4);
    again.close();
  });

  it('checkpoints from a worker thread when asked to (the writing connection never does), and still closes clean', async () => {
    const path = join(dir, 'background.db');
    const database = new EmbeddedDatabase({ path, backgroundCheckpoints: true });
    expect(database.db.prepare('PRAGMA wal_autocheckpoint').get()).toEqual({ wal_autocheckpoint: 0 });
    database.ensureSchema('t', 'CREATE TABLE IF NOT EXISTS t (v TEXT)');
    const insert = database.db.prepare('INSERT INTO t (v) VALUES (?)');
    insert.run('first');
    // The WAL header's checkpoint sequence (bytes 12-15) changes when a writer rewinds the log, which
    // it does only after a checkpoint copied all of it: here, with its own turned off, the worker's.
    const sequence = () => {
      const header = Buffer.alloc(16);
      const fd = openSync(`${path}-wal`, 'r');
      readSync(fd, header, 0, 16, 0);
      closeSync(fd);
      return header.readUInt32BE(12);
    };
    const before = sequence();
    const deadline = Date.now() + 10_000;
    let rows = 1;
    while (sequence() === before && Date.now() < deadline) {
      insert.run('x'.repeat(100));
      rows++;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(sequence()).not.toBe(before);

    database.close();
    const wal = `${path}-wal`;
    expect(!existsSync(wal) || statSync(wal).size === 0).toBe(true);
    const reopened = new EmbeddedDatabase({ path });
    expect(reopened.db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: rows });
    expect(reopened.integrityCheck()).toBe('ok');
    reopened.close();
  });

  it('tells its listeners when the background checkpointer fails, by name, and falls back to SQLite’s own checkpoints', async () => {
    // The worker opens the file on a connection of its own: with the directory gone first, it cannot.
    const gone = mkdtempSync(join(tmpdir(), 'tickring-db-gone-'));
    const database = new EmbeddedDatabase({ path: join(gone, 'gone.db'), backgroundCheckpoints: true });
    const failures: BackgroundFailure[] = [];
    database.onBackgroundFailure((failure) => failures.push(failure));
    rmSync(gone, { recursive: true, force: true });
    const deadline = Date.now() + 10_000;
    while (failures.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(failures[0]).toMatchObject({ sweep: 'wal-checkpoint', stopped: true, failures: 1 });
    expect(failures[0]?.error).toMatch(/open|database/i);
    expect(database.db.prepare('PRAGMA wal_autocheckpoint').get()).toEqual({ wal_autocheckpoint: 1000 });
    database.close();
  });
});
