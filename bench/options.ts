import { parseArgs } from 'node:util';
import { isAppError } from '@tickring/core/common';
import { SETTINGS } from '@tickring/core/config';
import { type Schedule, validateSchedule } from '@tickring/core/schedule';
import type { BenchStore } from './bench-stack.js';
import type { Workload } from './benchmark.js';
import { TRIGGER_SPREAD_MS } from './workflow-shape.js';
import { MAX_IDLE_JOBS } from './workload.js';

/** What one benchmark run does; see {@link USAGE}. */
export interface BenchOptions extends Workload {
  /** `--store`: the stores to run on, one after the other, in this order (each measured alone first). */
  readonly stores: readonly BenchStore[];
  /** `--knee`: instead of one run, the highest job count run with nothing missed (see knee.ts). */
  readonly knee?: { readonly max: number };
  /**
   * `--workflows N`: the workflow mode (workflow-bench.ts) instead of the scheduled jobs: N runs of a
   * 5-node workflow. Absent in the jobs mode, whose fields then apply.
   */
  readonly workflows?: number;
  /** Where the JSON goes (besides stdout's last line). */
  readonly out: string;
  /** The whole bench is abandoned (and cleaned up) after this long, s. */
  readonly timeoutSeconds: number;
}

export const LATEST_JSON = '.bench/latest.json';

/** Flags of the scheduled-jobs mode, which the workflow mode does not take. */
const JOBS_MODE_FLAGS = [
  'jobs',
  'seconds',
  'warmup',
  'schedule',
  'idle-jobs',
  'drain',
  'knee',
  'knee-max',
] as const;
/** The stores, in the order `both` runs them (a type import only: this file stays light). */
const STORES = ['sqlite', 'dynamodb-local'] as const satisfies readonly BenchStore[];
/** Most jobs a knee search tries unless told (`--knee-max`). */
export const DEFAULT_KNEE_MAX = 5000;
/** Most runs of one workflow bench (all triggered within TRIGGER_SPREAD_MS). */
export const MAX_WORKFLOW_RUNS = 1000;

export const USAGE = `npm run bench -- [options]

Runs the whole local stack (tick -> ring -> dispatcher -> SDK executors over HTTP -> callback) in
this process on a store, after measuring what the store manages alone; prints a summary and, as the
last line, one JSON object (also written to ${LATEST_JSON}).

  --store S           sqlite (default: the embedded engine, a temp database file), dynamodb-local
                      (DynamoDB Local and the SQS stand-in, started and stopped on 127.0.0.1), or
                      both ("sqlite,dynamodb-local" or "both"): one run after the other, each with its
                      own store's limits; the summary then compares them and the JSON line is
                      {"runs": [...]}
  --jobs N            jobs firing on the schedule (default 200)
  --seconds S         measured window (default 60)
  --warmup S          the window opens this long after the last job's first fire (default 10): the
                      jobs made in one go are first planned together and fall out of step after a plan
  --schedule SPEC     "FIX_RATE <seconds>" or a Quartz cron such as "*/2 * * * * ?" (default "FIX_RATE 1")
  --executors E       executor groups, one SDK executor each; jobs round-robin, route FIRST (default 1)
  --idle-jobs K       jobs that are never due: half stopped, half running far in the future (default 0,
                      at most ${MAX_IDLE_JOBS})
  --shards M          TICKRING_SHARD_COUNT (default ${SETTINGS.shardCount.default})
  --drain S           after the window, wait at most this long for its last fires (default 30)
  --knee              find the knee per store: runs of --seconds each (a fresh stack each), from --jobs
                      up by half again while every fire ran once and in order, then two runs bisecting
                      between the last clean and the first failed count; reports the highest clean
                      count and every step (JSON: {"knee": [...]}); try --seconds 20, and a
                      --timeout long enough for all the runs
  --knee-max N        most jobs a --knee run tries (default ${DEFAULT_KNEE_MAX})
  --workflows N       the workflow mode instead of the scheduled jobs: one workflow per executor group
                      (a -> b, c -> d -> e over quick handlers passing JSON results on), N runs triggered
                      over ${TRIGGER_SPREAD_MS / 1000} s side by side (ALLOW); reports the lateness from a node's upstream
                      result to its dispatch and the usage per node run. Takes --store, --executors, --shards,
                      --out and --timeout; the flags of the jobs mode are refused with it (at most ${MAX_WORKFLOW_RUNS})
  --out FILE          write the JSON here too (default ${LATEST_JSON}; it is always written there)
  --timeout S         give up, cleaning up, after this many seconds (default 900)
  -h, --help

Exit code: 0 when every expected fire ran once and in order (on every store), 1 when some were
missed, duplicated or out of order (or the bench failed), 2 for a bad command line. With --knee: 0
when some count ran clean on every store. With --workflows: 0 when every run succeeded with every
node run once and the results passed along, else 1.`;

export class UsageError extends Error {
  override name = 'UsageError';
}

/** Reads the command line; throws UsageError naming the bad flag. `undefined` means --help. */
export function parseOptions(argv: readonly string[]): BenchOptions | undefined {
  let values: ReturnType<typeof parse>['values'];
  try {
    ({ values } = parse(argv));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return undefined;
  const workflows =
    values.workflows === undefined
      ? undefined
      : int('--workflows', values.workflows, 0, 1, MAX_WORKFLOW_RUNS);
  if (workflows !== undefined) {
    const jobsFlag = JOBS_MODE_FLAGS.find((flag) => values[flag] !== undefined);
    if (jobsFlag) {
      throw new UsageError(
        `--${jobsFlag} is a flag of the scheduled-jobs mode; --workflows takes --store, --executors, --shards, --out and --timeout`,
      );
    }
  }
  const kneeMax = int('--knee-max', values['knee-max'], DEFAULT_KNEE_MAX, 1);
  if (values['knee-max'] !== undefined && !values.knee) throw new UsageError('--knee-max goes with --knee');
  return {
    stores: parseStores(values.store ?? 'sqlite'),
    jobs: int('--jobs', values.jobs, 200, 1),
    seconds: int('--seconds', values.seconds, 60, 1),
    warmupSeconds: int('--warmup', values.warmup, 10, 0),
    schedule: parseSchedule(values.schedule ?? 'FIX_RATE 1'),
    executors: int('--executors', values.executors, 1, 1),
    idleJobs: int('--idle-jobs', values['idle-jobs'], 0, 0, MAX_IDLE_JOBS),
    shards: int('--shards', values.shards, SETTINGS.shardCount.default, SETTINGS.shardCount.min),
    drainSeconds: int('--drain', values.drain, 30, 0),
    out: values.out ?? LATEST_JSON,
    timeoutSeconds: int('--timeout', values.timeout, 900, 1),
    ...(workflows === undefined ? {} : { workflows }),
    ...(values.knee ? { knee: { max: kneeMax } } : {}),
  };
}

/** `sqlite`, `dynamodb-local`, `both`, or a comma-separated list of the two (each once). */
export function parseStores(spec: string): BenchStore[] {
  const names = spec.trim() === 'both' ? [...STORES] : spec.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(STORES as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new UsageError(
      `--store takes ${STORES.join(', ')}, both, or a comma-separated list of them; got "${spec}"` +
        (unknown.length > 0 ? ` (unknown: ${unknown.map((n) => `"${n}"`).join(', ')})` : ''),
    );
  }
  const stores = names as BenchStore[];
  const twice = stores.filter((name, i) => stores.indexOf(name) !== i);
  if (twice.length > 0) throw new UsageError(`--store names ${twice.join(', ')} more than once`);
  return stores;
}

/** `FIX_RATE <n>` or a Quartz cron (UTC), validated by the domain's own rules. */
export function parseSchedule(spec: string): Schedule {
  const trimmed = spec.trim();
  const fixRate = /^FIX_RATE\s+(\S+)$/i.exec(trimmed);
  const schedule: Schedule = fixRate
    ? { type: 'FIX_RATE', conf: fixRate[1] as string, timeZone: 'UTC' }
    : { type: 'CRON', conf: trimmed, timeZone: 'UTC' };
  try {
    validateSchedule(schedule);
  } catch (err) {
    if (!isAppError(err)) throw err;
    throw new UsageError(`--schedule: ${err.message} (got "${spec}")`);
  }
  return schedule;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      jobs: { type: 'string' },
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      schedule: { type: 'string' },
      executors: { type: 'string' },
      'idle-jobs': { type: 'string' },
      shards: { type: 'string' },
      drain: { type: 'string' },
      store: { type: 'string' },
      knee: { type: 'boolean' },
      'knee-max': { type: 'string' },
      workflows: { type: 'string' },
      out: { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function int(
  flag: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`${flag} must be a whole number >= ${min}, got "${raw}"`);
  }
  if (value > max) throw new UsageError(`${flag} must be at most ${max}, got "${raw}"`);
  return value;
}
