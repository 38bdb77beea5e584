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
  scheduleConf: '0 0 9 * * ?',
  timeZone: 'Asia/Shanghai',
  misfireStrategy: 'DO_NOTHING',
  startAt: null,
  endAt: null,
  maxRuns: null,
  jitterSeconds: 0,
  calendars: { only: ['cn-workdays'], exclude: ['cn-holidays', 'de-holidays'] },
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

describe('a job’s calendars on the command line', () => {
  it('sends --only-calendar and --exclude-calendar (repeatable) as the job’s calendars, and shows them', async () => {
    const fake = fakeServer({ 'POST /v1/jobs': { status: 201, body: job() } });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    const args = ['jobs', 'create', '--app', 'my-app', '--name', 'Report', '--author', 'ops'];
    const flags = ['--only-calendar', 'cn-workdays', '--exclude-calendar', 'cn-holidays,de-holidays'];
    expect(await main([...args, ...flags], io)).toBe(0);
    expect(fake.seen[0]?.body).toMatchObject({
      calendars: { only: ['cn-workdays'], exclude: ['cn-holidays', 'de-holidays'] },
    });
    expect(io.stdout.text).toMatch(/only on: +working days of cn-workdays/);
    expect(io.stdout.text).toMatch(/not on: +dates excluded by cn-holidays, de-holidays/);
  });

  it('clears them with --clear-calendars, and refuses it beside a calendar flag', async () => {
    const fake = fakeServer({
      'PUT /v1/jobs/7': { status: 200, body: job({ calendars: { only: [], exclude: [] } }) },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['jobs', 'edit', '7', '--clear-calendars'], io)).toBe(0);
    expect(fake.seen[0]?.body).toEqual({ calendars: null });
    expect(io.stdout.text).not.toMatch(/only on|not on/);
    const refused = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['jobs', 'edit', '7', '--clear-calendars', '--only-calendar', 'x'], refused)).not.toBe(
      0,
    );
    expect(refused.stderr.text).toContain('--clear-calendars takes no --only-calendar or --exclude-calendar');
  });

  it('says a schedule ended by its calendars', async () => {
    const ended = job({ scheduleEnded: { reason: 'calendar', at: T0 } });
    const fake = fakeServer({ 'GET /v1/jobs/7': { status: 200, body: ended } });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['jobs', 'get', '7'], io)).toBe(0);
    expect(io.stdout.text).toMatch(/ended: +its calendars allow no further fire \(calendar\)/);
  });

  it('previews with the calendars and says which days they skipped and why', async () => {
    const fake = fakeServer({
      'GET /v1/schedule/preview': {
        status: 200,
        body: {
          times: ['2030-09-30T01:00:00.000Z'],
          fires: [{ time: '2030-09-30T01:00:00.000Z', fireAt: '2030-09-30T01:00:00.000Z', dst: null }],
          skipped: [
            {
              time: '2030-10-01T01:00:00.000Z',
              calendarId: 'cn-workdays',
              list: 'only',
              date: '2030-10-01',
              reason: 'HOLIDAY',
              label: 'National Day',
            },
          ],
          ends: null,
          dst: { policy: 'Quartz', transitions: [] },
        },
      },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    const args = ['preview', '0 0 9 * * ?', '--tz', 'Asia/Shanghai', '--count', '1'];
    expect(await main([...args, '--only-calendar', 'cn-workdays', '--exclude-calendar', 'a,b'], io)).toBe(0);
    expect(fake.seen[0]?.query).toMatchObject({ onlyCalendars: 'cn-workdays', excludeCalendars: 'a,b' });
    expect(io.stderr.text).toMatch(
      /Skipped .*2030.* and the rest of 2030-10-01: excluded \(National Day\) in calendar cn-workdays \(only\)/,
    );
  });
});
