import type { Run } from '@tickring/client';
import { describe, expect, it } from 'vitest';
import { main } from './program.js';
import { fakeIo } from './test-support/fake-io.js';
import { fakeServer } from './test-support/fake-server.js';

const ENV = { TICKRING_URL: 'http://tickring.test', TICKRING_TOKEN: 't', TZ: 'UTC' };
const NOW = Date.parse('2030-06-01T12:00:00Z');

const sent: Run = {
  logId: 30064771073,
  jobId: 7,
  jobName: 'Ticker',
  appName: 'my-app',
  status: 'success',
  triggerType: 'CRON',
  dedupKey: '7#1906547940000',
  scheduledTime: '2030-06-01T11:59:00.000Z',
  triggerTime: '2030-06-01T11:58:59.750Z',
  executorAddress: 'http://10.0.0.5:9999/',
  executorHandler: 'tick',
  executorParam: '',
  executorRouteStrategy: 'FIRST',
  executorTimeout: 0,
  shard: '0/1',
  attempt: 1,
  retriesLeft: 0,
  parentLogId: null,
  workflow: null,
  triggerCode: 200,
  triggerMsg: 'executor accepted the run',
  dispatchedAt: '2030-06-01T11:59:00.004Z',
  handleCode: 200,
  handleMsg: 'done',
  handleTime: '2030-06-01T11:59:01.004Z',
  alarmStatus: 'NOT_NEEDED',
  skippedCount: null,
  skippedUntil: null,
};

const skipped = (fields: Partial<Run>): Run => ({
  ...sent,
  status: 'skipped',
  executorAddress: null,
  triggerCode: 600,
  triggerMsg: 'Skipped, never sent: reached the dispatcher 9.1 s after its time (threshold 5 s)',
  dispatchedAt: null,
  handleCode: 0,
  handleMsg: '',
  handleTime: null,
  skippedCount: 1,
  ...fields,
});

/** Twelve fires, 11:58:00 to 11:58:11, recorded as one skipped run. */
const range = skipped({
  logId: 30064771201,
  scheduledTime: '2030-06-01T11:58:00.000Z',
  skippedCount: 12,
  skippedUntil: '2030-06-01T11:58:11.000Z',
});
/** A range that ran past midnight (in the viewer's zone). */
const overnight = skipped({
  logId: 30064771101,
  scheduledTime: '2030-05-31T23:59:50.000Z',
  skippedCount: 30,
  skippedUntil: '2030-06-01T00:00:19.000Z',
});
const single = skipped({
  logId: 30064771001,
  scheduledTime: '2030-05-31T10:00:00.000Z',
  skippedUntil: '2030-05-31T10:00:00.000Z',
});

async function cli(argv: string[], routes: Parameters<typeof fakeServer>[0]) {
  const io = fakeIo({ env: ENV, fetch: fakeServer(routes).fetch, now: NOW });
  const code = await main(argv, io);
  return { code, stdout: io.stdout.text, stderr: io.stderr.text };
}

const statusCell = (stdout: string, logId: number) => {
  const line = stdout.split('\n').find((l) => l.startsWith(String(logId)));
  return line?.split(/ {2,}/)[2];
};

describe('runs ls: a skipped range', () => {
  const routes = {
    'GET /v1/logs': { status: 200, body: { items: [sent, range, overnight, single], nextCursor: null } },
  };

  it('shows how many fires it stands for and when the last was due; one skipped fire stays "skipped"', async () => {
    const { code, stdout } = await cli(['runs', 'ls', '--job', '7'], routes);
    expect(code).toBe(0);
    expect(statusCell(stdout, range.logId)).toBe('skipped ×12 until 11:58:11');
    expect(statusCell(stdout, overnight.logId)).toBe('skipped ×30 until 2030-06-01 00:00:19');
    expect(statusCell(stdout, single.logId)).toBe('skipped');
    expect(statusCell(stdout, sent.logId)).toBe('success');
  });

  it('--json prints the runs as the API gives them', async () => {
    const { code, stdout } = await cli(['runs', 'ls', '--job', '7', '--json'], routes);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ items: [sent, range, overnight, single], nextCursor: null });
  });
});

describe('runs get: a skipped range', () => {
  const routes = { [`GET /v1/logs/${range.logId}`]: { status: 200, body: range } };

  it('shows the count and the last fire’s time in full on the status line', async () => {
    const { code, stdout } = await cli(['runs', 'get', String(range.logId)], routes);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^status: +skipped ×12 until 2030-06-01 11:58:11 \+00:00$/m);
    expect(stdout).toMatch(/^scheduled: +2030-06-01 11:58:00 \+00:00/m);
  });

  it('--json prints the run as the API gives it', async () => {
    const { stdout } = await cli(['runs', 'get', String(range.logId), '--json'], routes);
    expect(JSON.parse(stdout)).toEqual(range);
  });
});
