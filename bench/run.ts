/**
 * `npm run bench`: runs one benchmark (bench/benchmark.ts or the workflow mode) per store asked for,
 * one after the other: on SQLite in a temp database file, on DynamoDB Local after starting it and the
 * SQS stand-in on 127.0.0.1 (stopped again after that store's run, also on Ctrl-C and on the
 * --timeout watchdog). Prints a summary per run (and a comparison), then one JSON line last.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import type { BenchStore, BenchTarget } from './bench-stack.js';
import { runBenchmark } from './benchmark.js';
import { findKnee } from './knee.js';
import { type BenchOptions, LATEST_JSON, parseOptions, RAMP_JSON, USAGE, UsageError } from './options.js';
import { runRamp } from './ramp.js';
import { writeChart, writeRampChart } from './ramp-chart.js';
import { rampLine, rampSummary, shownCommand } from './ramp-report.js';
import {
  comparison,
  jsonFile,
  jsonLine,
  jsonText,
  kneeSummary,
  type RunContext,
  summary,
  workflowSummary,
} from './report.js';
import type { BenchResult, WorkflowBenchResult } from './result.js';
import { startStandIns } from './stand-ins.js';
import { runWorkflowBenchmark } from './workflow-bench.js';

/** Seconds of each store throughput measurement. */
const LIMIT_SECONDS = 3;

/** Steps that must run however the bench ends; each runs once, newest first. */
const cleanups: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | undefined;

function cleanUp(): Promise<void> {
  cleaning ??= (async () => {
    for (const step of cleanups.reverse()) {
      try {
        await step();
      } catch (err) {
        console.error(`cleanup step failed: ${String(err)}`);
      }
    }
  })();
  return cleaning;
}

function abandon(reason: string, code: number): void {
  console.error(`\nbench: ${reason}; stopping the stack and the stand-ins`);
  void cleanUp().finally(() => process.exit(code));
}

/** Runs `step` once, however often it is called (a stop both the run and the cleanup may call). */
function once(step: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => {
    done ??= step();
    return done;
  };
}

/**
 * The store's target for `work`: SQLite needs nothing started; DynamoDB Local and the SQS stand-in
 * are started for it and stopped after it, so a later run on another store does not share the cores.
 */
async function onStore<T>(
  store: BenchStore,
  work: (target: BenchTarget, context: RunContext) => Promise<T>,
): Promise<T> {
  const context = { startedAt: new Date().toISOString(), loadAverage: loadavg()[0] ?? Number.NaN };
  if (store === 'sqlite') return work({ store }, { ...context, store });
  log('starting DynamoDB Local and the SQS stand-in on 127.0.0.1 ...');
  const stops: (() => Promise<void>)[] = [];
  try {
    const standIns = await startStandIns((stop) => {
      const step = once(stop);
      stops.push(step);
      cleanups.push(step);
    });
    return await work(
      { store, endpoints: standIns.endpoints },
      { ...context, store, standIns: standIns.versions },
    );
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
}

async function main(): Promise<number> {
  let options: BenchOptions | undefined;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`bench: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (!options) {
    console.log(USAGE);
    return 0;
  }
  if (options.rampChart) {
    await writeRampChart(options.rampChart.from, options.rampChart.to);
    console.log(`wrote ${options.rampChart.to} from ${options.rampChart.from.join(', ')}`);
    return 0;
  }

  process.once('SIGINT', () => abandon('interrupted', 130));
  process.once('SIGTERM', () => abandon('terminated', 143));
  const watchdog = setTimeout(
    () => abandon(`still running after ${options.timeoutSeconds} s (--timeout)`, 1),
    options.timeoutSeconds * 1000,
  );
  const common = {
    limitSeconds: LIMIT_SECONDS,
    log,
    stackLogLevel: options.stackLogLevel,
    onAbandon: (step: () => Promise<void>) => cleanups.push(step),
  };
  try {
    if (options.ramp) {
      const file = await runRamp(
        { ...options, ramp: options.ramp },
        {
          onStore: (store, work) => onStore(store, (target) => work(target)),
          log,
          onAbandon: common.onAbandon,
          command: shownCommand(process.argv.slice(2)),
        },
      );
      await writeJson(jsonText(file), options.out, RAMP_JSON);
      if (options.ramp.chart) {
        await writeChart([file], options.ramp.chart);
        log(`wrote the chart to ${options.ramp.chart}`);
      }
      console.log('');
      console.log(rampSummary(file));
      console.log('');
      console.log(jsonLine(rampLine(file)));
      // Ours only: a peer's curve is there to compare with, not to pass.
      const ours = file.series.filter((s) => s.system !== 'bullmq');
      return ours.every((s) => s.overload.holds === true) ? 0 : 1;
    }

    if (options.workflows !== undefined) {
      const workflows = options.workflows;
      const runs: { result: WorkflowBenchResult; context: RunContext }[] = [];
      for (const store of options.stores) {
        runs.push(
          await onStore(store, async (target, context) => {
            const result = await runWorkflowBenchmark(target, {
              workflows,
              executors: options.executors,
              shards: options.shards,
              ...common,
            });
            console.log('');
            console.log(workflowSummary(result, context));
            return { result, context };
          }),
        );
      }
      await writeJson(jsonFile(runs), options.out);
      console.log('');
      console.log(
        jsonLine(runs.length === 1 ? runs[0]?.result.line : { runs: runs.map((r) => r.result.line) }),
      );
      const failed = runs.some(
        ({ result: { line } }) =>
          line.notSucceeded > 0 || line.missingNodes > 0 || line.duplicateNodes > 0 || line.wrongResults > 0,
      );
      return failed ? 1 : 0;
    }

    if (options.knee) {
      const knees = [];
      const runs: { result: BenchResult; context: RunContext }[] = [];
      for (const store of options.stores) {
        const knee = await findKnee(
          async (jobs) => {
            log(`knee on ${store}: ${jobs} jobs ...`);
            const run = await onStore(store, async (target, context) => ({
              result: await runBenchmark(target, { ...options, ...common, jobs }),
              context,
            }));
            runs.push(run);
            const { missed, duplicates, outOfOrder, latenessMs } = run.result.line;
            log(
              `knee on ${store}: ${jobs} jobs: missed ${missed}, duplicates ${duplicates}, out of order ${outOfOrder}, ` +
                `lateness p99 ${Math.round(latenessMs.p99)} ms`,
            );
            return { clean: missed === 0 && duplicates === 0 && outOfOrder === 0, result: run };
          },
          { start: options.jobs, max: options.knee.max },
        );
        knees.push({ store, knee });
      }
      await writeJson(jsonFile(runs, knees), options.out);
      console.log('');
      console.log(kneeSummary(knees));
      console.log('');
      console.log(
        jsonLine({
          knee: knees.map(({ store, knee }) => ({
            store,
            highestCleanJobs: knee.highestClean ?? null,
            lowestFailedJobs: knee.lowestFailed ?? null,
            steps: knee.steps.map((step) => step.result.result.line),
          })),
        }),
      );
      return knees.every(({ knee }) => knee.highestClean !== undefined) ? 0 : 1;
    }

    const runs: { result: BenchResult; context: RunContext }[] = [];
    for (const store of options.stores) {
      runs.push(
        await onStore(store, async (target, context) => {
          const result = await runBenchmark(target, { ...options, ...common });
          console.log('');
          console.log(summary(result, context));
          return { result, context };
        }),
      );
    }
    await writeJson(jsonFile(runs), options.out);
    if (runs.length > 1) {
      console.log('');
      console.log(comparison(runs));
    }
    console.log('');
    console.log(
      jsonLine(runs.length === 1 ? runs[0]?.result.line : { runs: runs.map((r) => r.result.line) }),
    );
    const failed = runs.some(
      ({ result: { line } }) => line.missed > 0 || line.duplicates > 0 || line.outOfOrder > 0,
    );
    return failed ? 1 : 0;
  } finally {
    clearTimeout(watchdog);
    await cleanUp();
  }
}

async function writeJson(file: string, out: string, always = LATEST_JSON): Promise<void> {
  for (const path of new Set([resolve(always), resolve(out)])) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, file);
  }
}

function log(message: string): void {
  console.error(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  async (err: unknown) => {
    console.error(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    await cleanUp();
    process.exitCode = 1;
  },
);
