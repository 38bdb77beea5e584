/**
 * The `tickring` command line against a real local stack (tick, ring, dispatcher, callback, API) and a
 * real SDK executor. Commands run through the program in this process (run-program.ts); the built
 * binary runs as a child process, as a user runs it, where its own wiring is what is checked: Ctrl-C
 * (SIGINT, exit 130), a refusal's exit 1 and a usage error's exit 2 on stderr, the token and URL from
 * the environment.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobContext } from '@tickring/executor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, STACK_LINE, startCli } from './test-support/run-cli.js';
import { runProgram as run, startProgram } from './test-support/run-program.js';
import { type Stack, startStack, waitFor } from './test-support/stack.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('tickring command line against a local stack', () => {
  let e: Stack;
  let dir: string;
  let appName: string;
  let env: Record<string, string>;
  /** The param of each run the `echo` handler got, by logId. */
  const echoed = new Map<number, string>();
  /** logIds of `long` runs that started, and those whose signal was aborted (killed). */
  const longStarted = new Set<number>();
  const longAborted = new Set<number>();
  const jobIds: Record<string, number> = {};

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tickring-cli-int-'));
    e = await startStack('cli');
    env = { TICKRING_URL: e.stack.urls.api, TICKRING_TOKEN: e.stack.tokens.adminToken, HOME: dir };
    appName = await e.createAutoGroup('cli-exec');
    const executor = await e.startExecutor(appName, {
      echo: (ctx: JobContext) => {
        echoed.set(ctx.logId, ctx.param);
        return `echoed ${ctx.param}`;
      },
      chatty: async (ctx: JobContext) => {
        for (let i = 1; i <= 5; i++) {
          ctx.log('chatty line %d of 5', i);
          await sleep(400);
        }
        return 'chatty done';
      },
      failing: (ctx: JobContext) => {
        ctx.log('about to fail');
        throw new Error('boom on purpose');
      },
      long: async (ctx: JobContext) => {
        longStarted.add(ctx.logId);
        ctx.log('long run started');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, 60_000);
          ctx.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            longAborted.add(ctx.logId);
            resolve();
          });
        });
        return 'long run ended';
      },
    });
    await e.waitForExecutor(appName, executor.address);
    for (const handler of ['echo', 'chatty', 'failing', 'long']) {
      const job = await e.createJob({ appName, name: `cli ${handler}`, executorHandler: handler });
      jobIds[handler] = job.id;
    }
  });

  afterAll(async () => {
    await e?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('login checks the token, then stores the profile 0600 (directory 0700) where it says; logout forgets it', async () => {
    const config = join(dir, 'xdg', 'tickring', 'config.json');
    const loginEnv = { HOME: dir, XDG_CONFIG_HOME: join(dir, 'xdg') };

    const refused = await run(['login', '--url', e.stack.urls.api, '--token-stdin'], {
      env: loginEnv,
      input: 'not-the-token\n',
    });
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('did not take the token');
    expect(refused.stderr).toContain('nothing was saved');
    await expect(stat(config)).rejects.toThrow(/ENOENT/);

    const ok = await run(['login', '--url', `${e.stack.urls.api}/`, '--token-stdin'], {
      env: loginEnv,
      input: `${e.stack.tokens.adminToken}\n`,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(config);
    expect(ok.stdout + ok.stderr).not.toContain(e.stack.tokens.adminToken);
    expect((await stat(config)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'xdg', 'tickring'))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(config, 'utf8'))).toEqual({
      profiles: { default: { url: e.stack.urls.api, token: e.stack.tokens.adminToken } },
    });

    // The profile alone is enough now.
    const groups = await run(['groups', 'ls', '--json'], { env: loginEnv });
    expect(groups.code, groups.stderr).toBe(0);
    expect(JSON.parse(groups.stdout).items.map((g: { appName: string }) => g.appName)).toContain(appName);

    const out = await run(['logout'], { env: loginEnv });
    expect(out.code).toBe(0);
    expect(JSON.parse(await readFile(config, 'utf8'))).toEqual({ profiles: {} });
    const after = await run(['groups', 'ls'], { env: loginEnv });
    expect(after.code).toBe(2);
    expect(after.stderr).toContain('tickring login');
  });

  it('creates a group with flags and a job from a file (-f job.json); --json answers parse', async () => {
    const app = `cli-grp-${Date.now().toString(36)}`;
    const group = await run(['groups', 'create', '--app', app, '--title', 'CLI group', '--json'], { env });
    expect(group.code, group.stderr).toBe(0);
    expect(JSON.parse(group.stdout)).toMatchObject({ appName: app, title: 'CLI group', addressType: 'AUTO' });

    const groupFile = join(dir, 'group.json');
    await writeFile(
      groupFile,
      JSON.stringify({
        appName: `${app}-m`,
        title: 'From a file',
        addressType: 'MANUAL',
        addressList: ['http://127.0.0.1:9/'],
      }),
    );
    const fromFile = await run(['groups', 'create', '-f', groupFile, '--json'], { env });
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(JSON.parse(fromFile.stdout)).toMatchObject({
      appName: `${app}-m`,
      addressType: 'MANUAL',
      addressList: ['http://127.0.0.1:9/'],
    });
    const renamed = await run(['groups', 'edit', `${app}-m`, '--title', 'Renamed'], { env });
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stdout).toMatch(/^title:\s+Renamed$/m);
    expect((await run(['groups', 'rm', `${app}-m`, '--yes'], { env })).code).toBe(0);

    const file = join(dir, 'job.json');
    await writeFile(
      file,
      JSON.stringify({
        appName: app,
        name: 'Nightly report',
        author: 'ops',
        scheduleType: 'CRON',
        scheduleConf: '0 0 2 * * ?',
        timeZone: 'Europe/Berlin',
        executorHandler: 'nightlyReport',
        executorParam: 'region=eu',
      }),
    );
    const created = await run(['jobs', 'create', '-f', file, '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    const job = JSON.parse(created.stdout);
    expect(job).toMatchObject({
      appName: app,
      name: 'Nightly report',
      scheduleConf: '0 0 2 * * ?',
      timeZone: 'Europe/Berlin',
      triggerStatus: 'STOPPED',
    });
    const fromApi = await e.call('GET', `/v1/jobs/${job.id}`);
    expect(fromApi.body).toMatchObject({
      id: job.id,
      executorHandler: 'nightlyReport',
      executorParam: 'region=eu',
    });

    // For people: a table with the job; edit with flags; start shows the next fire.
    const ls = await run(['jobs', 'ls', '--app', app], { env });
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toMatch(
      new RegExp(`^${job.id}\\s+${app}\\s+Nightly report\\s+cron 0 0 2 \\* \\* \\? \\(Europe/Berlin\\)`, 'm'),
    );
    const edited = await run(['jobs', 'edit', String(job.id), '--param', 'region=us', '--json'], { env });
    expect(edited.code, edited.stderr).toBe(0);
    expect(JSON.parse(edited.stdout).executorParam).toBe('region=us');
    const started = await run(['jobs', 'start', String(job.id)], { env });
    expect(started.code, started.stderr).toBe(0);
    expect(started.stdout).toMatch(
      /RUNNING; next fire \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+00:00 \(in \d+ (s|min|h)\)/,
    );

    const jobs = await run(['jobs', 'ls', '--app', app, '--status', 'running', '--json'], { env });
    expect(JSON.parse(jobs.stdout)).toEqual({
      items: [expect.objectContaining({ id: job.id })],
      nextCursor: null,
    });

    const rm = await run(['jobs', 'rm', String(job.id), '--yes'], { env });
    expect(rm.code, rm.stderr).toBe(0);
    expect((await e.call('GET', `/v1/jobs/${job.id}`)).status).toBe(404);
    expect((await run(['groups', 'rm', app, '--yes'], { env })).code).toBe(0);
  });

  it("preview shows the server's fire times in the given zone and the viewer's", async () => {
    const args = [
      'preview',
      '0 0 2 * * ?',
      '--tz',
      'Europe/Berlin',
      '--count',
      '3',
      '--from',
      '2030-01-01T00:00:00Z',
    ];
    const json = await run([...args, '--json'], { env });
    expect(json.code, json.stderr).toBe(0);
    const times: string[] = JSON.parse(json.stdout).times;
    expect(times.map((t) => new Date(t).toISOString())).toEqual([
      '2030-01-01T01:00:00.000Z',
      '2030-01-02T01:00:00.000Z',
      '2030-01-03T01:00:00.000Z',
    ]);

    const people = await run(args, { env: { ...env, TZ: 'Asia/Tokyo' } });
    expect(people.code, people.stderr).toBe(0);
    const lines = people.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^#\s+Europe\/Berlin\s+Asia\/Tokyo \(yours\)/);
    expect(lines[1]).toMatch(
      /^1\s+Tue 2030-01-01 02:00:00 \+01:00\s+Tue 2030-01-01 10:00:00 \+09:00\s+in \d+ d$/,
    );
    expect(lines[3]).toContain('Thu 2030-01-03 02:00:00 +01:00');
    expect(people.stderr).toContain('Next 3 fires of CRON "0 0 2 * * ?" in Europe/Berlin');
  });

  it('jobs trigger --param: the executor gets the param for that run', async () => {
    const res = await run(['jobs', 'trigger', String(jobIds.echo), '--param', 'region=eu;day=1', '--json'], {
      env,
    });
    expect(res.code, res.stderr).toBe(0);
    const accepted = JSON.parse(res.stdout);
    expect(accepted).toMatchObject({ jobId: jobIds.echo, dedupKey: expect.any(String) });
    const logId: number = accepted.logIds?.[0] ?? accepted.logId;
    expect(logId).toBeGreaterThan(0);
    await waitFor(() => echoed.has(logId), { what: `run ${logId} at the executor` });
    expect(echoed.get(logId)).toBe('region=eu;day=1');

    const text = await run(['jobs', 'trigger', String(jobIds.echo), '--param', 'second'], { env });
    expect(text.code, text.stderr).toBe(0);
    const second = Number(/Triggered job \d+: run (\d+)/.exec(text.stdout)?.[1]);
    await waitFor(() => echoed.get(second) === 'second', { what: 'the second run' });
  });

  it('runs log --follow prints a run logging over ~2 s to its end and exits 0', async () => {
    const { body } = await e.call('POST', `/v1/jobs/${jobIds.chatty}/trigger`, {});
    const logId: number = body.logIds?.[0] ?? body.logId;
    const res = await run(['runs', 'log', String(logId), '--follow'], { env });
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.split('\n').filter((l) => l.includes('chatty line'));
    expect(lines.map((l) => /chatty line (\d) of 5/.exec(l)?.[1])).toEqual(['1', '2', '3', '4', '5']);
    expect(res.stderr).toMatch(new RegExp(`Run ${logId} success in \\d+\\.\\d s: chatty done`));
    // It followed the run while it ran (about 2 s), not a finished log read once.
    expect(res.ms).toBeGreaterThan(1_500);

    const got = await run(['runs', 'get', String(logId), '--json'], { env });
    expect(JSON.parse(got.stdout)).toMatchObject({ logId, status: 'success', handleMsg: 'chatty done' });
    const list = await run(['runs', 'ls', '--job', String(jobIds.chatty), '--since', '10m', '--json'], {
      env,
    });
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).items.map((r: { logId: number }) => r.logId)).toContain(logId);
  });

  it('jobs trigger --follow of a failing run prints its log and exits 1', async () => {
    const res = await run(['jobs', 'trigger', String(jobIds.failing), '--follow'], { env });
    expect(res.code, res.stderr).toBe(1);
    expect(res.stdout).toContain('about to fail');
    expect(res.stderr).toMatch(/Run \d+ fail in [\d.]+ m?s: .*boom on purpose/);
    expect(res.stderr).not.toMatch(STACK_LINE);
  });

  it('Ctrl-C stops following cleanly (exit 130); runs kill stops a long run', async () => {
    const { body } = await e.call('POST', `/v1/jobs/${jobIds.long}/trigger`, {});
    const logId: number = body.logIds?.[0] ?? body.logId;
    await waitFor(() => longStarted.has(logId), { what: 'the long run to start' });

    // The built binary: a real SIGINT ends the process with 130.
    const following = startCli(['runs', 'log', String(logId), '--follow'], { env });
    await waitFor(() => following.stdout().includes('long run started'), { what: 'the log to show' });
    following.child.kill('SIGINT');
    const stopped = await following.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain(`Stopped following run ${logId}`);
    expect(stopped.stderr).not.toMatch(STACK_LINE);

    const killed = await run(['runs', 'kill', String(logId)], { env });
    expect(killed.code, killed.stderr).toBe(0);
    expect(killed.stdout).toMatch(new RegExp(`Run ${logId} fail: .*killed by user`));
    await waitFor(() => longAborted.has(logId), { what: "the handler's signal to abort" });
    const stored = await e.call('GET', `/v1/logs/${logId}`);
    expect(stored.body).toMatchObject({
      status: 'fail',
      handleMsg: expect.stringContaining('killed by user'),
    });

    const again = await run(['runs', 'kill', String(logId)], { env });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^ConflictError: /);
  });

  it("a refused request exits 1 with the server's error and every problem, no stack trace", async () => {
    const bad = {
      appName,
      name: '',
      author: '',
      scheduleType: 'HOURLY',
      executorTimeout: -1,
      executorRouteStrategy: 'NEAREST',
    };
    const file = join(dir, 'bad-job.json');
    await writeFile(file, JSON.stringify(bad));
    const api = await e.call('POST', '/v1/jobs', bad);
    expect(api.status).toBe(400);
    expect(api.body.problems.length).toBeGreaterThanOrEqual(3);

    const res = await run(['jobs', 'create', '-f', file], { env });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe(`ValidationError: ${api.body.message}`);
    expect(lines.slice(1)).toEqual(
      api.body.problems.map((p: { field: string; message: string }) => `  ${p.field}: ${p.message}`),
    );
    expect(res.stderr).not.toMatch(STACK_LINE);

    const missing = await run(['jobs', 'get', '999999'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('NotFoundError: job 999999 does not exist\n');

    // The built binary: the environment's token, exit 1, the error on stderr.
    const badToken = await cli(['jobs', 'ls'], { env: { ...env, TICKRING_TOKEN: 'wrong' } });
    expect(badToken.code).toBe(1);
    expect(badToken.stderr).toMatch(/^UnauthorizedError: /);
    expect(badToken.stderr).toContain('tickring login');
    expect(badToken.stderr).not.toContain('wrong');

    const down = await run(['jobs', 'ls'], { env: { ...env, TICKRING_URL: 'http://127.0.0.1:9' } });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^error: cannot reach http:\/\/127\.0\.0\.1:9/);
    expect(down.stderr).not.toMatch(STACK_LINE);
  });

  it('a usage error exits 2 with one message, no stack trace', async () => {
    for (const [i, args] of [
      ['jobs', 'get', 'seven'],
      ['jobs', 'ls', '--status', 'SOMETIMES'],
      ['runs', 'ls', '--since', 'yesterday'],
      ['jobs', 'frobnicate'],
      ['preview'],
      ['jobs', 'create', '-f', join(dir, 'no-such.json')],
    ].entries()) {
      // The first through the built binary: the process itself exits 2.
      const res = await (i === 0 ? cli : run)(args, { env });
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(/^error: /);
      expect(res.stderr).not.toMatch(STACK_LINE);
      expect(res.stdout).toBe('');
    }
    const noConfig = await run(['jobs', 'ls'], {
      env: { HOME: dir, TICKRING_CONFIG: join(dir, 'none.json') },
    });
    expect(noConfig.code).toBe(2);
    expect(noConfig.stderr).toContain('log in with `tickring login --url <url>`');

    const help = await run(['runs', 'log', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain('--follow');
  });

  it('lists refused executor registrations after the executors, with what to fix', async () => {
    const refusedAddress = 'http://127.0.0.1:1/';
    const answer = await fetch(`${e.stack.urls.api}/api/registry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'XXL-JOB-ACCESS-TOKEN': 'not-the-token' },
      body: JSON.stringify({
        registryGroup: 'EXECUTOR',
        registryKey: appName,
        registryValue: refusedAddress,
      }),
    });
    expect(await answer.json()).toEqual({ code: 500, msg: 'The access token is wrong.' });
    const exec = await run(['executors', 'ls', '--app', appName], { env });
    expect(exec.code, exec.stderr).toBe(0);
    expect(exec.stdout).toContain('Refused executor requests (last 24 h): 1');
    expect(exec.stdout).toMatch(
      new RegExp(`^${appName}\\s+http://127\\.0\\.0\\.1:1/\\s+wrong-token\\s+1\\s`, 'm'),
    );
    expect(exec.stderr).toContain('wrong-token: The access token is not the one for this app name.');
    const json = JSON.parse((await run(['executors', 'ls', '--app', appName, '--json'], { env })).stdout);
    expect(json.items[0].refusedRegistrations).toBe(1);
    expect(json.refused).toEqual([
      expect.objectContaining({ appName, address: refusedAddress, reason: 'wrong-token', count: 1 }),
    ]);
  });

  it('lists executors, runs and the dashboard as tables and as JSON', async () => {
    const exec = await run(['executors', 'ls', '--app', appName], { env });
    expect(exec.code, exec.stderr).toBe(0);
    expect(exec.stdout).toMatch(
      new RegExp(
        // A heartbeat under a second old reads "now" (output.ts), older ones "N s ago".
        `^${appName}\\s+AUTO\\s+http://127\\.0\\.0\\.1:\\d+/\\s+online\\s+\\d\\d:\\d\\d:\\d\\d \\((now|\\d+ s ago)\\)`,
        'm',
      ),
    );
    const execJson = JSON.parse((await run(['executors', 'ls', '--app', appName, '--json'], { env })).stdout);
    expect(execJson.items[0]).toMatchObject({
      appName,
      executors: [expect.objectContaining({ online: true })],
    });

    const runs = await run(['runs', 'ls', '--app', appName, '--limit', '3'], { env });
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout.split('\n')[0]).toMatch(
      /^LOG ID\s+JOB\s+STATUS\s+TRIGGER\s+SCHEDULED\s+TOOK\s+EXECUTOR\s+RESULT$/,
    );

    const dash = JSON.parse((await run(['dashboard', '--days', '2', '--json'], { env })).stdout);
    expect(dash).toMatchObject({ days: 2, totals: expect.objectContaining({ jobs: expect.any(Number) }) });
    expect(dash.series).toHaveLength(2);
    const table = await run(['dashboard', '--days', '2'], { env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/misfires:\s+\d+ skipped/);
    expect(table.stdout).toMatch(/DAY\s+SUCCESS\s+FAIL\s+RUNNING\s+SKIPPED/);
  });

  describe('workflows and their runs', () => {
    const RUN_ID = /^wr-[a-z0-9-]+$/;

    it('workflows create -f (a diamond) shows the graph; trigger --input --wait; wf-runs get shows the nodes', async () => {
      const left = await e.createJob({ appName, name: 'cli wf left', executorHandler: 'echo' });
      const right = await e.createJob({ appName, name: 'cli wf right', executorHandler: 'echo' });
      const file = join(dir, 'diamond.json');
      const definition = {
        name: 'CLI diamond',
        appName,
        overlapPolicy: 'ALLOW',
        nodes: [
          { key: 'extract', jobId: jobIds.echo, executorParam: '{{ input.day }}' },
          {
            key: 'left',
            jobId: left.id,
            executorParam: 'L {{ nodes.extract.result }}',
            upstream: [{ key: 'extract' }],
          },
          {
            key: 'right',
            jobId: right.id,
            executorParam: 'R',
            upstream: [{ key: 'extract', condition: 'ON_SUCCESS' }],
          },
          {
            key: 'join',
            jobId: jobIds.echo,
            upstream: [{ key: 'left' }, { key: 'right', condition: 'ALWAYS' }],
          },
        ],
      };
      await writeFile(file, JSON.stringify(definition));
      const created = await run(['workflows', 'create', '-f', file], { env });
      expect(created.code, created.stderr).toBe(0);
      const diamond = Number(/Created workflow (\d+)/.exec(created.stderr)?.[1]);
      expect(diamond).toBeGreaterThan(0);
      expect(created.stdout).toMatch(/^overlap:\s+ALLOW$/m);
      expect(created.stdout).toMatch(/^4 nodes:$/m);
      expect(created.stdout).toMatch(/^NODE\s+JOB\s+AFTER\s+PARAM$/m);
      expect(created.stdout).toMatch(
        new RegExp(`^extract\\s+${jobIds.echo}\\s+\\(root\\)\\s+\\{\\{ input\\.day \\}\\}$`, 'm'),
      );
      expect(created.stdout).toMatch(
        new RegExp(`^left\\s+${left.id}\\s+← extract \\[ON_SUCCESS\\]\\s+L \\{\\{`, 'm'),
      );
      expect(created.stdout).toMatch(
        /^join\s+\d+\s+← left \[ON_SUCCESS\], right \[ALWAYS\]\s+- \(the job's\)$/m,
      );

      const ls = await run(['workflows', 'ls', '--app', appName], { env });
      expect(ls.code, ls.stderr).toBe(0);
      expect(ls.stdout).toMatch(/^ID\s+NAME\s+APP\s+SCHEDULE\s+STATUS\s+NEXT FIRE\s+ACTIVE\s+VERSION$/m);
      expect(ls.stdout).toMatch(
        new RegExp(`^${diamond}\\s+CLI diamond\\s+${appName}\\s+-\\s+STOPPED\\s+-\\s+0\\s+1$`, 'm'),
      );

      const waited = await run(
        ['workflows', 'trigger', String(diamond), '--input', '{"day": "2030-01-01"}', '--wait'],
        {
          env,
        },
      );
      expect(waited.code, waited.stderr).toBe(0);
      const runId = waited.stdout.trim();
      expect(runId).toMatch(RUN_ID);
      for (const key of ['extract', 'left', 'right', 'join']) {
        expect(waited.stderr).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d  ${key}\\s+SUCCEEDED`, 'm'));
      }
      expect(waited.stderr).toMatch(new RegExp(`^Run ${runId} SUCCEEDED in [\\d.]+ m?s$`, 'm'));
      expect([...echoed.values()]).toEqual(
        expect.arrayContaining(['2030-01-01', 'L echoed 2030-01-01', 'R']),
      );

      const got = await run(['wf-runs', 'get', runId], { env });
      expect(got.code, got.stderr).toBe(0);
      expect(got.stdout).toMatch(/^status:\s+SUCCEEDED$/m);
      expect(got.stdout).toMatch(/^NODE\s+STATUS\s+ATTEMPT\s+LOG IDS\s+FIRED\s+FINISHED\s+RESULT\s+REASON$/m);
      const rows = got.stdout.split('\n').filter((l) => /^(extract|left|right|join)\s/.test(l));
      expect(rows.map((l) => l.split(/\s+/)[0])).toEqual(['extract', 'left', 'right', 'join']);
      expect(rows[0]).toMatch(
        /^extract\s+SUCCEEDED\s+1\s+\d+\s+\d\d:\d\d:\d\d\s+\d\d:\d\d:\d\d\s+echoed 2030-01-01\s+-$/,
      );
      expect(rows[1]).toMatch(/\sechoed L echoed 2030-01-01\s+-$/);

      const list = await run(['wf-runs', 'ls', '--workflow', String(diamond), '--json'], { env });
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout).items).toEqual([
        expect.objectContaining({
          id: runId,
          status: 'SUCCEEDED',
          nodeCounts: expect.objectContaining({ SUCCEEDED: 4 }),
        }),
      ]);

      expect((await run(['workflows', 'rm', String(diamond), '--yes'], { env })).code).toBe(0);
      expect((await e.call('GET', `/v1/workflows/${diamond}`)).status).toBe(404);
    });

    it('a refused definition exits 1 with every problem (field: message)', async () => {
      const bad = {
        name: '',
        appName,
        overlapPolicy: 'SOMETIMES',
        nodes: [
          { key: 'a', jobId: jobIds.echo, upstream: [{ key: 'c' }] },
          { key: 'c', jobId: jobIds.echo, upstream: [{ key: 'a' }] },
          { key: 'd', jobId: 999_999, upstream: [{ key: 'nope' }] },
        ],
      };
      const file = join(dir, 'bad-workflow.json');
      await writeFile(file, JSON.stringify(bad));
      const api = await e.call('POST', '/v1/workflows', bad);
      expect(api.status).toBe(400);
      expect(api.body.problems.length).toBeGreaterThanOrEqual(4);

      const res = await run(['workflows', 'create', '--file', file], { env });
      expect(res.code).toBe(1);
      expect(res.stdout).toBe('');
      const lines = res.stderr.trimEnd().split('\n');
      expect(lines[0]).toBe(`ValidationError: ${api.body.message}`);
      expect(lines.slice(1)).toEqual(
        api.body.problems.map((p: { field?: string; message: string }) =>
          p.field === undefined ? `  ${p.message}` : `  ${p.field}: ${p.message}`,
        ),
      );
      expect(res.stderr).not.toMatch(STACK_LINE);
    });

    it('wf-runs cancel kills the running node and cancels the rest; trigger --wait then exits 1', async () => {
      const created = await run(['workflows', 'create', '-f', '-', '--json'], {
        env,
        input: JSON.stringify({
          name: 'CLI cancel',
          appName,
          nodes: [
            { key: 'slow', jobId: jobIds.long },
            { key: 'after', jobId: jobIds.echo, upstream: [{ key: 'slow' }] },
          ],
        }),
      });
      expect(created.code, created.stderr).toBe(0);
      const id = JSON.parse(created.stdout).id as number;
      const startedBefore = new Set(longStarted);
      const waiting = startProgram(['workflows', 'trigger', String(id), '--wait'], { env });
      const runId = await waitFor(() => RUN_ID.exec(waiting.stdout().trim())?.[0], { what: 'the run id' });
      const logId = await waitFor(() => [...longStarted].find((l) => !startedBefore.has(l)), {
        what: 'the slow node to run',
      });

      const cancelled = await run(['wf-runs', 'cancel', runId], { env });
      expect(cancelled.code, cancelled.stderr).toBe(0);
      expect(cancelled.stdout).toContain(`Run ${runId} CANCELLED.`);
      expect(cancelled.stdout).toMatch(/not run: after$/m);
      expect(cancelled.stdout).toMatch(/killed .*: slow$/m);

      const done = await waiting.done;
      expect(done.code, done.stderr).toBe(1);
      expect(done.stderr).toMatch(new RegExp(`^Run ${runId} CANCELLED`, 'm'));
      expect(done.stderr).not.toMatch(STACK_LINE);
      await waitFor(() => longAborted.has(logId), { what: "the slow node's handler to be aborted" });

      const got = await run(['wf-runs', 'get', runId], { env });
      expect(got.stdout).toMatch(/^status:\s+CANCELLED$/m);
      expect(got.stdout).toMatch(/^after\s+CANCELLED\s+0\s+-\s+-\s+\S+\s+-\s+\S/m);
    });
  });
});
