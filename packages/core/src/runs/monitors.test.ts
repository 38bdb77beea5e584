import type { ReturnT } from '@tickring/protocol';
import { makeJob, makeRun, OutcomeFakes } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { METRIC, type MetricUnit } from '../common/metrics.js';
import type { RegistryEntry, RegistryStore } from '../executors/registry-store.js';
import type { Group } from '../jobs/job.js';
import { KILLED_BY_USER } from './admin-runs.js';
import { executorLiveness, markLostRuns, redrivePendingOutcomes, runMonitorSweeps } from './monitors.js';
import type { Run } from './run.js';
import { ALARM_STATUS, onRunFinished } from './run-outcome.js';
import { OUTCOME_GRACE_MS } from './run-store.js';

describe('executorLiveness', () => {
  it.each([
    ['http://10.0.0.1:9999/', true, 'AUTO', 'online'],
    ['http://10.0.0.1:9999/', true, 'MANUAL', 'online'],
    ['http://10.0.0.1:9999/', false, 'AUTO', 'offline'],
    ['lambda:runner', false, 'MANUAL', 'offline'],
    ['lambda:runner', false, undefined, 'offline'],
    ['http://10.0.0.1:9999/', false, 'MANUAL', 'probe'],
    ['https://exec.example.com/', false, undefined, 'probe'],
    ['', false, 'MANUAL', 'offline'],
    ['10.0.0.1:9999', false, 'MANUAL', 'offline'],
  ] as const)('%s seen=%s in a %s group is %s', (address, seenRecently, addressType, expected) => {
    expect(executorLiveness({ address, seenRecently, addressType })).toBe(expected);
  });
});

function monitorFixture(options: { groups: Group[]; registry: RegistryEntry[]; beatOk: Set<string> }) {
  const fakes = new OutcomeFakes();
  const beats: string[] = [];
  const registry: RegistryStore = {
    heartbeat: async () => {},
    remove: async () => {},
    list: async (appName, seenSince = 0) =>
      options.registry.filter((e) => e.appName === appName && e.updatedAt >= seenSince),
  };
  const deps = {
    ...fakes.deps(),
    registry,
    groups: { get: async (appName: string) => options.groups.find((g) => g.appName === appName) },
    executors: {
      beat: async ({ address }: { address: string }): Promise<ReturnT<unknown>> => {
        beats.push(address);
        return options.beatOk.has(address) ? { code: 200 } : { code: 500, msg: 'connect ECONNREFUSED' };
      },
    },
  };
  return { fakes, deps, beats };
}

const group = (appName: string, addressType: 'AUTO' | 'MANUAL'): Group => ({
  appName,
  title: appName,
  addressType,
  addressList: [],
  createdAt: 0,
  updatedAt: 0,
});

/** The default registry dead time; the store's settle time does not matter to the fakes. */
const SETTINGS_90 = { registryDeadSeconds: 90, batchSize: 10, settleMs: 60_000 };

describe('markLostRuns', () => {
  it('fails the overdue runs of gone executors and leaves those of live ones alone, probing each address once', async () => {
    const now = 1_700_000_100_000;
    const { fakes, deps, beats } = monitorFixture({
      groups: [group('auto-app', 'AUTO'), group('manual-app', 'MANUAL')],
      registry: [
        { appName: 'auto-app', address: 'http://live:1/', updatedAt: now - 10_000 },
        { appName: 'auto-app', address: 'http://stale:1/', updatedAt: now - 200_000 },
      ],
      beatOk: new Set(['http://manual-up:1/']),
    });
    fakes.jobs.set(1, makeJob({ id: 1, appName: 'auto-app' }));
    const runs = [
      makeRun({ logId: 1, appName: 'auto-app', executorAddress: 'http://live:1/' }),
      makeRun({ logId: 2, appName: 'auto-app', executorAddress: 'http://stale:1/' }),
      makeRun({ logId: 3, appName: 'manual-app', executorAddress: 'http://manual-up:1/' }),
      makeRun({ logId: 4, appName: 'manual-app', executorAddress: 'http://manual-up:1/' }),
      makeRun({ logId: 5, appName: 'manual-app', executorAddress: 'http://manual-down:1/' }),
      makeRun({ logId: 6, appName: 'manual-app', executorAddress: 'lambda:runner' }),
    ];
    for (const run of runs) fakes.runs.set(run.logId, run);

    const result = await markLostRuns(deps, { ...SETTINGS_90, batchSize: 100 });

    expect([...result.lost].sort()).toEqual([2, 5, 6]);
    expect([...result.alive].sort()).toEqual([1, 3, 4]);
    expect(result.errors).toEqual([]);
    expect(fakes.runs.get(2)).toMatchObject({ handleCode: 500, handleTime: now });
    expect(fakes.runs.get(2)?.handleMsg).toContain('result lost');
    expect(fakes.runs.get(1)?.handleCode).toBe(0);
    expect(beats.sort()).toEqual(['http://manual-down:1/', 'http://manual-up:1/']);
    // Lost runs go down the failure path: no retries left, so an alarm.
    expect(fakes.alarms.map((a) => a.run?.logId).sort()).toEqual([2, 5, 6]);
    expect(fakes.reports.filter((r) => r.delta.fail === 1)).toHaveLength(3);
  });

  it('before their deadline fails only the runs of executors that are gone for sure, never a Lambda one', async () => {
    const now = 1_700_000_100_000;
    const { fakes, deps } = monitorFixture({
      groups: [group('auto-app', 'AUTO'), group('manual-app', 'MANUAL')],
      registry: [
        { appName: 'auto-app', address: 'http://live:1/', updatedAt: now - 10_000 },
        { appName: 'auto-app', address: 'http://killed:1/', updatedAt: now - 200_000 },
      ],
      beatOk: new Set(['http://manual-up:1/']),
    });
    fakes.pastDeadline = false; // e.g. a job without a timeout: its deadline is 10 minutes out
    const runs = [
      makeRun({ logId: 1, appName: 'auto-app', executorAddress: 'http://live:1/' }),
      makeRun({ logId: 2, appName: 'auto-app', executorAddress: 'http://killed:1/' }),
      makeRun({ logId: 3, appName: 'manual-app', executorAddress: 'http://manual-up:1/' }),
      makeRun({ logId: 4, appName: 'manual-app', executorAddress: 'http://manual-down:1/' }),
      makeRun({ logId: 5, appName: 'manual-app', executorAddress: 'lambda:runner' }),
    ];
    for (const run of runs) fakes.runs.set(run.logId, run);

    const result = await markLostRuns(deps, SETTINGS_90);

    expect([...result.lost].sort()).toEqual([2, 4]);
    expect(result.overdue).toBe(0);
    expect(fakes.runs.get(2)?.handleMsg).toBe(
      'result lost: executor http://killed:1/ went offline while the run was running',
    );
    for (const alive of [1, 3, 5]) expect(fakes.runs.get(alive)?.handleCode).toBe(0);
  });

  it('leaves a run alone when its result came in while the monitor was deciding', async () => {
    const { fakes, deps } = monitorFixture({
      groups: [group('auto-app', 'AUTO')],
      registry: [],
      beatOk: new Set(),
    });
    fakes.runs.set(1, makeRun({ logId: 1, appName: 'auto-app' }));
    const overdue = await deps.runs.findUnfinished(0, { limit: 10, settleMs: 0 });
    fakes.runs.set(1, { ...makeRun({ logId: 1, appName: 'auto-app' }), handleCode: 200 });
    const result = await markLostRuns(
      { ...deps, runs: { ...deps.runs, findUnfinished: async () => overdue } },
      SETTINGS_90,
    );
    expect(result.lost).toEqual([]);
    expect(fakes.runs.get(1)?.handleCode).toBe(200);
    expect(fakes.reports).toEqual([]);
  });

  it('counts a run whose check failed as an error and goes on with the others', async () => {
    const { fakes, deps } = monitorFixture({
      groups: [group('auto-app', 'AUTO')],
      registry: [],
      beatOk: new Set(),
    });
    fakes.runs.set(1, makeRun({ logId: 1, appName: 'auto-app' }));
    fakes.runs.set(2, makeRun({ logId: 2, appName: 'auto-app' }));
    fakes.failingComplete.add(1);
    const result = await markLostRuns(deps, SETTINGS_90);
    expect(result.errors).toEqual([1]);
    expect(result.lost).toEqual([2]);
  });
});

describe('redrivePendingOutcomes', () => {
  const finishedAt = 1_700_000_000_000;

  /** A run finished at `finishedAt` whose outcome was never done (the process died after complete()). */
  async function leftPending(fakes: OutcomeFakes, run: Run, handleCode: number, handleMsg = '') {
    fakes.runs.set(run.logId, run);
    await fakes.deps().runs.complete(run.logId, { handleCode, handleMsg, handleTime: finishedAt });
  }
  const setClock = (fakes: OutcomeFakes, at: number) => fakes.clock.advance(at - fakes.clock.now());

  it('re-drives a failed run left pending: its retry is enqueued, no counter is added again', async () => {
    const fakes = new OutcomeFakes();
    setClock(fakes, finishedAt + OUTCOME_GRACE_MS + 1);
    fakes.jobs.set(1, makeJob({ id: 1, retryBackoffSeconds: 5 }));
    await leftPending(fakes, makeRun({ logId: 7, retriesLeft: 1 }), 500);

    const result = await redrivePendingOutcomes(fakes.deps(), { batchSize: 100 });

    expect(result).toEqual({ redriven: [7], errors: [] });
    expect(fakes.enqueued.map((e) => [e.message.triggerType, e.message.dedupKey])).toEqual([
      ['RETRY', 'retry#7'],
    ]);
    expect(fakes.reports).toEqual([]);
    expect(fakes.outcomePending.has(7)).toBe(false);
    expect(await redrivePendingOutcomes(fakes.deps(), { batchSize: 100 })).toEqual({
      redriven: [],
      errors: [],
    });
  });

  it('re-drives a successful run left pending: its children are enqueued', async () => {
    const fakes = new OutcomeFakes();
    setClock(fakes, finishedAt + OUTCOME_GRACE_MS + 1);
    fakes.jobs.set(1, makeJob({ id: 1, childJobIds: [2, 3] }));
    await leftPending(fakes, makeRun({ logId: 8 }), 200);

    await redrivePendingOutcomes(fakes.deps(), { batchSize: 100 });

    expect(fakes.enqueued.map((e) => [e.message.triggerType, e.message.dedupKey])).toEqual([
      ['PARENT', 'parent#8#2'],
      ['PARENT', 'parent#8#3'],
    ]);
    expect(fakes.reports).toEqual([]);
  });

  it('leaves a run finished within the grace period alone (its callback may still be at work)', async () => {
    const fakes = new OutcomeFakes();
    setClock(fakes, finishedAt + OUTCOME_GRACE_MS - 1);
    fakes.jobs.set(1, makeJob({ id: 1, retryBackoffSeconds: 5 }));
    await leftPending(fakes, makeRun({ logId: 9, retriesLeft: 1 }), 500);

    expect(await redrivePendingOutcomes(fakes.deps(), { batchSize: 100 })).toEqual({
      redriven: [],
      errors: [],
    });
    expect(fakes.enqueued).toEqual([]);
    expect(fakes.outcomePending.has(9)).toBe(true);
  });

  it('counts a run once when the sweep finishes what the callback started', async () => {
    const fakes = new OutcomeFakes();
    fakes.jobs.set(1, makeJob({ id: 1, childJobIds: [2] }));
    fakes.runs.set(10, makeRun({ logId: 10 }));
    const deps = fakes.deps();
    const outcome = await deps.runs.complete(10, { handleCode: 200, handleMsg: '', handleTime: finishedAt });
    if (outcome.kind !== 'completed') throw new Error('not completed');
    // The callback counted the run, then died before the children were enqueued.
    const failingRing = { enqueue: () => Promise.reject(new Error('process died')) };
    await expect(onRunFinished({ ...deps, ring: failingRing }, outcome.run, true)).rejects.toThrow();
    setClock(fakes, finishedAt + OUTCOME_GRACE_MS + 1);

    await redrivePendingOutcomes(fakes.deps(), { batchSize: 100 });

    expect(fakes.reports.map((r) => r.delta)).toEqual([{ running: -1, success: 1 }]);
    expect(fakes.enqueued.map((e) => e.message.dedupKey)).toEqual(['parent#10#2']);
  });

  it('re-drives a killed run as a kill: no retry and no alarm', async () => {
    const fakes = new OutcomeFakes();
    setClock(fakes, finishedAt + OUTCOME_GRACE_MS + 1);
    fakes.jobs.set(1, makeJob({ id: 1 }));
    await leftPending(fakes, makeRun({ logId: 11, retriesLeft: 1 }), 500, KILLED_BY_USER);

    expect(await redrivePendingOutcomes(fakes.deps(), { batchSize: 100 })).toEqual({
      redriven: [11],
      errors: [],
    });
    expect(fakes.enqueued).toEqual([]);
    expect(fakes.alarms).toEqual([]);
    expect(fakes.runs.get(11)?.alarmStatus).toBe(ALARM_STATUS.notNeeded);
    expect(fakes.outcomePending.has(11)).toBe(false);
  });
});

describe('runMonitorSweeps', () => {
  const settings = { ...SETTINGS_90, batchSize: 100 };
  const finishedAt = 1_700_000_000_000;
  /** The store error a broken watch read threw in production. */
  const startKeyError = () =>
    Object.assign(new Error('The provided starting key does not match the range key predicate'), {
      name: 'ValidationException',
    });

  /** A lost run (its Lambda executor is gone) and a failure whose retry was left pending. */
  async function fixture() {
    const { fakes, deps } = monitorFixture({ groups: [], registry: [], beatOk: new Set() });
    fakes.clock.advance(finishedAt + OUTCOME_GRACE_MS + 1 - fakes.clock.now());
    fakes.jobs.set(1, makeJob({ id: 1, retryBackoffSeconds: 5 }));
    fakes.runs.set(2, makeRun({ logId: 2, executorAddress: 'lambda:gone' }));
    fakes.runs.set(7, makeRun({ logId: 7, retriesLeft: 1 }));
    await deps.runs.complete(7, { handleCode: 500, handleMsg: 'boom', handleTime: finishedAt });
    const metrics: { name: string; unit: MetricUnit; value: number }[] = [];
    const recorded = {
      ...deps,
      metrics: {
        add: (name: string, unit: MetricUnit, value: number) => metrics.push({ name, unit, value }),
      },
    };
    return { fakes, deps: recorded, metrics };
  }
  const failures = (fakes: OutcomeFakes) =>
    fakes.logs.filter((l) => l.level === 'error' && l.message === 'monitor sweep failed');

  it('runs both sweeps and reports no failed sweep when both work', async () => {
    const { fakes, deps, metrics } = await fixture();
    const result = await runMonitorSweeps(deps, settings);
    expect(result.failedSweeps).toEqual([]);
    expect(result.lost?.lost).toEqual([2]);
    expect(result.redrive?.redriven).toEqual([7]);
    expect(failures(fakes)).toEqual([]);
    expect(metrics.filter((m) => m.name === METRIC.sweepFailures)).toEqual([]);
  });

  it('still re-drives pending outcomes when the lost-run sweep throws, logging and counting the failure', async () => {
    const { fakes, deps, metrics } = await fixture();
    const broken = { ...deps, runs: { ...deps.runs, findUnfinished: () => Promise.reject(startKeyError()) } };

    const result = await runMonitorSweeps(broken, settings);

    expect(result.failedSweeps).toEqual(['lostRuns']);
    expect(result.lost).toBeUndefined();
    expect(result.redrive).toEqual({ redriven: [7], errors: [] });
    expect(fakes.enqueued.map((e) => e.message.dedupKey)).toEqual(['retry#7']);
    expect(fakes.runs.get(2)?.handleCode).toBe(0);
    expect(failures(fakes)).toEqual([
      {
        level: 'error',
        message: 'monitor sweep failed',
        attributes: {
          sweep: 'lostRuns',
          error: 'ValidationException: The provided starting key does not match the range key predicate',
        },
      },
    ]);
    // (the re-driven retry is counted too, under its own metric)
    expect(metrics.filter((m) => m.name === METRIC.sweepFailures)).toEqual([
      { name: METRIC.sweepFailures, unit: 'Count', value: 1 },
    ]);
  });

  it('still marks lost runs when the pending-outcome sweep throws, logging and counting the failure', async () => {
    const { fakes, deps, metrics } = await fixture();
    const broken = {
      ...deps,
      runs: { ...deps.runs, findOutcomePending: () => Promise.reject(new Error('throttled')) },
    };

    const result = await runMonitorSweeps(broken, settings);

    expect(result.failedSweeps).toEqual(['pendingOutcomes']);
    expect(result.redrive).toBeUndefined();
    expect(result.lost).toMatchObject({ overdue: 1, lost: [2], errors: [] });
    expect(fakes.runs.get(2)).toMatchObject({ handleCode: 500 });
    expect(failures(fakes).map((l) => l.attributes)).toEqual([
      { sweep: 'pendingOutcomes', error: 'Error: throttled' },
    ]);
    expect(metrics.filter((m) => m.name === METRIC.sweepFailures)).toEqual([
      { name: METRIC.sweepFailures, unit: 'Count', value: 1 },
    ]);
  });

  it('runs the stalled-workflow sweep after the others, and logs and counts its failure by name without losing theirs', async () => {
    const { fakes, deps, metrics } = await fixture();
    const order: string[] = [];
    const broken = {
      ...deps,
      workflowSweep: {
        sweepStalledRuns: async () => {
          order.push(`workflows after ${fakes.enqueued.map((e) => e.message.dedupKey).join(',')}`);
          throw new Error('workflows table throttled');
        },
      },
    };

    const result = await runMonitorSweeps(broken, settings);

    expect(order).toEqual(['workflows after retry#7']);
    expect(result.failedSweeps).toEqual(['stalledWorkflowRuns']);
    expect(result.workflows).toBeUndefined();
    expect(result.lost?.lost).toEqual([2]);
    expect(result.redrive?.redriven).toEqual([7]);
    expect(failures(fakes).map((l) => l.attributes)).toEqual([
      { sweep: 'stalledWorkflowRuns', error: 'Error: workflows table throttled' },
    ]);
    expect(metrics.filter((m) => m.name === METRIC.sweepFailures)).toEqual([
      { name: METRIC.sweepFailures, unit: 'Count', value: 1 },
    ]);
  });

  it('answers what the stalled-workflow sweep looked at and moved', async () => {
    const { deps } = await fixture();
    const result = await runMonitorSweeps(
      { ...deps, workflowSweep: { sweepStalledRuns: async () => ({ looked: 3, redriven: 1 }) } },
      settings,
    );
    expect(result.failedSweeps).toEqual([]);
    expect(result.workflows).toEqual({ looked: 3, redriven: 1 });
  });

  it('counts each failed sweep once when both throw, without throwing itself', async () => {
    const { fakes, deps, metrics } = await fixture();
    const broken = {
      ...deps,
      runs: {
        ...deps.runs,
        findUnfinished: () => Promise.reject(startKeyError()),
        findOutcomePending: () => Promise.reject(startKeyError()),
      },
    };

    const result = await runMonitorSweeps(broken, settings);

    expect(result).toEqual({
      failedSweeps: ['lostRuns', 'pendingOutcomes'],
      // The job policy sweep still ran.
      jobPolicies: { jobs: fakes.jobs.size, resumed: [], deadlinesMissed: [], errors: [] },
    });
    expect(failures(fakes).map((l) => l.attributes?.sweep)).toEqual(['lostRuns', 'pendingOutcomes']);
    expect(metrics).toEqual([
      { name: METRIC.sweepFailures, unit: 'Count', value: 1 },
      { name: METRIC.sweepFailures, unit: 'Count', value: 1 },
    ]);
  });
});
