import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { RingEntry } from '@tickring/core/dispatch';
import { EmbeddedDatabase, SqliteRingQueue } from '@tickring/embedded/sqlite';

/**
 * What SQLite manages alone on this machine, on a database file of its own opened as the stack opens
 * its file (EmbeddedDatabase: WAL, synchronous NORMAL, checkpoints in a worker thread, in the temp
 * directory where the bench's stack keeps its file), one statement after another as the stack's one
 * connection runs them.
 */
export interface SqliteLimits {
  /** `INSERT … ON CONFLICT DO NOTHING` of fresh keys, each its own commit (as a claim), per second. */
  readonly conditionalInsertsPerSecond: number;
  /** `UPDATE … WHERE key = ? AND version = ?` of existing rows, each its own commit (as a job's advance), per second. */
  readonly updatesPerSecond: number;
  /** Index range reads of 10 rows (`WHERE at >= ? ORDER BY at LIMIT 10`), per second. */
  readonly rangeReadsPerSecond: number;
  /** The durable ring (SqliteRingQueue): one-fire messages sent (a transaction each), per second of sending. */
  readonly ringSendsPerSecond: number;
  /** …received in tens (one UPDATE … RETURNING each), messages per second of receiving. */
  readonly ringReceivesPerSecond: number;
  /** …deleted by receipt (one DELETE each, as the poller does), per second of deleting. */
  readonly ringDeletesPerSecond: number;
  /** Messages a second through the whole cycle: sent, received and deleted. */
  readonly ringMessagesPerSecond: number;
}

const RANGE_ROWS = 10;
const RING_BATCH = 10;
/** The synchronous loops give the event loop a turn this often (signals, the watchdog). */
const SLICE_MS = 50;

const SCHEMA = `
CREATE TABLE limits_kv (k TEXT PRIMARY KEY, version INTEGER NOT NULL, at INTEGER NOT NULL, body TEXT NOT NULL);
CREATE INDEX limits_kv_by_at ON limits_kv (at);
`;

/** Measures each rate for `seconds` (after a quarter as long unmeasured), on a throwaway file. */
export async function measureSqliteLimits(options: { readonly seconds: number }): Promise<SqliteLimits> {
  const dir = mkdtempSync(join(tmpdir(), 'tickring-bench-limits-'));
  const database = new EmbeddedDatabase({ path: join(dir, 'limits.db'), backgroundCheckpoints: true });
  try {
    database.db.exec(SCHEMA);
    const ms = options.seconds * 1000;
    const body = 'x'.repeat(200);
    let inserted = 0;
    const insert = database.db.prepare(
      'INSERT INTO limits_kv (k, version, at, body) VALUES (?, 1, ?, ?) ON CONFLICT (k) DO NOTHING',
    );
    const insertOne = () => {
      insert.run(`k${inserted}`, inserted, body);
      inserted++;
    };
    await rate(insertOne, ms / 4);
    const conditionalInsertsPerSecond = await rate(insertOne, ms);

    const versions = new Map<number, number>();
    const update = database.db.prepare(
      'UPDATE limits_kv SET version = ?, body = ? WHERE k = ? AND version = ?',
    );
    let next = 0;
    const updateOne = () => {
      const key = next++ % inserted;
      const version = versions.get(key) ?? 1;
      if (update.run(version + 1, body, `k${key}`, version).changes !== 1) throw new Error('lost update');
      versions.set(key, version + 1);
    };
    await rate(updateOne, ms / 4);
    const updatesPerSecond = await rate(updateOne, ms);

    const range = database.db.prepare(
      'SELECT k, version, body FROM limits_kv WHERE at >= ? ORDER BY at LIMIT ?',
    );
    let from = 0;
    const readOne = () => {
      from += 7;
      const rows = range.all(from % Math.max(1, inserted - RANGE_ROWS), RANGE_ROWS);
      if (rows.length !== RANGE_ROWS) throw new Error(`a range read returned ${rows.length} rows`);
    };
    await rate(readOne, ms / 4);
    const rangeReadsPerSecond = await rate(readOne, ms);

    return {
      conditionalInsertsPerSecond,
      updatesPerSecond,
      rangeReadsPerSecond,
      ...(await ringRates(database, ms)),
    };
  } finally {
    database.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Calls of `work` per second, for about `ms`. */
async function rate(work: () => void, ms: number): Promise<number> {
  let done = 0;
  const started = performance.now();
  const until = started + ms;
  while (performance.now() < until) {
    const slice = Math.min(until, performance.now() + SLICE_MS);
    while (performance.now() < slice) {
      work();
      done++;
    }
    await yieldToLoop();
  }
  return done / ((performance.now() - started) / 1000);
}

/** Cycles of: 10 one-fire sends, one receive of up to 10, a delete per receipt; each phase timed apart. */
async function ringRates(
  database: EmbeddedDatabase,
  ms: number,
): Promise<
  Pick<
    SqliteLimits,
    'ringSendsPerSecond' | 'ringReceivesPerSecond' | 'ringDeletesPerSecond' | 'ringMessagesPerSecond'
  >
> {
  const ring = new SqliteRingQueue({ database });
  let jobId = 0;
  const entry = (): RingEntry => {
    jobId++;
    return {
      lane: 'fast',
      delaySeconds: 0,
      message: {
        jobId,
        scheduledTime: Date.now(),
        triggerType: 'CRON',
        dedupKey: `${jobId}#0`,
        logId: jobId,
      },
    };
  };
  const spent = { send: 0, receive: 0, delete: 0 };
  let messages = 0;
  const cycle = async () => {
    let t = performance.now();
    for (let i = 0; i < RING_BATCH; i++) await ring.enqueue([entry()]);
    spent.send += performance.now() - t;
    t = performance.now();
    const received = await ring.receive('fast', { max: RING_BATCH, visibilitySeconds: 90 });
    spent.receive += performance.now() - t;
    t = performance.now();
    for (const delivery of received) await ring.delete(delivery.receipt);
    spent.delete += performance.now() - t;
    messages += received.length;
  };
  const runFor = async (forMs: number) => {
    const until = performance.now() + forMs;
    while (performance.now() < until) {
      await cycle();
      await yieldToLoop();
    }
  };
  await runFor(ms / 4);
  spent.send = spent.receive = spent.delete = 0;
  messages = 0;
  const started = performance.now();
  await runFor(ms);
  const perSecond = (ms: number) => (ms > 0 ? messages / (ms / 1000) : Number.NaN);
  return {
    ringSendsPerSecond: perSecond(spent.send),
    ringReceivesPerSecond: perSecond(spent.receive),
    ringDeletesPerSecond: perSecond(spent.delete),
    ringMessagesPerSecond: perSecond(performance.now() - started),
  };
}
