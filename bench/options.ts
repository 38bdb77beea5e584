import { parseArgs } from 'node:util';
import { SETTINGS } from '../shared/config/settings.js';
import { isAppError } from '../shared/domain/errors.js';
import { type Schedule, validateSchedule } from '../shared/domain/schedule/index.js';
import type { Workload } from './benchmark.js';
import { MAX_IDLE_JOBS } from './workload.js';

/** What one benchmark run does; see {@link USAGE}. */
export interface BenchOptions extends Workload {
  /** Where the JSON goes (besides stdout's last line). */
  readonly out: string;
  /** The whole bench is abandoned (and cleaned up) after this long, s. */
  readonly timeoutSeconds: number;
}

export const LATEST_JSON = '.bench/latest.json';

export const USAGE = `npm run bench -- [options]

Runs the whole local stack (tick -> SQS ring -> dispatcher -> SDK executors over HTTP -> callback)
against DynamoDB Local and the SQS stand-in, which it starts and stops on 127.0.0.1; prints a summary
and, as the last line, one JSON object (also written to ${LATEST_JSON}).

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
  --out FILE          write the JSON here too (default ${LATEST_JSON}; it is always written there)
  --timeout S         give up, cleaning up, after this many seconds (default 900)
  -h, --help

Exit code: 0 when every expected fire ran once and in order, 1 when some were missed, duplicated or
out of order (or the bench failed), 2 for a bad command line.`;

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
  return {
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
  };
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
