import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type LocalStack, startLocal } from '../../local/start-local.js';
import { adminApiCaller } from '../../test/api-call.js';

/** A schedule's calendars through the admin API: jobs, workflows, the preview (answers checked against the document). */

let stack: LocalStack;
const suffix = randomUUID().slice(0, 8);
const APP = `cal-app-${suffix}`;
const CN = `cn-${suffix}`;

const call = adminApiCaller(() => stack);

const baseJob = {
  appName: APP,
  name: 'business days',
  author: 'ops',
  executorHandler: 'demoJobHandler',
  scheduleType: 'CRON',
  scheduleConf: '0 0 9 * * ?',
  timeZone: 'Asia/Shanghai',
};

beforeAll(async () => {
  stack = await startLocal({
    standIns: inject('standIns'),
    port: 0,
    inMemory: true,
    demo: false,
    logLevel: 'silent',
    resourcePrefix: `cal-${suffix}-`,
    tickPeriodMs: 3_600_000,
  });
  expect(
    (await call('POST', '/v1/groups', { appName: APP, title: 'calendars', addressType: 'AUTO' })).status,
  ).toBe(201);
  const created = await call('POST', '/v1/calendars', {
    id: CN,
    name: 'China 2030',
    timeZone: 'Asia/Shanghai',
    excluded: [{ from: '2030-10-01', to: '2030-10-07', label: 'National Day' }],
    included: [{ date: '2030-09-28', label: 'Make-up day' }],
  });
  expect(created.status).toBe(201);
});

afterAll(async () => {
  await stack?.stop();
});

describe('a job’s calendars', () => {
  it('lists every problem at once: a malformed list beside the other fields’, then each calendar missing', async () => {
    const malformed = await call('POST', '/v1/jobs', {
      ...baseJob,
      maxRuns: 0,
      calendars: { only: ['Not An Id'], weekdays: [] },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.problems).toEqual([
      { field: 'maxRuns', message: 'maxRuns must be an integer between 1 and 2147483647; got 0' },
      { field: 'calendars', message: 'unknown field "weekdays"; the fields are only, exclude' },
      {
        field: 'calendars',
        message:
          'calendars.only[0] must be a calendar id: lower-case letters, digits and -, starting with a letter or digit; got "Not An Id"',
      },
    ]);
    const missing = await call('POST', '/v1/jobs', {
      ...baseJob,
      calendars: { only: [CN, 'nope-1'], exclude: ['nope-2'] },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.problems).toEqual([
      expect.objectContaining({ field: 'calendars.only', message: expect.stringContaining('nope-1') }),
      expect.objectContaining({ field: 'calendars.exclude', message: expect.stringContaining('nope-2') }),
    ]);
  });

  it('shows the calendars (empty lists when none); a GET body goes back whole; null clears them', async () => {
    const plain = await call('POST', '/v1/jobs', baseJob);
    expect(plain.body.calendars).toEqual({ only: [], exclude: [] });
    const created = await call('POST', '/v1/jobs', { ...baseJob, calendars: { only: [CN] } });
    expect(created.status).toBe(201);
    expect(created.body.calendars).toEqual({ only: [CN], exclude: [] });
    const sentBack = await call('PUT', `/v1/jobs/${created.body.id}`, created.body);
    expect(sentBack.status).toBe(200);
    expect(sentBack.body.calendars).toEqual({ only: [CN], exclude: [] });
    const cleared = await call('PUT', `/v1/jobs/${created.body.id}`, { calendars: null });
    expect(cleared.body.calendars).toEqual({ only: [], exclude: [] });
  });

  it('refuses (409) to delete a calendar a job follows, naming the job', async () => {
    const job = await call('POST', '/v1/jobs', {
      ...baseJob,
      name: 'holds it',
      calendars: { exclude: [CN] },
    });
    const refused = await call('DELETE', `/v1/calendars/${CN}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(`${job.body.id} (holds it)`);
  });

  it('previews the fires allowed and lists the days removed with the calendar and why', async () => {
    const query = new URLSearchParams({
      scheduleType: 'CRON',
      scheduleConf: '0 0 9 * * ?',
      timeZone: 'Asia/Shanghai',
      from: '2030-09-25T16:00:00Z',
      count: '5',
      onlyCalendars: CN,
    });
    const reply = await call('GET', `/v1/schedule/preview?${query}`);
    expect(reply.status).toBe(200);
    expect(reply.body.times.map((t: string) => t.slice(0, 10))).toEqual([
      '2030-09-26',
      '2030-09-27',
      '2030-09-28',
      '2030-09-30',
      '2030-10-08',
    ]);
    expect(reply.body.skipped).toEqual([
      {
        time: '2030-09-29T01:00:00.000Z',
        calendarId: CN,
        list: 'only',
        date: '2030-09-29',
        reason: 'WEEKEND',
        label: null,
      },
      {
        time: '2030-10-01T01:00:00.000Z',
        calendarId: CN,
        list: 'only',
        date: '2030-10-01',
        reason: 'HOLIDAY',
        label: 'National Day',
      },
    ]);
    const unknown = await call(
      'GET',
      `/v1/schedule/preview?${new URLSearchParams({ scheduleType: 'CRON', scheduleConf: '0 0 9 * * ?', excludeCalendars: 'nope-3' })}`,
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('nope-3');
  });

  it('carries a workflow’s calendars to its schedule job', async () => {
    const node = await call('POST', '/v1/jobs', {
      ...baseJob,
      name: 'node',
      scheduleType: 'NONE',
      scheduleConf: '',
    });
    const workflow = await call('POST', '/v1/workflows', {
      name: 'business-day etl',
      appName: APP,
      scheduleType: 'CRON',
      scheduleConf: '0 0 9 * * ?',
      timeZone: 'Asia/Shanghai',
      calendars: { only: [CN] },
      nodes: [{ key: 'a', jobId: node.body.id }],
    });
    expect(workflow.status).toBe(201);
    expect(workflow.body.calendars).toEqual({ only: [CN], exclude: [] });
    const starter = await call('GET', `/v1/jobs/${workflow.body.starterJobId}`);
    expect(starter.body.calendars).toEqual({ only: [CN], exclude: [] });
  });
});
