import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from './program.js';
import { fakeIo } from './test-support/fake-io.js';
import { fakeServer } from './test-support/fake-server.js';

const ENV = { TICKRING_URL: 'http://tickring.test', TICKRING_TOKEN: 't', TZ: 'UTC' };
const T0 = '2030-06-01T11:59:00.000Z';
const ICS = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tickring//calendars//EN\r\nEND:VCALENDAR\r\n';

const calendar = (fields: Record<string, unknown> = {}) => ({
  id: 'cn-workdays',
  name: 'China workdays',
  description: '',
  timeZone: 'Asia/Shanghai',
  workingDays: ['MON', 'TUE', 'WED', 'THU', 'FRI'],
  excluded: [{ from: '2030-10-01', to: '2030-10-07', label: 'National Day' }],
  included: [{ date: '2030-09-28', label: 'Make-up day' }],
  version: 2,
  createdAt: T0,
  updatedAt: T0,
  updatedBy: 'ana',
  ...fields,
});

/** The fake server, with the export answering text/calendar as the API does. */
function server(routes: Parameters<typeof fakeServer>[0]) {
  const fake = fakeServer(routes);
  const fetchFn = (async (input: Request | string | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname === '/v1/calendars/cn-workdays/export') {
      return new Response(ICS, { status: 200, headers: { 'content-type': 'text/calendar; charset=utf-8' } });
    }
    return fake.fetch(input, init);
  }) as typeof fetch;
  return { fetch: fetchFn, seen: fake.seen };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickring-cli-cal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('tickring calendars', () => {
  it('lists every page of calendars as a table', async () => {
    const fake = server({
      'GET /v1/calendars': (req) =>
        req.query.cursor === undefined
          ? { status: 200, body: { items: [calendar({ id: 'a' })], nextCursor: 'next' } }
          : { status: 200, body: { items: [calendar({ id: 'b', workingDays: [] })], nextCursor: null } },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['calendars', 'ls'], io)).toBe(0);
    expect(io.stdout.text).toMatch(/ID +NAME +ZONE +WORKING DAYS/);
    expect(io.stdout.text).toMatch(/\ba +China workdays +Asia\/Shanghai +MO TU WE TH FR +1 +1 +2/);
    expect(io.stdout.text).toMatch(/\bb +China workdays +Asia\/Shanghai +none/);
    expect(fake.seen.map((r) => r.query.cursor)).toEqual([undefined, 'next']);
  });

  it('imports an .ics file under an id made from its name, and prints the notes', async () => {
    const file = join(dir, 'China Holidays 2030.ics');
    await writeFile(file, ICS);
    const fake = server({
      'POST /v1/calendars/import': {
        status: 201,
        body: {
          calendar: calendar({ id: 'china-holidays-2030', version: 1 }),
          notes: ['event 3 (Standup): not an all-day event'],
        },
      },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['calendars', 'import', file, '--time-zone', 'Asia/Shanghai'], io)).toBe(0);
    expect(fake.seen[0]?.body).toEqual({ id: 'china-holidays-2030', ics: ICS, timeZone: 'Asia/Shanghai' });
    expect(io.stderr.text).toContain('Imported calendar china-holidays-2030: 1 excluded, 1 make-up days.');
    expect(io.stderr.text).toContain('event 3 (Standup): not an all-day event');
  });

  it('exports the iCalendar text to stdout or to a file', async () => {
    const fake = server({});
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['calendars', 'export', 'cn-workdays'], io)).toBe(0);
    expect(io.stdout.text).toBe(ICS);
    const file = join(dir, 'out.ics');
    expect(
      await main(['calendars', 'export', 'cn-workdays', file], fakeIo({ env: ENV, fetch: fake.fetch })),
    ).toBe(0);
    expect(await readFile(file, 'utf8')).toBe(ICS);
  });

  it('shows the days of a range, or only those off', async () => {
    const days = [
      { date: '2030-09-28', weekday: 'SAT', allowed: true, reason: 'MAKEUP_DAY', label: 'Make-up day' },
      { date: '2030-09-29', weekday: 'SUN', allowed: false, reason: 'WEEKEND', label: null },
      { date: '2030-10-01', weekday: 'TUE', allowed: false, reason: 'HOLIDAY', label: 'National Day' },
    ];
    const fake = server({
      'GET /v1/calendars/cn-workdays/days': {
        status: 200,
        body: { calendarId: 'cn-workdays', version: 2, timeZone: 'Asia/Shanghai', days },
      },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(
      await main(
        ['calendars', 'days', 'cn-workdays', '--from', '2030-09-28', '--to', '2030-10-01', '--off'],
        io,
      ),
    ).toBe(0);
    expect(fake.seen[0]?.query).toEqual({ from: '2030-09-28', to: '2030-10-01' });
    expect(io.stdout.text).not.toContain('2030-09-28');
    expect(io.stdout.text).toMatch(/2030-10-01 +TUE +no +HOLIDAY +National Day/);
    const bad = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(
      await main(['calendars', 'days', 'cn-workdays', '--from', 'monday', '--to', '2030-10-01'], bad),
    ).toBe(2);
    expect(bad.stderr.text).toContain('expected a date written YYYY-MM-DD; got monday');
  });

  it('deletes at a version only with --yes off a terminal, and says what the server refused', async () => {
    const fake = server({
      'DELETE /v1/calendars/cn-workdays': (req) =>
        req.query.expectedVersion === '2'
          ? { status: 204 }
          : {
              status: 409,
              body: { error: 'ConflictError', message: 'calendar cn-workdays is at version 2, not 1' },
            },
    });
    const asked = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['calendars', 'delete', 'cn-workdays'], asked)).toBe(2);
    expect(fake.seen).toEqual([]);
    const stale = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(
      await main(['calendars', 'delete', 'cn-workdays', '--expected-version', '1', '--yes'], stale),
    ).toBe(1);
    expect(stale.stderr.text).toContain('calendar cn-workdays is at version 2, not 1');
    const done = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['calendars', 'delete', 'cn-workdays', '--expected-version', '2', '--yes'], done)).toBe(
      0,
    );
    expect(done.stderr.text).toContain('Deleted calendar cn-workdays.');
  });
});
