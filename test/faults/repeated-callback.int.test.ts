import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyLocalStack } from '../../local/start-local.js';
import {
  type HandleCallbackParam,
  type ProtocolExecutor,
  startProtocolExecutor,
} from '../protocol-executor.js';
import { waitFor } from '../stand-ins.js';
import {
  type Api,
  createAutoGroup,
  quietPeriod,
  type RunView,
  runsOf,
  startSharedStack,
} from './fault-kit.js';

/**
 * (d) The same callback 50 times at once, with different codes: the first result stored stands,
 * every repeat is answered 200 (XXL-JOB: "log repeate callback") and changes nothing, and the run's
 * outcome happens once: one RETRY when the standing result is a failure, none for a success; the
 * daily counters count the run once. Four runs, 200 callbacks in flight together.
 */

const RUNS = 4;
const CALLBACKS_PER_RUN = 50;
const CODES = [500, 200, 502] as const;

describe('fault (d): 50 concurrent callbacks for one run', () => {
  let stack: AnyLocalStack;
  let api: Api;
  let executor: ProtocolExecutor | undefined;

  beforeAll(async () => {
    ({ stack, api } = await startSharedStack());
  });

  afterAll(async () => {
    await executor?.stop();
    await stack?.stop();
  });

  it('keeps the first result, answers every repeat 200 and acts on the result once', async () => {
    const appName = 'fault-callbacks';
    await createAutoGroup(api, appName);
    // The runs are left running (no result of the executor's own); the test reports for them.
    executor = await startProtocolExecutor({
      appName,
      adminAddress: stack.urls.api,
      accessToken: stack.tokens.accessToken,
      plan: () => ({ callback: false }),
    });
    await waitFor(() => executor!.registrations() > 0, { what: 'the executor registered' });
    const created = await api('POST', '/v1/jobs', {
      appName,
      name: 'repeated callbacks',
      author: 'faults',
      executorHandler: 'faultProbe',
      executorFailRetryCount: 1,
      retryBackoffSeconds: 1,
    });
    expect(created.status).toBe(201);
    const jobId = created.body.id as number;
    for (let i = 0; i < RUNS; i++) expect((await api('POST', `/v1/jobs/${jobId}/trigger`)).status).toBe(202);
    await waitFor(() => executor!.receipts.length === RUNS, { what: `${RUNS} runs at the executor` });
    const originals = executor.receipts.map((r) => r.logId);
    await waitFor(
      async () => (await runsOf(api, jobId)).filter((r) => r.status === 'running').length === RUNS,
      { what: 'the runs shown as running' },
    );
    // Retries succeed at once.
    executor.setPlan(() => ({ handleCode: 200, handleMsg: 'retry ok' }));

    const callback = (logId: number, i: number): HandleCallbackParam => {
      const code = CODES[i % CODES.length] as number;
      const receipt = executor!.receipts.find((r) => r.logId === logId);
      return {
        logId,
        logDateTim: receipt?.logDateTime ?? 0,
        handleCode: code,
        handleMsg: `callback ${i} code ${code}`,
      };
    };
    const sent = originals.flatMap((logId) =>
      Array.from({ length: CALLBACKS_PER_RUN }, (_, i) => callback(logId, i)),
    );
    const replies = await Promise.all(
      sent.map(async (item) => {
        const res = await fetch(`${stack.urls.api}/api/callback`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json;charset=UTF-8',
            'XXL-JOB-ACCESS-TOKEN': stack.tokens.accessToken,
          },
          body: JSON.stringify([item]),
        });
        return { status: res.status, body: (await res.json()) as { code: number; msg?: string } };
      }),
    );
    const answered = new Map<string, number>();
    for (const r of replies) {
      const key = `HTTP ${r.status} code ${r.body.code}`;
      answered.set(key, (answered.get(key) ?? 0) + 1);
    }
    expect([...answered]).toEqual([['HTTP 200 code 200', RUNS * CALLBACKS_PER_RUN]]);

    // Each run holds exactly one of the results sent for it, code and message together.
    const stood = await Promise.all(
      originals.map(async (logId) => {
        const reply = await api('GET', `/v1/logs/${logId}`);
        const run = reply.body as RunView;
        const match = sent.find(
          (c) => c.logId === logId && c.handleCode === run.handleCode && c.handleMsg === run.handleMsg,
        );
        expect(
          match,
          `run ${logId}: ${run.handleCode} "${run.handleMsg}" is one of the results sent`,
        ).toBeDefined();
        return run;
      }),
    );
    const failedFirst = stood.filter((r) => r.handleCode !== 200);

    // One RETRY per failed run (attempt 2, finished by the executor), none for a success.
    const expectedRuns = RUNS + failedFirst.length;
    const all = await waitFor(
      async () => {
        const runs = await runsOf(api, jobId);
        return runs.length >= expectedRuns && runs.every((r) => r.status !== 'running') ? runs : undefined;
      },
      { what: `${expectedRuns} finished runs`, timeoutMs: 30_000, intervalMs: 300 },
    );
    await quietPeriod(Date.now(), 3_000, 'anything more');
    const after = await runsOf(api, jobId);
    expect(after.length).toBe(expectedRuns);
    const retries = after.filter((r) => r.triggerType === 'RETRY');
    expect(retries.map((r) => r.dedupKey).sort()).toEqual(failedFirst.map((r) => `retry#${r.logId}`).sort());
    for (const retry of retries) {
      expect(retry).toMatchObject({ attempt: 2, retriesLeft: 0, status: 'success', handleMsg: 'retry ok' });
    }
    // Nothing else changed: the standing results are as first read, and no run reached the executor twice.
    for (const run of stood) {
      const now = after.find((r) => r.logId === run.logId);
      expect(now, `run ${run.logId}`).toMatchObject({
        handleCode: run.handleCode,
        handleMsg: run.handleMsg,
        handleTime: run.handleTime,
        retriesLeft: 1,
      });
    }
    expect(all.length).toBe(expectedRuns);
    expect(new Set(executor.receipts.map((r) => r.logId)).size).toBe(executor.receipts.length);
    expect(executor.receipts.length).toBe(expectedRuns);
    // The daily counters count each run once.
    const dashboard = await api('GET', '/v1/dashboard?days=1');
    const successes = stood.length - failedFirst.length + retries.length;
    expect(dashboard.body.totals).toMatchObject({
      runs: expectedRuns,
      running: 0,
      success: successes,
      fail: failedFirst.length,
    });

    const winners = stood.map((r) => r.handleCode).join('/');
    console.log(
      `[faults d] ${RUNS} runs × ${CALLBACKS_PER_RUN} concurrent callbacks (codes ${CODES.join('/')}): all ${
        replies.length
      } answered HTTP 200 code 200; results standing ${winners}; RETRY runs ${retries.length} (one per failure); ` +
        `dashboard runs ${dashboard.body.totals.runs}, success ${dashboard.body.totals.success}, fail ${dashboard.body.totals.fail}, ` +
        `running ${dashboard.body.totals.running}`,
    );
  });
});
