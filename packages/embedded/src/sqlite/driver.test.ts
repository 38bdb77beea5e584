import { StoreUnavailableError } from '@tickring/core/common';
import { describe, expect, it } from 'vitest';
import { openSqliteDriver } from './driver.js';

describe('the SQLite driver shim', () => {
  it('binds a lone null parameter (libsql reads a single object argument as named parameters)', () => {
    const db = openSqliteDriver(':memory:', { busyTimeoutMs: 100 });
    db.exec('CREATE TABLE t (k TEXT)');
    expect(db.prepare('INSERT INTO t (k) VALUES (?)').run(null)).toEqual({ changes: 1 });
    expect(db.prepare('SELECT ? AS a').get(null)).toEqual({ a: null });
    expect(db.prepare('SELECT k FROM t WHERE k IS ?').all(null)).toEqual([{ k: null }]);
    db.close();
  });

  it('refuses a parameter that is no SQL value (a boolean would crash libsql) with a TypeError', () => {
    const db = openSqliteDriver(':memory:', { busyTimeoutMs: 100 });
    const select = db.prepare('SELECT ? AS a');
    expect(() => select.get(true as unknown as number)).toThrow(
      /parameter 1 of "SELECT \? AS a" is a boolean/,
    );
    expect(() => select.get(undefined as unknown as number)).toThrow(TypeError);
    db.close();
  });

  it('refuses any call after close with an error (libsql itself would end the process), and closes once', () => {
    const db = openSqliteDriver(':memory:', { busyTimeoutMs: 100 });
    const select = db.prepare('SELECT 1 AS one');
    db.close();
    db.close();
    expect(db.closed).toBe(true);
    expect(() => select.get()).toThrow(/closed/);
    expect(() => db.exec('SELECT 1')).toThrow(/closed/);
    expect(() => db.prepare('SELECT 2')).toThrow(/closed/);
  });

  it('answers a write the full database refuses with a 503 that says so, and keeps the run of refusals', () => {
    const db = openSqliteDriver(':memory:', { busyTimeoutMs: 100 });
    db.exec('CREATE TABLE t (k TEXT)');
    // The file's page limit stands for a full disk: SQLite answers SQLITE_FULL for both.
    const pages = Number(db.prepare('PRAGMA page_count').get()?.page_count);
    db.exec(`PRAGMA max_page_count = ${pages + 2}`);
    const insert = db.prepare('INSERT INTO t (k) VALUES (?)');
    expect(db.refusedWrites).toBeUndefined();
    let refused: unknown;
    for (let i = 0; i < 100 && refused === undefined; i++) {
      try {
        insert.run('x'.repeat(2_000));
      } catch (err) {
        refused = err;
      }
    }
    expect(refused).toBeInstanceOf(StoreUnavailableError);
    expect(refused).toMatchObject({ status: 503, retryable: true, retryAfterSeconds: 30 });
    expect((refused as Error).message).toMatch(
      /cannot take writes: database or disk is full .*the refused write changed nothing/,
    );
    expect(() => insert.run('y'.repeat(2_000))).toThrow(StoreUnavailableError);
    const run = db.refusedWrites;
    expect(run).toMatchObject({ count: 2, error: 'database or disk is full' });
    expect(run?.last).toBeGreaterThanOrEqual(run?.since ?? Number.NaN);
    // Reads and the writes that fit still go through; the run stays for /health to judge by its last.
    expect(db.prepare('SELECT count(*) AS n FROM t').get()?.n).toBeGreaterThan(0);
    db.exec('DELETE FROM t');
    insert.run('z');
    expect(db.refusedWrites).toBe(run);
    db.close();
  });

  it('returns rows without the driver’s timing field', () => {
    const db = openSqliteDriver(':memory:', { busyTimeoutMs: 100 });
    expect(db.prepare('SELECT 1 AS one, ? AS two').get(2)).toEqual({ one: 1, two: 2 });
    db.close();
  });

  it('tells its observer every statement run, failed ones too, until the observer is removed', () => {
    const db = openSqliteDriver(':memory:', { busyTimeoutMs: 100 });
    const seen: string[] = [];
    db.observe((sql, call, ms) => {
      expect(ms).toBeGreaterThanOrEqual(0);
      seen.push(`${call} ${sql}`);
    });
    db.exec('CREATE TABLE t (k TEXT PRIMARY KEY)');
    const insert = db.prepare('INSERT INTO t (k) VALUES (?)');
    insert.run('a');
    expect(() => insert.run('a')).toThrow(/UNIQUE/);
    db.prepare('SELECT k FROM t').get();
    db.prepare('SELECT k FROM t').all();
    db.observe(undefined);
    insert.run('b');
    expect(seen).toEqual([
      'exec CREATE TABLE t (k TEXT PRIMARY KEY)',
      'run INSERT INTO t (k) VALUES (?)',
      'run INSERT INTO t (k) VALUES (?)',
      'get SELECT k FROM t',
      'all SELECT k FROM t',
    ]);
    db.close();
  });
});
