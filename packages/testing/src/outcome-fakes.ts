import type { Logger } from '@tickring/core/common';
import { noMetrics } from '@tickring/core/common';
import type { RingEntry, RingQueue } from '@tickring/core/dispatch';
import type { Job, JobStore } from '@tickring/core/jobs';
import type { Alarm, AlarmPublisher, ReportDelta, ReportStore, Run } from '@tickring/core/runs';
import {
  type CompleteOptions,
  type CompleteOutcome,
  completeMarks,
  type HandleResult,
  OUTCOME_GRACE_MS,
  type RunStore,
} from '@tickring/core/runs';
import type { RunOutcomeDeps } from '@tickring/core/runs/use-cases';
import { FakeClock } from './fake-clock.js';

/** A run for tests: accepted by `http://127.0.0.1:9999/`, no result yet. */
export function makeRun(overrides: Partial<Run> & Pick<Run, 'logId'>): Run {
  return {
    jobId: 1,
    appName: 'test-app',
    jobName: 'job 1',
    dedupKey: `api#${overrides.logId}`,
    triggerType: 'API',
    scheduledTime: 1_700_000_000_000,
    triggerTime: 1_700_000_000_000,
    executorHandler: 'demoJobHandler',
    executorParam: '',
    executorRouteStrategy: 'FIRST',
    executorTimeout: 0,
    shardIndex: 0,
    shardTotal: 1,
    attempt: 1,
    retriesLeft: 0,
    executorAddress: 'http://127.0.0.1:9999/',
    triggerCode: 200,
    triggerMsg: '',
    dispatchedAt: 1_700_000_000_000,
    handleCode: 0,
    handleMsg: '',
    handleTime: 0,
    alarmStatus: 0,
    ...overrides,
  };
}

/** In-memory versions of the ports `onRunFinished` uses, recording what was done to them. */
export class OutcomeFakes {
  readonly runs = new Map<number, Run>();
  readonly jobs = new Map<number, Job>();
  readonly enqueued: RingEntry[] = [];
  readonly alarms: Alarm[] = [];
  readonly reports: { day: string; delta: ReportDelta }[] = [];
  readonly logs: { level: string; message: string; attributes?: Record<string, unknown> }[] = [];
  readonly clock = new FakeClock(1_700_000_100_000);
  alarmDelivered = true;
  /** What the lost-run watch says of every unfinished run: past its deadline, or still within it. */
  pastDeadline = true;
  /** logIds whose `complete` throws (a DynamoDB failure). */
  readonly failingComplete = new Set<number>();
  /** Outcome-pending marks: logId → when the monitors may re-drive it. */
  readonly outcomePending = new Map<number, number>();
  /** Every `clearOutcomePending` call, by logId (a clear costs a write even with no mark). */
  readonly clears: number[] = [];
  /** Every `runs.getMany` / `jobs.getMany` call (the reads before completing). */
  readonly batchReads: { store: 'runs' | 'jobs'; ids: readonly number[] }[] = [];
  /** When set, `runs.getMany` and `jobs.getMany` reject (a failed read). */
  failingGetMany = false;

  deps(): RunOutcomeDeps {
    const runs = {
      get: async (logId: number) => this.runs.get(logId),
      getMany: async (logIds: readonly number[]) => {
        this.batchReads.push({ store: 'runs', ids: logIds });
        if (this.failingGetMany) throw new Error('ProvisionedThroughputExceededException');
        return [...new Set(logIds)].flatMap((logId) => {
          const run = this.runs.get(logId);
          return run ? [{ ...run, claimToken: 'claim', claimAt: run.triggerTime }] : [];
        });
      },
      complete: async (
        logId: number,
        result: HandleResult,
        options: CompleteOptions = {},
      ): Promise<CompleteOutcome> => {
        if (this.failingComplete.has(logId)) throw new Error('ProvisionedThroughputExceededException');
        const run = this.runs.get(logId);
        if (!run) return { kind: 'unknown' };
        if (run.handleCode !== 0) return { kind: 'already-finished', run };
        const done = { ...run, ...result };
        this.runs.set(logId, done);
        if (completeMarks(options, run, result.handleCode)) {
          this.outcomePending.set(logId, result.handleTime + OUTCOME_GRACE_MS);
        }
        return { kind: 'completed', run: done };
      },
      clearOutcomePending: async (logId: number) => {
        this.clears.push(logId);
        this.outcomePending.delete(logId);
      },
      findOutcomePending: async (nowMs: number, limit: number) =>
        [...this.outcomePending]
          .filter(([, dueAt]) => dueAt < nowMs)
          .slice(0, limit)
          .flatMap(([logId]) => this.runs.get(logId) ?? []),
      setAlarmStatus: async (logId: number, alarmStatus: number) => {
        const run = this.runs.get(logId);
        if (run) this.runs.set(logId, { ...run, alarmStatus });
      },
      findUnfinished: async () =>
        [...this.runs.values()]
          .filter((r) => r.handleCode === 0 && r.triggerCode === 200)
          .map((run) => ({ run, pastDeadline: this.pastDeadline })),
    } as Partial<RunStore> as RunStore;
    const jobs = {
      get: async (id: number) => this.jobs.get(id),
      getMany: async (ids: readonly number[]) => {
        this.batchReads.push({ store: 'jobs', ids });
        if (this.failingGetMany) throw new Error('ProvisionedThroughputExceededException');
        return [...new Set(ids)].flatMap((id) => this.jobs.get(id) ?? []);
      },
      // The monitors' jobPolicies sweep lists the jobs (these fakes' jobs have neither policy nor deadline).
      list: async () => ({ items: [...this.jobs.values()] }),
    } as Partial<JobStore> as JobStore;
    const ring: RingQueue = {
      enqueue: async (entries) => {
        this.enqueued.push(...entries);
      },
    };
    const alarms: AlarmPublisher = {
      publish: async (alarm) => {
        this.alarms.push(alarm);
        return this.alarmDelivered;
      },
    };
    const reports: ReportStore = {
      add: async (day, delta) => {
        this.reports.push({ day, delta });
      },
      range: async () => [],
    };
    const log =
      (level: string) =>
      (message: string, attributes?: Record<string, unknown>): void => {
        this.logs.push({ level, message, attributes });
      };
    const logger: Logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
    return { runs, jobs, ring, alarms, reports, clock: this.clock, logger, metrics: noMetrics };
  }
}
