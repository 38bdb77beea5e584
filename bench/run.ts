/**
 * `npm run bench`: starts DynamoDB Local and the SQS stand-in on 127.0.0.1, runs one benchmark
 * (bench/benchmark.ts) against them, prints a summary and one JSON line last, and always stops the
 * stand-ins (also on Ctrl-C and on the --timeout watchdog).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { runBenchmark } from './benchmark.js';
import { type BenchOptions, LATEST_JSON, parseOptions, USAGE, UsageError } from './options.js';
import { jsonFile, jsonLine, type RunContext, summary, workflowSummary } from './report.js';
import { startStandIns } from './stand-ins.js';
import { runWorkflowBenchmark } from './workflow-bench.js';

/** Seconds of each stand-in throughput measurement. */
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

async function main(): Promise<number> {
  // The SDK warns on node 20 about its releases from 2027; our SDK version is pinned (as local/cli.ts).
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
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

  process.once('SIGINT', () => abandon('interrupted', 130));
  process.once('SIGTERM', () => abandon('terminated', 143));
  const watchdog = setTimeout(
    () => abandon(`still running after ${options.timeoutSeconds} s (--timeout)`, 1),
    options.timeoutSeconds * 1000,
  );
  try {
    log('starting DynamoDB Local and the SQS stand-in on 127.0.0.1 ...');
    const standIns = await startStandIns((stop) => cleanups.push(stop));
    const context: RunContext = {
      startedAt: new Date().toISOString(),
      standIns: standIns.versions,
    };
    const common = {
      limitSeconds: LIMIT_SECONDS,
      log,
      onAbandon: (step: () => Promise<void>) => cleanups.push(step),
    };
    if (options.workflows !== undefined) {
      const result = await runWorkflowBenchmark(standIns.endpoints, {
        workflows: options.workflows,
        executors: options.executors,
        shards: options.shards,
        ...common,
      });
      await writeJson(jsonFile(result, context), options.out);
      console.log('');
      console.log(workflowSummary(result, context));
      console.log('');
      console.log(jsonLine(result.line));
      const { notSucceeded, missingNodes, duplicateNodes, wrongResults } = result.line;
      return notSucceeded > 0 || missingNodes > 0 || duplicateNodes > 0 || wrongResults > 0 ? 1 : 0;
    }
    const result = await runBenchmark(standIns.endpoints, { ...options, ...common });
    await writeJson(jsonFile(result, context), options.out);
    console.log('');
    console.log(summary(result, context));
    console.log('');
    console.log(jsonLine(result.line));
    const { missed, duplicates, outOfOrder } = result.line;
    return missed > 0 || duplicates > 0 || outOfOrder > 0 ? 1 : 0;
  } finally {
    clearTimeout(watchdog);
    await cleanUp();
  }
}

async function writeJson(file: string, out: string): Promise<void> {
  for (const path of new Set([resolve(LATEST_JSON), resolve(out)])) {
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
