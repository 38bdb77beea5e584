/** The failure policy and the deadline on the run-outcome path and the monitors' jobPolicies sweep, on memory stores. */
import { MemoryAuditLog, MemoryJobStore, makeJob, makeRun, OutcomeFakes } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import { METRIC, type Metrics } from '../common/metrics.js';
import type { Job } from '../jobs/job.js';
import { processCallbacks } from './executor-callbacks.js';
import { DEADLINE_CHECK_SPAN_MS, sweepJobPolicies } from './job-policies.js';
import type { Run } from './run.js';
import { onRunFinished } from './run-outcome.js';

const HOUR = 3600_000;

/** Moves the fake clock forward to `ms`. */
function setClock(fakes: OutcomeFakes, ms: number): void {
  fakes.clock.advance(ms - fakes.clock.now());
}

async function setup(job: Partial<Job>) {
  const fakes = new OutcomeFakes();
  const jobs = new MemoryJobStore();
  const audit = new MemoryAuditLog({ clock: fakes.clock, retentionDays: 30 });
  const metrics: { name: string; value: number }[] = [];
  const recording: Metrics = { add: (name, _unit, value) => void metrics.push({ name, value }) } as Metrics;
  const stored = makeJob({
    id: 1,
    triggerStatus: 'RUNNING',
    triggerNextTime: fakes.clock.now() + 60_000,
    alarmWebhook: 'http://hooks.example/x',
    createdAt: fakes.clock.now() - 48 * HOUR,
    ...job,
  });
  await jobs.create(stored);
  const deps = { ...fakes.deps(), jobs, audit, metrics: recording };
  let next = 10;
  /** A run of job 1 as claimed (tracksOutcome as the dispatcher records it), finished with `handleCode`. */
  const finish = async (handleCode: number, extra: Partial<Run> = {}) => {
    const logId = next++;
    fakes.runs.set(logId, makeRun({ logId, jobId: 1, tracksOutcome: true, childJobIds: [], ...extra }));
    const report = await processCallbacks(deps, [{ logId, logDateTime: 0, handleCode, handleMsg: '' }]);
    return { logId, report };
  };
  return { fakes, jobs, audit, metrics, deps, finish };
}

describe('failure policy on the run-outcome path', () => {
  it('pauses the job on the Nth final failure, with its reason, one alarm and a system audit record', async () => {
    const { fakes, jobs, audit, metrics, finish } = await setup({
      failurePolicy: { pauseAfter: { consecutive: 2 }, resumeAfterSeconds: 600 },
    });
    await finish(500);
    expect((await jobs.get(1))?.triggerStatus).toBe('RUNNING');
    const { logId } = await finish(500);

    const job = await jobs.get(1);
    const now = fakes.clock.now();
    expect(job?.triggerStatus).toBe('STOPPED');
    expect(job?.triggerNextTime).toBeNull();
    expect(job?.pausedBy).toEqual({
      reason: 'failurePolicy',
      at: now,
      failures: 2,
      ofLast: 2,
      resumeAt: now + 600_000,
    });
    const paused = fakes.alarms.filter((a) => a.kind === 'jobPaused');
    expect(paused).toHaveLength(1);
    expect(paused[0]?.run?.logId).toBe(logId);
    expect(paused[0]?.summary).toContain('2 final failures in a row');
    const records = [...audit.records.values()];
    expect(records.map((r) => [r.action, r.actor.kind])).toEqual([['job.pausedByPolicy', 'system']]);
    expect(metrics.filter((m) => m.name === METRIC.jobsPausedByPolicy)).toHaveLength(1);
  });

  it('counts a failure followed by a retry not at all: only the last attempt’s outcome', async () => {
    const { jobs, finish } = await setup({ failurePolicy: { pauseAfter: { consecutive: 2 } } });
    await finish(500, { retriesLeft: 1 });
    await finish(500, { retriesLeft: 1 });
    expect((await jobs.get(1))?.triggerStatus).toBe('RUNNING');
    expect(await jobs.getOutcomeHistory(1)).toBeUndefined();
    await finish(500, { attempt: 2, retriesLeft: 0 });
    expect((await jobs.getOutcomeHistory(1))?.recent).toEqual([{ logId: 12, failed: true }]);
  });

  it('counts a redelivered callback and a re-driven outcome once', async () => {
    const { fakes, jobs, deps, finish } = await setup({ failurePolicy: { pauseAfter: { consecutive: 2 } } });
    const { logId } = await finish(500);
    const repeat = await processCallbacks(deps, [{ logId, logDateTime: 0, handleCode: 500, handleMsg: '' }]);
    expect(repeat.repeated).toEqual([logId]);
    // The monitors re-drive the same run after a crash before its mark was cleared.
    const stored = fakes.runs.get(logId);
    if (!stored) throw new Error('run missing');
    await onRunFinished(deps, stored, true, { countersDone: true });
    expect((await jobs.getOutcomeHistory(1))?.recent).toEqual([{ logId, failed: true }]);
    expect((await jobs.get(1))?.triggerStatus).toBe('RUNNING');
  });

  it('sends a recovery notice for the first success after a final failure, and none for the next', async () => {
    const { fakes, finish } = await setup({ failurePolicy: { pauseAfter: { consecutive: 5 } } });
    await finish(500);
    const { logId } = await finish(200);
    await finish(200);
    expect(fakes.alarms.filter((a) => a.kind === 'jobRecovered').map((a) => a.run?.logId)).toEqual([logId]);
  });

  it('writes nothing for a job without a policy or deadline', async () => {
    const { jobs, finish } = await setup({});
    await finish(500, { tracksOutcome: undefined });
    await finish(200, { tracksOutcome: undefined });
    expect(await jobs.getOutcomeHistory(1)).toBeUndefined();
  });

  it('leaves a job a user stopped meanwhile stopped, without a pause reason or notice', async () => {
    const { fakes, jobs, finish } = await setup({ failurePolicy: { pauseAfter: { consecutive: 1 } } });
    const job = await jobs.get(1);
    if (!job) throw new Error('job missing');
    await jobs.replace({ ...job, triggerStatus: 'STOPPED', triggerNextTime: null, version: 2 }, job);
    await finish(500);
    expect((await jobs.get(1))?.pausedBy).toBeUndefined();
    expect(fakes.alarms.filter((a) => a.kind === 'jobPaused')).toEqual([]);
  });
});

describe('sweepJobPolicies', () => {
  it('starts a paused job again once its cooling-off period is over, and only then', async () => {
    const { fakes, jobs, audit, deps, finish } = await setup({
      failurePolicy: { pauseAfter: { consecutive: 1 }, resumeAfterSeconds: 600 },
    });
    await finish(500);
    fakes.clock.advance(599_000);
    expect((await sweepJobPolicies(deps)).resumed).toEqual([]);
    fakes.clock.advance(1_000);
    expect((await sweepJobPolicies(deps)).resumed).toEqual([1]);
    const job = await jobs.get(1);
    expect(job?.triggerStatus).toBe('RUNNING');
    expect(job?.pausedBy).toBeUndefined();
    expect([...audit.records.values()].map((r) => r.action)).toContain('job.resumedByPolicy');
    expect((await sweepJobPolicies(deps)).resumed).toEqual([]);
  });

  it('alarms a missed deadline once per window, even with two sweeps at once', async () => {
    const { fakes, deps, metrics } = await setup({ deadline: { time: '06:00', timeZone: 'Europe/Berlin' } });
    setClock(fakes, Date.parse('2025-03-30T04:01:00Z')); // a minute past 06:00 CEST on the change day
    const [a, b] = await Promise.all([sweepJobPolicies(deps), sweepJobPolicies(deps)]);
    expect([...a.deadlinesMissed, ...b.deadlinesMissed]).toEqual([1]);
    fakes.clock.advance(60_000);
    expect((await sweepJobPolicies(deps)).deadlinesMissed).toEqual([]);
    const missed = fakes.alarms.filter((x) => x.kind === 'deadlineMissed');
    expect(missed).toHaveLength(1);
    expect(missed[0]?.deadline).toEqual({
      from: Date.parse('2025-03-29T05:00:00Z'),
      to: Date.parse('2025-03-30T04:00:00Z'),
      text: '06:00 Europe/Berlin',
    });
    expect(metrics.filter((m) => m.name === METRIC.deadlinesMissed)).toHaveLength(1);
  });

  it('raises nothing when a success came in the window, nor long after the deadline passed', async () => {
    const { fakes, deps, finish } = await setup({ deadline: { time: '06:00', timeZone: 'Europe/Berlin' } });
    setClock(fakes, Date.parse('2025-03-30T03:12:00Z'));
    await finish(200);
    setClock(fakes, Date.parse('2025-03-30T04:01:00Z'));
    expect((await sweepJobPolicies(deps)).deadlinesMissed).toEqual([]);
    setClock(fakes, Date.parse('2025-03-31T04:00:00Z') + DEADLINE_CHECK_SPAN_MS + 60_000);
    expect((await sweepJobPolicies(deps)).deadlinesMissed).toEqual([]);
  });
});
