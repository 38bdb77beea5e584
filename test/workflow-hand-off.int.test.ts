import type { RingLane } from '@tickring/core/dispatch';
import { SqliteRingQueue } from '@tickring/embedded/sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedEmbeddedDatabase } from '../functions/wiring/stores-sqlite.js';
import { type E2eStack, startE2eStack } from './e2e-stack.js';
import { waitFor } from './stand-ins.js';

/**
 * A workflow's nodes go from the engine to the hosted dispatcher directly (local/dispatcher-hand-off.ts),
 * not through the ring: on the embedded engine every send to the ring, by any function of the stack,
 * is heard (SqliteRingQueue.onSent on the shared database), and a chain of three nodes makes none.
 */
describe('end to end: workflow nodes handed to the dispatcher', () => {
  let e: E2eStack;
  const sends: RingLane[] = [];
  let unsubscribe: (() => void) | undefined;

  beforeAll(async () => {
    e = await startE2eStack('wfh');
    if (e.stack.store !== 'sqlite') throw new Error('this test reads the embedded ring');
    const ring = new SqliteRingQueue({ database: sharedEmbeddedDatabase(e.stack.databaseFile) });
    unsubscribe = ring.onSent((lane) => sends.push(lane));
  });

  afterAll(async () => {
    unsubscribe?.();
    await e?.stop();
  });

  it('runs a chain of three nodes, each after the one before with its result, with no ring message', async () => {
    const order: string[] = [];
    const appName = await e.createAutoGroup('handoff');
    const executor = await e.startExecutor(appName, {
      first: () => {
        order.push('first');
        return { n: 1 };
      },
      second: (ctx) => {
        order.push(`second(${ctx.param})`);
        return { n: 2 };
      },
      third: (ctx) => {
        order.push(`third(${ctx.param})`);
      },
    });
    await e.waitForExecutor(appName, executor.address);
    const jobs: Record<string, number> = {};
    for (const handler of ['first', 'second', 'third']) {
      const job = await e.createJob({ appName, executorHandler: handler, executorFailRetryCount: 0 });
      jobs[handler] = job.id as number;
    }
    const created = await e.call('POST', '/v1/workflows', {
      name: 'chain of three',
      appName,
      nodes: [
        { key: 'a', jobId: jobs.first },
        { key: 'b', jobId: jobs.second, executorParam: '{{ nodes.a.result.n }}', upstream: [{ key: 'a' }] },
        { key: 'c', jobId: jobs.third, executorParam: '{{ nodes.b.result.n }}', upstream: [{ key: 'b' }] },
      ],
    });
    expect(created.status).toBe(201);
    const sendsBefore = sends.length;

    const started = await e.call('POST', `/v1/workflows/${created.body.id}/trigger`, {});
    expect(started.status).toBe(202);
    const run = await waitFor(
      async () => {
        const reply = await e.call('GET', `/v1/workflow-runs/${started.body.id}`);
        return ['SUCCEEDED', 'FAILED', 'CANCELLED'].includes(reply.body.status) ? reply.body : undefined;
      },
      { what: 'the workflow run ended', timeoutMs: 30_000, intervalMs: 100 },
    );

    expect(run.status).toBe('SUCCEEDED');
    expect(order).toEqual(['first', 'second(1)', 'third(2)']);
    expect(sends.slice(sendsBefore)).toEqual([]);

    // The ring is heard: a manual trigger of a plain job goes on it.
    await e.trigger(jobs.first as number);
    await waitFor(() => sends.length > sendsBefore, { what: 'a ring send heard', timeoutMs: 5_000 });
    expect(sends.slice(sendsBefore)).toEqual(['fast']);
  });
});
