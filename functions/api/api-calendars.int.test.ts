import { randomBytes } from 'node:crypto';
import { noMetrics, silentLogger } from '@tickring/core/common';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionEnv } from '../../local/function-env.js';
import { checked } from '../../test/openapi-check.js';
import { isolatedResources, TEST_REGION, type TestResources } from '../../test/stand-ins.js';
import { loadConfig } from './config.js';
import { createHandler } from './handler.js';

/**
 * The calendar routes through the real api handler (router, authentication, the authorisation step,
 * the audit log) on DynamoDB Local: versions and If-Match, the days of a range, iCalendar in and
 * out, hostile .ics files. Every answer is checked against the OpenAPI document.
 */

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: bodies are read field by field
  readonly body: any;
}

const ADMIN = randomBytes(24).toString('base64url');
const suffix = randomBytes(3).toString('hex');
const cal = (name: string) => `${name}-${suffix}`;
const GROUP = `cal-group-${suffix}`;

let env: TestResources;
let handler: ReturnType<typeof createHandler>;
let viewer: string;
let operator: string;
let requests = 0;

interface CallOptions {
  readonly token?: string | null;
  readonly headers?: Record<string, string>;
  /** Sent as it is (with its own content type in `headers`), not as JSON. */
  readonly raw?: string;
}

async function call(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Reply> {
  const [rawPath = path, rawQuery = ''] = path.split('?');
  const query = Object.fromEntries(new URLSearchParams(rawQuery));
  const token = options.token === undefined ? ADMIN : options.token;
  const headers: Record<string, string> = { 'user-agent': 'api-calendars test', ...options.headers };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const event = {
    version: '2.0',
    routeKey: 'ANY /v1/{proxy+}',
    rawPath,
    rawQueryString: rawQuery,
    queryStringParameters: query,
    headers,
    body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    requestContext: { http: { method, path: rawPath, sourceIp: '203.0.113.9' }, requestId: `r${++requests}` },
    isBase64Encoded: false,
  } as unknown as APIGatewayProxyEventV2;
  const res = (await handler(event)) as {
    statusCode: number;
    body?: string;
    headers?: Record<string, string>;
  };
  const type = res.headers?.['content-type'] ?? '';
  const parsed = res.body ? (type.startsWith('text/') ? res.body : JSON.parse(res.body)) : undefined;
  const reply = checked(method, path, { status: res.statusCode, body: parsed });
  return { ...reply, headers: res.headers ?? {} };
}

async function ok(method: string, path: string, body: unknown, status: number, options?: CallOptions) {
  const reply = await call(method, path, body, options);
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBe(status);
  return reply;
}

const china = (id: string) => ({
  id,
  name: 'China workdays',
  timeZone: 'Asia/Shanghai',
  excluded: [
    { from: '2030-10-01', to: '2030-10-07', label: 'National Day' },
    { from: '2030-12-31', to: '2031-01-01', label: 'New Year' },
  ],
  included: [{ date: '2030-09-28', label: 'Make-up day' }],
});

function ics(...lines: string[]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
}

function allDay(date: string, summary: string, ...more: string[]): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${date}-${summary}-${Math.random()}`,
    'DTSTAMP:20300101T000000Z',
    `DTSTART;VALUE=DATE:${date.replaceAll('-', '')}`,
    `SUMMARY:${summary}`,
    ...more,
    'END:VEVENT',
  ];
}

async function token(role: 'viewer' | 'operator'): Promise<string> {
  const reply = await ok(
    'POST',
    '/v1/tokens',
    { name: `cal-${role}-${suffix}`, role, groups: [GROUP], expiresInDays: 1 },
    201,
  );
  return reply.body.token as string;
}

beforeAll(async () => {
  env = await isolatedResources('api-cal');
  const fnEnv = functionEnv({
    region: TEST_REGION,
    endpoints: { dynamodb: env.endpoints.dynamodb, sqs: env.endpoints.sqs, lambda: 'http://127.0.0.1:1' },
    resources: env.resources,
    adminToken: ADMIN,
    accessToken: randomBytes(24).toString('base64url'),
    tokenKey: randomBytes(24).toString('base64url'),
    adminBaseUrl: 'http://127.0.0.1:1',
  });
  handler = createHandler(loadConfig(fnEnv), {
    clients: env.clients,
    logger: silentLogger,
    metrics: { ...noMetrics, flush() {} },
  });
  // Tokens of one group: a calendar belongs to no group, so any role may read it.
  await ok('POST', '/v1/groups', { appName: GROUP, title: 'calendar roles', addressType: 'AUTO' }, 201);
  viewer = await token('viewer');
  operator = await token('operator');
}, 60_000);

afterAll(() => env?.close());

describe('/v1/calendars', () => {
  it('creates, reads (ETag), lists, changes at the version read, and deletes a calendar, each change audited', async () => {
    const id = cal('cn');
    const created = await ok('POST', '/v1/calendars', china(id), 201);
    expect(created.body).toMatchObject({ id, version: 1, workingDays: ['MON', 'TUE', 'WED', 'THU', 'FRI'] });
    expect(created.body.updatedBy).toBe('bootstrap');
    await ok('POST', '/v1/calendars', china(id), 409);

    const read = await ok('GET', `/v1/calendars/${id}`, undefined, 200);
    expect(read.headers.etag).toBe('"1"');
    expect(read.body).toEqual(created.body);
    const listed = await ok('GET', '/v1/calendars?limit=100', undefined, 200);
    expect(listed.body.items.map((c: { id: string }) => c.id)).toContain(id);

    const { id: _id, ...spec } = china(id);
    const edited = { ...spec, excluded: [...spec.excluded, { from: '2030-05-01', label: 'Labour Day' }] };
    // No version named: refused; a stale one: 409; If-Match or expectedVersion: a new version.
    const unnamed = await ok('PUT', `/v1/calendars/${id}`, edited, 400);
    expect(unnamed.body.problems.map((p: { field: string }) => p.field)).toEqual(['expectedVersion']);
    await ok('PUT', `/v1/calendars/${id}`, { ...edited, expectedVersion: 5 }, 409);
    const v2 = await ok('PUT', `/v1/calendars/${id}`, edited, 200, { headers: { 'if-match': '"1"' } });
    expect(v2.body.version).toBe(2);
    expect(v2.body.excluded[0]).toEqual({ from: '2030-05-01', label: 'Labour Day' });
    await ok('PUT', `/v1/calendars/${id}`, { ...edited, expectedVersion: 1 }, 409);
    await ok('PUT', `/v1/calendars/${id}`, { ...edited, name: 'v3', expectedVersion: 2 }, 200);

    await ok('DELETE', `/v1/calendars/${id}?expectedVersion=2`, undefined, 409);
    await ok('DELETE', `/v1/calendars/${id}`, undefined, 204, { headers: { 'if-match': '"3"' } });
    await ok('GET', `/v1/calendars/${id}`, undefined, 404);

    const audit = await ok(
      'GET',
      `/v1/audit?target=${encodeURIComponent(`calendar#${id}`)}&limit=100`,
      undefined,
      200,
    );
    const actions = audit.body.items.map((r: { action: string }) => r.action).reverse();
    expect(actions).toEqual(['calendar.create', 'calendar.update', 'calendar.update', 'calendar.delete']);
    // Newest first: the second update (v2 → v3, the name).
    const update = audit.body.items.find((r: { action: string }) => r.action === 'calendar.update');
    expect(Object.keys(update.changes).sort()).toEqual(['name', 'updatedAt', 'version']);
    expect(update.changes.version).toEqual({ before: 2, after: 3 });
  });

  it('names every problem of a calendar at once', async () => {
    const reply = await ok(
      'POST',
      '/v1/calendars',
      {
        id: 'Not An Id',
        name: ' ',
        timeZone: 'Nowhere/Land',
        excluded: [{ from: '2030-02-30' }, { from: '2030-03-05', to: '2030-03-01' }],
        included: [{ date: '2030-01-01' }, { date: '2030-01-01' }],
      },
      400,
    );
    expect(reply.body.problems.map((p: { field: string }) => p.field)).toEqual([
      'id',
      'name',
      'timeZone',
      'excluded',
      'excluded',
      'included',
    ]);
  });

  it('lists the days of a range with their reasons, across a year end', async () => {
    const id = cal('days');
    await ok('POST', '/v1/calendars', china(id), 201);
    const reply = await ok('GET', `/v1/calendars/${id}/days?from=2030-12-29&to=2031-01-03`, undefined, 200);
    expect(reply.body).toMatchObject({ calendarId: id, version: 1, timeZone: 'Asia/Shanghai' });
    expect(reply.body.days.map((d: { date: string; reason: string }) => `${d.date} ${d.reason}`)).toEqual([
      '2030-12-29 WEEKEND',
      '2030-12-30 WORKDAY',
      '2030-12-31 HOLIDAY',
      '2031-01-01 HOLIDAY',
      '2031-01-02 WORKDAY',
      '2031-01-03 WORKDAY',
    ]);
    const saturday = await ok(
      'GET',
      `/v1/calendars/${id}/days?from=2030-09-28&to=2030-09-28`,
      undefined,
      200,
    );
    expect(saturday.body.days).toEqual([
      { date: '2030-09-28', weekday: 'SAT', allowed: true, reason: 'MAKEUP_DAY', label: 'Make-up day' },
    ]);
    const tooLong = await ok('GET', `/v1/calendars/${id}/days?from=2030-01-01&to=2031-01-02`, undefined, 400);
    expect(tooLong.body.message).toBe('2030-01-01..2031-01-02 is 367 days; ask for at most 366 at a time');
    await ok('GET', `/v1/calendars/${id}/days?from=2030-01-05&to=2030-01-01`, undefined, 400);
  });

  it('imports an .ics (JSON or text/calendar) and exports it back', async () => {
    const text = ics(
      'X-WR-CALNAME:Bavaria',
      'X-WR-TIMEZONE:Europe/Berlin',
      ...allDay('2000-01-06', 'Epiphany', 'RRULE:FREQ=YEARLY'),
      ...allDay('2030-12-24', 'Christmas', 'DTEND;VALUE=DATE:20301227'),
      'BEGIN:VEVENT',
      'UID:meeting',
      'DTSTAMP:20300101T000000Z',
      'DTSTART:20300110T090000Z',
      'SUMMARY:Meeting',
      'END:VEVENT',
    );
    const id = cal('by');
    const imported = await ok('POST', '/v1/calendars/import', { id, ics: text }, 201);
    expect(imported.body.calendar).toMatchObject({
      id,
      name: 'Bavaria',
      timeZone: 'Europe/Berlin',
      version: 1,
    });
    expect(imported.body.calendar.excluded).toContainEqual({
      from: '2030-12-24',
      to: '2030-12-26',
      label: 'Christmas',
    });
    expect(
      imported.body.calendar.excluded.filter((e: { label: string }) => e.label === 'Epiphany').length,
    ).toBe(
      7, // from last year to five years ahead of this one, whichever year the test runs in
    );
    expect(imported.body.notes).toEqual([
      'event 3 (Meeting): not an all-day event (DTSTART has a time), left out',
    ]);

    const exported = await ok('GET', `/v1/calendars/${id}/export`, undefined, 200);
    expect(exported.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(exported.body).toContain('\r\nDTSTART;VALUE=DATE:20301224\r\nDTEND;VALUE=DATE:20301227\r\n');

    // The export read back as text/calendar: the same calendar under another id.
    const again = await ok('POST', `/v1/calendars/import?id=${cal('by2')}`, undefined, 201, {
      raw: exported.body,
      headers: { 'content-type': 'text/calendar; charset=utf-8' },
    });
    const { id: _a, createdAt: _c, updatedAt: _u, ...first } = imported.body.calendar;
    const { id: _b, createdAt: _d, updatedAt: _v, ...second } = again.body.calendar;
    expect(second).toEqual(first);
  });

  it('refuses hostile .ics files with a 400 saying why, and stores nothing', async () => {
    const id = cal('hostile');
    const cases: [string, unknown, string][] = [
      [
        'malformed',
        { id, ics: 'BEGIN:VCALENDAR\r\nnot a line of ics\r\n' },
        'ics cannot be read as iCalendar',
      ],
      ['not a calendar', { id, ics: 'hello' }, 'ics cannot be read as iCalendar'],
      [
        'oversized',
        { id, ics: `${ics()}${' '.repeat(1_048_577)}` },
        'bytes; an import takes at most 1048576 bytes',
      ],
      [
        'thousands of events',
        { id, ics: ics(...Array.from({ length: 2_001 }, (_, i) => allDay('2030-01-01', `e${i}`)).flat()) },
        'ics has 2001 events; an import takes at most 2000',
      ],
      [
        'a daily rule since 2000',
        { id, ics: ics(...allDay('2000-01-01', 'daily', 'RRULE:FREQ=DAILY')) },
        'its RRULE makes more than 2000 dates',
      ],
      [
        'more dates than a calendar holds',
        {
          id,
          ics: ics(
            ...Array.from({ length: 1_001 }, (_, i) => {
              const day = new Date(Date.UTC(2030, 0, 1) + i * 2 * 86_400_000).toISOString().slice(0, 10);
              return allDay(day, `h${i}`);
            }).flat(),
          ),
        },
        'excluded has 1001 entries; a calendar holds at most 1000',
      ],
      ['no id', { ics: ics() }, 'id must be 1-64 characters'],
      ['a field it does not know', { id, ics: ics(), colour: 'red' }, 'colour is not a field of an import'],
    ];
    for (const [what, body, message] of cases) {
      const reply = await call('POST', '/v1/calendars/import', body);
      expect(reply.status, what).toBe(400);
      expect(reply.body.message, what).toContain(message);
    }
    const raw = await call('POST', `/v1/calendars/import?id=${id}`, undefined, {
      raw: 'BEGIN:VCALENDAR\r\ngarbage',
      headers: { 'content-type': 'text/calendar' },
    });
    expect(raw.status).toBe(400);
    await ok('GET', `/v1/calendars/${id}`, undefined, 404);
  });

  it('lets every signed-in role read calendars, operators and admins change them, not viewers', async () => {
    const id = cal('roles');
    await ok('POST', '/v1/calendars', china(id), 403, { token: viewer });
    await ok('POST', '/v1/calendars', china(id), 201, { token: operator });
    await ok('GET', `/v1/calendars/${id}`, undefined, 200, { token: viewer });
    await ok('GET', `/v1/calendars/${id}/days?from=2030-10-01&to=2030-10-02`, undefined, 200, {
      token: viewer,
    });
    await ok('GET', `/v1/calendars/${id}/export`, undefined, 200, { token: viewer });
    await ok('DELETE', `/v1/calendars/${id}`, undefined, 403, { token: viewer });
    await ok('POST', '/v1/calendars/import', { id: cal('roles2'), ics: ics() }, 403, { token: viewer });
    await ok('DELETE', `/v1/calendars/${id}`, undefined, 204, { token: operator });
    await ok('GET', '/v1/calendars', undefined, 401, { token: null });
  });
});
