import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAwsClients, destroyAwsClients } from '@tickring/aws/clients';
import { type LogAttributes, type Logger, systemClock } from '@tickring/core/common';
import { ConfigError, ENV } from '@tickring/core/config';
import { SqliteRingQueue } from '@tickring/embedded/sqlite';
import { testGroup, testJob, testRun } from '@tickring/testing';
import { afterAll, describe, expect, it } from 'vitest';
import * as api from '../api/config.js';
import * as callback from '../callback/config.js';
import * as dispatcher from '../dispatcher/config.js';
import * as monitors from '../monitors/config.js';
import * as tick from '../scheduler-tick/config.js';
import { loadStoreConfig } from './store-config.js';
import { createStoreKit } from './stores.js';
import { closeSharedEmbeddedDatabase, sharedEmbeddedDatabase, sqliteRingSourceArn } from './stores-sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'tickring-stores-'));
const clients = createAwsClients({ region: 'us-east-1' });

afterAll(() => {
  destroyAwsClients(clients);
  rmSync(dir, { recursive: true, force: true });
});

function recordingLogger(): Logger & {
  lines: { level: string; message: string; attributes?: LogAttributes }[];
} {
  const lines: { level: string; message: string; attributes?: LogAttributes }[] = [];
  const at = (level: string) => (message: string, attributes?: LogAttributes) =>
    lines.push({ level, message, ...(attributes ? { attributes } : {}) });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

const tokens = { [ENV.adminToken]: 'adm1n', [ENV.accessToken]: 'acc3ss', [ENV.tokenKey]: 'k3y' };

describe('the store choice (TICKRING_STORE)', () => {
  const dynamoParts = {
    tables: { jobs: 'jobs', control: 'control' },
    queueUrls: { fast: 'http://sqs/q/fast', slow: 'http://sqs/q/slow' },
  };

  it('is DynamoDB when unset or `dynamodb`: what the function config reads for it', () => {
    expect(loadStoreConfig({}, () => dynamoParts)).toEqual({ kind: 'dynamodb', ...dynamoParts });
    expect(loadStoreConfig({ [ENV.store]: 'dynamodb' }, () => dynamoParts)).toEqual({
      kind: 'dynamodb',
      ...dynamoParts,
    });
  });

  it('is SQLite with only the database file: none of the DynamoDB side is read', () => {
    const unread = () => {
      throw new Error('read the DynamoDB side');
    };
    expect(loadStoreConfig({ [ENV.store]: 'sqlite', [ENV.sqliteFile]: '/data/tickring.db' }, unread)).toEqual(
      {
        kind: 'sqlite',
        file: '/data/tickring.db',
      },
    );
    expect(() => loadStoreConfig({ [ENV.store]: 'sqlite' }, unread)).toThrow(ENV.sqliteFile);
    const wrong = () => loadStoreConfig({ [ENV.store]: 'postgres' }, unread);
    expect(wrong).toThrow(ConfigError);
    expect(wrong).toThrow(`${ENV.store} must be one of dynamodb, sqlite, got "postgres"`);
  });

  it('lets every function that has stores start on SQLite with its tokens and the file alone', () => {
    const env = { ...tokens, [ENV.store]: 'sqlite', [ENV.sqliteFile]: '/data/tickring.db' };
    const store = { kind: 'sqlite', file: '/data/tickring.db' };
    expect(api.loadConfig(env).store).toEqual(store);
    expect(dispatcher.loadConfig(env).store).toEqual(store);
    expect(tick.loadConfig(env).store).toEqual(store);
    expect(callback.loadConfig(env).store).toEqual(store);
    expect(monitors.loadConfig(env).store).toEqual(store);
  });
});

describe('the store kit', () => {
  it('on SQLite: the functions of one process share one database per file, so one sees what another wrote', async () => {
    const file = join(dir, 'shared.db');
    const runtime = { clients, clock: systemClock, logger: recordingLogger() };
    const apiStores = createStoreKit({ kind: 'sqlite', file }, runtime);
    const dispatcherStores = createStoreKit({ kind: 'sqlite', file }, runtime);
    expect(apiStores.kind).toBe('sqlite');
    expect(sharedEmbeddedDatabase(file)).toBe(sharedEmbeddedDatabase(join(dir, '.', 'shared.db')));

    await apiStores.groups().create(testGroup({ appName: 'shared-app' }));
    const job = testJob({ id: await apiStores.jobs(4).allocateId(), appName: 'shared-app' });
    await apiStores.jobs(4).create(job);
    expect(await dispatcherStores.groups().get('shared-app')).toMatchObject({ appName: 'shared-app' });
    expect(await dispatcherStores.jobs(4).get(job.id)).toMatchObject({ id: job.id, appName: 'shared-app' });

    // The ring of one is the ring of the other (and it is durable: it is in the file).
    await apiStores.ring().enqueue([
      {
        message: { jobId: job.id, scheduledTime: Date.now(), triggerType: 'API', dedupKey: 'k' },
        delaySeconds: 0,
        lane: 'fast',
      },
    ]);
    closeSharedEmbeddedDatabase(file);
    const reopened = createStoreKit({ kind: 'sqlite', file }, runtime);
    expect(await reopened.jobs(4).get(job.id)).toMatchObject({ id: job.id });
    const ring = new SqliteRingQueue({ database: sharedEmbeddedDatabase(file) });
    expect(await ring.receive('fast', { visibilitySeconds: 30 })).toMatchObject([
      { fires: [{ jobId: job.id }] },
    ]);
    closeSharedEmbeddedDatabase(file);
  });

  it('on SQLite: an alarm is an error line with its payload in the function log (there is no topic)', async () => {
    const file = join(dir, 'alarms.db');
    const logger = recordingLogger();
    const stores = createStoreKit({ kind: 'sqlite', file }, { clients, clock: systemClock, logger });
    const job = testJob({ id: 7, appName: 'alarm-app', alarmEmail: 'ops@example.com' });
    const run = testRun({
      logId: 7 * 2 ** 32,
      jobId: 7,
      appName: 'alarm-app',
      dedupKey: 'd',
      scheduledTime: 0,
    });
    expect(await stores.alarms().publish({ job, run, summary: 'job 7 failed' })).toBe(true);
    expect(logger.lines).toEqual([
      // Recorded for the alert channels first (the job and its group name none)...
      {
        level: 'info',
        message: 'alert recorded',
        attributes: expect.objectContaining({ jobId: 7, kind: 'runFailed', state: 'unrouted' }),
      },
      // ...then, the window's first, on the job's own path: the log.
      {
        level: 'error',
        message: 'alarm',
        attributes: expect.objectContaining({
          summary: 'job 7 failed',
          job: expect.objectContaining({ id: 7, appName: 'alarm-app', alarmEmail: 'ops@example.com' }),
          run: expect.objectContaining({ logId: 7 * 2 ** 32 }),
        }),
      },
    ]);
    // The window's next alarm is counted, not logged again.
    expect(await stores.alarms().publish({ job, run, summary: 'job 7 failed' })).toBe(true);
    expect(logger.lines).toHaveLength(2);
    closeSharedEmbeddedDatabase(file);
  });

  it('tells a ring record’s lane by the queue it came from, on either technology', () => {
    const runtime = { clients, clock: systemClock, logger: recordingLogger() };
    const dynamo = createStoreKit(
      {
        kind: 'dynamodb',
        tables: {},
        queueUrls: {
          fast: 'http://sqs/000000000000/p-ring-fast',
          slow: 'http://sqs/000000000000/p-ring-slow',
        },
      },
      runtime,
    );
    expect(dynamo.laneOf('arn:aws:sqs:us-east-1:000000000000:p-ring-slow')).toBe('slow');
    expect(dynamo.laneOf('arn:aws:sqs:us-east-1:000000000000:p-ring-fast')).toBe('fast');
    expect(() => dynamo.alarms()).toThrow('the alarm topic is not in this function');
    expect(() => dynamo.jobs(4)).toThrow('the jobs table is not in this function');

    const file = join(dir, 'lanes.db');
    const sqlite = createStoreKit({ kind: 'sqlite', file }, runtime);
    expect(sqlite.laneOf(sqliteRingSourceArn('slow'))).toBe('slow');
    expect(sqlite.laneOf(sqliteRingSourceArn('fast'))).toBe('fast');
    expect(sqlite.laneOf(undefined)).toBe('fast');
    closeSharedEmbeddedDatabase(file);
  });
});
