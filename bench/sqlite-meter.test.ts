import { EmbeddedDatabase } from '@tickring/embedded/sqlite';
import { describe, expect, it } from 'vitest';
import { SqliteMeter, statementKind } from './sqlite-meter.js';

describe('statementKind', () => {
  it.each([
    ['INSERT INTO runs (log_id) VALUES (?) ON CONFLICT (log_id) DO NOTHING', 'insert if absent', 'runs'],
    ['INSERT OR IGNORE INTO t (k) VALUES (?)', 'insert if absent', 't'],
    [
      'INSERT INTO leases (shard) VALUES (?)\n  ON CONFLICT (shard) DO UPDATE SET owner = excluded.owner',
      'upsert',
      'leases',
    ],
    ['INSERT OR REPLACE INTO run_watch_cursor VALUES (0, ?)', 'upsert', 'run_watch_cursor'],
    ['INSERT INTO ring_messages (lane) VALUES (?)', 'insert', 'ring_messages'],
    ['UPDATE jobs SET body = ? WHERE id = ? AND version = ?', 'update', 'jobs'],
    ['DELETE FROM ring_messages WHERE id = ?', 'delete', 'ring_messages'],
    ['SELECT MIN(visible_at) AS next FROM ring_messages WHERE lane = ?', 'select', 'ring_messages'],
    ['PRAGMA integrity_check', 'pragma', '-'],
  ])('%s is %s on %s', (sql, operation, table) => {
    expect(statementKind(sql)).toEqual({ operation, table });
  });
});

describe('SqliteMeter', () => {
  it("counts a connection's statements by kind and table and its write transactions, until reset", () => {
    const database = new EmbeddedDatabase({ path: ':memory:' });
    database.db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)');
    const meter = new SqliteMeter({ keepDurations: true });
    database.db.observe(meter.observer);
    const insert = database.db.prepare('INSERT INTO t (k, v) VALUES (?, 0) ON CONFLICT (k) DO NOTHING');
    database.transaction(() => {
      insert.run('a');
      insert.run('b');
    });
    insert.run('a');
    database.db.prepare('UPDATE t SET v = v + 1 WHERE k = ?').run('a');
    database.db.prepare('SELECT v FROM t WHERE k = ?').get('a');

    const usage = meter.snapshot();
    expect(usage.statements).toBe(5);
    expect(usage.transactions).toBe(1);
    expect(usage.rows.map((r) => [r.operation, r.table, r.statements])).toEqual([
      ['insert if absent', 't', 3],
      ['update', 't', 1],
      ['select', 't', 1],
    ]);
    // BEGIN and COMMIT are timed too.
    expect(meter.latency().n).toBe(7);

    meter.reset();
    expect(meter.snapshot()).toEqual({ statements: 0, transactions: 0, ms: 0, rows: [] });
    expect(meter.latency().n).toBe(0);
    database.close();
  });
});
