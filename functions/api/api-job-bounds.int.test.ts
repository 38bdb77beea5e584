import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type LocalStack, startLocal } from '../../local/start-local.js';
import { adminApiCaller } from '../../test/api-call.js';

/** A job's bounds, limits and jitter, and the preview's DST marks, through the admin API (answers checked against the document). */

let stack: LocalStack;
const suffix = randomUUID().slice(0, 8);
const APP = `bounds-app-${suffix}`;

const call = adminApiCaller(() => stack);

const baseJob = { appName: APP, name: 'bounded', author: 'ops', executorHandler: 'demoJobHandler' };

beforeAll(async () => {
  stack = await startLocal({
    standIns: inject('standIns'),
    port: 0,
    inMemory: true,
    demo: false,
    logLevel: 'silent',
    resourcePrefix: `bounds-${suffix}-`,
    tickPeriodMs: 3_600_000,
  });
  expect(
    (await call('POST', '/v1/groups', { appName: APP, title: 'bounds', addressType: 'AUTO' })).status,
  ).toBe(201);
});

afterAll(async () => {
  await stack?.stop();
});

describe('a job’s bounds, limits and jitter', () => {
  it('lists every problem of the bounds in one 400: endAt before startAt, maxRuns 0, jitter too large', async () => {
    const reply = await call('POST', '/v1/jobs', {
      ...baseJob,
      scheduleType: 'FIX_RATE',
      scheduleConf: '60',
      startAt: '2031-01-02T00:00:00Z',
      endAt: '2031-01-01T00:00:00Z',
      maxRuns: 0,
      jitterSeconds: 4000,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.problems.map((p: { field: string }) => p.field).sort()).toEqual([
      'endAt',
      'jitterSeconds',
      'maxRuns',
    ]);
    // Well-formed but too large for the schedule: the jitter's own message says the interval.
    const tooLarge = await call('POST', '/v1/jobs', {
      ...baseJob,
      scheduleType: 'FIX_RATE',
      scheduleConf: '60',
      jitterSeconds: 60,
      maxRuns: 0,
    });
    expect(tooLarge.body.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          field: 'jitterSeconds',
          message: expect.stringContaining('smallest interval between fires (60 s)'),
        }),
        expect.objectContaining({ field: 'maxRuns' }),
      ]),
    );
  });

  it('shows the bounds, runs remaining and jitter; null clears a bound; a GET body goes back whole', async () => {
    const created = await call('POST', '/v1/jobs', {
      ...baseJob,
      scheduleType: 'CRON',
      scheduleConf: '0 0 * * * ?',
      startAt: '2031-01-01T00:00:00+01:00',
      endAt: '2031-02-01T00:00:00Z',
      maxRuns: 5,
      jitterSeconds: 120,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      startAt: '2030-12-31T23:00:00.000Z',
      endAt: '2031-02-01T00:00:00.000Z',
      maxRuns: 5,
      runsRemaining: 5,
      jitterSeconds: 120,
      scheduleEnded: null,
    });
    const id = created.body.id;
    const sentBack = await call('PUT', `/v1/jobs/${id}`, { ...created.body, startAt: null });
    expect(sentBack.status).toBe(200);
    expect(sentBack.body).toMatchObject({ startAt: null, maxRuns: 5 });
    const started = await call('POST', `/v1/jobs/${id}/start`);
    expect(started.body).toMatchObject({ triggerStatus: 'RUNNING' });
  });

  it('refuses to start a job whose endAt has passed (409), and starts it when the same update moves endAt', async () => {
    const job = (
      await call('POST', '/v1/jobs', {
        ...baseJob,
        scheduleType: 'CRON',
        scheduleConf: '0 0 * * * ?',
        endAt: '2020-01-01T00:00:00Z',
      })
    ).body;
    const refused = await call('POST', `/v1/jobs/${job.id}/start`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/no fire between now and endAt \(2020-01-01T00:00:00.000Z\)/);
    const moved = await call('PUT', `/v1/jobs/${job.id}`, { endAt: null, triggerStatus: 'RUNNING' });
    expect(moved.body).toMatchObject({ triggerStatus: 'RUNNING', endAt: null });
  });

  it('previews the jittered times, the end, and the DST marks (Berlin, spring forward and fall back)', async () => {
    const query = new URLSearchParams({
      scheduleType: 'CRON',
      scheduleConf: '0 30 2 * * ?',
      timeZone: 'Europe/Berlin',
      from: '2030-03-30T00:00:00Z',
      count: '3',
      maxRuns: '2',
      jitterSeconds: '600',
      jobId: '7',
    });
    const reply = await call('GET', `/v1/schedule/preview?${query}`);
    expect(reply.status).toBe(200);
    expect(reply.body.times).toEqual(['2030-03-30T01:30:00.000Z', '2030-04-01T00:30:00.000Z']);
    expect(reply.body.ends).toBe('maxRuns');
    for (const fire of reply.body.fires) {
      const offset = Date.parse(fire.fireAt) - Date.parse(fire.time);
      expect(offset).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThan(600_000);
    }
    expect(reply.body.dst.transitions).toMatchObject([
      {
        kind: 'skippedHour',
        firstMatches: ['2030-03-31T02:30:00'],
        note: expect.stringContaining('no fire'),
      },
    ]);
    const fall = await call(
      'GET',
      `/v1/schedule/preview?${new URLSearchParams({ scheduleType: 'CRON', scheduleConf: '0 30 2 * * ?', timeZone: 'Europe/Berlin', from: '2030-10-26T00:00:00Z', count: '2' })}`,
    );
    expect(fall.body.fires[1]).toMatchObject({
      time: '2030-10-27T01:30:00.000Z',
      dst: { kind: 'repeatedHour' },
    });
  });
});
