/**
 * The people and permissions commands (login --user, logout, whoami, users, passwd, tokens, audit)
 * run through `main` against a scripted server: what they send, print and save, and their exit codes.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from './program.js';
import { type FakeIo, fakeIo, fakeStdin } from './test-support/fake-io.js';
import { fakeServer, type Reply } from './test-support/fake-server.js';

const STACK_LINE = /^\s+at .+[:(]/m;
const URL_ = 'http://tickring.test';
const NOW = '2030-06-01T12:00:00.000Z';
const PASSWORD = 'correct horse battery';
const SESSION_TOKEN = 'trs_0123456789abcdef_SessionSecretSessionSecret';
const API_SECRET = 'trk_4f9c2a7be01d5c33_TokenSecretTokenSecretTokenSecret';

const ana = {
  username: 'ana',
  displayName: 'Ana Lima',
  role: 'operator',
  groups: ['billing'],
  glue: false,
  disabled: false,
  createdAt: '2030-05-01T00:00:00.000Z',
  createdBy: 'bootstrap',
  updatedAt: '2030-05-01T00:00:00.000Z',
  passwordChangedAt: '2030-05-01T00:00:00.000Z',
  lastLoginAt: NOW,
  version: 1,
};
const session = {
  token: SESSION_TOKEN,
  expiresAt: '2030-06-01T12:30:00.000Z',
  endsAt: '2030-06-02T00:00:00.000Z',
  user: ana,
};
const apiToken = {
  id: '4f9c2a7be01d5c33',
  name: 'ci',
  role: 'operator',
  groups: ['billing'],
  glue: false,
  status: 'active',
  createdAt: NOW,
  createdBy: 'bootstrap',
  expiresAt: '2030-07-01T12:00:00.000Z',
  revokedAt: null,
  lastUsedAt: null,
};
const unauthorized: Reply = {
  status: 401,
  body: {
    error: 'UnauthorizedError',
    message: 'the bearer token is not valid, or has expired or been revoked',
  },
};

let dir: string;
let config: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickring-cli-people-'));
  config = join(dir, 'config.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sessionProfile = {
  url: URL_,
  token: SESSION_TOKEN,
  username: 'ana',
  expiresAt: session.expiresAt,
  endsAt: session.endsAt,
};

async function writeProfiles(profiles: Record<string, unknown>): Promise<void> {
  await writeFile(config, JSON.stringify({ profiles }), { mode: 0o600 });
}

const readConfig = async () => JSON.parse(await readFile(config, 'utf8'));

function io(options: Parameters<typeof fakeIo>[0] & { tokenEnv?: boolean } = {}): FakeIo {
  const { tokenEnv, ...rest } = options;
  return fakeIo({
    ...rest,
    env: {
      TICKRING_CONFIG: config,
      TZ: 'UTC',
      ...(tokenEnv ? { TICKRING_URL: URL_, TICKRING_TOKEN: 'the-bootstrap-token' } : {}),
      ...rest.env,
    },
  });
}

/** Types `line` once `question` has been asked `times` times. */
async function typeAfter(fake: FakeIo, question: string, line: string, times = 1): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (fake.stderr.text.split(question).length - 1 >= times) {
      fake.stdin.write(`${line}\r`);
      return;
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  throw new Error(`"${question}" was not asked (stderr: ${fake.stderr.text})`);
}

describe('login --user', () => {
  it('signs in with the password from stdin, saves the session 0600 with the username and its end, says who and until when', async () => {
    const server = fakeServer({ 'POST /v1/sessions': { status: 201, body: session } });
    const fake = io({ stdin: fakeStdin({ piped: `${PASSWORD}\n` }), fetch: server.fetch });
    expect(await main(['login', '--url', `${URL_}/`, '--user', 'ana', '--password-stdin'], fake)).toBe(0);
    expect(server.seen).toEqual([
      {
        method: 'POST',
        path: '/v1/sessions',
        query: {},
        authorization: null,
        body: { username: 'ana', password: PASSWORD },
      },
    ]);
    expect(await readConfig()).toEqual({ profiles: { default: sessionProfile } });
    expect((await stat(config)).mode & 0o777).toBe(0o600);
    expect(fake.stdout.text).toBe(
      `Logged in to ${URL_} as ana (Ana Lima), operator of billing.\n` +
        'The session lasts until 2030-06-02 00:00:00 +00:00 (in 12 h) at the latest, sooner after 30 min unused.\n' +
        `Saved as profile "default" in ${config} (readable by you only).\n`,
    );
    expect(fake.stdout.text + fake.stderr.text).not.toContain(PASSWORD);
    expect(fake.stdout.text + fake.stderr.text).not.toContain(SESSION_TOKEN);
  });

  it('asks for the password without echo on a terminal; --json says who, never the token', async () => {
    const server = fakeServer({ 'POST /v1/sessions': { status: 201, body: session } });
    const stdin = fakeStdin({ isTTY: true });
    const fake = io({ stdin, fetch: server.fetch });
    const done = main(['login', '--url', URL_, '--user', 'ana', '--json', '--profile', 'prod'], fake);
    await typeAfter(fake, `Password of ana at ${URL_}: `, PASSWORD);
    expect(await done).toBe(0);
    expect(stdin.rawModeChanges).toEqual([true, false]);
    expect(fake.stderr.text).toBe(`Password of ana at ${URL_}: \n`);
    expect(JSON.parse(fake.stdout.text)).toEqual({
      profile: 'prod',
      url: URL_,
      configFile: config,
      kind: 'session',
      name: 'ana',
      role: 'operator',
      groups: ['billing'],
      glue: false,
      username: 'ana',
      expiresAt: session.expiresAt,
      endsAt: session.endsAt,
    });
    expect(fake.stdout.text).not.toContain(SESSION_TOKEN);
    expect((await readConfig()).profiles.prod.token).toBe(SESSION_TOKEN);
  });

  it('saves nothing when the server refuses the password (exit 1)', async () => {
    const server = fakeServer({
      'POST /v1/sessions': {
        status: 401,
        body: { error: 'UnauthorizedError', message: 'username or password is wrong' },
      },
    });
    const fake = io({ stdin: fakeStdin({ piped: 'wrong password\n' }), fetch: server.fetch });
    expect(await main(['login', '--url', URL_, '--user', 'ana', '--password-stdin'], fake)).toBe(1);
    expect(fake.stderr.text).toBe(
      `error: ${URL_} did not sign ana in (username or password is wrong); nothing was saved\n`,
    );
    await expect(stat(config)).rejects.toThrow(/ENOENT/);
  });

  it('ends the session the profile held before (with its own token)', async () => {
    await writeProfiles({ default: { ...sessionProfile, token: 'trs_oldoldoldoldold_OldSecret' } });
    const server = fakeServer({
      'POST /v1/sessions': { status: 201, body: session },
      'DELETE /v1/sessions/current': { status: 204 },
    });
    const fake = io({ stdin: fakeStdin({ piped: `${PASSWORD}\n` }), fetch: server.fetch });
    expect(await main(['login', '--user', 'ana', '--password-stdin'], fake)).toBe(0);
    expect(server.seen.map((r) => [r.method, r.path, r.authorization])).toEqual([
      ['POST', '/v1/sessions', null],
      ['DELETE', '/v1/sessions/current', 'Bearer trs_oldoldoldoldold_OldSecret'],
    ]);
    expect((await readConfig()).profiles.default.token).toBe(SESSION_TOKEN);
  });

  it.each([
    [['login', '--url', URL_, '--user', 'ana', '--token-stdin'], 'sign in with --user or give a token'],
    [['login', '--url', URL_, '--password-stdin'], '--password-stdin goes with --user <username>'],
    [
      ['login', '--url', URL_, '--user', 'ana'],
      'no terminal to ask for the password: pipe it in with --password-stdin',
    ],
  ])('%j is a usage error (exit 2): %s', async (argv, message) => {
    const fake = io();
    expect(await main(argv, fake)).toBe(2);
    expect(fake.stderr.text).toContain(message);
  });
});

describe('a session the server no longer takes', () => {
  it('says "session expired; run tickring login --user <name>" (exit 1), with the profile when not the default', async () => {
    await writeProfiles({ default: sessionProfile, prod: sessionProfile });
    const server = fakeServer({ 'GET /v1/jobs': unauthorized, 'GET /v1/me': unauthorized });
    const fake = io({ fetch: server.fetch });
    expect(await main(['jobs', 'ls'], fake)).toBe(1);
    expect(fake.stderr.text).toBe('error: session expired; run tickring login --user ana\n');
    expect(server.seen[0]?.authorization).toBe(`Bearer ${SESSION_TOKEN}`);

    const prod = io({ fetch: server.fetch });
    expect(await main(['whoami', '--profile', 'prod'], prod)).toBe(1);
    expect(prod.stderr.text).toBe('error: session expired; run tickring login --user ana --profile prod\n');
  });

  it('TICKRING_TOKEN set: the usual 401 (the token is not the profile session)', async () => {
    await writeProfiles({ default: sessionProfile });
    const fake = io({
      env: { TICKRING_TOKEN: 'other' },
      fetch: fakeServer({ 'GET /v1/jobs': unauthorized }).fetch,
    });
    expect(await main(['jobs', 'ls'], fake)).toBe(1);
    expect(fake.stderr.text).toMatch(/^UnauthorizedError: the bearer token is not valid/);
  });
});

describe('logout', () => {
  it('ends the session on the server with its token, then removes the profile', async () => {
    await writeProfiles({ default: sessionProfile });
    const server = fakeServer({ 'DELETE /v1/sessions/current': { status: 204 } });
    const fake = io({ fetch: server.fetch });
    expect(await main(['logout'], fake)).toBe(0);
    expect(server.seen.map((r) => [r.method, r.path, r.authorization])).toEqual([
      ['DELETE', '/v1/sessions/current', `Bearer ${SESSION_TOKEN}`],
    ]);
    expect(fake.stdout.text).toBe(
      `Signed out ana from ${URL_}.\nRemoved profile "default" from ${config}.\n`,
    );
    expect(await readConfig()).toEqual({ profiles: {} });
  });

  it('a server error or no server: a warning, and the profile is removed all the same (exit 0)', async () => {
    await writeProfiles({ default: sessionProfile });
    const failing = io({
      fetch: fakeServer({
        'DELETE /v1/sessions/current': { status: 500, body: { error: 'InternalError', message: 'boom' } },
      }).fetch,
    });
    expect(await main(['logout', '--json'], failing)).toBe(0);
    expect(failing.stderr.text).toBe(
      `warning: could not end the session on ${URL_} (InternalError: boom); removing it here anyway\n`,
    );
    expect(JSON.parse(failing.stdout.text)).toEqual({
      profile: 'default',
      removed: true,
      configFile: config,
      sessionEnded: false,
    });
    expect(await readConfig()).toEqual({ profiles: {} });

    await writeProfiles({ default: { ...sessionProfile, url: 'http://127.0.0.1:9' } });
    const down = io();
    expect(await main(['logout'], down)).toBe(0);
    expect(down.stderr.text).toMatch(
      /^warning: could not end the session on http:\/\/127\.0\.0\.1:9 \(cannot reach/,
    );
    expect(down.stderr.text).not.toMatch(STACK_LINE);
    expect(await readConfig()).toEqual({ profiles: {} });
  });

  it('a session already over is only noted; a token profile is only forgotten (no request)', async () => {
    await writeProfiles({ default: sessionProfile, ci: { url: URL_, token: API_SECRET } });
    const server = fakeServer({ 'DELETE /v1/sessions/current': unauthorized });
    const over = io({ fetch: server.fetch });
    expect(await main(['logout'], over)).toBe(0);
    expect(over.stderr.text).toBe('The session of ana had already ended.\n');
    const token = io({ fetch: server.fetch });
    expect(await main(['logout', '--profile', 'ci'], token)).toBe(0);
    expect(server.seen).toHaveLength(1);
    expect(await readConfig()).toEqual({ profiles: {} });
  });
});

describe('whoami', () => {
  it("shows the caller, its grant and what it may do; --json is the server's answer", async () => {
    await writeProfiles({ default: sessionProfile });
    const me = {
      kind: 'session',
      name: 'ana',
      username: 'ana',
      displayName: 'Ana Lima',
      role: 'operator',
      groups: ['billing', 'reports'],
      glue: false,
      permissions: {
        admin: false,
        readGroups: ['billing', 'reports'],
        operateGroups: ['billing', 'reports'],
        glue: false,
      },
    };
    const server = fakeServer({ 'GET /v1/me': { status: 200, body: me } });
    const fake = io({ fetch: server.fetch });
    expect(await main(['whoami'], fake)).toBe(0);
    expect(fake.stdout.text).toBe(
      [
        'who:           ana (Ana Lima)',
        'as:            a signed-in user (session)',
        'role:          operator',
        'groups:        billing, reports',
        'glue:          no',
        'may:           read the jobs, runs, executors and audit of: billing, reports',
        '               change jobs and runs (create, edit, start, stop, trigger, kill, delete) of: billing, reports',
        '               not edit GLUE sources',
        `server:        ${URL_}`,
        'session ends:  2030-06-02 00:00:00 +00:00 (in 12 h) at the latest',
        '',
      ].join('\n'),
    );
    const json = io({ fetch: server.fetch });
    expect(await main(['whoami', '--json'], json)).toBe(0);
    expect(JSON.parse(json.stdout.text)).toEqual(me);
  });
});

describe('users', () => {
  it('create asks for the password twice without echo and never prints it', async () => {
    const server = fakeServer({
      'POST /v1/users': (req) => ({
        status: 201,
        body: { ...ana, ...(req.body as object), password: undefined },
      }),
    });
    const stdin = fakeStdin({ isTTY: true });
    const fake = io({ tokenEnv: true, stdin, fetch: server.fetch });
    const done = main(
      [
        'users',
        'create',
        '--username',
        'ana',
        '--display-name',
        'Ana Lima',
        '--role',
        'Operator',
        '--group',
        'billing,reports',
        '--glue',
      ],
      fake,
    );
    await typeAfter(fake, 'Password for ana: ', PASSWORD);
    await typeAfter(fake, 'The same again: ', PASSWORD);
    expect(await done).toBe(0);
    expect(server.seen[0]?.body).toEqual({
      username: 'ana',
      displayName: 'Ana Lima',
      password: PASSWORD,
      role: 'operator',
      groups: ['billing', 'reports'],
      glue: true,
    });
    expect(fake.stdout.text).toMatch(/^username:\s+ana$/m);
    expect(fake.stdout.text).toMatch(/^role:\s+operator of billing, reports \(and GLUE\)$/m);
    expect(fake.stderr.text).toContain('Created user ana: they sign in with tickring login --user ana');
    expect(fake.stdout.text + fake.stderr.text).not.toContain(PASSWORD);
  });

  it('edit sends only the flags given; --no-glue, --disable, --all-groups; nothing to change is a usage error', async () => {
    const server = fakeServer({ 'PUT /v1/users/ana': { status: 200, body: { ...ana, disabled: true } } });
    const fake = io({ tokenEnv: true, fetch: server.fetch });
    expect(
      await main(
        ['users', 'edit', 'ana', '--no-glue', '--disable', '--role', 'viewer', '--all-groups'],
        fake,
      ),
    ).toBe(0);
    expect(server.seen[0]?.body).toEqual({ role: 'viewer', groups: '*', glue: false, disabled: true });
    expect(fake.stderr.text).toContain('Changed user ana. Their sessions have ended.');

    const pw = io({
      tokenEnv: true,
      fetch: server.fetch,
      stdin: fakeStdin({ piped: 'a brand new passphrase\n' }),
    });
    expect(await main(['users', 'edit', 'ana', '--password-stdin', '--json'], pw)).toBe(0);
    expect(server.seen[1]?.body).toEqual({ password: 'a brand new passphrase' });
    expect(pw.stdout.text + pw.stderr.text).not.toContain('a brand new passphrase');

    for (const [argv, message] of [
      [['users', 'edit', 'ana'], 'nothing to change'],
      [['users', 'edit', 'ana', '--disable', '--enable'], 'give --disable or --enable, not both'],
      [
        ['users', 'edit', 'ana', '--group', 'a', '--all-groups'],
        'give the groups with --group or --all-groups, not both',
      ],
      [['users', 'create', '--username', 'bob'], 'a user needs --username <username> and --role'],
      [['users', 'create', '--username', 'bob', '--role', 'boss'], 'expected one of admin, operator, viewer'],
      [['users', 'rm', 'ana'], 'not asking without a terminal: add --yes to delete'],
    ] as const) {
      const bad = io({ tokenEnv: true, fetch: server.fetch });
      expect(await main([...argv], bad), argv.join(' ')).toBe(2);
      expect(bad.stderr.text).toContain(message);
    }
    expect(server.seen).toHaveLength(2);
  });

  it('ls shows a table without passwords; rm --yes deletes', async () => {
    const server = fakeServer({
      'GET /v1/users': {
        status: 200,
        body: {
          items: [
            ana,
            {
              ...ana,
              username: 'bob',
              displayName: 'bob',
              role: 'viewer',
              groups: '*',
              disabled: true,
              lastLoginAt: null,
            },
          ],
        },
      },
      'DELETE /v1/users/bob': { status: 204 },
    });
    const fake = io({ tokenEnv: true, fetch: server.fetch });
    expect(await main(['users', 'ls'], fake)).toBe(0);
    const lines = fake.stdout.text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^USERNAME\s+NAME\s+ROLE\s+GROUPS\s+GLUE\s+STATE\s+LAST LOGIN$/);
    expect(lines[1]).toMatch(/^ana\s+Ana Lima\s+operator\s+billing\s+no\s+active\s+12:00:00 \(now\)$/);
    expect(lines[2]).toMatch(/^bob\s+bob\s+viewer\s+every group\s+no\s+disabled\s+-$/);
    const removed = io({ tokenEnv: true, fetch: server.fetch });
    expect(await main(['users', 'rm', 'bob', '--yes'], removed)).toBe(0);
    expect(removed.stderr.text).toBe('Deleted user bob.\n');
  });
});

describe('passwd', () => {
  it('sends the current and the new password (stdin, one a line) with the session', async () => {
    await writeProfiles({ default: sessionProfile });
    const server = fakeServer({ 'PUT /v1/me/password': { status: 200, body: ana } });
    const fake = io({
      fetch: server.fetch,
      stdin: fakeStdin({ piped: `${PASSWORD}\na longer new passphrase\n` }),
    });
    expect(await main(['passwd', '--password-stdin'], fake)).toBe(0);
    expect(server.seen[0]).toMatchObject({
      authorization: `Bearer ${SESSION_TOKEN}`,
      body: { currentPassword: PASSWORD, newPassword: 'a longer new passphrase' },
    });
    expect(fake.stdout.text).toBe(
      'Changed the password of ana. Your other sessions have ended; this one goes on.\n',
    );
  });

  it('asks for the current one, then the new one twice, on a terminal', async () => {
    await writeProfiles({ default: sessionProfile });
    const server = fakeServer({ 'PUT /v1/me/password': { status: 200, body: ana } });
    const fake = io({ fetch: server.fetch, stdin: fakeStdin({ isTTY: true }) });
    const done = main(['passwd'], fake);
    await typeAfter(fake, 'Current password of ana: ', PASSWORD);
    await typeAfter(fake, 'New password: ', 'a longer new passphrase');
    await typeAfter(fake, 'The same again: ', 'a longer new passphrase');
    expect(await done).toBe(0);
    expect(server.seen[0]?.body).toEqual({
      currentPassword: PASSWORD,
      newPassword: 'a longer new passphrase',
    });
  });

  it('a token has no password: a usage error before asking anything', async () => {
    const fake = io({ tokenEnv: true, stdin: fakeStdin({ isTTY: true }) });
    expect(await main(['passwd'], fake)).toBe(2);
    expect(fake.stderr.text).toMatch(/^error: only a signed-in user has a password to change/);
  });
});

describe('tokens', () => {
  const created = { ...apiToken, token: API_SECRET, note: 'This token is shown once: store it now.' };

  it('create prints the secret alone on stdout, once, and says on stderr it is shown only now', async () => {
    const server = fakeServer({ 'POST /v1/tokens': { status: 201, body: created } });
    const fake = io({ tokenEnv: true, fetch: server.fetch });
    expect(
      await main(
        [
          'tokens',
          'create',
          '--name',
          'ci',
          '--role',
          'operator',
          '--group',
          'billing',
          '--expires-in',
          '30d',
        ],
        fake,
      ),
    ).toBe(0);
    expect(server.seen[0]?.body).toEqual({
      name: 'ci',
      role: 'operator',
      groups: ['billing'],
      expiresInDays: 30,
    });
    expect(fake.stdout.text).toBe(`${API_SECRET}\n`);
    expect(fake.stderr.text).toBe(
      'Created API token ci (id 4f9c2a7be01d5c33), operator of billing, expiring 2030-07-01 12:00:00 +00:00 (in 30 d).\n' +
        "The token below is shown only now, never again: store it now (e.g. in your CI's secrets).\n",
    );

    const json = io({ tokenEnv: true, fetch: server.fetch });
    expect(
      await main(
        [
          'tokens',
          'create',
          '--name',
          'ci',
          '--role',
          'viewer',
          '--all-groups',
          '--expires-in',
          '12h',
          '--json',
        ],
        json,
      ),
    ).toBe(0);
    expect(server.seen[1]?.body).toEqual({
      name: 'ci',
      role: 'viewer',
      groups: '*',
      expiresAt: '2030-06-02T00:00:00.000Z',
    });
    expect(JSON.parse(json.stdout.text)).toEqual(created);
    expect(json.stdout.text.split(API_SECRET)).toHaveLength(2);
    expect(json.stderr.text).toContain('shown only now');
  });

  it.each([
    [
      ['--expires-in', '30d', '--expires-at', '2030-07-01'],
      'give the expiry with --expires-in or --expires-at, not both',
    ],
    [[], 'a token needs an expiry: --expires-in 90d, or --expires-at <ISO time>'],
    [['--expires-in', '30m'], 'expected a span ahead such as 30d'],
    [['--expires-at', 'soon'], 'expected an ISO-8601 time'],
  ])('create %j is a usage error (exit 2)', async (flags, message) => {
    const server = fakeServer({});
    const fake = io({ tokenEnv: true, fetch: server.fetch });
    expect(
      await main(['tokens', 'create', '--name', 'ci', '--role', 'viewer', '--group', 'a', ...flags], fake),
    ).toBe(2);
    expect(fake.stderr.text).toContain(message);
    expect(server.seen).toEqual([]);
  });

  it('ls shows the tokens without secrets; revoke needs --yes off a terminal and refuses a whole token', async () => {
    const server = fakeServer({
      'GET /v1/tokens': {
        status: 200,
        body: {
          items: [
            apiToken,
            { ...apiToken, id: 'aaaabbbbcccc', name: 'old', status: 'revoked', revokedAt: NOW },
          ],
        },
      },
      'DELETE /v1/tokens/4f9c2a7be01d5c33': { status: 204 },
    });
    const ls = io({ tokenEnv: true, fetch: server.fetch });
    expect(await main(['tokens', 'ls'], ls)).toBe(0);
    const lines = ls.stdout.text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+ROLE\s+GROUPS\s+STATUS\s+EXPIRES\s+LAST USED\s+CREATED BY$/);
    expect(lines[1]).toMatch(
      /^4f9c2a7be01d5c33\s+ci\s+operator\s+billing\s+active\s+2030-07-01 12:00 \(in 30 d\)\s+-\s+bootstrap$/,
    );
    expect(lines[2]).toMatch(/^aaaabbbbcccc\s+old\s+.*revoked\s+revoked 12:00:00 \(now\)/);
    expect(ls.stdout.text).not.toContain('trk_');

    const ask = io({ tokenEnv: true, fetch: server.fetch });
    expect(await main(['tokens', 'revoke', '4f9c2a7be01d5c33'], ask)).toBe(2);
    expect(ask.stderr.text).toBe('error: not asking without a terminal: add --yes to revoke\n');
    const whole = io({ tokenEnv: true, fetch: server.fetch });
    expect(await main(['tokens', 'revoke', API_SECRET, '--yes'], whole)).toBe(2);
    expect(whole.stderr.text).toMatch(/give the token's id \(tickring tokens ls\), not the token itself/);
    expect(whole.stderr.text).not.toContain(API_SECRET);

    const yes = io({ tokenEnv: true, fetch: server.fetch });
    expect(await main(['tokens', 'revoke', '4f9c2a7be01d5c33', '--yes'], yes)).toBe(0);
    expect(yes.stderr.text).toBe('Revoked API token 4f9c2a7be01d5c33.\n');
    expect(server.seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/tokens',
      'DELETE /v1/tokens/4f9c2a7be01d5c33',
    ]);
  });

  it('rotate-bootstrap asks on a terminal, prints the new token once, and warns that the one in use is gone', async () => {
    const rotated = {
      token: 'trb_NewBootstrapNewBootstrap',
      rotatedAt: NOW,
      rotatedBy: 'bootstrap',
      note: 'shown once',
    };
    const server = fakeServer({ 'POST /v1/tokens/bootstrap/rotate': { status: 200, body: rotated } });
    const stdin = fakeStdin({ isTTY: true });
    const fake = io({ tokenEnv: true, fetch: server.fetch, stdin });
    const done = main(['tokens', 'rotate-bootstrap'], fake);
    await typeAfter(fake, '[y/N] ', 'y');
    expect(await done).toBe(0);
    expect(fake.stdout.text).toBe(`${rotated.token}\n`);
    expect(fake.stderr.text).toContain('The new token below is shown only now, never again');
    expect(fake.stderr.text).toContain('warning: you called with the old bootstrap token (TICKRING_TOKEN)');

    const no = io({ tokenEnv: true, fetch: server.fetch, stdin: fakeStdin({ isTTY: true }) });
    const declined = main(['tokens', 'rotate-bootstrap'], no);
    await typeAfter(no, '[y/N] ', 'n');
    expect(await declined).toBe(1);
    expect(no.stderr.text).toContain('error: not rotated');
    expect(server.seen).toHaveLength(1);
  });
});

describe('audit', () => {
  const record = (fields: Record<string, unknown>) => ({
    id: '01Q3DK7480BK2SRJDHQG4QM1HT',
    at: '2030-06-01T11:00:00.000Z',
    actor: { kind: 'session', id: 'ana', name: 'ana', credentialId: 'x' },
    source: { ip: '127.0.0.1', userAgent: 'tickring-cli/0.1.0' },
    action: 'job.update',
    target: 'job#7',
    appName: 'billing',
    changes: {},
    detail: null,
    requestId: 'r1',
    ...fields,
  });
  const update = record({
    changes: {
      scheduleConf: { before: '0 * * * * ?', after: '0 0 * * * ?' },
      version: { before: 1, after: 2 },
    },
  });
  const create = record({
    id: '01Q3DK7480BK2SRJDHQG4QM1HS',
    at: '2030-05-30T09:00:00.000Z',
    action: 'job.create',
    changes: { name: { after: 'Nightly' }, scheduleConf: { after: '0 * * * * ?' }, version: { after: 1 } },
  });

  it('maps the flags to the query and shows time, actor, action, target and the changed fields', async () => {
    const server = fakeServer({
      'GET /v1/audit': { status: 200, body: { items: [update, create], nextCursor: 'c2' } },
    });
    const fake = io({ tokenEnv: true, fetch: server.fetch });
    expect(
      await main(
        ['audit', '--job', '7', '--since', '1d', '--action', 'job.*', '--actor', 'ana', '--limit', '2'],
        fake,
      ),
    ).toBe(0);
    expect(server.seen[0]?.query).toEqual({
      target: 'job#7',
      action: 'job.*',
      actor: 'ana',
      from: '2030-05-31T12:00:00.000Z',
      limit: '2',
    });
    const lines = fake.stdout.text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TIME\s+ACTOR\s+ACTION\s+TARGET\s+CHANGES$/);
    expect(lines[1]).toMatch(
      /^11:00:00 \(1 h ago\)\s+ana\s+job\.update\s+job#7\s+scheduleConf: "0 \* \* \* \* \?" → "0 0 \* \* \* \?"$/,
    );
    expect(lines[2]).toMatch(
      /^2030-05-30 09:00 \(2 d ago\)\s+ana\s+job\.create\s+job#7\s+created \(name: "Nightly", scheduleConf: "0 \* \* \* \* \?"\)$/,
    );
    expect(fake.stderr.text).toContain('More records: a higher --limit, --all, or go on with --cursor c2');
  });

  it('--all follows the cursor; --group is the appName; --json is the raw records', async () => {
    const server = fakeServer({
      'GET /v1/audit': (req) =>
        req.query.cursor === 'c2'
          ? { status: 200, body: { items: [create], nextCursor: null } }
          : { status: 200, body: { items: [update], nextCursor: 'c2' } },
    });
    const fake = io({ tokenEnv: true, fetch: server.fetch });
    expect(await main(['audit', '--group', 'billing', '--user', 'ana', '--all', '--json'], fake)).toBe(0);
    expect(server.seen.map((r) => r.query)).toEqual([
      { target: 'user#ana', appName: 'billing', limit: '100' },
      { target: 'user#ana', appName: 'billing', limit: '100', cursor: 'c2' },
    ]);
    expect(JSON.parse(fake.stdout.text)).toEqual({ items: [update, create], nextCursor: null });
  });

  it.each([
    [['--job', '7', '--user', 'ana'], 'give one target: --target, --job or --user'],
    [['--all', '--limit', '5'], 'give --all or --limit, not both'],
    [['--since', 'last week'], 'expected a span back from now'],
  ])('%j is a usage error (exit 2)', async (flags, message) => {
    const fake = io({ tokenEnv: true, fetch: fakeServer({}).fetch });
    expect(await main(['audit', ...flags], fake)).toBe(2);
    expect(fake.stderr.text).toContain(message);
  });
});
