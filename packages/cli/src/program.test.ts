import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VERSION } from './context.js';
import { buildProgram, main } from './program.js';
import { fakeIo, fakeStdin } from './test-support/fake-io.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escape codes
const ANSI = /\x1b\[/;
const STACK_LINE = /^\s+at .+[:(]/m;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tickring-cli-program-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A server that refuses every request (the error path: 401 or 400 with problems). */
function refusingFetch(
  status: number,
  body: unknown,
  seen: { authorization: string | null; url: string }[] = [],
): typeof fetch {
  return (async (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    seen.push({ authorization: request.headers.get('authorization'), url: request.url });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
}

describe('global options', () => {
  it('are named by no command of its own: commander would give the value to the global option', () => {
    const program = buildProgram(fakeIo(), () => {});
    const globals = new Set(program.options.map((o) => o.long));
    const clashes: string[] = [];
    const walk = (cmd: Command, path: string[]) => {
      for (const sub of cmd.commands) {
        const here = [...path, sub.name()];
        for (const option of sub.options) {
          if (globals.has(option.long)) clashes.push(`${here.join(' ')} ${option.long}`);
        }
        walk(sub, here);
      }
    };
    walk(program, []);
    expect(clashes).toEqual([]);
  });

  it('send a new channel to the server, with its target in the body and the token nowhere else', async () => {
    const seen: { url: string; authorization: string | null; body: unknown }[] = [];
    const io = fakeIo({
      env: {
        TICKRING_URL: 'http://tickring.test',
        TICKRING_TOKEN: 'secret-token-123',
        HOOK_SECRET: 'a'.repeat(20),
      },
      fetch: (async (input: Request | string | URL, init?: RequestInit) => {
        const request = new Request(input, init);
        seen.push({
          url: request.url,
          authorization: request.headers.get('authorization'),
          body: await request.json(),
        });
        const channel = {
          id: 'c1',
          name: 'ops',
          kind: 'webhook',
          url: 'https://hooks.example.com/t',
          signed: true,
        };
        return new Response(
          JSON.stringify({
            ...channel,
            revision: 1,
            createdAt: '2030-01-01T00:00:00.000Z',
            createdBy: 'a',
            updatedAt: '2030-01-01T00:00:00.000Z',
          }),
          {
            status: 201,
            headers: { 'content-type': 'application/json' },
          },
        );
      }) as typeof fetch,
    });
    const args = [
      'channels',
      'create',
      '--name',
      'ops',
      '--kind',
      'webhook',
      '--target',
      'https://hooks.example.com/t',
    ];
    expect(await main([...args, '--secret-env', 'HOOK_SECRET'], io)).toBe(0);
    expect(seen).toEqual([
      {
        url: 'http://tickring.test/v1/alert-channels',
        authorization: 'Bearer secret-token-123',
        body: { name: 'ops', kind: 'webhook', url: 'https://hooks.example.com/t', secret: 'a'.repeat(20) },
      },
    ]);
  });
});

describe('main: help, version and usage errors', () => {
  it('prints help with examples on stdout (exit 0) for the program and every command', async () => {
    const paths: string[][] = [[]];
    const walk = (cmd: Command, path: string[]) => {
      for (const sub of cmd.commands) {
        if (sub.name() === 'help') continue;
        paths.push([...path, sub.name()]);
        walk(sub, [...path, sub.name()]);
      }
    };
    walk(
      buildProgram(fakeIo(), () => {}),
      [],
    );
    expect(paths.length).toBeGreaterThan(25);
    for (const path of paths) {
      const io = fakeIo();
      expect(await main([...path, '--help'], io), path.join(' ')).toBe(0);
      expect(io.stdout.text, path.join(' ')).toContain(`Usage: tickring${path.map((p) => ` ${p}`).join('')}`);
      expect(io.stdout.text, path.join(' ')).toContain('--json');
      expect(io.stdout.text, path.join(' ')).toContain('Examples:\n  $ ');
      expect(io.stdout.text, path.join(' ')).toContain(`$ tickring ${path.join(' ')}`.trimEnd());
    }
  });

  it('prints the version', async () => {
    const io = fakeIo();
    expect(await main(['--version'], io)).toBe(0);
    expect(io.stdout.text).toBe(`${VERSION}\n`);
  });

  it.each([
    [['jobs', 'ls', '--bogus'], "error: unknown option '--bogus'"],
    [['jobs', 'get'], "error: missing required argument 'id'"],
    [['jobs', 'get', '0'], 'expected a whole number ≥ 1'],
    [['runs', 'ls', '--limit', 'many'], 'expected a whole number from 1 to 10000'],
    [['runs', 'ls', '--status', 'done'], 'expected one of running, success, fail, skipped'],
    [['runs', 'ls', '--since', 'last week'], 'expected a span back from now'],
    [['preview', '* * * * * ?', '--count', '500'], 'expected a whole number from 1 to 100'],
    [['nope'], "error: unknown command 'nope'"],
  ])('%j exits 2: %s', async (argv, message) => {
    const io = fakeIo();
    expect(await main(argv, io)).toBe(2);
    expect(io.stderr.text).toContain(message);
    expect(io.stderr.text).not.toMatch(STACK_LINE);
    expect(io.stdout.text).toBe('');
  });

  it('a missing URL or token exits 2 and says how to log in', async () => {
    const io = fakeIo({ env: { TICKRING_CONFIG: join(dir, 'config.json') } });
    expect(await main(['jobs', 'ls'], io)).toBe(2);
    expect(io.stderr.text).toBe(
      `error: no server URL and no token (no profile "default" in ${join(dir, 'config.json')}): log in with \`tickring login --url <url>\`, or set TICKRING_URL and TICKRING_TOKEN\n`,
    );
  });

  it('colours the error word only on a terminal without NO_COLOR', async () => {
    const tty = fakeIo({ stderrTTY: true });
    await main(['jobs', 'ls', '--bogus'], tty);
    expect(tty.stderr.text).toMatch(ANSI);
    const noColor = fakeIo({ stderrTTY: true, env: { NO_COLOR: '1' } });
    await main(['jobs', 'ls', '--bogus'], noColor);
    expect(noColor.stderr.text).not.toMatch(ANSI);
  });
});

describe('main: refused requests', () => {
  it("exits 1 with the server's error and every problem; the token is never printed", async () => {
    const io = fakeIo({
      env: { TICKRING_URL: 'http://tickring.test', TICKRING_TOKEN: 'secret-token-123' },
      fetch: refusingFetch(400, {
        error: 'ValidationError',
        message: 'limit must be an integer between 1 and 100; got 0; cursor is not a cursor',
        field: 'limit',
        problems: [
          { field: 'limit', message: 'limit must be an integer between 1 and 100; got 0' },
          { field: 'cursor', message: 'cursor is not a cursor' },
        ],
      }),
    });
    expect(await main(['jobs', 'ls', '--cursor', 'x'], io)).toBe(1);
    expect(io.stderr.text).toBe(
      'ValidationError: limit must be an integer between 1 and 100; got 0; cursor is not a cursor\n' +
        '  limit: limit must be an integer between 1 and 100; got 0\n' +
        '  cursor: cursor is not a cursor\n',
    );
    expect(io.stdout.text + io.stderr.text).not.toContain('secret-token-123');
  });

  it('an answer that is not the API (a proxy page) is still one line', async () => {
    const io = fakeIo({
      env: { TICKRING_URL: 'http://tickring.test', TICKRING_TOKEN: 't' },
      fetch: (async () =>
        new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' })) as typeof fetch,
    });
    expect(await main(['groups', 'ls'], io)).toBe(1);
    expect(io.stderr.text).toBe('HttpError: HTTP 502 Bad Gateway\n');
  });
});

describe('main: login', () => {
  it('asks for the token without echo on a terminal and saves nothing when the server refuses it', async () => {
    const config = join(dir, 'config.json');
    const seen: { authorization: string | null; url: string }[] = [];
    const stdin = fakeStdin({ isTTY: true });
    const io = fakeIo({
      env: { TICKRING_CONFIG: config },
      stdin,
      fetch: refusingFetch(
        401,
        { error: 'UnauthorizedError', message: 'a valid admin token is required' },
        seen,
      ),
    });
    const done = main(['login', '--url', 'http://tickring.test:8080/'], io);
    await new Promise((r) => setTimeout(r, 20));
    stdin.write('typed-token\r');
    expect(await done).toBe(1);
    expect(io.stderr.text).toContain(
      'Token for http://tickring.test:8080 (the admin token or an API token): \n',
    );
    expect(io.stderr.text).not.toContain('typed-token');
    expect(io.stderr.text).toContain('http://tickring.test:8080 did not take the token');
    expect(io.stderr.text).toContain('nothing was saved');
    expect(seen).toEqual([{ authorization: 'Bearer typed-token', url: 'http://tickring.test:8080/v1/me' }]);
    await expect(stat(config)).rejects.toThrow(/ENOENT/);
  });

  it('warns that --token lands in the shell history', async () => {
    const io = fakeIo({
      env: { TICKRING_CONFIG: join(dir, 'config.json') },
      fetch: refusingFetch(401, { error: 'UnauthorizedError', message: 'no' }),
    });
    expect(await main(['login', '--url', 'http://h:1', '--token', 'tok'], io)).toBe(1);
    expect(io.stderr.text).toMatch(/^warning: --token puts the token in your shell history/);
  });

  it('without a terminal or --token-stdin, it says how to give the token (exit 2)', async () => {
    const io = fakeIo({ env: { TICKRING_CONFIG: join(dir, 'config.json') } });
    expect(await main(['login', '--url', 'http://h:1'], io)).toBe(2);
    expect(io.stderr.text).toBe('error: no terminal to ask for the token: pipe it in with --token-stdin\n');
    const noUrl = fakeIo({ env: { TICKRING_CONFIG: join(dir, 'config.json') } });
    expect(await main(['login', '--token-stdin'], noUrl)).toBe(2);
    expect(noUrl.stderr.text).toContain('give the server with --url <url>');
  });
});
