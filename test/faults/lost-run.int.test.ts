import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyLocalStack } from '../../local/start-local.js';
import { type ProtocolExecutor, startProtocolExecutor } from '../protocol-executor.js';
import { waitFor } from '../stand-ins.js';
import { type Api, createAutoGroup, iso, type RunView, runsOf, startSharedStack } from './fault-kit.js';

/**
 * (c) An executor killed while it runs a run: the lost-run watch finishes the run as failed
 * ("result lost") and the failure goes down the retry path (a RETRY run, here taken by a second
 * executor of the group). The watch reads a dispatch record once it has settled
 * (TICKRING_LOST_RUN_SETTLE_SECONDS) and marks an unfinished run lost when its executor is offline
 * (AUTO group: not registered within TICKRING_REGISTRY_DEAD_SECONDS); before the run's deadline
 * (timeout + 60 s grace) only an executor gone for sure counts. With a 5 s settle, a 3 s dead
 * timeout and the monitors every 2 s, the run is lost within a sweep of both: by
 * max(dispatch + 5 s, last heartbeat + 3 s) + 2 s (+ 3 s slack), and never before the executor's
 * last heartbeat + 3 s.
 */

const SETTLE_SECONDS = 5;
const MONITOR_PERIOD_MS = 2_000;
const REGISTRY_DEAD_SECONDS = 3;
const EXECUTOR_TIMEOUT_S = 2;
const SLACK_MS = 3_000;

describe('fault (c): an executor killed mid-run', () => {
  let stack: AnyLocalStack;
  let api: Api;
  const executors: ProtocolExecutor[] = [];

  beforeAll(async () => {
    ({ stack, api } = await startSharedStack({
      monitorPeriodMs: MONITOR_PERIOD_MS,
      settings: {
        TICKRING_REGISTRY_DEAD_SECONDS: String(REGISTRY_DEAD_SECONDS),
        TICKRING_LOST_RUN_SETTLE_SECONDS: String(SETTLE_SECONDS),
      },
    }));
  });

  afterAll(async () => {
    await Promise.all(executors.map((e) => e.stop()));
    await stack?.stop();
  });

  it('marks the run failed "result lost" within the bound and retries it on another executor', async () => {
    const appName = 'fault-lost-run';
    await createAutoGroup(api, appName);
    const start = (plan?: Parameters<typeof startProtocolExecutor>[0]['plan']) =>
      startProtocolExecutor({
        appName,
        adminAddress: stack.urls.api,
        accessToken: stack.tokens.accessToken,
        registryIntervalMs: 500,
        ...(plan ? { plan } : {}),
      }).then((e) => {
        executors.push(e);
        return e;
      });
    // The first executor takes the run and never finishes it (it dies first).
    const doomed = await start(() => ({ callback: false }));
    await waitFor(() => doomed.registrations() > 0, { what: 'the first executor registered' });
    const created = await api('POST', '/v1/jobs', {
      appName,
      name: 'killed mid-run',
      author: 'faults',
      executorHandler: 'faultProbe',
      executorTimeout: EXECUTOR_TIMEOUT_S,
      executorFailRetryCount: 1,
      retryBackoffSeconds: 1,
    });
    expect(created.status).toBe(201);
    const jobId = created.body.id as number;

    expect((await api('POST', `/v1/jobs/${jobId}/trigger`)).status).toBe(202);
    const receipt = await waitFor(() => doomed.receipts[0], { what: 'the run at the first executor' });
    await doomed.die();
    const diedAt = Date.now();
    // A second executor of the group, for the retry (the dead one's address is not routed to).
    const survivor = await start();
    await waitFor(() => survivor.registrations() > 0, { what: 'the second executor registered' });

    const lastBeat = doomed.lastBeatSentAt() ?? receipt.receivedAt;
    const offlineFrom = lastBeat + REGISTRY_DEAD_SECONDS * 1000;
    const bound =
      Math.max(receipt.receivedAt + SETTLE_SECONDS * 1000, offlineFrom) + MONITOR_PERIOD_MS + SLACK_MS;
    const lost = await waitFor(
      async () => {
        const reply = await api('GET', `/v1/logs/${receipt.logId}`);
        return reply.body.handleCode !== 0 ? (reply.body as RunView) : undefined;
      },
      {
        what:
          `run ${receipt.logId} marked lost by ${iso(bound)} (TICKRING_LOST_RUN_SETTLE_SECONDS=${SETTLE_SECONDS}, ` +
          `executor offline from ${iso(offlineFrom)}); is the settle setting honoured?`,
        timeoutMs: Math.max(0, bound - Date.now()),
        intervalMs: 250,
      },
    );
    const lostAt = Date.parse(lost.handleTime ?? '');
    expect(lost).toMatchObject({
      status: 'fail',
      handleCode: 500,
      triggerCode: 200,
      attempt: 1,
      retriesLeft: 1,
    });
    expect(lost.handleMsg).toContain('result lost');
    expect(lostAt, 'not before the registry let the executor go').toBeGreaterThanOrEqual(offlineFrom);

    // Down the retry path: one RETRY, a second after the failure, run by the surviving executor.
    const retry = await waitFor(
      async () => {
        const runs = await runsOf(api, jobId);
        const found = runs.find((r) => r.dedupKey === `retry#${receipt.logId}`);
        return found && found.status !== 'running' ? found : undefined;
      },
      { what: 'the RETRY run finished', timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(retry).toMatchObject({
      triggerType: 'RETRY',
      attempt: 2,
      retriesLeft: 0,
      status: 'success',
      executorAddress: survivor.address,
    });
    expect(Date.parse(retry.scheduledTime)).toBeGreaterThanOrEqual(lostAt + 1_000);
    const runs = await runsOf(api, jobId);
    expect(runs.map((r) => r.logId).sort()).toEqual([receipt.logId, retry.logId].sort());
    expect(doomed.receipts.map((r) => r.logId)).toEqual([receipt.logId]);
    expect(survivor.receipts.map((r) => r.logId)).toEqual([retry.logId]);

    console.log(
      `[faults c] run ${receipt.logId} received ${iso(receipt.receivedAt)}, executor killed ${diedAt - receipt.receivedAt} ms ` +
        `later; marked failed at ${iso(lostAt)}, ${lostAt - receipt.receivedAt} ms after the dispatch and ` +
        `${lostAt - offlineFrom} ms after the executor went offline (bound ${bound - receipt.receivedAt} ms; settle ` +
        `${SETTLE_SECONDS} s, monitors every ${MONITOR_PERIOD_MS / 1000} s, registry dead ${REGISTRY_DEAD_SECONDS} s, ` +
        `timeout ${EXECUTOR_TIMEOUT_S} s): "${lost.handleMsg}"; RETRY ${retry.logId} scheduled ` +
        `${Date.parse(retry.scheduledTime) - lostAt} ms later, ${retry.status} on the second executor`,
    );
  }, 60_000);
});
