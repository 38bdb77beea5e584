import { describe, expect, it } from 'vitest';
import { main } from './program.js';
import { fakeIo } from './test-support/fake-io.js';
import { fakeServer } from './test-support/fake-server.js';

const ENV = { TICKRING_URL: 'http://tickring.test', TICKRING_TOKEN: 't', TZ: 'UTC' };
const NOW = '2030-06-01T12:00:00.000Z';

const backfill = (fields: Record<string, unknown> = {}) => ({
  id: 'bf-7-mfx3k2a1-9c1e',
  jobId: 7,
  workflowId: null,
  appName: 'orders',
  from: '2030-05-30T12:00:00.000Z',
  to: NOW,
  parallelism: 2,
  ratePerMinute: 30,
  scheduleType: 'CRON',
  scheduleConf: '0 0 * * * ?',
  timeZone: 'UTC',
  state: 'RUNNING',
  total: 4,
  dispatched: 2,
  succeeded: 0,
  failed: 0,
  running: 2,
  runningFires: [],
  failures: [],
  nextFireTime: '2030-05-30T14:00:00.000Z',
  createdAt: NOW,
  createdBy: 'ana',
  cancelledAt: null,
  cancelledBy: null,
  stopReason: null,
  endedAt: null,
  ...fields,
});

/** A backfill that moves on by one state per read: running, half done, then completed. */
function progressing(last: Record<string, unknown>) {
  const states = [
    backfill({ succeeded: 2, running: 2, dispatched: 4, nextFireTime: null }),
    backfill({ state: 'COMPLETED', running: 0, dispatched: 4, nextFireTime: null, endedAt: NOW, ...last }),
  ];
  let reads = 0;
  return fakeServer({
    'POST /v1/jobs/7/backfill': { status: 202, body: backfill() },
    'GET /v1/backfills/bf-7-mfx3k2a1-9c1e': () => ({
      status: 200,
      body: states[Math.min(reads++, states.length - 1)],
    }),
  });
}

describe('tickring jobs backfill', () => {
  it('sends the range (a span back from now, --to defaulting to now), the parallelism and the rate', async () => {
    const fake = progressing({ succeeded: 4 });
    const io = fakeIo({ env: ENV, fetch: fake.fetch, now: Date.parse(NOW) });
    expect(
      await main(['jobs', 'backfill', '7', '--from', '2d', '--parallelism', '2', '--rate', '30/min'], io),
    ).toBe(0);
    expect(fake.seen[0]).toMatchObject({
      method: 'POST',
      path: '/v1/jobs/7/backfill',
      body: { from: '2030-05-30T12:00:00.000Z', to: NOW, parallelism: 2, ratePerMinute: 30 },
    });
    expect(io.stderr.text).toContain(
      'Started backfill bf-7-mfx3k2a1-9c1e: 4 fires of job 7, 2 at a time, at most 30 a minute.',
    );
  });

  it('--wait off a terminal: a plain line per change, then the outcome; exit 0 when every fire succeeded', async () => {
    const fake = progressing({ succeeded: 4 });
    const io = fakeIo({ env: ENV, fetch: fake.fetch, now: Date.parse(NOW) });
    expect(await main(['jobs', 'backfill', '7', '--from', '2d', '--wait'], io)).toBe(0);
    expect(io.stderr.text.split('\n').filter((l) => l !== '')).toEqual([
      'RUNNING 0/4 done · 0 succeeded · 0 failed · 2 running',
      'RUNNING 2/4 done · 2 succeeded · 0 failed · 2 running',
      'COMPLETED 4/4 done · 4 succeeded · 0 failed · 0 running',
      'Backfill bf-7-mfx3k2a1-9c1e COMPLETED: 4/4 done · 4 succeeded · 0 failed · 0 running.',
    ]);
    expect(io.stderr.text).not.toContain('\r');
  });

  it('--wait on a terminal: one bar rewritten in place; exit 1 when a fire failed', async () => {
    const fake = progressing({ succeeded: 3, failed: 1, failures: ['2030-05-30T13:00:00.000Z'] });
    const io = fakeIo({ env: ENV, fetch: fake.fetch, now: Date.parse(NOW), stderrTTY: true });
    expect(await main(['jobs', 'backfill', '7', '--from', '2d', '--wait'], io)).toBe(1);
    expect(io.stderr.text).toContain('\r\x1b[K[------------------------] RUNNING 0/4 done');
    expect(io.stderr.text).toContain('\r\x1b[K[############------------] RUNNING 2/4 done');
    expect(io.stderr.text).toContain(
      '\r\x1b[K[########################] COMPLETED 4/4 done · 3 succeeded · 1 failed',
    );
  });

  it('--dry-run counts the fires without starting anything', async () => {
    const fake = fakeServer({
      'POST /v1/jobs/7/backfill/preview': {
        status: 200,
        body: {
          jobId: 7,
          from: '2030-05-30T12:00:00.000Z',
          to: NOW,
          total: 48,
          tooMany: false,
          limit: 10000,
          first: '2030-05-30T12:00:00.000Z',
          last: '2030-06-01T11:00:00.000Z',
        },
      },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch, now: Date.parse(NOW) });
    expect(await main(['jobs', 'backfill', '7', '--from', '2d', '--dry-run'], io)).toBe(0);
    expect(io.stdout.text).toMatch(/^48 fires from /);
    expect(fake.seen.map((r) => r.path)).toEqual(['/v1/jobs/7/backfill/preview']);
  });

  it('refuses a rate that is not a number a minute (usage, exit 2) before sending anything', async () => {
    const fake = fakeServer({});
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['jobs', 'backfill', '7', '--from', '2d', '--rate', 'fast'], io)).toBe(2);
    expect(io.stderr.text).toContain('expected a rate of fires a minute, e.g. 30 or 30/min; got fast');
    expect(fake.seen).toEqual([]);
  });
});

describe('tickring backfills', () => {
  it('ls lists a job’s backfills with their progress', async () => {
    const fake = fakeServer({
      'GET /v1/jobs/7/backfills': { status: 200, body: { items: [backfill()], nextCursor: null } },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['backfills', 'ls', '--job', '7'], io)).toBe(0);
    expect(io.stdout.text).toMatch(/ID +STATE +RANGE +PROGRESS +RUNNING +FAILED/);
    expect(io.stdout.text).toMatch(/bf-7-mfx3k2a1-9c1e +RUNNING .* 0\/4 +2 +0 /);
  });

  it('get shows one backfill; cancel cancels it and says what still runs', async () => {
    const fake = fakeServer({
      'GET /v1/backfills/bf-7-mfx3k2a1-9c1e': { status: 200, body: backfill() },
      'POST /v1/backfills/bf-7-mfx3k2a1-9c1e/cancel': {
        status: 200,
        body: backfill({ state: 'CANCELLED', cancelledAt: NOW, cancelledBy: 'ana', nextFireTime: null }),
      },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['backfills', 'get', 'bf-7-mfx3k2a1-9c1e'], io)).toBe(0);
    expect(io.stdout.text).toMatch(/progress: +0\/4 done · 0 succeeded · 0 failed · 2 running/);
    expect(await main(['backfills', 'cancel', 'bf-7-mfx3k2a1-9c1e'], io)).toBe(0);
    expect(io.stderr.text).toContain(
      'Cancelled backfill bf-7-mfx3k2a1-9c1e: 2 of 4 fires were started, 2 still running.',
    );
  });
});

describe('tickring workflows backfill', () => {
  const workflowBackfill = backfill({ id: 'bf-12-mfx3k2a1-9c1e', jobId: 12, workflowId: 3 });

  it('starts a backfill of the workflow’s schedule, and ls --workflow lists them', async () => {
    const fake = fakeServer({
      'POST /v1/workflows/3/backfill': { status: 202, body: workflowBackfill },
      'GET /v1/workflows/3/backfills': { status: 200, body: { items: [workflowBackfill], nextCursor: null } },
      'GET /v1/backfills/bf-12-mfx3k2a1-9c1e': { status: 200, body: workflowBackfill },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch, now: Date.parse(NOW) });
    expect(await main(['workflows', 'backfill', '3', '--from', '2d', '--parallelism', '2'], io)).toBe(0);
    expect(fake.seen[0]).toMatchObject({
      method: 'POST',
      path: '/v1/workflows/3/backfill',
      body: { from: '2030-05-30T12:00:00.000Z', to: NOW, parallelism: 2 },
    });
    expect(io.stderr.text).toContain(
      'Started backfill bf-12-mfx3k2a1-9c1e: 4 fires of workflow 3, 2 at a time',
    );
    expect(await main(['backfills', 'ls', '--workflow', '3'], io)).toBe(0);
    expect(io.stdout.text).toMatch(/bf-12-mfx3k2a1-9c1e +RUNNING/);
    expect(await main(['backfills', 'get', 'bf-12-mfx3k2a1-9c1e'], io)).toBe(0);
    expect(io.stdout.text).toMatch(/workflow: +3 \(orders; its schedule job 12\)/);
  });

  it('--dry-run previews the workflow’s fires', async () => {
    const fake = fakeServer({
      'POST /v1/workflows/3/backfill/preview': {
        status: 200,
        body: {
          jobId: 12,
          workflowId: 3,
          from: '2030-05-30T12:00:00.000Z',
          to: NOW,
          total: 2,
          tooMany: false,
          limit: 10000,
          first: '2030-05-31T02:00:00.000Z',
          last: '2030-06-01T02:00:00.000Z',
        },
      },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch, now: Date.parse(NOW) });
    expect(await main(['workflows', 'backfill', '3', '--from', '2d', '--dry-run'], io)).toBe(0);
    expect(io.stdout.text).toMatch(/^2 fires from /);
  });

  it('backfills ls needs exactly one of --job and --workflow (usage, exit 2)', async () => {
    const fake = fakeServer({});
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['backfills', 'ls'], io)).toBe(2);
    expect(await main(['backfills', 'ls', '--job', '7', '--workflow', '3'], io)).toBe(2);
    expect(io.stderr.text).toContain('give one of --job <id> or --workflow <id>');
    expect(fake.seen).toEqual([]);
  });
});
