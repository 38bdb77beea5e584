import { parseArgs } from 'node:util';
import { isAppError } from '@tickring/core/common';
import { SETTINGS } from '@tickring/core/config';
import { type Schedule, validateSchedule } from '@tickring/core/schedule';
import { CONSOLE_LOG_LEVELS, type ConsoleLogLevel } from '../local/console-logger.js';
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
  /** `--ramp`: the overload curve instead of one run (see ramp-*.ts). */
  readonly ramp?: RampOptions;
  /** `--ramp-chart JSON [JSON ...] SVG`: only draws ramps' JSON files (their series together) as the chart. */
  readonly rampChart?: { readonly from: readonly string[]; readonly to: string };
  /** Where the JSON goes (besides stdout's last line). */
  readonly out: string;
  /** The whole bench is abandoned (and cleaned up) after this long, s. */
  readonly timeoutSeconds: number;
  /**
   * `--stack-logs`: the measured stack's own logs at this level and above (default silent), as
   * `npm start` writes them: info and debug on stdout, warnings and errors on stderr.
   */
  readonly stackLogLevel: ConsoleLogLevel;
}

/** What `--ramp` does; see {@link USAGE}. */
export interface RampOptions {
  /** `--ramp-max`: the rate the stack sustains (its knee), fires/s; absent: a short knee search per store. */
  readonly knee?: number;
  /** `--ramp-start`: the first step's rate, fires/s. */
  readonly start: number;
  /** `--ramp-seconds`: each step's measured window, s. */
  readonly stepSeconds: number;
  /** `--ramp-peers`: the other systems the same ramp runs on, after the stores. */
  readonly peers: readonly RampPeer[];
  /** `--chart`: the chart of the ramp is written here (SVG) at the end. */
  readonly chart?: string;
}

export const RAMP_PEERS = ['bullmq'] as const;
export type RampPeer = (typeof RAMP_PEERS)[number];

export const LATEST_JSON = '.bench/latest.json';
/** Where a ramp's JSON always goes (what `--ramp-chart` reads). */
export const RAMP_JSON = '.bench/ramp.json';
/** The ramp's top is this many times the knee (the issue: graceful up to 3× what the stack sustains). */
export const RAMP_OVER_KNEE = 3;

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
/** Flags of the one-run and knee modes that a ramp sets itself (FIX_RATE 1, a job per fire a second). */
const NOT_RAMP_FLAGS = ['jobs', 'seconds', 'schedule', 'idle-jobs', 'knee', 'knee-max', 'workflows'] as const;
/** Flags that only mean something with --ramp. */
const RAMP_ONLY_FLAGS = ['ramp-max', 'ramp-start', 'ramp-seconds', 'ramp-peers', 'chart'] as const;
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
  --executors E       executor groups, one SDK executor each in a thread of its own; jobs round-robin,
                      route FIRST (default 1)
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
  --ramp              the overload curve, per store: one stack that keeps running while jobs (FIX_RATE 1,
                      one per fire a second) are added step by step, from --ramp-start fires/s, half as
                      many again each step, up to ${RAMP_OVER_KNEE}× the knee; per step (a window of --ramp-seconds,
                      after --warmup, 5 s here) it prints offered, executed, skipped (recorded skipped runs,
                      skippedCount fires each), failed (recorded failed triggers), missed (none of
                      these) and lateness p99, and CPU. One growing
                      stack rather than a fresh one per step: the overload of a step is still there when
                      the next begins (a backlog, late plans), as when load grows in production, and no
                      step pays a stack's start. Then the same ramp on the peers. Writes ${RAMP_JSON}
                      (and --out); takes --store, --executors, --shards, --warmup, --drain, --out, --timeout
                      (default 3600 with --ramp)
  --ramp-max R        the rate the stack sustains, fires/s (its knee): the ramp climbs to ${RAMP_OVER_KNEE} × R; without
                      it a short knee search runs on each store first (fresh stacks, 10 s windows, from 200
                      jobs doubling, two bisections; clean: every fire once, in order, lateness p99 <= 1 s;
                      about 3 min on SQLite). If adding a step's jobs fails (an overloaded stack's API),
                      the ramp ends there and the steps before it are reported
  --ramp-start R      the first step's rate (default 50)
  --ramp-seconds S    each step's measured window (default 15)
  --ramp-peers P      bullmq (the default: BullMQ job schedulers "every 1000 ms" on a redis-server of its
                      own, started and stopped by the bench; bench/ensure-redis.sh installs it) or none;
                      run after the stores, never beside them, on the steps of the highest store's plan
  --chart FILE        with --ramp: write the chart (SVG) of the curve here at the end
  --ramp-chart JSON [JSON ...] SVG
                      only draw ramps' JSON files (e.g. ${RAMP_JSON}; several: their series in one chart,
                      e.g. a run per store) as the chart SVG; takes no other flag
  --stack-logs LEVEL  the measured stack's own log lines at LEVEL and above (${CONSOLE_LOG_LEVELS.join(', ')};
                      default silent), as npm start writes them (info on stdout, warnings on stderr,
                      before the summary): what the tick and the dispatchers said (admission
                      control, misfires, skips) during the run
  --out FILE          write the JSON here too (default ${LATEST_JSON}; it is always written there)
  --timeout S         give up, cleaning up, after this many seconds (default 900)
  -h, --help

Exit code: 0 when every expected fire ran once and in order (on every store), 1 when some were
missed, duplicated or out of order (or the bench failed), 2 for a bad command line. With --knee: 0
when some count ran clean on every store. With --workflows: 0 when every run succeeded with every
node run once and the results passed along, else 1. With --ramp: 0 when tickring held up beyond its knee on
every store (executed/s at least 90 % of its highest clean step's), 1 when it did not or it could not tell (the
peers' curves are there to compare with, not to pass).`;

export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Reads the command line; throws UsageError naming every bad flag and combination at once (joined
 * by "; "). `undefined` means --help.
 */
export function parseOptions(argv: readonly string[]): BenchOptions | undefined {
  let values: ReturnType<typeof parse>['values'];
  let positionals: string[];
  try {
    ({ values, positionals } = parse(argv));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (values.help) return undefined;
  const problems: string[] = [];
  const int = (flag: string, raw: string | undefined, fallback: number, min: number, max?: number) =>
    readInt(problems, flag, raw, fallback, min, max);
  const given = (flag: string) => values[flag as keyof typeof values] !== undefined;

  const rampChart = chartFiles(problems, values['ramp-chart'], positionals, given);
  const workflows =
    values.workflows === undefined
      ? undefined
      : int('--workflows', values.workflows, 0, 1, MAX_WORKFLOW_RUNS);
  if (workflows !== undefined) {
    for (const flag of JOBS_MODE_FLAGS.filter(given)) {
      problems.push(
        `--${flag} is a flag of the scheduled-jobs mode; --workflows takes --store, --executors, --shards, --out and --timeout`,
      );
    }
  }
  const kneeMax = int('--knee-max', values['knee-max'], DEFAULT_KNEE_MAX, 1);
  if (values['knee-max'] !== undefined && !values.knee && !values.ramp) {
    problems.push('--knee-max goes with --knee');
  }
  const ramp = values.ramp ? rampOptions(problems, values, given) : undefined;
  if (!values.ramp) {
    for (const flag of RAMP_ONLY_FLAGS.filter(given)) problems.push(`--${flag} goes with --ramp`);
  }
  let stores: BenchStore[] = ['sqlite'];
  try {
    stores = parseStores(values.store ?? 'sqlite');
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    problems.push(err.message);
  }
  let schedule: Schedule = { type: 'FIX_RATE', conf: '1', timeZone: 'UTC' };
  try {
    schedule = parseSchedule(values.schedule ?? 'FIX_RATE 1');
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    problems.push(err.message);
  }
  const stackLogs = values['stack-logs'] ?? 'silent';
  const stackLogLevel = CONSOLE_LOG_LEVELS.find((level) => level === stackLogs);
  if (stackLogLevel === undefined)
    problems.push(`--stack-logs must be one of ${CONSOLE_LOG_LEVELS.join(', ')}, got "${stackLogs}"`);
  const options: BenchOptions = {
    stores,
    jobs: int('--jobs', values.jobs, 200, 1),
    seconds: int('--seconds', values.seconds, 60, 1),
    warmupSeconds: int('--warmup', values.warmup, ramp ? RAMP_WARMUP_SECONDS : 10, 0),
    schedule,
    executors: int('--executors', values.executors, 1, 1),
    idleJobs: int('--idle-jobs', values['idle-jobs'], 0, 0, MAX_IDLE_JOBS),
    shards: int('--shards', values.shards, SETTINGS.shardCount.default, SETTINGS.shardCount.min),
    drainSeconds: int('--drain', values.drain, 30, 0),
    out: values.out ?? LATEST_JSON,
    timeoutSeconds: int('--timeout', values.timeout, ramp ? RAMP_TIMEOUT_SECONDS : 900, 1),
    stackLogLevel: stackLogLevel ?? 'silent',
    ...(workflows === undefined ? {} : { workflows }),
    ...(values.knee ? { knee: { max: kneeMax } } : {}),
    ...(ramp ? { ramp } : {}),
    ...(rampChart ? { rampChart } : {}),
  };
  if (problems.length > 0) throw new UsageError(problems.join('; '));
  return options;
}

/** A ramp step's warm-up unless --warmup says otherwise, s: the jobs it adds are few beside those running. */
export const RAMP_WARMUP_SECONDS = 5;
/** --timeout's default with --ramp: a knee search, the ramp per store and the peers' ramp, s. */
export const RAMP_TIMEOUT_SECONDS = 3600;

type Values = ReturnType<typeof parse>['values'];

function rampOptions(problems: string[], values: Values, given: (flag: string) => boolean): RampOptions {
  for (const flag of NOT_RAMP_FLAGS.filter(given)) {
    problems.push(`--${flag} is not a flag of --ramp (it runs FIX_RATE 1 jobs, as many as each step offers)`);
  }
  const start = readInt(problems, '--ramp-start', values['ramp-start'], 50, 1);
  const knee =
    values['ramp-max'] === undefined
      ? undefined
      : readInt(problems, '--ramp-max', values['ramp-max'], Number.NaN, 1);
  if (knee !== undefined && knee * RAMP_OVER_KNEE <= start) {
    problems.push(
      `--ramp-max ${knee} puts the ramp's top (${RAMP_OVER_KNEE} × ${knee}) at or below --ramp-start ${start}: nothing to climb`,
    );
  }
  const chart = values.chart;
  if (chart !== undefined && !chart.endsWith('.svg'))
    problems.push(`--chart writes an SVG: "${chart}" must end in .svg`);
  return {
    ...(knee === undefined ? {} : { knee }),
    start,
    stepSeconds: readInt(problems, '--ramp-seconds', values['ramp-seconds'], 15, 1),
    peers: parsePeers(problems, values['ramp-peers'] ?? 'bullmq'),
    ...(chart === undefined ? {} : { chart }),
  };
}

/** `bullmq`, or `none`. */
function parsePeers(problems: string[], spec: string): RampPeer[] {
  if (spec.trim() === 'none') return [];
  const names = spec.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(RAMP_PEERS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    problems.push(
      `--ramp-peers takes ${RAMP_PEERS.join(', ')} or none, got "${spec}" (unknown: ${unknown.map((n) => `"${n}"`).join(', ')})`,
    );
    return [];
  }
  return [...new Set(names as RampPeer[])];
}

/** `--ramp-chart JSON [JSON ...] SVG`: more JSON files and the SVG are positionals; nothing else goes with it. */
function chartFiles(
  problems: string[],
  first: string | undefined,
  positionals: readonly string[],
  given: (flag: string) => boolean,
): { from: string[]; to: string } | undefined {
  if (first === undefined) {
    if (positionals.length > 0) problems.push(`unexpected argument(s): ${positionals.join(' ')}`);
    return undefined;
  }
  const extra = FLAG_NAMES.filter((flag) => flag !== 'ramp-chart' && given(flag));
  if (extra.length > 0) {
    problems.push(`--ramp-chart takes only its files, not ${extra.map((flag) => `--${flag}`).join(', ')}`);
  }
  const to = positionals.at(-1);
  if (to === undefined) {
    problems.push("--ramp-chart takes the ramps' JSON files, then the SVG to write; got one file");
    return undefined;
  }
  const from = [first, ...positionals.slice(0, -1)];
  if (!to.endsWith('.svg'))
    problems.push(`--ramp-chart writes an SVG, the last file: "${to}" must end in .svg`);
  const notJson = from.filter((f) => !f.endsWith('.json'));
  if (notJson.length > 0) {
    problems.push(
      `--ramp-chart reads ramps' JSON files: ${notJson.map((f) => `"${f}"`).join(', ')} must end in .json`,
    );
  }
  return { from, to };
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

const FLAGS = {
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
  ramp: { type: 'boolean' },
  'ramp-max': { type: 'string' },
  'ramp-start': { type: 'string' },
  'ramp-seconds': { type: 'string' },
  'ramp-peers': { type: 'string' },
  chart: { type: 'string' },
  'ramp-chart': { type: 'string' },
  out: { type: 'string' },
  'stack-logs': { type: 'string' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Every flag's name (without its dashes). */
const FLAG_NAMES = Object.keys(FLAGS) as (keyof typeof FLAGS)[];

function parse(argv: readonly string[]) {
  return parseArgs({ args: [...argv], strict: true, allowPositionals: true, options: FLAGS });
}

/** A whole number flag, `fallback` when absent; a bad one is added to `problems` (and `fallback` returned). */
function readInt(
  problems: string[],
  flag: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isSafeInteger(value) || value < min) {
    problems.push(`${flag} must be a whole number >= ${min}, got "${raw}"`);
    return fallback;
  }
  if (value > max) {
    problems.push(`${flag} must be at most ${max}, got "${raw}"`);
    return fallback;
  }
  return value;
}
