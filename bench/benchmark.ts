import type { Schedule } from '@tickring/core/schedule';
import { type BenchRunOptions, type BenchTarget, withBenchStack, withIdleFunctions } from './bench-stack.js';
import { FaultInjector, type FaultOptions } from './faults.js';
import { countFires, expectedFires, type TimeWindow } from './fire-count.js';
import { ResourceSampler } from './process-stats.js';
import { ReceiptLog } from './receipt-log.js';
import { type BenchResult, benchLine, price } from './result.js';
import { SendMeter } from './send-meter.js';
import { TickMeter } from './tick-meter.js';
import { createBenchJobs, createIdleJobs } from './workload.js';

/** The workload of a run (the command line's flags, see `options.ts`). */
export interface Workload {
  /** Jobs that fire on `schedule`. */
  readonly jobs: number;
  /** Length of the measured window, s. */
  readonly seconds: number;
  /** The window opens this long after the last job's first fire, s. */
  readonly warmupSeconds: number;
  readonly schedule: Schedule;
  /** Executor groups, each with one SDK executor; the jobs are spread round-robin over them. */
  readonly executors: number;
  /** Jobs that are never due (half stopped, half running with a far-future schedule). */
  readonly idleJobs: number;
  /** TICKRING_SHARD_COUNT. */
  readonly shards: number;
  /** After the window, how long to wait for its last fires before counting the rest as missed, s. */
  readonly drainSeconds: number;
}

export interface BenchmarkOptions extends Workload, BenchRunOptions {
  readonly faults?: FaultOptions;
}

const DRAIN_POLL_MS = 250;

/**
 * One benchmark on a store (SQLite, or the given stand-ins): measures the store's limits, starts an
 * isolated in-memory local stack with meters on its store, function host and tick metrics, E executor
 * groups with one SDK executor each, K idle and N measured jobs; waits until every job has had its
 * first fire, measures a window of S seconds, waits (bounded) for the window's last fires, and counts.
 */
export async function runBenchmark(target: BenchTarget, options: BenchmarkOptions): Promise<BenchResult> {
  return withBenchStack(target, options, async (bench) => {
    const { log, limits, prefix, tokens, invocations, meter } = bench;
    const faults = new FaultInjector(options.faults ?? {}, tokens.accessToken);
    const tick = new TickMeter();
    const sends = new SendMeter();
    const receipts = new ReceiptLog();

    const { stack, api } = await bench.start({
      shards: options.shards,
      onMetric: (...metric) => {
        tick.sink(...metric);
        sends.sink(...metric);
      },
      wrapHandler: faults.enabled ? faults.wrapHandler : undefined,
    });

    let started = performance.now();
    if (options.idleJobs > 0) {
      log(`writing ${options.idleJobs} idle jobs through the JobStore adapter ...`);
      const idleApp = `${prefix}idle`;
      await api.createGroup({ body: { appName: idleApp, title: 'idle', addressType: 'AUTO' } });
      await createIdleJobs(bench.unmetered().jobs(options.shards), idleApp, options.idleJobs);
    }
    const idleSeconds = (performance.now() - started) / 1000;

    started = performance.now();
    const fleet = await bench.startFleet({
      groups: options.executors,
      onRun: (run) => {
        receipts.record(run.jobId, run.logDateTime, run.receivedAt);
        faults.onRun(run);
      },
    });
    const executorSeconds = (performance.now() - started) / 1000;

    started = performance.now();
    log(`creating ${options.jobs} jobs (${scheduleText(options.schedule)}) through the admin API ...`);
    const jobs = await createBenchJobs(api, fleet.appNames, options.jobs, options.schedule);
    const jobSeconds = (performance.now() - started) / 1000;

    // The window opens after every job's first fire, so every job fires all through it, and after a
    // warm-up: jobs made in one go are first planned together, and fall out of step after a plan.
    const start = Math.max(...jobs.map((j) => j.firstFire)) + Math.max(1, options.warmupSeconds) * 1000;
    const window: TimeWindow = { start, end: start + options.seconds * 1000 };
    const expected = expectedFires(jobs, window);
    faults.arm(window);
    log(`warming up until ${iso(window.start)}; then measuring ${options.seconds} s ...`);

    await sleepUntil(window.start);
    meter.reset();
    invocations.beginWindow();
    const sampler = new ResourceSampler(undefined, fleet.threadIds);
    sampler.start();
    await sleepUntil(window.end);
    const usage = meter.snapshot();
    const functions = withIdleFunctions(invocations.usage(window), stack.host.names());
    const resources = sampler.stop();
    const tickLoad = tick.load(window);
    const sendLateness = sends.load(window);

    log(`window over; waiting up to ${options.drainSeconds} s for its last fires ...`);
    const deadline = window.end + options.drainSeconds * 1000;
    let missing = receipts.notYetRun(expected);
    while (missing > 0 && Date.now() < deadline) {
      await sleep(DRAIN_POLL_MS);
      missing = receipts.notYetRun(expected);
    }
    const drainedInSeconds = missing === 0 ? Math.max(0, Date.now() - window.end) / 1000 : null;
    const count = countFires(expected, receipts.receipts, window);
    const deadLetters = await bench.deadLetters();

    const { per, usd } = price(usage, functions, count.executed);
    return {
      line: benchLine(options, count, usage, per, usd, limits, tickLoad, resources),
      details: {
        schedule: options.schedule,
        executors: options.executors,
        idleJobs: options.idleJobs,
        shards: options.shards,
        window: { start: iso(window.start), end: iso(window.end) },
        setupSeconds: { idleJobs: idleSeconds, executors: executorSeconds, jobs: jobSeconds },
        unexpected: count.unexpected,
        receipts: receipts.receipts.length,
        drainedInSeconds,
        faults: faults.done,
        perTrigger: per,
        usd,
        usage,
        functions,
        tick: tickLoad,
        warmupSeconds: options.warmupSeconds,
        sendLatenessMs: sendLateness,
        limits,
        deadLetters,
        resources,
      },
    };
  });
}

export const scheduleText = (schedule: Schedule): string => `${schedule.type} ${schedule.conf}`;
const iso = (ms: number): string => new Date(ms).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
const sleepUntil = (epochMs: number) => sleep(epochMs - Date.now());
