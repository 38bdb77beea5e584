import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../test/fake-clock.js';
import { makeJob } from '../../test/jobs.js';
import { NotFoundError, ValidationError } from '../domain/errors.js';
import type { Job } from '../domain/job.js';
import { silentLogger } from '../ports/logger.js';
import type { RingEntry } from '../ports/ring-queue.js';
import { type AdminTriggerDeps, parseManualTrigger, triggerJob } from './admin-trigger.js';

function fakes(jobs: Job[] = []) {
  const enqueued: RingEntry[] = [];
  const deps: AdminTriggerDeps = {
    jobs: { get: async (id) => jobs.find((j) => j.id === id) },
    ring: {
      enqueue: async (entries) => {
        enqueued.push(...entries);
      },
    },
    clock: new FakeClock(1_700_000_000_000),
    logger: silentLogger,
    newId: () => 'uuid-1',
  };
  return { deps, enqueued };
}

describe('triggerJob', () => {
  it('puts one MANUAL fire for now on the fast ring queue with no delay, under a fresh manual# key', async () => {
    const { deps, enqueued } = fakes([makeJob({ id: 4 })]);
    const accepted = await triggerJob(deps, 4, undefined);
    expect(accepted).toEqual({ jobId: 4, dedupKey: 'manual#uuid-1', scheduledTime: 1_700_000_000_000 });
    expect(enqueued).toEqual([
      {
        lane: 'fast',
        delaySeconds: 0,
        message: {
          jobId: 4,
          scheduledTime: 1_700_000_000_000,
          triggerType: 'MANUAL',
          dedupKey: 'manual#uuid-1',
        },
      },
    ]);
  });

  it('carries the overrides for this run only', async () => {
    const { deps, enqueued } = fakes([makeJob({ id: 4, executorParam: 'job param' })]);
    await triggerJob(deps, 4, { executorParam: 'once', addressList: ['http://10.0.0.1:9999'] });
    expect(enqueued[0]?.message).toMatchObject({
      executorParam: 'once',
      addressList: ['http://10.0.0.1:9999/'],
    });
  });

  it('fires a stopped job and a NONE schedule (XXL-JOB allows it)', async () => {
    const { deps, enqueued } = fakes([
      makeJob({ id: 5, triggerStatus: 'STOPPED', scheduleType: 'NONE', scheduleConf: '' }),
    ]);
    await triggerJob(deps, 5, {});
    expect(enqueued).toHaveLength(1);
  });

  it('answers NotFoundError for a job that does not exist, enqueuing nothing', async () => {
    const { deps, enqueued } = fakes();
    await expect(triggerJob(deps, 99, {})).rejects.toBeInstanceOf(NotFoundError);
    expect(enqueued).toEqual([]);
  });

  it('uses a new key for every trigger by default', async () => {
    const { deps, enqueued } = fakes([makeJob({ id: 4 })]);
    const { newId: _fixed, ...withRandomIds } = deps;
    const a = await triggerJob(withRandomIds, 4, {});
    const b = await triggerJob(withRandomIds, 4, {});
    expect(a.dedupKey).toMatch(/^manual#[0-9a-f-]{36}$/);
    expect(a.dedupKey).not.toBe(b.dedupKey);
    expect(enqueued).toHaveLength(2);
  });
});

describe('parseManualTrigger', () => {
  it('takes an empty body, {} and nulls as a plain trigger', () => {
    expect(parseManualTrigger(undefined)).toEqual({});
    expect(parseManualTrigger({})).toEqual({});
    expect(parseManualTrigger({ executorParam: null, addressList: null })).toEqual({});
  });

  it('keeps an empty executorParam as an override, and drops an empty address list', () => {
    expect(parseManualTrigger({ executorParam: '', addressList: [] })).toEqual({ executorParam: '' });
  });

  it('accepts http(s) and lambda: addresses, as an array or XXL-JOB’s comma-separated string', () => {
    expect(
      parseManualTrigger({
        addressList: 'http://10.0.0.1:9999/, https://exec.example.com ,lambda:executor-runner,',
      }),
    ).toEqual({
      addressList: ['http://10.0.0.1:9999/', 'https://exec.example.com/', 'lambda:executor-runner'],
    });
    expect(
      parseManualTrigger({
        addressList: ['lambda:arn:aws:lambda:us-east-1:123456789012:function:runner:live', 'http://a:1'],
      }).addressList,
    ).toEqual(['lambda:arn:aws:lambda:us-east-1:123456789012:function:runner:live', 'http://a:1/']);
  });

  it('drops duplicate addresses', () => {
    expect(parseManualTrigger({ addressList: ['http://a:1', 'http://a:1/'] }).addressList).toEqual([
      'http://a:1/',
    ]);
  });

  it.each([
    ['a body that is not an object', [1], 'body'],
    ['a string body', 'x', 'body'],
    ['an unknown field', { executorParams: 'x' }, 'executorParams'],
    ['an executorParam over 2048 characters', { executorParam: 'p'.repeat(2049) }, 'executorParam'],
    ['a numeric executorParam', { executorParam: 3 }, 'executorParam'],
    ['a tcp address', { addressList: ['tcp://10.0.0.1:9999'] }, 'addressList'],
    ['a bare host', { addressList: ['10.0.0.1:9999'] }, 'addressList'],
    ['an empty lambda name', { addressList: ['lambda:'] }, 'addressList'],
    ['a lambda name with spaces', { addressList: ['lambda:my fn'] }, 'addressList'],
    ['a non-string entry', { addressList: [42] }, 'addressList'],
    ['an object for addressList', { addressList: { a: 1 } }, 'addressList'],
    [
      'more than 100 addresses',
      { addressList: Array.from({ length: 101 }, (_, i) => `http://h${i}:1`) },
      'addressList',
    ],
  ])('refuses %s, naming %s', (_label, body, field) => {
    let error: unknown;
    try {
      parseManualTrigger(body);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ field });
    expect((error as Error).message).toContain(field === 'body' ? 'body' : field);
  });

  it('accepts an executorParam of exactly 2048 characters', () => {
    expect(parseManualTrigger({ executorParam: 'p'.repeat(2048) }).executorParam).toHaveLength(2048);
  });
});
