import { parseArgs } from 'node:util';
import { DISPATCHER_BATCHES_PER_QUEUE } from '../local/start-local.js';

export interface BenchOptions {
  /** Tick throughput: job counts, one measured iteration each. */
  readonly tickJobs: readonly number[];
  readonly shards: number;
  readonly preReadCount: number;
  /** Measured tick iterations per job count (the median is reported). */
  readonly repeat: number;
  /** Steady state: job counts (each fires every second), one run each. */
  readonly steadyJobs: readonly number[];
  readonly seconds: number;
  readonly executors: number;
  readonly drainSeconds: number;
  /** Concurrent dispatcher batches per ring queue (the local stack runs 4). */
  readonly pollers: number;
  readonly sections: { readonly tick: boolean; readonly steady: boolean };
  readonly quick: boolean;
  /** Where the JSON results go. */
  readonly out: string;
  /** The whole bench is abandoned (and cleaned up) after this long. */
  readonly timeoutSeconds: number;
}

export const USAGE = `npm run bench -- [options]

Measures tickring on this machine against DynamoDB Local and the SQS stand-in (started and stopped
by the bench, on 127.0.0.1). Writes the results to .bench/latest.json.

  --jobs 2000,5000       tick throughput: jobs all due in the same second (one tick iteration each)
  --shards 4             shards of the tick
  --pre-read 5000        most jobs read per shard per iteration (TICKRING_PRE_READ_COUNT)
  --repeat 3             tick iterations measured per job count (the median is shown)
  --steady-jobs 100,500  steady state: jobs firing every second (one run each)
  --seconds 20           steady state: measured window
  --executors 2          steady state: SDK executors (RANDOM routing when more than one)
  --drain 60             steady state: seconds to wait after the window for its last fires
  --pollers 10           steady state: concurrent dispatcher batches per ring queue (>= 10); the local
                         stack runs 10, more are added as extra pollers (Lambda scales up to 1,000)
  --only tick|steady     run one section
  --quick                small and short: --jobs 500 --steady-jobs 50 --seconds 10 --executors 1 --drain 20 --repeat 1
  --out FILE             JSON results (default .bench/latest.json)
  --timeout 480          give up (and clean up) after this many seconds
  -h, --help`;

const DEFAULTS = {
  tickJobs: [2_000, 5_000],
  // 100 is about what this kind of 2-core box keeps up with; 500 shows the overload.
  steadyJobs: [100, 500],
  seconds: 20,
  executors: 2,
  drainSeconds: 60,
  repeat: 3,
};
const QUICK = { tickJobs: [500], steadyJobs: [50], seconds: 10, executors: 1, drainSeconds: 20, repeat: 1 };

export class UsageError extends Error {
  override name = 'UsageError';
}

/** Reads the command line; throws UsageError naming the bad flag. `undefined` means --help. */
export function parseOptions(argv: readonly string[]): BenchOptions | undefined {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values } = parsed;
  if (values.help) return undefined;
  const base = values.quick ? QUICK : DEFAULTS;
  const only = values.only;
  if (only !== undefined && only !== 'tick' && only !== 'steady') {
    throw new UsageError(`--only must be tick or steady, got "${only}"`);
  }
  return {
    tickJobs: values.jobs === undefined ? base.tickJobs : intList('--jobs', values.jobs),
    shards: int('--shards', values.shards, 4),
    preReadCount: int('--pre-read', values['pre-read'], 5_000),
    repeat: int('--repeat', values.repeat, base.repeat),
    steadyJobs:
      values['steady-jobs'] === undefined ? base.steadyJobs : intList('--steady-jobs', values['steady-jobs']),
    seconds: int('--seconds', values.seconds, base.seconds),
    executors: int('--executors', values.executors, base.executors),
    drainSeconds: int('--drain', values.drain, base.drainSeconds, 0),
    pollers: int('--pollers', values.pollers, DISPATCHER_BATCHES_PER_QUEUE, DISPATCHER_BATCHES_PER_QUEUE),
    sections: { tick: only !== 'steady', steady: only !== 'tick' },
    quick: values.quick === true,
    out: values.out ?? '.bench/latest.json',
    timeoutSeconds: int('--timeout', values.timeout, 480),
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      jobs: { type: 'string' },
      shards: { type: 'string' },
      'pre-read': { type: 'string' },
      repeat: { type: 'string' },
      'steady-jobs': { type: 'string' },
      seconds: { type: 'string' },
      executors: { type: 'string' },
      drain: { type: 'string' },
      pollers: { type: 'string' },
      only: { type: 'string' },
      quick: { type: 'boolean' },
      out: { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function int(flag: string, raw: string | undefined, fallback: number, min = 1): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`${flag} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function intList(flag: string, raw: string): number[] {
  const list = raw.split(',').map((part) => int(flag, part.trim(), 0));
  if (list.length === 0) throw new UsageError(`${flag} needs at least one number`);
  return list;
}
