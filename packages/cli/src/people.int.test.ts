/**
 * People and permissions with the command line against a real local stack: users created with the
 * bootstrap admin token, a user signing in (a session in the profile), what an operator sees, API
 * tokens shown once and revoked, the audit log of a job, signing out, an expired session, one's own
 * password, and rotating the bootstrap token. The commands run through the program in this process
 * (run-program.ts), but for the first sign-in, which the built binary makes as a child process: the
 * password read from its piped stdin.
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, cli, STACK_LINE } from './test-support/run-cli.js';
import { runProgram } from './test-support/run-program.js';
import { type Stack, startStack, waitFor } from './test-support/stack.js';

const PASSWORD = 'Correct horse battery 1';
const SECOND_PASSWORD = 'Another long phrase 22';
const THIRD_PASSWORD = 'A third long phrase 333';

describe('tickring people and permissions against a local stack', () => {
  let e: Stack;
  let dir: string;
  /** The bootstrap admin token, as TICKRING_URL and TICKRING_TOKEN. */
  let admin: Record<string, string>;
  /** A profile of its own (no TICKRING_TOKEN): what `login --user` saves is what is used. */
  let anaEnv: Record<string, string>;
  let config: string;
  let groupA: string;
  let groupB: string;
  const jobsA: number[] = [];
  const jobsB: number[] = [];
  const user = `ana-${Date.now().toString(36)}`;

  /** Every output of a command: neither may ever hold a password. */
  const outputs: CliResult[] = [];
  const run = async (
    args: string[],
    options: { env: Record<string, string>; input?: string },
    via: typeof runProgram = runProgram,
  ) => {
    const res = await via(args, options);
    outputs.push(res);
    return res;
  };
  const profile = async () => JSON.parse(await readFile(config, 'utf8')).profiles.default;
  const api = (path: string, token: string) =>
    fetch(`${e.stack.urls.api}${path}`, { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tickring-cli-people-int-'));
    e = await startStack('people');
    admin = { TICKRING_URL: e.stack.urls.api, TICKRING_TOKEN: e.stack.tokens.adminToken, HOME: dir };
    config = join(dir, 'xdg', 'tickring', 'config.json');
    anaEnv = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg') };
    groupA = await e.createAutoGroup('people-a');
    groupB = await e.createAutoGroup('people-b');
    for (const [group, ids] of [
      [groupA, jobsA],
      [groupB, jobsB],
    ] as const) {
      for (const name of ['one', 'two']) {
        ids.push((await e.createJob({ appName: group, name: `${group} ${name}`, executorHandler: 'h' })).id);
      }
    }
  });

  afterAll(async () => {
    for (const res of outputs) {
      for (const secret of [PASSWORD, SECOND_PASSWORD, THIRD_PASSWORD]) {
        expect(res.stdout + res.stderr).not.toContain(secret);
      }
    }
    await e?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the bootstrap token creates an operator of group A; users ls and get show them', async () => {
    const created = await run(
      [
        'users',
        'create',
        '--username',
        user,
        '--display-name',
        'Ana Lima',
        '--role',
        'operator',
        '--group',
        groupA,
        '--password-stdin',
      ],
      { env: admin, input: `${PASSWORD}\n` },
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(new RegExp(`^role:\\s+operator of ${groupA}$`, 'm'));
    expect(created.stderr).toContain(`tickring login --user ${user}`);

    const ls = await run(['users', 'ls'], { env: admin });
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toMatch(
      new RegExp(`^${user}\\s+Ana Lima\\s+operator\\s+${groupA}\\s+no\\s+active\\s+-$`, 'm'),
    );
    const get = await run(['users', 'get', user, '--json'], { env: admin });
    expect(JSON.parse(get.stdout)).toMatchObject({ username: user, role: 'operator', groups: [groupA] });
    expect(JSON.parse(get.stdout)).not.toHaveProperty('password');
  });

  it('login --user --password-stdin saves the session (0600) with the username and its end; whoami says who', async () => {
    const refused = await run(['login', '--url', e.stack.urls.api, '--user', user, '--password-stdin'], {
      env: anaEnv,
      input: 'not the password at all\n',
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `error: ${e.stack.urls.api} did not sign ${user} in (username or password is wrong); nothing was saved\n`,
    );
    await expect(stat(config)).rejects.toThrow(/ENOENT/);

    // The built binary: the password from its piped stdin.
    const login = await run(
      ['login', '--url', e.stack.urls.api, '--user', user, '--password-stdin'],
      { env: anaEnv, input: `${PASSWORD}\n` },
      cli,
    );
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(
      `Logged in to ${e.stack.urls.api} as ${user} (Ana Lima), operator of ${groupA}.`,
    );
    expect(login.stdout).toMatch(
      /The session lasts until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+00:00 \(in 1[12] h\) at the latest, sooner after 30 min unused\./,
    );
    expect((await stat(config)).mode & 0o777).toBe(0o600);
    const saved = await profile();
    expect(saved).toEqual({
      url: e.stack.urls.api,
      token: expect.stringMatching(/^trs_/),
      username: user,
      expiresAt: expect.any(String),
      endsAt: expect.any(String),
    });
    expect(Date.parse(saved.endsAt)).toBeGreaterThan(Date.parse(saved.expiresAt));
    expect(login.stdout + login.stderr).not.toContain(saved.token);

    const whoami = await run(['whoami'], { env: anaEnv });
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.stdout).toMatch(new RegExp(`^who:\\s+${user} \\(Ana Lima\\)$`, 'm'));
    expect(whoami.stdout).toMatch(/^as:\s+a signed-in user \(session\)$/m);
    expect(whoami.stdout).toMatch(/^role:\s+operator$/m);
    expect(whoami.stdout).toMatch(new RegExp(`^groups:\\s+${groupA}$`, 'm'));
    expect(whoami.stdout).toContain(
      `change jobs and runs (create, edit, start, stop, trigger, kill, delete) of: ${groupA}`,
    );
    const me = JSON.parse((await run(['whoami', '--json'], { env: anaEnv })).stdout);
    expect(me).toMatchObject({ kind: 'session', name: user, role: 'operator', groups: [groupA] });
  });

  it("an operator of group A lists only A's jobs, and may not manage users", async () => {
    const all = await run(['jobs', 'ls', '--all', '--json'], { env: anaEnv });
    expect(all.code, all.stderr).toBe(0);
    const items: { id: number; appName: string }[] = JSON.parse(all.stdout).items;
    expect(items.map((j) => j.id).sort((a, b) => a - b)).toEqual(expect.arrayContaining(jobsA));
    expect(items.map((j) => j.id)).not.toEqual(expect.arrayContaining([jobsB[0]]));
    expect(new Set(items.map((j) => j.appName))).toEqual(new Set([groupA]));
    // The bootstrap token sees both groups' jobs.
    const everything = JSON.parse((await run(['jobs', 'ls', '--all', '--json'], { env: admin })).stdout);
    expect(everything.items.map((j: { id: number }) => j.id)).toEqual(
      expect.arrayContaining([...jobsA, ...jobsB]),
    );

    const users = await run(['users', 'ls'], { env: anaEnv });
    expect(users.code).toBe(1);
    expect(users.stderr).toMatch(/^ForbiddenError: /);
    expect(users.stderr).toContain('`tickring whoami` shows what you may do');
    expect(users.stderr).not.toMatch(STACK_LINE);
  });

  it('audit --job shows the create and the edit of a job, with the changed field', async () => {
    const created = await run(
      [
        'jobs',
        'create',
        '--app',
        groupA,
        '--name',
        'Audited',
        '--author',
        user,
        '--cron',
        '0 * * * * ?',
        '--handler',
        'h',
        '--json',
      ],
      { env: anaEnv },
    );
    expect(created.code, created.stderr).toBe(0);
    const id: number = JSON.parse(created.stdout).id;
    const edited = await run(['jobs', 'edit', String(id), '--cron', '0 0 * * * ?'], { env: anaEnv });
    expect(edited.code, edited.stderr).toBe(0);

    const json = await waitFor(
      async () => {
        const res = await run(['audit', '--job', String(id), '--json'], { env: anaEnv });
        expect(res.code, res.stderr).toBe(0);
        const page = JSON.parse(res.stdout);
        return page.items.length >= 2 ? page : undefined;
      },
      { what: `the audit records of job ${id}` },
    );
    expect(json.items.map((r: { action: string }) => r.action)).toEqual(['job.update', 'job.create']);
    expect(json.items[0]).toMatchObject({
      actor: { kind: 'session', name: user },
      target: `job#${id}`,
      appName: groupA,
      changes: { scheduleConf: { before: '0 * * * * ?', after: '0 0 * * * ?' } },
    });

    const table = await run(['audit', '--job', String(id)], { env: anaEnv });
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TIME\s+ACTOR\s+ACTION\s+TARGET\s+CHANGES$/);
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d \\((now|\\d+ s ago)\\)\\s+${user}\\s+job\\.update\\s+job#${id}\\s+scheduleConf: "0 \\* \\* \\* \\* \\?" → "0 0 \\* \\* \\* \\?"`,
      ),
    );
    expect(lines[2]).toMatch(
      new RegExp(`\\s+${user}\\s+job\\.create\\s+job#${id}\\s+created \\(name: "Audited"`),
    );
    expect(lines).toHaveLength(3);

    const actions = await run(['audit', '--actor', user, '--action', 'job.*', '--since', '1h', '--json'], {
      env: admin,
    });
    expect(JSON.parse(actions.stdout).items.map((r: { target: string }) => r.target)).toContain(`job#${id}`);
  });

  it('tokens create prints the secret once; it works as TICKRING_TOKEN until tokens revoke', async () => {
    const name = `ci-${Date.now().toString(36)}`;
    const created = await run(
      ['tokens', 'create', '--name', name, '--role', 'viewer', '--group', groupA, '--expires-in', '30d'],
      { env: admin },
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/^trk_[A-Za-z0-9]+_\S+\n$/);
    const secret = created.stdout.trim();
    expect(created.stderr).toContain(`Created API token ${name} (id `);
    expect(created.stderr).toContain('shown only now, never again');
    expect(created.stderr).not.toContain(secret);

    const asToken = { TICKRING_URL: e.stack.urls.api, TICKRING_TOKEN: secret, HOME: dir };
    const whoami = await run(['whoami', '--json'], { env: asToken });
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ kind: 'token', name: `token:${name}`, role: 'viewer' });
    const jobs = await run(['jobs', 'ls', '--json'], { env: asToken });
    expect(jobs.code, jobs.stderr).toBe(0);
    expect(new Set(JSON.parse(jobs.stdout).items.map((j: { appName: string }) => j.appName))).toEqual(
      new Set([groupA]),
    );

    const ls = await run(['tokens', 'ls'], { env: admin });
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).not.toContain(secret);
    const id = secret.split('_')[1] as string;
    expect(ls.stdout).toMatch(new RegExp(`^${id}\\s+${name}\\s+viewer\\s+${groupA}\\s+active\\s`, 'm'));

    const revoked = await run(['tokens', 'revoke', id, '--yes'], { env: admin });
    expect(revoked.code, revoked.stderr).toBe(0);
    const refused = await run(['jobs', 'ls'], { env: asToken });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.split('\n')[0]).toBe(
      'UnauthorizedError: the bearer token is not valid, or has expired or been revoked',
    );
    expect(refused.stderr).not.toContain(secret);
    expect(refused.stderr).not.toMatch(STACK_LINE);
    const after = JSON.parse((await run(['tokens', 'ls', '--json'], { env: admin })).stdout);
    expect(after.items.find((t: { id: string }) => t.id === id)).toMatchObject({ status: 'revoked' });
  });

  it('logout ends the session on the server: its token is refused afterwards', async () => {
    const token: string = (await profile()).token;
    expect((await api('/v1/me', token)).status).toBe(200);
    const out = await run(['logout'], { env: anaEnv });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe(
      `Signed out ${user} from ${e.stack.urls.api}.\nRemoved profile "default" from ${config}.\n`,
    );
    expect(JSON.parse(await readFile(config, 'utf8'))).toEqual({ profiles: {} });
    expect((await api('/v1/me', token)).status).toBe(401);
    const again = await run(['whoami'], { env: anaEnv });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('tickring login');
  });

  it('a session the server ended says "session expired; run tickring login --user <name>" (exit 1)', async () => {
    const login = await run(['login', '--url', e.stack.urls.api, '--user', user, '--password-stdin'], {
      env: anaEnv,
      input: `${PASSWORD}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
    // An admin sets a new password: the user's sessions end.
    const reset = await run(['users', 'edit', user, '--password-stdin'], {
      env: admin,
      input: `${SECOND_PASSWORD}\n`,
    });
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toContain('Their sessions have ended.');

    const expired = await run(['jobs', 'ls'], { env: anaEnv });
    expect(expired.code).toBe(1);
    expect(expired.stderr).toBe(`error: session expired; run tickring login --user ${user}\n`);
    expect(expired.stdout).toBe('');
  });

  it("passwd changes one's own password; the old one no longer signs in", async () => {
    const login = await run(['login', '--user', user, '--password-stdin'], {
      env: anaEnv,
      input: `${SECOND_PASSWORD}\n`,
    });
    expect(login.code, login.stderr).toBe(0);
    const passwd = await run(['passwd', '--password-stdin'], {
      env: anaEnv,
      input: `${SECOND_PASSWORD}\n${THIRD_PASSWORD}\n`,
    });
    expect(passwd.code, passwd.stderr).toBe(0);
    expect(passwd.stdout).toBe(
      `Changed the password of ${user}. Your other sessions have ended; this one goes on.\n`,
    );
    // This session goes on.
    expect((await run(['whoami', '--json'], { env: anaEnv })).code).toBe(0);

    const old = await run(
      ['login', '--url', e.stack.urls.api, '--user', user, '--password-stdin', '--profile', 'old'],
      {
        env: anaEnv,
        input: `${SECOND_PASSWORD}\n`,
      },
    );
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('nothing was saved');
    const fresh = await run(
      ['login', '--url', e.stack.urls.api, '--user', user, '--password-stdin', '--profile', 'new'],
      {
        env: anaEnv,
        input: `${THIRD_PASSWORD}\n`,
      },
    );
    expect(fresh.code, fresh.stderr).toBe(0);
  });

  it('users rm deletes a user; the audit log has the user records (admins only)', async () => {
    const bob = `bob-${Date.now().toString(36)}`;
    const created = await run(
      [
        'users',
        'create',
        '--username',
        bob,
        '--role',
        'viewer',
        '--all-groups',
        '--password-stdin',
        '--json',
      ],
      { env: admin, input: `${PASSWORD}\n` },
    );
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ username: bob, role: 'viewer', groups: '*' });
    const removed = await run(['users', 'rm', bob, '--yes'], { env: admin });
    expect(removed.code, removed.stderr).toBe(0);
    const gone = await run(['users', 'get', bob], { env: admin });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^NotFoundError: /);

    const audit = await waitFor(
      async () => {
        const res = await run(['audit', '--user', bob, '--json'], { env: admin });
        const items: { action: string }[] = JSON.parse(res.stdout).items;
        return items.length >= 2 ? items : undefined;
      },
      { what: `the audit records of user ${bob}` },
    );
    expect(audit.map((r) => r.action)).toEqual(['user.delete', 'user.create']);
    expect(JSON.stringify(audit)).not.toContain(PASSWORD);
  });

  it('tokens rotate-bootstrap prints the new bootstrap token once; the old one stops working', async () => {
    const rotated = await run(['tokens', 'rotate-bootstrap', '--yes', '--json'], { env: admin });
    expect(rotated.code, rotated.stderr).toBe(0);
    const answer = JSON.parse(rotated.stdout);
    expect(answer.token).toMatch(/^trb_/);
    expect(rotated.stderr).toContain('shown only now');
    expect(rotated.stderr).toContain('warning: you called with the old bootstrap token (TICKRING_TOKEN)');

    const fresh = await run(['whoami', '--json'], { env: { ...admin, TICKRING_TOKEN: answer.token } });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(JSON.parse(fresh.stdout)).toMatchObject({ kind: 'bootstrap', role: 'admin' });
    const old = await run(['whoami'], { env: admin });
    expect(old.code).toBe(1);
    expect(old.stderr).toMatch(/^UnauthorizedError: /);
  });
});
