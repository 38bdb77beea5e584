/**
 * `npm run bench`: tick throughput and steady-state scheduling of tickring on this machine, against
 * DynamoDB Local and the SQS stand-in, which the bench starts on 127.0.0.1 and always stops.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { dirname, resolve } from 'node:path';
import { type DynamoDbLocal, startDynamoDbLocal } from '../local/stand-ins/dynamodb-local.js';
import { type SqsStandIn, startSqsStandIn } from '../local/stand-ins/sqs.js';
import { calibrateDynamo, type DynamoCalibration } from './calibrate.js';
import { type BenchOptions, parseOptions, USAGE, UsageError } from './options.js';
import { printReport } from './report.js';
import { benchSteadyState, type SteadyStateResult } from './steady-state.js';
import { benchTickThroughput, type TickThroughputResult } from './tick-throughput.js';

const REGION = 'us-east-1';

export interface BenchResults {
  readonly startedAt: string;
  readonly durationSeconds: number;
  readonly machine: {
    readonly cpus: number;
    readonly cpuModel: string;
    readonly memoryGiB: number;
    readonly node: string;
    readonly platform: string;
  };
  readonly standIns: { readonly dynamodb: string; readonly sqs: string };
  readonly options: BenchOptions;
  readonly dynamoCapacity: DynamoCalibration;
  readonly tick: TickThroughputResult[];
  readonly steady: SteadyStateResult[];
}

/** Steps that must run however the bench ends (stand-ins); each runs once. */
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
  console.error(`\nbench: ${reason}; stopping the stand-ins`);
  void cleanUp().finally(() => process.exit(code));
}

async function main(): Promise<number> {
  let options: BenchOptions | undefined;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(`${err.message}\n\n${USAGE}`);
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

  const started = Date.now();
  try {
    log('starting DynamoDB Local and the SQS stand-in on 127.0.0.1 ...');
    const dynamo: DynamoDbLocal = await startDynamoDbLocal();
    cleanups.push(() => dynamo.stop());
    const sqs: SqsStandIn = await startSqsStandIn();
    cleanups.push(() => sqs.stop());
    const endpoints = { dynamodb: dynamo.endpoint, sqs: sqs.endpoint };

    // DynamoDB Local runs its first thousands of operations at about half speed (JIT), and the SDK
    // and stand-in code paths load on first use: one unreported round warms both up.
    const warmUpJobs = options.quick ? 500 : 1_000;
    log(`warming up (${warmUpJobs}-job tick, not reported) ...`);
    await benchTickThroughput(endpoints, {
      jobs: warmUpJobs,
      shards: options.shards,
      preReadCount: options.preReadCount,
      repeat: 1,
      region: REGION,
    });

    log('measuring DynamoDB Local alone (60 % UpdateItem / 40 % GetItem, 32 in flight) ...');
    const dynamoCapacity = await calibrateDynamo(endpoints, REGION, options.quick ? 2 : 4);
    log(`  ${Math.round(dynamoCapacity.opsPerSecond)} requests/s`);

    const tick: TickThroughputResult[] = [];
    if (options.sections.tick) {
      for (const jobs of options.tickJobs) {
        log(`tick throughput: ${jobs} jobs due in the same second, ${options.shards} shards ...`);
        const result = await benchTickThroughput(endpoints, {
          jobs,
          shards: options.shards,
          preReadCount: options.preReadCount,
          repeat: options.repeat,
          region: REGION,
        });
        const times = result.iterations.map((i) => `${Math.round(i.iterationMs)} ms`).join(', ');
        log(`  iterations: ${times} for ${result.median.firesEnqueued} fires each`);
        tick.push(result);
      }
    }

    const steady: SteadyStateResult[] = [];
    if (options.sections.steady) {
      for (const jobs of options.steadyJobs) {
        log(
          `steady state: ${jobs} jobs every second for ${options.seconds} s, ${options.executors} executor(s) ...`,
        );
        const result = await benchSteadyState(
          endpoints,
          {
            jobs,
            seconds: options.seconds,
            executors: options.executors,
            drainSeconds: options.drainSeconds,
            pollers: options.pollers,
          },
          (step) => cleanups.push(step),
        );
        log(`  ${result.windowFiresRun}/${result.expectedFires} fires ran, ${result.duplicates} duplicates`);
        steady.push(result);
      }
    }

    const results: BenchResults = {
      startedAt: new Date(started).toISOString(),
      durationSeconds: Math.round((Date.now() - started) / 1000),
      machine: {
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
        memoryGiB: Math.round(totalmem() / 2 ** 30),
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
      },
      standIns: { dynamodb: dynamo.version, sqs: sqs.version },
      options,
      dynamoCapacity,
      tick,
      steady,
    };
    const out = resolve(options.out);
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, `${JSON.stringify(results, twoDecimals, 2)}\n`);
    printReport(results);
    console.log(`\nResults written to ${out}`);
    // A broken invariant fails the command; slowness does not.
    const broken =
      tick.some((t) => !t.ringOk) ||
      steady.some((s) => s.duplicates > 0 || s.store.runs > s.store.distinctFires);
    return broken ? 1 : 0;
  } finally {
    clearTimeout(watchdog);
    await cleanUp();
  }
}

/** JSON replacer: measurements to two decimals, which is all they are worth. */
function twoDecimals(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 100) / 100 : value;
}

function log(message: string): void {
  console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);
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
