import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FireMessage, RingEntry } from '@tickring/core/dispatch';
import { FakeClock } from '@tickring/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteRingQueue } from './ring-queue.js';
import { tempDatabases } from './temp-databases.js';

const databases = tempDatabases('ring');
afterAll(() => databases.removeAll());
const T = Date.UTC(2030, 0, 1, 12, 0, 0);
const VISIBILITY_SECONDS = 30;

const fire = (jobId: number): FireMessage => ({
  jobId,
  scheduledTime: T,
  triggerType: 'CRON',
  dedupKey: `${jobId}#${T}`,
});
const entry = (jobId: number, lane: RingEntry['lane'] = 'fast', delaySeconds = 0): RingEntry => ({
  message: fire(jobId),
  lane,
  delaySeconds,
});
const jobIdsOf = (deliveries: readonly { fires: readonly FireMessage[] }[]) =>
  deliveries.flatMap((d) => d.fires.map((f) => f.jobId));

describe('SqliteRingQueue', () => {
  it('keeps its messages across a restart; one received but not deleted before it comes back after its visibility timeout', async () => {
    const clock = new FakeClock(T);
    const first = databases.open('restart.db');
    const before = new SqliteRingQueue({ database: first, clock });
    // One enqueue per fire: each its own message.
    await before.enqueue([entry(1)]);
    await before.enqueue([entry(2)]);
    await before.enqueue([entry(3, 'slow', 10)]);
    const [inFlight] = await before.receive('fast', { max: 1, visibilitySeconds: VISIBILITY_SECONDS });
    expect(jobIdsOf(inFlight ? [inFlight] : [])).toEqual([1]);

    // The "crash": the database closes with message 1 received and not deleted.
    first.close();
    const after = new SqliteRingQueue({ database: databases.open('restart.db'), clock });

    const fresh = await after.receive('fast', { visibilitySeconds: VISIBILITY_SECONDS });
    expect(jobIdsOf(fresh)).toEqual([2]); // 1 is still hidden
    expect(fresh.map((d) => d.receiveCount)).toEqual([1]);
    for (const d of fresh) expect(await after.delete(d.receipt)).toBe(true);
    expect(await after.nextVisibleAt('fast')).toBe(T + VISIBILITY_SECONDS * 1000);
    expect(await after.nextVisibleAt('slow')).toBe(T + 10_000);
    expect(await after.receive('slow', { visibilitySeconds: VISIBILITY_SECONDS })).toEqual([]);

    clock.advance(10_000);
    const delayed = await after.receive('slow', { visibilitySeconds: VISIBILITY_SECONDS });
    expect(jobIdsOf(delayed)).toEqual([3]);
    for (const d of delayed) await after.delete(d.receipt);

    clock.advance(VISIBILITY_SECONDS * 1000 - 10_001);
    expect(await after.receive('fast', { visibilitySeconds: VISIBILITY_SECONDS })).toEqual([]);
    clock.advance(1);
    const redelivered = await after.receive('fast', { visibilitySeconds: VISIBILITY_SECONDS });
    expect(jobIdsOf(redelivered)).toEqual([1]);
    expect(redelivered[0]).toMatchObject({ messageId: inFlight?.messageId, receiveCount: 2 });
    // The receipt of the receive before the crash is stale: it deletes nothing.
    expect(await after.delete(inFlight?.receipt ?? '')).toBe(false);
    expect(await after.delete(redelivered[0]?.receipt ?? '')).toBe(true);
    expect(await after.nextVisibleAt('fast')).toBeUndefined();
    expect(await after.nextVisibleAt('slow')).toBeUndefined();
  });
});

describe('SqliteRingQueue.returnHeldSooner', () => {
  it('brings what a dead consumer held back sooner, never before now, and leaves what was never received alone', async () => {
    const clock = new FakeClock(T);
    const ring = new SqliteRingQueue({ database: databases.fresh(), clock });
    await ring.enqueue([entry(1)]);
    await ring.enqueue([entry(2, 'slow')]);
    await ring.enqueue([entry(3, 'fast', 60)]); // delayed, never received
    await ring.enqueue([entry(4)]);
    await ring.receive('fast', { max: 1, visibilitySeconds: 90 }); // 1, hidden until T + 90 s
    clock.advance(10_000);
    await ring.receive('slow', { visibilitySeconds: 90 }); // 2, hidden until T + 100 s
    await ring.receive('fast', { max: 1, visibilitySeconds: 5 }); // 4, hidden until T + 15 s

    clock.advance(20_000); // T + 30 s: 4 is visible again, 1 and 2 still held
    expect(await ring.returnHeldSooner(65_000)).toBe(2);
    // 1: T + 90 s - 65 s = T + 25 s, already past: visible now; 2: T + 35 s.
    expect(jobIdsOf(await ring.receive('fast', { visibilitySeconds: 90 }))).toEqual([1, 4]);
    expect(await ring.receive('slow', { visibilitySeconds: 90 })).toEqual([]);
    clock.advance(5_000);
    const two = await ring.receive('slow', { visibilitySeconds: 90 });
    expect(jobIdsOf(two)).toEqual([2]);
    expect(two.map((d) => d.receiveCount)).toEqual([2]);
    expect(await ring.nextVisibleAt('fast')).toBe(T + 60_000); // 3 keeps its delay
    expect(await ring.returnHeldSooner(0)).toBe(0);
  });
});

/** Runs `script` (ES module text, TypeScript imports allowed) in a node process of its own. */
function runNode(script: string): Promise<{ stdout: string; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], (error, stdout) => {
      resolve({ stdout, signal: error?.signal ?? null });
    });
  });
}

describe('SqliteRingQueue after a kill -9', () => {
  it('loses no committed send or receive: the unreceived message is there, the received one comes back after its timeout', async () => {
    const file = databases.path('killed.db');
    const here = (module: string) => JSON.stringify(fileURLToPath(new URL(module, import.meta.url)));
    const { stdout, signal } = await runNode(`
      const { EmbeddedDatabase } = await import(${here('./database.ts')});
      const { SqliteRingQueue } = await import(${here('./ring-queue.ts')});
      const ring = new SqliteRingQueue({ database: new EmbeddedDatabase({ path: ${JSON.stringify(file)} }) });
      const entry = (jobId) => ({
        message: { jobId, scheduledTime: ${T}, triggerType: 'CRON', dedupKey: jobId + '#${T}' },
        lane: 'fast',
        delaySeconds: 0,
      });
      await ring.enqueue([entry(1)]);
      await ring.enqueue([entry(2)]);
      const received = await ring.receive('fast', { max: 1, visibilitySeconds: ${VISIBILITY_SECONDS} });
      process.stdout.write(JSON.stringify({ received, now: Date.now() }), () => process.kill(process.pid, 'SIGKILL'));
    `);
    expect(signal).toBe('SIGKILL');
    const { received, now } = JSON.parse(stdout) as { received: { fires: FireMessage[] }[]; now: number };
    expect(jobIdsOf(received)).toEqual([1]);

    const database = databases.open('killed.db');
    expect(database.integrityCheck()).toBe('ok');
    const clock = new FakeClock(now);
    const ring = new SqliteRingQueue({ database, clock });
    const unreceived = await ring.receive('fast', { visibilitySeconds: VISIBILITY_SECONDS });
    expect(jobIdsOf(unreceived)).toEqual([2]);
    for (const d of unreceived) expect(await ring.delete(d.receipt)).toBe(true);
    clock.advance(VISIBILITY_SECONDS * 1000 + 1_000);
    const redelivered = await ring.receive('fast', { visibilitySeconds: VISIBILITY_SECONDS });
    expect(jobIdsOf(redelivered)).toEqual([1]);
    expect(redelivered.map((d) => d.receiveCount)).toEqual([2]);
  });
});

describe('SqliteRingQueue on two database instances of one file (two consumers)', () => {
  it('hands each message to one of them only, while it is hidden', async () => {
    const clock = new FakeClock(T);
    const [a, b] = [databases.open('shared.db'), databases.open('shared.db')].map(
      (database) => new SqliteRingQueue({ database, clock }),
    ) as [SqliteRingQueue, SqliteRingQueue];
    for (let jobId = 1; jobId <= 30; jobId++) await (jobId % 2 === 0 ? a : b).enqueue([entry(jobId)]);
    const received: number[] = [];
    for (let turn = 0; received.length < 30 && turn < 100; turn++) {
      const consumer = turn % 2 === 0 ? a : b;
      received.push(...jobIdsOf(await consumer.receive('fast', { max: 4, visibilitySeconds: 60 })));
    }
    expect([...received].sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(await a.receive('fast', { visibilitySeconds: 60 })).toEqual([]);
    expect(await b.receive('fast', { visibilitySeconds: 60 })).toEqual([]);
  });
});
