import { SETTINGS } from '@tickring/core/config';
import { describe, expect, it } from 'vitest';
import { LATEST_JSON, MAX_WORKFLOW_RUNS, parseOptions, parseSchedule, UsageError } from './options.js';

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
