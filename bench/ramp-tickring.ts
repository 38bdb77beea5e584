import { loadavg } from 'node:os';
import { METRIC, mapLimit } from '@tickring/core/common';
import type { RunStatus, RunStore } from '@tickring/core/runs';
import type { Schedule } from '@tickring/core/schedule';
import type { MetricSink } from '../local/functions.js';
import { type BenchRunOptions, type BenchTarget, withBenchStack } from './bench-stack.js';
import { type BenchmarkOptions, runBenchmark } from './benchmark.js';
import { expectedFires, fireKey, type TimeWindow } from './fire-count.js';
import { findKnee } from './knee.js';
import { ResourceSampler } from './process-stats.js';
import { countRampStep, type SkippedRunHead, skippedFires } from './ramp-count.js';
import { type DrivenRamp, driveRamp, type RampDriveOptions } from './ramp-driver.js';
import type { RampKnee, RampStep, RampStepCpu } from './ramp-result.js';
import { ReceiptLog } from './receipt-log.js';
import { num } from './table.js';
import { createBenchJobs } from './workload.js';

/** Every ramp job fires every second: the offered rate is the job count. */
export const RAMP_SCHEDULE: Schedule = { type: 'FIX_RATE', conf: '1', timeZone: 'UTC' };

/**
 * The ramp's own knee search: short fresh-stack runs (knee.ts), from 200 jobs doubling, two
 * bisections. A run is clean when every fire ran once, in order, and on time (lateness p99 within
 * `maxP99Ms`): in a 10 s window a stack can still run every fire while its backlog grows toward
 * the misfire threshold (p99 near 5 s), which it would not sustain.
 */
export const RAMP_KNEE_SEARCH = {
  start: 200,
  maxP99Ms: 1000,
  growth: 2,
  bisections: 2,
  seconds: 10,
  warmupSeconds: 5,
  drainSeconds: 10,
} as const;

const SKIPPED_READ_CONCURRENCY = 8;
/** An overloaded stack's API may drop connections while a step adds its jobs. */
const CREATE_RETRIES = 3;
const SKIPPED_PAGE = 100;

export interface TickringRampOptions
  extends RampDriveOptions,
    Pick<BenchRunOptions, 'onAbandon' | 'stackLogLevel'> {
  readonly executors: number;
  readonly shards: number;
}

/**
 * The knee the ramp climbs to 3× of, when `--ramp-max` does not give it: a short knee search on
 * the store (knee.ts over runBenchmark, each run a fresh stack, the store's limits not measured).
 */
export async function searchRampKnee(
  target: BenchTarget,
  options: { readonly executors: number; readonly shards: number; readonly maxJobs: number } & Pick<
    TickringRampOptions,
    'log' | 'onAbandon' | 'stackLogLevel'
  >,
): Promise<RampKnee> {
  const search = RAMP_KNEE_SEARCH;
  const run: BenchmarkOptions = {
    jobs: search.start,
    seconds: search.seconds,
    warmupSeconds: search.warmupSeconds,
    schedule: RAMP_SCHEDULE,
    executors: options.executors,
    idleJobs: 0,
    shards: options.shards,
    drainSeconds: search.drainSeconds,
    limitSeconds: 0,
    ...(options.onAbandon ? { onAbandon: options.onAbandon } : {}),
    ...(options.stackLogLevel ? { stackLogLevel: options.stackLogLevel } : {}),
  };
  const knee = await findKnee(
    async (jobs) => {
      options.log(`knee search on ${target.store}: ${num(jobs)} jobs for ${search.seconds} s ...`);
      const { line } = await runBenchmark(target, { ...run, jobs });
      const clean =
        line.missed === 0 &&
        line.duplicates === 0 &&
        line.outOfOrder === 0 &&
        line.latenessMs.p99 <= search.maxP99Ms;
      options.log(
        `knee search on ${target.store}: ${num(jobs)} jobs ${clean ? 'clean' : 'not clean'} (missed ${num(line.missed)}, ` +
          `lateness p99 ${num(line.latenessMs.p99)} ms)`,
      );
      return {
        clean,
        result: {
          jobs,
          clean,
          missed: line.missed,
          latenessP99Ms: line.latenessMs.p99,
          loadAverage: loadavg()[0] ?? Number.NaN,
        },
      };
    },
    { start: search.start, max: options.maxJobs, growth: search.growth, bisections: search.bisections },
  );
  const rate = knee.highestClean ?? Math.max(1, Math.floor((knee.lowestFailed ?? search.start) / 2));
  if (knee.highestClean === undefined) {
    options.log(`knee search on ${target.store}: no run was clean; taking ${rate} fires/s as the knee`);
  }
  return { rate, source: 'search', search: knee.steps.map((step) => step.result) };
}

/**
 * The ramp on tickring's stack on a store: one stack and one executor fleet for all the steps, jobs
 * added through the admin API step by step (see driveRamp); after the last window the skipped runs
 * of every job are read (the bench's own connection) and each step is counted.
 */
export async function runTickringRamp(
  target: BenchTarget,
  options: TickringRampOptions,
): Promise<{ steps: RampStep[]; details: Record<string, unknown> }> {
  return withBenchStack(
    target,
    {
      limitSeconds: 0,
      log: options.log,
      ...(options.onAbandon ? { onAbandon: options.onAbandon } : {}),
      ...(options.stackLogLevel ? { stackLogLevel: options.stackLogLevel } : {}),
    },
    async (bench) => {
      const skips = new SkipMeter();
      const { api } = await bench.start({ shards: options.shards, onMetric: skips.sink });
      const receipts = new ReceiptLog();
      const fleet = await bench.startFleet({
        groups: options.executors,
        onRun: (run) => receipts.record(run.jobId, run.logDateTime, run.receivedAt),
      });
      let made = 0;
      let createRetries = 0;
      const driven = await driveRamp(
        {
          label: target.store,
          grow: async (total) => {
            const jobs = await createBenchJobs(api, fleet.appNames, total - made, RAMP_SCHEDULE, {
              firstIndex: made,
              connectionRetries: CREATE_RETRIES,
              onRetry: () => createRetries++,
            });
            made = total;
            return jobs;
          },
          cpu: () => stackCpu(fleet.threadIds),
        },
        receipts,
        options,
      );
      options.log(`reading the skipped and failed runs of ${num(driven.jobs.length)} jobs ...`);
      const runs = bench.unmetered().runs();
      const readAll = async (status: RunStatus) =>
        (
          await mapLimit([...driven.jobs], SKIPPED_READ_CONCURRENCY, (job) =>
            runsWithStatus(runs, job.jobId, status),
          )
        ).flat();
      const skippedRuns = await readAll('skipped');
      const skipped = skippedFires(skippedRuns, RAMP_SCHEDULE);
      // Failed triggers (the executor refused, or did not answer in time): recorded, not run.
      const failedRuns = await readAll('fail');
      const failed = new Set(failedRuns.map((r) => fireKey(r.jobId, r.scheduledTime)));
      return {
        steps: countSteps(driven, receipts, skipped.keys, failed, skips),
        details: {
          executors: options.executors,
          shards: options.shards,
          misfireStrategy: 'DO_NOTHING',
          skippedRuns: skippedRuns.length,
          skippedFires: skipped.count,
          failedRuns: failedRuns.length,
          skipRangesEndingElsewhere: skipped.mismatchedRanges,
          receipts: receipts.receipts.length,
          // A create retried after its connection failed may have made a job twice (its fires: not counted).
          createRetries,
          ...(driven.stoppedEarly ? { stoppedEarly: driven.stoppedEarly } : {}),
        },
      };
    },
  );
}

function countSteps(
  driven: DrivenRamp,
  receipts: ReceiptLog,
  skipped: ReadonlySet<string>,
  failed: ReadonlySet<string>,
  skips: SkipMeter,
): RampStep[] {
  return driven.steps.map((step) => ({
    ...countRampStep(
      step.offered,
      step.window,
      expectedFires(driven.jobs, step.window),
      receipts.receipts,
      skipped,
      failed,
    ),
    window: { start: iso(step.window.start), end: iso(step.window.end) },
    tickMisfireSkips: skips.tickSkips(step.window),
    skippedOverloadMetric: skips.overloadSkips(step.window),
    cpuCores: step.cpuCores,
    loadAverage: step.loadAverage,
    setupSeconds: step.setupSeconds,
  }));
}

/** Every run of the job recorded with `status` (skipped, or failed), page by page. */
async function runsWithStatus(runs: RunStore, jobId: number, status: RunStatus): Promise<SkippedRunHead[]> {
  const found: SkippedRunHead[] = [];
  let cursor: string | undefined;
  do {
    const page = await runs.list({
      jobId,
      status,
      limit: SKIPPED_PAGE,
      ...(cursor ? { cursor } : {}),
    });
    found.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return found;
}

/** The stack's CPU in a window: the node process, its main thread, the executors' threads, DynamoDB Local's JVM. */
function stackCpu(executorThreads: readonly number[]): { start(): void; stop(): RampStepCpu } {
  const sampler = new ResourceSampler(undefined, executorThreads);
  return {
    start: () => sampler.start(),
    stop: () => {
      const { node, jvm } = sampler.stop();
      return {
        node: node.cpuCores,
        main: node.threads?.main.cpuCores ?? Number.NaN,
        executors: node.threads?.executors?.cpuCores ?? Number.NaN,
        store: jvm?.cpuCores ?? Number.NaN,
      };
    },
  };
}

/**
 * The skips the functions count, by when they counted them: the tick's MisfiresSkipped (one per job
 * plan that gave up fires it found missed: those fires have no record, so they show as missed) and
 * the dispatcher's FiresSkippedOverload (fires recorded as skipped for lateness).
 */
class SkipMeter {
  private readonly tick: { at: number; value: number }[] = [];
  private readonly overload: { at: number; value: number }[] = [];

  readonly sink: MetricSink = (functionName, name, _unit, value) => {
    if (functionName === 'scheduler-tick' && name === METRIC.misfiresSkipped) {
      this.tick.push({ at: Date.now(), value });
    } else if (name === METRIC.firesSkippedOverload) {
      this.overload.push({ at: Date.now(), value });
    }
  };

  tickSkips(window: TimeWindow): number {
    return sumIn(this.tick, window);
  }

  overloadSkips(window: TimeWindow): number {
    return sumIn(this.overload, window);
  }
}

function sumIn(events: readonly { at: number; value: number }[], window: TimeWindow): number {
  return events.filter((e) => e.at >= window.start && e.at < window.end).reduce((n, e) => n + e.value, 0);
}

const iso = (ms: number): string => new Date(ms).toISOString();
