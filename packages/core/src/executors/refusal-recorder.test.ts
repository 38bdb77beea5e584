import { FakeClock, MemoryRegistrationRefusalStore } from '@tickring/testing';
import { describe, expect, it } from 'vitest';
import type { LogAttributes, Logger } from '../common/logger.js';
import type { Group } from '../jobs/job.js';
import { type ExecutorRefusalEvent, refusalRecorder } from './refusal-recorder.js';
import type { RefusedRegistration } from './registration-refusals.js';

class RecordingLogger implements Logger {
  readonly lines: { level: string; message: string; attributes?: LogAttributes | undefined }[] = [];
  debug(message: string, attributes?: LogAttributes) {
    this.lines.push({ level: 'debug', message, attributes });
  }
  info(message: string, attributes?: LogAttributes) {
    this.lines.push({ level: 'info', message, attributes });
  }
  warn(message: string, attributes?: LogAttributes) {
    this.lines.push({ level: 'warn', message, attributes });
  }
  error(message: string, attributes?: LogAttributes) {
    this.lines.push({ level: 'error', message, attributes });
  }
}

const SETTINGS = { writeEveryMs: 10_000, logEveryMs: 60_000, maxKeys: 100 };

function fixture(knownGroups: readonly string[] = ['app']) {
  const clock = new FakeClock(1_000_000);
  const logger = new RecordingLogger();
  const store = new MemoryRegistrationRefusalStore({ clock });
  const adds: RefusedRegistration[] = [];
  let failing = false;
  const groupReads: string[] = [];
  const record = refusalRecorder(
    {
      refusals: {
        add: async (refusals) => {
          if (failing) throw new Error('store down');
          adds.push(refusals);
          await store.add(refusals);
        },
      },
      groups: {
        get: async (appName) => {
          groupReads.push(appName);
          return knownGroups.includes(appName) ? ({ appName } as Group) : undefined;
        },
      },
      clock,
      logger,
    },
    SETTINGS,
  );
  const warns = () => logger.lines.filter((l) => l.level === 'warn');
  return {
    clock,
    logger,
    store,
    adds,
    record,
    warns,
    groupReads,
    fail: (on: boolean) => {
      failing = on;
    },
  };
}

const event = (more: Partial<ExecutorRefusalEvent> = {}): ExecutorRefusalEvent => ({
  request: 'registry',
  appName: 'app',
  address: 'http://10.0.0.5:9999/',
  reason: 'wrong-token',
  detail: 'The access token is wrong.',
  ...more,
});

describe('refusalRecorder', () => {
  it('writes a key at once, then at most every writeEveryMs with every refusal since', async () => {
    const f = fixture();
    await f.record(event());
    expect(f.adds.map((a) => a.count)).toEqual([1]);
    f.clock.advance(1_000);
    for (let i = 0; i < 500; i++) await f.record(event());
    expect(f.adds).toHaveLength(1);
    f.clock.advance(9_000);
    await f.record(event());
    expect(f.adds.map((a) => a.count)).toEqual([1, 501]);
    expect(f.adds[1]?.firstSeen).toBe(1_001_000);
    const [stored] = await f.store.list();
    expect(stored).toMatchObject({ count: 502, firstSeen: 1_000_000, lastSeen: 1_010_000 });
  });

  it('writes every refusal of an executor retrying every 30 s', async () => {
    const f = fixture();
    for (let i = 0; i < 5; i++) {
      await f.record(event());
      f.clock.advance(30_000);
    }
    expect(f.adds.map((a) => a.count)).toEqual([1, 1, 1, 1, 1]);
  });

  it('keeps the keys apart: another address, reason or app name is written at once', async () => {
    const f = fixture(['app', 'other']);
    await f.record(event());
    await f.record(event({ address: 'http://10.0.0.6:9999/' }));
    await f.record(event({ reason: 'missing-token' }));
    await f.record(event({ appName: 'other' }));
    expect(f.adds).toHaveLength(4);
  });

  it('logs a warn line per key at most once a minute, with the refusals since the last line', async () => {
    const f = fixture();
    await f.record(event());
    f.clock.advance(30_000);
    await f.record(event());
    f.clock.advance(30_000);
    await f.record(event());
    await f.record(event({ address: 'http://10.0.0.6:9999/' }));
    expect(f.warns()).toEqual([
      {
        level: 'warn',
        message: 'executor registration refused',
        attributes: expect.objectContaining({ appName: 'app', reason: 'wrong-token', count: 1 }),
      },
      {
        level: 'warn',
        message: 'executor registration refused',
        attributes: expect.objectContaining({ address: 'http://10.0.0.5:9999/', count: 2 }),
      },
      {
        level: 'warn',
        message: 'executor registration refused',
        attributes: expect.objectContaining({ address: 'http://10.0.0.6:9999/', count: 1 }),
      },
    ]);
  });

  it('calls a wrong token under an app name no group has an unknown app name, reading the group once per 30 s', async () => {
    const f = fixture(['app']);
    await f.record(event({ appName: 'ap' }));
    await f.record(event({ appName: 'ap', address: 'http://10.0.0.6:9999/' }));
    await f.record(event({ appName: 'app' }));
    // A callback names no group of its own, and another reason stays what it is.
    await f.record(event({ appName: 'ap', request: 'callback' }));
    await f.record(event({ appName: 'ap', reason: 'missing-token' }));
    expect(f.adds.map((a) => [a.appName, a.request, a.reason])).toEqual([
      ['ap', 'registry', 'unknown-app-name'],
      ['ap', 'registry', 'unknown-app-name'],
      ['app', 'registry', 'wrong-token'],
      ['ap', 'callback', 'wrong-token'],
      ['ap', 'registry', 'missing-token'],
    ]);
    expect(f.groupReads).toEqual(['ap', 'app']);
    f.clock.advance(30_000);
    await f.record(event({ appName: 'ap' }));
    expect(f.groupReads).toEqual(['ap', 'app', 'ap']);
  });

  it('logs a failed write and adds its refusals to the next one', async () => {
    const f = fixture();
    f.fail(true);
    await f.record(event());
    expect(f.logger.lines.some((l) => l.level === 'error')).toBe(true);
    f.fail(false);
    f.clock.advance(10_000);
    await f.record(event());
    expect(f.adds.map((a) => a.count)).toEqual([2]);
  });
});
