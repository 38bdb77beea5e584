import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedDatabase } from './database.js';

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
});
