import { randomInt } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedDatabase } from '@tickring/embedded/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../local/start-local.js';
import { type ProtocolExecutor, type RunReceipt, startProtocolExecutor } from '../protocol-executor.js';
import { waitFor } from '../stand-ins.js';
import {
  type Api,
  adminClient,
  createAutoGroup,
  freePort,
  killAllStacks,
  type RunView,
  randomToken,
  type StackProcess,
  spawnStack,
  waitForExecutorOnline,
} from './fault-kit.js';

/**
 * The torn write (issue 23, item 6): kill -9 of the stack on the embedded engine (SQLite, WAL,
 * synchronous = NORMAL) in the middle of a burst of concurrent writes through its HTTP interfaces, then a
 * restart on the same data dir; twice on one data dir, once early in a burst and once late (two kills
 * keep the file near 40 s: most of it is the stack starting, three times).
 *
 * Each round triggers runs that the executor takes and leaves running, then sends, {@link CONCURRENCY}
 * at a time, one XXL-JOB callback per run (`POST /api/callback`, each with a result of its own) and job
 * creates (`POST /v1/jobs`), interleaved. The kill lands when a random number of them has been answered
 * with success, so requests are in flight at the kill. A write is acknowledged when its answer said so:
 * a callback HTTP 200 with code 200, a create 201 (an answer read after the kill counts: it was sent
 * after the commit). Then, on a copy of the file as the kill left it (database and WAL), `integrity_check`
 * says ok; and after the restart, every acknowledged callback's result is the run's (GET /v1/logs/{logId})
 * and every acknowledged job exists (GET /v1/jobs/{id}), those of the earlier rounds too.
 */

/** Per round, where the kill falls: after this share (a random one in the range) of the writes is acknowledged. */
const KILL_WINDOWS: readonly (readonly [number, number])[] = [
  [0.15, 0.4],
  [0.5, 0.8],
];
const APP_NAME = 'fault-torn-write';
const RUNS_PER_ROUND = 60;
const CREATES_PER_ROUND = 40;
const CONCURRENCY = 16;

type Write =
  | {
      readonly kind: 'callback';
      readonly logId: number;
      readonly logDateTime: number;
      readonly handleCode: number;
      readonly handleMsg: string;
    }
  | { readonly kind: 'create'; readonly name: string };

interface Acknowledged {
  readonly write: Write;
  /** The job's id (creates). */
  readonly jobId?: number;
  /** ms after the burst began. */
  readonly at: number;
}

interface Burst {
  readonly acknowledged: readonly Acknowledged[];
  readonly killedAfter: number;
  readonly inFlightAtKill: number;
  /** ms after the burst began. */
  readonly killAt: number;
  /** Writes whose request failed (cut by the kill) or were answered without success. */
  readonly unacknowledged: readonly Write[];
  /** Of those, the ones that failed before the kill (none expected: the stack was up). */
  readonly failedBeforeKill: number;
  readonly notSent: number;
}

/**
 * Sends `writes` {@link CONCURRENCY} at a time; once `killAfter` of them are acknowledged, `kill` runs
 * (at once, with the rest in flight) and nothing more is sent.
 */
async function burst(
  stack: StackProcess,
  accessToken: string,
  api: Api,
  writes: readonly Write[],
  killAfter: number,
  kill: () => void,
): Promise<Burst> {
  const began = Date.now();
  const acknowledged: Acknowledged[] = [];
  const unacknowledged: Write[] = [];
  let failedBeforeKill = 0;
  let next = 0;
  let inFlight = 0;
  let killed: { at: number; inFlight: number } | undefined;

  const send = async (write: Write): Promise<Acknowledged | undefined> => {
    if (write.kind === 'create') {
      const reply = await api('POST', '/v1/jobs', {
        appName: APP_NAME,
        name: write.name,
        author: 'faults',
        executorHandler: 'tornWrite',
      });
      return reply.status === 201
        ? { write, jobId: reply.body.id as number, at: Date.now() - began }
        : undefined;
    }
    const res = await fetch(`${stack.api}/api/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json;charset=UTF-8', 'XXL-JOB-ACCESS-TOKEN': accessToken },
      body: JSON.stringify([
        {
          logId: write.logId,
          logDateTim: write.logDateTime,
          handleCode: write.handleCode,
          handleMsg: write.handleMsg,
        },
      ]),
      signal: AbortSignal.timeout(20_000),
    });
    const body = (await res.json()) as { code: number };
    return res.status === 200 && body.code === 200 ? { write, at: Date.now() - began } : undefined;
  };

  const worker = async () => {
    while (killed === undefined && next < writes.length) {
      const write = writes[next++] as Write;
      inFlight++;
      const ack = await send(write).catch(() => undefined);
      inFlight--;
      if (!ack) {
        unacknowledged.push(write);
        if (killed === undefined) failedBeforeKill++;
        continue;
      }
      acknowledged.push(ack);
      if (acknowledged.length === killAfter) {
        killed = { at: Date.now() - began, inFlight };
        kill();
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  if (!killed) throw new Error(`the burst ended with ${acknowledged.length} acknowledged, before the kill`);
  return {
    acknowledged,
    killedAfter: killAfter,
    inFlightAtKill: killed.inFlight,
    killAt: killed.at,
    unacknowledged,
    failedBeforeKill,
    notSent: writes.length - next,
  };
}

/** `integrity_check` of a copy of the database and its WAL as the kill left them (the copy recovers, not the file). */
function integrityOfCopy(databaseFile: string, scratchDir: string, label: string): string {
  const copy = join(scratchDir, `${label}.db`);
  copyFileSync(databaseFile, copy);
  if (existsSync(`${databaseFile}-wal`)) copyFileSync(`${databaseFile}-wal`, `${copy}-wal`);
  const database = new EmbeddedDatabase({ path: copy });
  try {
    return database.integrityCheck();
  } finally {
    database.close();
  }
}

/** Every acknowledged write as the API shows it now: the ones whose stored state differs from what was acknowledged. */
async function lostWrites(api: Api, acknowledged: readonly Acknowledged[]): Promise<string[]> {
  const lost: string[] = [];
  for (let i = 0; i < acknowledged.length; i += CONCURRENCY) {
    await Promise.all(
      acknowledged.slice(i, i + CONCURRENCY).map(async ({ write, jobId }) => {
        if (write.kind === 'create') {
          const reply = await api('GET', `/v1/jobs/${jobId}`);
          if (reply.status !== 200 || reply.body.name !== write.name) {
            lost.push(`job ${jobId} "${write.name}": ${reply.status} ${JSON.stringify(reply.body)}`);
          }
          return;
        }
        const reply = await api('GET', `/v1/logs/${write.logId}`);
        const run = reply.body as RunView;
        if (
          reply.status !== 200 ||
          run.handleCode !== write.handleCode ||
          run.handleMsg !== write.handleMsg
        ) {
          lost.push(
            `run ${write.logId}: ${reply.status} ${run?.status} ${run?.handleCode} "${run?.handleMsg}"`,
          );
        }
      }),
    );
  }
  return lost;
}

describe('fault on sqlite: kill -9 of the stack in the middle of a burst of writes (the torn write)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tickring-fault-torn-'));
  const scratchDir = mkdtempSync(join(tmpdir(), 'tickring-fault-torn-copies-'));
  let executor: ProtocolExecutor | undefined;
  let stack: StackProcess | undefined;

  afterAll(async () => {
    await executor?.stop();
    await stack?.stop();
    await killAllStacks();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(scratchDir, { recursive: true, force: true });
  });

  it('opens intact after each kill and keeps every acknowledged callback result and job', async () => {
    const adminToken = randomToken();
    const accessToken = randomToken();
    // The same port after each restart: the executor keeps its admin address.
    const options = {
      store: 'sqlite',
      port: await freePort(),
      dataDir,
      demo: false,
      logLevel: 'warn',
      adminToken,
      accessToken,
    };
    stack = await spawnStack(options, { label: 'torn-1' });
    const databaseFile = stack.database ?? join(dataDir, DATABASE_FILE);
    const api = adminClient(stack.api, adminToken);
    await createAutoGroup(api, APP_NAME);
    // The runs stay running: the test sends their results.
    executor = await startProtocolExecutor({
      appName: APP_NAME,
      adminAddress: stack.api,
      accessToken,
      plan: () => ({ callback: false }),
    });
    await waitForExecutorOnline(api, APP_NAME);
    const created = await api('POST', '/v1/jobs', {
      appName: APP_NAME,
      name: 'torn write runs',
      author: 'faults',
      executorHandler: 'tornWrite',
    });
    expect(created.status).toBe(201);
    const jobId = created.body.id as number;

    const allAcknowledged: Acknowledged[] = [];
    const figures: string[] = [];
    for (const [index, [from, to]] of KILL_WINDOWS.entries()) {
      const round = index + 1;
      const receiptsBefore = executor.receipts.length;
      for (let i = 0; i < RUNS_PER_ROUND; i++) {
        expect((await api('POST', `/v1/jobs/${jobId}/trigger`)).status).toBe(202);
      }
      const ex = executor;
      await waitFor(() => ex.receipts.length >= receiptsBefore + RUNS_PER_ROUND, {
        what: `round ${round}: ${RUNS_PER_ROUND} runs at the executor`,
        timeoutMs: 30_000,
      });
      const runs: RunReceipt[] = executor.receipts.slice(receiptsBefore);
      const callbacks: Write[] = runs.map((r, i) => ({
        kind: 'callback',
        logId: r.logId,
        logDateTime: r.logDateTime,
        // Failures too: theirs is the longer write (the outcome-pending mark, the alarm path).
        handleCode: i % 3 === 0 ? 500 : 200,
        handleMsg: `torn write round ${round} result of ${r.logId}`,
      }));
      const creates: Write[] = Array.from({ length: CREATES_PER_ROUND }, (_, i) => ({
        kind: 'create',
        name: `torn write round ${round} job ${i}`,
      }));
      const writes = interleave(callbacks, creates);
      const killAfter = randomInt(Math.floor(writes.length * from), Math.floor(writes.length * to));
      const killed = stack;
      const outcome = await burst(killed, accessToken, api, writes, killAfter, () => void killed.killHard());
      await killed.killHard();
      await killed.reaped();
      expect(outcome.failedBeforeKill, `round ${round}: writes refused before the kill`).toBe(0);

      const integrity = integrityOfCopy(databaseFile, scratchDir, `round-${round}`);
      expect(integrity, `round ${round}: integrity_check of the file as the kill left it`).toBe('ok');

      stack = await spawnStack(options, { label: `torn-${round + 1}` });
      allAcknowledged.push(...outcome.acknowledged);
      expect(await lostWrites(api, allAcknowledged), `round ${round}: acknowledged writes lost`).toEqual([]);

      // Not asserted (either way is right): how many of the callbacks the kill cut had been stored.
      const cutCallbacks = outcome.unacknowledged
        .filter((write) => write.kind === 'callback')
        .map((write) => ({ write, at: outcome.killAt }));
      const storedAnyway = cutCallbacks.length - (await lostWrites(api, cutCallbacks)).length;
      const ackTimes = outcome.acknowledged.map((a) => a.at);
      figures.push(
        `round ${round}: ${writes.length} writes (${RUNS_PER_ROUND} callbacks, ${CREATES_PER_ROUND} creates), kill after ` +
          `${outcome.killedAfter} acks at ${outcome.killAt} ms with ${outcome.inFlightAtKill} in flight; acknowledged ` +
          `${outcome.acknowledged.length} (${outcome.acknowledged.length - outcome.killedAfter} answered after the kill), ` +
          `unacknowledged ${outcome.unacknowledged.length}, not sent ${outcome.notSent}; acks from ${Math.min(...ackTimes)} to ${Math.max(...ackTimes)} ms; ` +
          `integrity ${integrity}; lost 0; callbacks cut by the kill but stored ${storedAnyway} of ${cutCallbacks.length}`,
      );
    }

    await stack.stop();
    const final = new EmbeddedDatabase({ path: databaseFile });
    try {
      expect(final.integrityCheck(), 'integrity_check after the last clean stop').toBe('ok');
    } finally {
      final.close();
    }
    console.log(`[faults torn-write] ${figures.join('\n  ')}`);
  });
});

/** `a` and `b` merged, evenly spread. */
function interleave<T>(a: readonly T[], b: readonly T[]): T[] {
  const out: T[] = [];
  const total = a.length + b.length;
  let i = 0;
  let j = 0;
  for (let k = 0; k < total; k++) {
    if (j >= b.length || (i < a.length && i * b.length <= j * a.length)) out.push(a[i++] as T);
    else out.push(b[j++] as T);
  }
  return out;
}
