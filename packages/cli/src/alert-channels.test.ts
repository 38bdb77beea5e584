import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ALARM_KINDS, ALERT_STATES } from './commands/alerts.js';
import { main } from './program.js';
import { fakeIo } from './test-support/fake-io.js';
import { fakeServer } from './test-support/fake-server.js';

/** The API's own lists, which openapi.json takes from core's ALARM_KINDS and ALERT_STATES. */
const CONTRACT = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8'));
const CORE_ALARM_KINDS: string[] = CONTRACT.components.schemas.Alert.properties.kind.enum;
const CORE_ALERT_STATES: string[] = CONTRACT.components.schemas.Alert.properties.state.enum;

const ENV = { TICKRING_URL: 'http://tickring.test', TICKRING_TOKEN: 't', TZ: 'UTC' };
const ID = '5b1c2f7e-8d8e-4b0c-9d55-2f0a6f1f3c11';
const T0 = '2030-01-01T10:02:00.000Z';

const channel = (fields: Record<string, unknown> = {}) => ({
  id: ID,
  name: 'ops',
  kind: 'webhook',
  url: 'https://hooks.example.com/t',
  signed: true,
  revision: 2,
  createdAt: T0,
  createdBy: 'ana',
  updatedAt: T0,
  ...fields,
});

const group = (fields: Record<string, unknown> = {}) => ({
  appName: 'billing',
  title: 'Billing',
  addressType: 'AUTO',
  addressList: [],
  alertChannels: [],
  accessTokenSetAt: null,
  createdAt: T0,
  updatedAt: T0,
  ...fields,
});

afterEach(() => {
  delete process.env.NEW_HOOK_SECRET;
});

describe('tickring channels update', () => {
  it('sends only the fields given: a new secret from the environment, the revision read', async () => {
    const fake = fakeServer({
      [`PATCH /v1/alert-channels/${ID}`]: { status: 200, body: channel({ revision: 3 }) },
    });
    // The CLI's environment, as every other variable it reads (not the test process's own).
    const io = fakeIo({
      env: { ...ENV, NEW_HOOK_SECRET: 'another-long-random-shared-secret' },
      fetch: fake.fetch,
    });
    const args = [
      'channels',
      'update',
      ID,
      '--name',
      'ops',
      '--secret-env',
      'NEW_HOOK_SECRET',
      '--revision',
      '2',
    ];
    expect(await main(args, io)).toBe(0);
    expect(fake.seen[0]?.body).toEqual({
      name: 'ops',
      secret: 'another-long-random-shared-secret',
      revision: 2,
    });
    expect(io.stderr.text).toContain(`Changed channel ${ID} (revision 3, signed).`);
    expect(io.stdout.text + io.stderr.text).not.toContain('another-long-random');
  });

  it('clears the body template and the secret with --no-body-template and --unsigned', async () => {
    const fake = fakeServer({
      [`PATCH /v1/alert-channels/${ID}`]: { status: 200, body: channel({ signed: false }) },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['channels', 'update', ID, '--no-body-template', '--unsigned'], io)).toBe(0);
    expect(fake.seen[0]?.body).toEqual({ bodyTemplate: null, secret: null });
  });

  it('refuses to send nothing, or both a new secret and none (usage, exit 2)', async () => {
    const fake = fakeServer({});
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['channels', 'update', ID], io)).toBe(2);
    expect(io.stderr.text).toContain('nothing to change');
    process.env.NEW_HOOK_SECRET = 'another-long-random-shared-secret';
    expect(await main(['channels', 'update', ID, '--secret-env', 'NEW_HOOK_SECRET', '--unsigned'], io)).toBe(
      2,
    );
    expect(fake.seen).toHaveLength(0);
  });
});

describe('tickring channels test', () => {
  it('says a test message was delivered (exit 0)', async () => {
    const fake = fakeServer({
      [`POST /v1/alert-channels/${ID}/test`]: {
        status: 200,
        body: { channelId: ID, kind: 'webhook', delivered: true, at: T0, status: 204 },
      },
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['channels', 'test', ID], io)).toBe(0);
    expect(io.stderr.text).toContain(`Delivered a test message through channel ${ID} (HTTP 204).`);
  });

  it("names the receiver's answer and fails (exit 1) when it was not delivered", async () => {
    const result = {
      channelId: ID,
      kind: 'webhook',
      delivered: false,
      at: T0,
      status: 401,
      error: 'HTTP 401',
    };
    const fake = fakeServer({ [`POST /v1/alert-channels/${ID}/test`]: { status: 200, body: result } });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['channels', 'test', ID], io)).toBe(1);
    expect(io.stderr.text).toContain(`Not delivered through channel ${ID} (HTTP 401): HTTP 401`);
    const json = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['channels', 'test', ID, '--json'], json)).toBe(1);
    expect(JSON.parse(json.stdout.text)).toEqual(result);
  });
});

describe("tickring groups: a group's alert channels", () => {
  it('sets them with --alert-channel (repeatable), clears them with --clear-alert-channels, shows them', async () => {
    const fake = fakeServer({
      'PUT /v1/groups/billing': (req) => ({
        status: 200,
        body: group({ alertChannels: (req.body as { alertChannels: string[] }).alertChannels }),
      }),
    });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(
      await main(['groups', 'edit', 'billing', '--alert-channel', ID, '--alert-channel', 'ch-2'], io),
    ).toBe(0);
    expect(fake.seen[0]?.body).toEqual({ alertChannels: [ID, 'ch-2'] });
    expect(io.stdout.text).toMatch(new RegExp(`alert channels: +${ID}, ch-2`));
    expect(await main(['groups', 'edit', 'billing', '--clear-alert-channels'], io)).toBe(0);
    expect(fake.seen[1]?.body).toEqual({ alertChannels: [] });
    expect(
      await main(['groups', 'edit', 'billing', '--alert-channel', ID, '--clear-alert-channels'], io),
    ).toBe(2);
  });
});

describe('tickring alerts ls', () => {
  const alert = (fields: Record<string, unknown>) => ({
    id: `7#fireUnexplained#${fields.firstAt}`,
    jobId: 7,
    jobName: 'nightly',
    appName: 'orders',
    kind: 'fireUnexplained',
    state: 'silenced',
    count: 1,
    summary: 'job 7 owed a fire',
    firstAt: T0,
    lastAt: T0,
    windowEnd: T0,
    deliveries: [],
    ...fields,
  });

  it('filters by kind and state, reading on past a short page until --limit', async () => {
    const pages = [
      { items: [], nextCursor: 'c1' },
      { items: [alert({ firstAt: '2030-01-01T10:01:00.000Z' })], nextCursor: 'c2' },
      { items: [alert({ firstAt: '2030-01-01T10:00:00.000Z' })], nextCursor: 'c3' },
    ];
    const fake = fakeServer({ 'GET /v1/alerts': () => ({ status: 200, body: pages.shift() }) });
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    const args = [
      'alerts',
      'ls',
      '--kind',
      'fireUnexplained',
      '--state',
      'Silenced',
      '--limit',
      '2',
      '--json',
    ];
    expect(await main(args, io)).toBe(0);
    expect(fake.seen.map((r) => r.query)).toEqual([
      { kind: 'fireUnexplained', state: 'silenced', limit: '2' },
      { kind: 'fireUnexplained', state: 'silenced', limit: '2', cursor: 'c1' },
      { kind: 'fireUnexplained', state: 'silenced', limit: '1', cursor: 'c2' },
    ]);
    const listed = JSON.parse(io.stdout.text);
    expect([listed.items.length, listed.nextCursor]).toEqual([2, 'c3']);
  });

  it('refuses a kind or a state the API does not have (usage, exit 2), naming those it has', async () => {
    const fake = fakeServer({});
    const io = fakeIo({ env: ENV, fetch: fake.fetch });
    expect(await main(['alerts', 'ls', '--state', 'lost'], io)).toBe(2);
    expect(io.stderr.text).toContain('expected one of sent, silenced, unrouted');
    expect(await main(['silences', 'create', '--kind', 'runfailed', '--to', '1h', '--reason', 'x'], io)).toBe(
      2,
    );
    expect(io.stderr.text).toContain(`expected one of ${CORE_ALARM_KINDS.join(', ')}`);
    expect(fake.seen).toHaveLength(0);
  });

  it("has core's alarm kinds and alert states (through the API's document), in their order", () => {
    expect(ALARM_KINDS).toEqual(CORE_ALARM_KINDS);
    expect(ALERT_STATES).toEqual(CORE_ALERT_STATES);
  });
});
