import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type LocalStack, startLocal } from '../../local/start-local.js';
import { adminApiCaller } from '../../test/api-call.js';

/** One-off exceptions through the admin API: validation, too late, the audit record, the preview’s marks. */

let stack: LocalStack;
const suffix = randomUUID().slice(0, 8);
const APP = `occ-app-${suffix}`;
const HOUR = 3_600_000;

const call = adminApiCaller(() => stack);

async function runningJob(scheduleType: string, scheduleConf: string): Promise<{ id: number; next: number }> {
  const reply = await call('POST', '/v1/jobs', {
    appName: APP,
    name: 'excepted',
    author: 'ops',
    executorHandler: 'demoJobHandler',
    scheduleType,
    scheduleConf,
    triggerStatus: 'RUNNING',
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return { id: reply.body.id, next: Date.parse(reply.body.triggerNextTime) };
}

const iso = (ms: number) => new Date(ms).toISOString();

beforeAll(async () => {
  stack = await startLocal({
    standIns: inject('standIns'),
    port: 0,
    inMemory: true,
    demo: false,
    logLevel: 'silent',
    resourcePrefix: `occ-${suffix}-`,
    // No tick during the test: the jobs' next fires stay where the API put them.
    tickPeriodMs: 3_600_000,
  });
  expect((await call('POST', '/v1/groups', { appName: APP, title: 'occ', addressType: 'AUTO' })).status).toBe(
    201,
  );
});

afterAll(async () => {
  await stack?.stop();
});

describe('one-off exceptions through the API', () => {
  it('lists every problem of a move in one 400, and names the nearest fires of a time that is none', async () => {
    const { id, next } = await runningJob('CRON', '0 0 * * * ?');
    const both = await call('POST', `/v1/jobs/${id}/occurrences/tomorrow/move`, { to: 'later' });
    expect(both.status).toBe(400);
    expect(both.body.problems.map((p: { field: string }) => p.field)).toEqual(['time', 'to']);
    const off = await call('POST', `/v1/jobs/${id}/occurrences/${iso(next + HOUR + 60_000)}/move`, {
      to: iso(next + 5 * HOUR),
    });
    expect(off.status).toBe(400);
    expect(off.body.problems[0].message).toContain(
      `${iso(next + HOUR)} before and ${iso(next + 2 * HOUR)} after`,
    );
    const window = await call('POST', `/v1/jobs/${id}/occurrences/${next + HOUR}/move`, {
      to: next + 2 * HOUR,
    });
    expect(window.status).toBe(400);
    expect(window.body.problems[0].message).toContain(
      `after ${iso(next)} and before ${iso(next + 2 * HOUR)}`,
    );
  });

  it('answers 409 for a fire within the lead', async () => {
    const { id, next } = await runningJob('FIX_RATE', '1');
    const reply = await call('POST', `/v1/jobs/${id}/occurrences/${iso(next)}/skip`, {});
    expect(reply.status).toBe(409);
    expect(reply.body.message).toMatch(/too late/);
  });

  it('skips and moves, records who and why in the audit log, and the preview marks both', async () => {
    const { id, next } = await runningJob('CRON', '0 0 * * * ?');
    const skipped = await call('POST', `/v1/jobs/${id}/occurrences/${iso(next + HOUR)}/skip`, {
      reason: 'holiday',
    });
    expect(skipped.status, JSON.stringify(skipped.body)).toBe(200);
    const moved = await call('POST', `/v1/jobs/${id}/occurrences/${next + 2 * HOUR}/move`, {
      to: iso(next + 2 * HOUR + 600_000),
      reason: 'deploy',
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.occurrenceExceptions.map((e: { action: string }) => e.action)).toEqual([
      'skip',
      'move',
    ]);

    const audit = await call('GET', `/v1/audit?target=${encodeURIComponent(`job#${id}`)}`);
    const actions = audit.body.items.map((r: { action: string }) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['job.occurrence.skip', 'job.occurrence.move']));
    const skipRecord = audit.body.items.find((r: { action: string }) => r.action === 'job.occurrence.skip');
    expect(JSON.stringify(skipRecord.changes.occurrenceExceptions.after)).toContain('holiday');

    const preview = await call(
      'GET',
      `/v1/schedule/preview?scheduleType=CRON&scheduleConf=${encodeURIComponent('0 0 * * * ?')}&count=3&jobId=${id}&from=${iso(next)}`,
    );
    expect(preview.body.fires.map((f: { fireAt: string | null }) => f.fireAt)).toEqual([
      null,
      iso(next + 2 * HOUR + 600_000),
      iso(next + 3 * HOUR),
    ]);
    expect(preview.body.fires[0].exception).toMatchObject({ action: 'skip', reason: 'holiday' });

    const restored = await call('DELETE', `/v1/jobs/${id}/occurrences/${iso(next + HOUR)}`);
    expect(restored.body.occurrenceExceptions).toHaveLength(1);
    const listed = await call('GET', `/v1/jobs/${id}/occurrences?limit=2`);
    expect(listed.body.occurrences.map((o: { time: string }) => o.time)).toEqual([
      iso(next),
      iso(next + HOUR),
    ]);
  });
});
