import { describe, expect, it } from 'vitest';
import { main } from './program.js';
import { fakeIo } from './test-support/fake-io.js';
import { fakeServer } from './test-support/fake-server.js';

const ENV = { TICKRING_URL: 'http://tickring.test', TICKRING_TOKEN: 't', TZ: 'UTC' };
const T0 = '2030-09-25T16:00:00.000Z';

const job = (fields: Record<string, unknown> = {}) => ({
  id: 7,
  appName: 'my-app',
  name: 'Report',
  author: 'ops',
  alarmEmail: '',
  alarmWebhook: '',
  scheduleType: 'CRON',
  scheduleConf: '0 */5 * * * ?',
  timeZone: 'UTC',
  misfireStrategy: 'DO_NOTHING',
  startAt: null,
  endAt: null,
  maxRuns: null,
  jitterSeconds: 0,
  calendars: { only: [], exclude: [] },
  logRetentionDays: 90,
  keepSuccessfulRuns: 0.1,
  runsRemaining: null,
  scheduleEnded: null,
  executorRouteStrategy: 'FIRST',
  executorHandler: 'report',
  executorParam: '',
  executorBlockStrategy: 'SERIAL_EXECUTION',
  executorTimeout: 0,
  executorFailRetryCount: 0,
  retryBackoffSeconds: 10,
  glueType: 'BEAN',
  glueSource: '',
  childJobIds: [],
  triggerStatus: 'STOPPED',
  triggerNextTime: null,
  triggerLastTime: null,
  glueUpdatetime: T0,
  scheduleRevision: 1,
  version: 1,
  workflowId: null,
  createdAt: T0,
  updatedAt: T0,
  ...fields,
});

describe('a job’s log retention on the command line', () => {
  it('sends --retention-days and --keep-successful as the job’s fields', async () => {
    const fake = fakeServer({ 'POST /v1/jobs': { status: 201, body: job() } });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    const args = ['jobs', 'create', '--app', 'my-app', '--name', 'Report', '--author', 'ops'];
    expect(await main([...args, '--retention-days', '90', '--keep-successful', '0.1'], io)).toBe(0);
    expect(fake.seen[0]?.body).toMatchObject({ logRetentionDays: 90, keepSuccessfulRuns: 0.1 });
  });

  it('clears them with "default" and "all"', async () => {
    const fake = fakeServer({
      'PUT /v1/jobs/7': { status: 200, body: job({ logRetentionDays: null, keepSuccessfulRuns: null }) },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(
      await main(['jobs', 'edit', '7', '--retention-days', 'default', '--keep-successful', 'all'], io),
    ).toBe(0);
    expect(fake.seen[0]?.body).toEqual({ logRetentionDays: null, keepSuccessfulRuns: null });
  });

  it('refuses a share outside (0, 1] and days outside 1-3650 before sending anything', async () => {
    const fake = fakeServer({});
    for (const flags of [
      ['--keep-successful', '0'],
      ['--keep-successful', '1.5'],
      ['--retention-days', '0'],
    ]) {
      const io = fakeIo({ env: ENV, fetch: fake.fetch });
      expect(await main(['jobs', 'edit', '7', ...flags], io)).not.toBe(0);
      expect(io.stderr.text).toContain(flags[0]);
    }
    expect(fake.seen).toEqual([]);
  });

  it('shows how long the runs are kept and the estimate of what that costs', async () => {
    const retention = {
      days: 90,
      successSample: 0.1,
      estimatedRecords: 2851,
      estimatedBytes: 2_565_900,
      estimatedMonthlyCostUsd: 0.0005974,
    };
    const fake = fakeServer({ 'GET /v1/jobs/7': { status: 200, body: job({ retention }) } });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['jobs', 'get', '7'], io), io.stderr.text).toBe(0);
    expect(io.stdout.text).toMatch(/runs kept: +90 days, 10% of successes \(the others 1 day\)/);
    expect(io.stdout.text).toMatch(/history \(est\.\): +~2851 records, ~2506 KiB, ~\$0\.0005974\/month/);
  });
});
