import { SETTINGS } from '@tickring/core/config';
import { describe, expect, it } from 'vitest';
import {
  LATEST_JSON,
  MAX_WORKFLOW_RUNS,
  parseOptions,
  parseSchedule,
  RAMP_TIMEOUT_SECONDS,
  RAMP_WARMUP_SECONDS,
  UsageError,
} from './options.js';

/** The UsageError's message for `argv` (fails the test when there is none). */
function refusal(argv: readonly string[]): string {
  try {
    parseOptions(argv);
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error(`${argv.join(' ')} was not refused`);
}

describe('parseOptions', () => {
  it('reads --store: one store, both in the order given, or "both" (SQLite first)', () => {
    expect(parseOptions(['--store', 'sqlite'])?.stores).toEqual(['sqlite']);
    expect(parseOptions(['--store', 'dynamodb-local,sqlite'])?.stores).toEqual(['dynamodb-local', 'sqlite']);
    expect(parseOptions(['--store', 'both'])?.stores).toEqual(['sqlite', 'dynamodb-local']);
    expect(parseOptions(['--store', 'both', '--workflows', '10'])?.stores).toEqual([
      'sqlite',
      'dynamodb-local',
    ]);
  });

  it('refuses an unknown store, naming it and the stores there are, and a store named twice', () => {
    expect(() => parseOptions(['--store', 'sqlite,postgres'])).toThrow(
      /--store takes sqlite, dynamodb-local, both.*got "sqlite,postgres" \(unknown: "postgres"\)/,
    );
    expect(() => parseOptions(['--store', ''])).toThrow(UsageError);
    expect(() => parseOptions(['--store', 'sqlite,sqlite'])).toThrow(/sqlite more than once/);
  });

  it('reads --knee with its most jobs, which goes with --knee only and not with --workflows', () => {
    expect(parseOptions([])).not.toHaveProperty('knee');
    expect(parseOptions(['--knee'])?.knee).toEqual({ max: 5000 });
    expect(parseOptions(['--knee', '--knee-max', '3000'])?.knee).toEqual({ max: 3000 });
    expect(() => parseOptions(['--knee-max', '3000'])).toThrow(/--knee-max goes with --knee/);
    expect(() => parseOptions(['--workflows', '10', '--knee'])).toThrow(
      /--knee is a flag of the scheduled-jobs mode/,
    );
  });

  it('has the documented defaults, with the shard count of the settings', () => {
    expect(parseOptions([])).toEqual({
      stores: ['sqlite'],
      jobs: 200,
      seconds: 60,
      warmupSeconds: 10,
      schedule: { type: 'FIX_RATE', conf: '1', timeZone: 'UTC' },
      executors: 1,
      idleJobs: 0,
      shards: SETTINGS.shardCount.default,
      drainSeconds: 30,
      out: LATEST_JSON,
      timeoutSeconds: 900,
      stackLogLevel: 'silent',
    });
  });

  it('reads every flag', () => {
    const options = parseOptions([
      '--jobs',
      '1000',
      '--seconds',
      '30',
      '--warmup',
      '0',
      '--schedule',
      '*/2 * * * * ?',
      '--executors',
      '3',
      '--idle-jobs',
      '100000',
      '--shards',
      '8',
      '--drain',
      '0',
      '--out',
      '/tmp/b.json',
      '--timeout',
      '600',
      '--store',
      'dynamodb-local',
      '--stack-logs',
      'warn',
    ]);
    expect(options).toEqual({
      stores: ['dynamodb-local'],
      jobs: 1000,
      seconds: 30,
      warmupSeconds: 0,
      schedule: { type: 'CRON', conf: '*/2 * * * * ?', timeZone: 'UTC' },
      executors: 3,
      idleJobs: 100_000,
      shards: 8,
      drainSeconds: 0,
      out: '/tmp/b.json',
      timeoutSeconds: 600,
      stackLogLevel: 'warn',
    });
  });

  it('reads --workflows (the workflow mode) beside the flags it takes; the jobs mode has none', () => {
    expect(parseOptions([])).not.toHaveProperty('workflows');
    const options = parseOptions([
      '--workflows',
      '30',
      '--executors',
      '2',
      '--shards',
      '8',
      '--timeout',
      '300',
    ]);
    expect(options).toMatchObject({
      workflows: 30,
      executors: 2,
      shards: 8,
      timeoutSeconds: 300,
      out: LATEST_JSON,
    });
    expect(parseOptions(['--workflows=1'])?.workflows).toBe(1);
    expect(parseOptions(['--workflows', String(MAX_WORKFLOW_RUNS)])?.workflows).toBe(MAX_WORKFLOW_RUNS);
  });

  it.each([
    [['--workflows', '0'], '--workflows must be a whole number >= 1, got "0"'],
    [['--workflows', 'some'], '--workflows must be a whole number >= 1, got "some"'],
    [['--workflows', '1001'], '--workflows must be at most 1000, got "1001"'],
    [
      ['--workflows', '5', '--jobs', '10'],
      '--jobs is a flag of the scheduled-jobs mode; --workflows takes --store, --executors, --shards, --out and --timeout',
    ],
    [
      ['--seconds', '5', '--workflows', '5'],
      '--seconds is a flag of the scheduled-jobs mode; --workflows takes --store, --executors, --shards, --out and --timeout',
    ],
  ])('refuses %j for the workflow mode', (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(new UsageError(message));
  });

  it('refuses --workflows without its number (every flag takes a value)', () => {
    expect(() => parseOptions(['--workflows'])).toThrow(UsageError);
    expect(() => parseOptions(['--workflows'])).toThrow(/--workflows/);
    for (const flag of ['--schedule', '--idle-jobs', '--warmup', '--drain']) {
      expect(() => parseOptions(['--workflows', '2', flag, '1'])).toThrow(new RegExp(`^${flag} is a flag`));
    }
  });

  it('returns undefined for --help and -h', () => {
    expect(parseOptions(['--help'])).toBeUndefined();
    expect(parseOptions(['-h'])).toBeUndefined();
  });

  it.each([
    [['--jobs', '0'], '--jobs must be a whole number >= 1, got "0"'],
    [['--idle-jobs', '1097153'], '--idle-jobs must be at most 1097152, got "1097153"'],
    [['--jobs', 'many'], '--jobs must be a whole number >= 1, got "many"'],
    [['--seconds', '1.5'], '--seconds must be a whole number >= 1, got "1.5"'],
    [['--idle-jobs=-1'], '--idle-jobs must be a whole number >= 0, got "-1"'],
    [['--shards', ''], '--shards must be a whole number >= 1, got ""'],
    [['--executors', '0'], '--executors must be a whole number >= 1, got "0"'],
    [['--stack-logs', 'loud'], '--stack-logs must be one of silent, error, warn, info, debug, got "loud"'],
  ])('refuses %j naming the flag', (argv, message) => {
    expect(() => parseOptions(argv)).toThrow(new UsageError(message));
  });

  it('refuses unknown flags and stray arguments', () => {
    expect(() => parseOptions(['--quick'])).toThrow(UsageError);
    expect(() => parseOptions(['--quick'])).toThrow(/--quick/);
    expect(() => parseOptions(['200'])).toThrow(UsageError);
    expect(() => parseOptions(['--jobs'])).toThrow(/--jobs/);
  });
});

describe('parseOptions --ramp', () => {
  it("has the ramp's defaults: from 50 fires/s, 15 s steps with a 5 s warm-up, BullMQ after, a longer timeout", () => {
    const options = parseOptions(['--ramp']);
    expect(options?.ramp).toEqual({ start: 50, stepSeconds: 15, peers: ['bullmq'] });
    expect(options).toMatchObject({
      stores: ['sqlite'],
      warmupSeconds: RAMP_WARMUP_SECONDS,
      drainSeconds: 30,
      timeoutSeconds: RAMP_TIMEOUT_SECONDS,
    });
    expect(parseOptions([])).not.toHaveProperty('ramp');
  });

  it('reads every ramp flag beside the ones it shares with a run', () => {
    const options = parseOptions([
      '--ramp',
      '--ramp-max',
      '700',
      '--ramp-start',
      '100',
      '--ramp-seconds',
      '15',
      '--ramp-peers',
      'none',
      '--chart',
      'docs/images/overload-curve.svg',
      '--store',
      'both',
      '--warmup',
      '3',
      '--drain',
      '10',
      '--timeout',
      '1200',
    ]);
    expect(options?.ramp).toEqual({
      knee: 700,
      start: 100,
      stepSeconds: 15,
      peers: [],
      chart: 'docs/images/overload-curve.svg',
    });
    expect(options).toMatchObject({
      stores: ['sqlite', 'dynamodb-local'],
      warmupSeconds: 3,
      drainSeconds: 10,
      timeoutSeconds: 1200,
    });
    expect(parseOptions(['--ramp', '--ramp-peers', 'bullmq'])?.ramp?.peers).toEqual(['bullmq']);
  });

  it('refuses bad combinations naming every problem at once', () => {
    const message = refusal([
      '--ramp',
      '--jobs',
      '10',
      '--knee',
      '--ramp-peers',
      'kafka',
      '--chart',
      'curve.png',
      '--ramp-max',
      '10',
      '--ramp-start',
      '40',
      '--ramp-seconds',
      '0',
    ]);
    const problems = message.split('; ');
    expect(problems).toEqual(
      expect.arrayContaining([
        '--jobs is not a flag of --ramp (it runs FIX_RATE 1 jobs, as many as each step offers)',
        '--knee is not a flag of --ramp (it runs FIX_RATE 1 jobs, as many as each step offers)',
        '--ramp-peers takes bullmq or none, got "kafka" (unknown: "kafka")',
        '--chart writes an SVG: "curve.png" must end in .svg',
        "--ramp-max 10 puts the ramp's top (3 × 10) at or below --ramp-start 40: nothing to climb",
        '--ramp-seconds must be a whole number >= 1, got "0"',
      ]),
    );
    expect(problems).toHaveLength(6);
  });

  it("refuses the ramp's own flags without --ramp, each named", () => {
    expect(refusal(['--ramp-max', '100', '--chart', 'a.svg', '--ramp-peers', 'none'])).toBe(
      '--ramp-max goes with --ramp; --ramp-peers goes with --ramp; --chart goes with --ramp',
    );
  });

  it('refuses two bad numbers of a plain run together', () => {
    expect(refusal(['--jobs', '0', '--executors', 'two'])).toBe(
      '--jobs must be a whole number >= 1, got "0"; --executors must be a whole number >= 1, got "two"',
    );
  });
});

describe('parseOptions --ramp-chart', () => {
  it("reads the ramps' JSON files and the SVG to write, last", () => {
    expect(
      parseOptions(['--ramp-chart', '.bench/ramp.json', 'docs/images/overload-curve.svg'])?.rampChart,
    ).toEqual({ from: ['.bench/ramp.json'], to: 'docs/images/overload-curve.svg' });
    expect(parseOptions(['--ramp-chart', 'sqlite.json', 'dynamo.json', 'curve.svg'])?.rampChart).toEqual({
      from: ['sqlite.json', 'dynamo.json'],
      to: 'curve.svg',
    });
  });

  it('refuses a missing SVG, files of the wrong kind and any other flag, all at once', () => {
    expect(refusal(['--ramp-chart', 'r.json'])).toBe(
      "--ramp-chart takes the ramps' JSON files, then the SVG to write; got one file",
    );
    expect(refusal(['--ramp-chart', 'r.txt', 'curve.png', '--store', 'sqlite', '--ramp'])).toBe(
      '--ramp-chart takes only its files, not --store, --ramp; ' +
        '--ramp-chart writes an SVG, the last file: "curve.png" must end in .svg; ' +
        '--ramp-chart reads ramps\' JSON files: "r.txt" must end in .json',
    );
  });

  it('refuses a stray argument without --ramp-chart', () => {
    expect(refusal(['--jobs', '5', 'curve.svg'])).toBe('unexpected argument(s): curve.svg');
  });
});

describe('parseSchedule', () => {
  it('reads FIX_RATE with its seconds and anything else as a Quartz cron in UTC', () => {
    expect(parseSchedule('FIX_RATE 5')).toEqual({ type: 'FIX_RATE', conf: '5', timeZone: 'UTC' });
    expect(parseSchedule(' fix_rate  1 ')).toEqual({ type: 'FIX_RATE', conf: '1', timeZone: 'UTC' });
    expect(parseSchedule('0/5 * * * * ?')).toEqual({ type: 'CRON', conf: '0/5 * * * * ?', timeZone: 'UTC' });
  });

  it('refuses what the domain refuses, naming --schedule', () => {
    expect(() => parseSchedule('FIX_RATE 0')).toThrow(/^--schedule: FIX_RATE scheduleConf must be between 1/);
    expect(() => parseSchedule('every second')).toThrow(UsageError);
    expect(() => parseSchedule('every second')).toThrow(/--schedule/);
  });
});
