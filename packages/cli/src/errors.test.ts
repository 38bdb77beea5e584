import { TickringApiError, TickringConnectionError } from '@tickring/client';
import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { CommandFailedError, EXIT, InterruptedError, reportError, UsageError } from './errors.js';
import { fakeIo } from './test-support/fake-io.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: looking for ANSI escape codes
const ANSI = /\x1b\[/;
const STACK_LINE = /^\s+at .+[:(]/m;
const target = { operationId: 'createJob', method: 'POST', path: '/v1/jobs' } as const;

function validationError(): TickringApiError {
  const problems = [
    {
      field: 'scheduleType',
      message: 'scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got "HOURLY"',
    },
    { field: 'author', message: 'author is required' },
    { message: 'the body is too large' },
  ];
  return new TickringApiError(
    target,
    {
      status: 400,
      error: 'ValidationError',
      message: problems.map((p) => p.message).join('; '),
      field: 'scheduleType',
      problems,
    },
    {},
  );
}

describe('reportError: exit codes and what is shown', () => {
  it("a refused request: 1, the server's error: message, then each problem as field: message", () => {
    const io = fakeIo();
    expect(reportError(validationError(), io)).toBe(EXIT.failed);
    expect(io.stderr.text).toBe(
      [
        'ValidationError: scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got "HOURLY"; author is required; the body is too large',
        '  scheduleType: scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got "HOURLY"',
        '  author: author is required',
        '  the body is too large',
        '',
      ].join('\n'),
    );
    expect(io.stdout.text).toBe('');
  });

  it('a 401 adds how to log in again', () => {
    const io = fakeIo();
    const err = new TickringApiError(
      { operationId: 'listJobs', method: 'GET', path: '/v1/jobs' },
      { status: 401, error: 'UnauthorizedError', message: 'a valid admin token is required' },
      {},
    );
    expect(reportError(err, io)).toBe(1);
    expect(io.stderr.text).toMatch(/^UnauthorizedError: a valid admin token is required\n.*tickring login/);
  });

  it('a 403 points at tickring whoami', () => {
    const io = fakeIo();
    const err = new TickringApiError(
      { operationId: 'listUsers', method: 'GET', path: '/v1/users' },
      { status: 403, error: 'ForbiddenError', message: 'only an admin may do this' },
      {},
    );
    expect(reportError(err, io)).toBe(1);
    expect(io.stderr.text).toBe(
      'ForbiddenError: only an admin may do this\nYour role does not allow this: `tickring whoami` shows what you may do.\n',
    );
  });

  it('a server that cannot be reached: 1, its message, no stack', () => {
    const io = fakeIo();
    const err = new TickringConnectionError(
      { operationId: 'listJobs', method: 'GET', path: '/v1/jobs' },
      {
        baseUrl: 'http://127.0.0.1:9',
        message: 'cannot reach http://127.0.0.1:9: connect ECONNREFUSED 127.0.0.1:9',
        code: 'ECONNREFUSED',
        timedOut: false,
        cause: new Error('connect ECONNREFUSED'),
      },
    );
    expect(reportError(err, io)).toBe(1);
    expect(io.stderr.text).toBe('error: cannot reach http://127.0.0.1:9: connect ECONNREFUSED 127.0.0.1:9\n');
  });

  it('usage errors: 2; commander has printed its own message, help and version are 0', () => {
    const io = fakeIo();
    expect(reportError(new UsageError('no token'), io)).toBe(EXIT.usage);
    expect(io.stderr.text).toBe('error: no token\n');
    const quiet = fakeIo();
    expect(
      reportError(new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"), quiet),
    ).toBe(2);
    expect(reportError(new CommanderError(1, 'commander.help', '(outputHelp)'), quiet)).toBe(2);
    expect(reportError(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'), quiet)).toBe(0);
    expect(reportError(new CommanderError(0, 'commander.version', '0.1.0'), quiet)).toBe(0);
    expect(quiet.stderr.text).toBe('');
  });

  it('Ctrl-C: 130, nothing more; a failure the CLI explains: 1 with its details', () => {
    const io = fakeIo();
    expect(reportError(new InterruptedError(), io)).toBe(130);
    expect(io.stderr.text).toBe('');
    expect(reportError(new CommandFailedError('2 job(s) skipped', ['#7 orphan']), io)).toBe(1);
    expect(io.stderr.text).toBe('error: 2 job(s) skipped\n  #7 orphan\n');
  });

  it('an unexpected bug: 1, one line, unless TICKRING_DEBUG=1 asks for the stack', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'items')");
    const io = fakeIo();
    expect(reportError(bug, io)).toBe(1);
    expect(io.stderr.text).toBe(
      "tickring: unexpected error: TypeError: Cannot read properties of undefined (reading 'items') (TICKRING_DEBUG=1 shows where)\n",
    );
    const debug = fakeIo({ env: { TICKRING_DEBUG: '1' } });
    expect(reportError(bug, debug)).toBe(1);
    expect(debug.stderr.text).toMatch(STACK_LINE);
    const thrown = fakeIo();
    expect(reportError('a string', thrown)).toBe(1);
    expect(thrown.stderr.text).toBe('tickring: unexpected error: a string (TICKRING_DEBUG=1 shows where)\n');
  });

  it('colours only a terminal stderr without NO_COLOR', () => {
    const tty = fakeIo({ stderrTTY: true });
    reportError(validationError(), tty);
    expect(tty.stderr.text).toMatch(ANSI);
    const noColor = fakeIo({ stderrTTY: true, env: { NO_COLOR: '1' } });
    reportError(validationError(), noColor);
    expect(noColor.stderr.text).not.toMatch(ANSI);
    const pipe = fakeIo({ stderrTTY: false });
    reportError(new UsageError('x'), pipe);
    expect(pipe.stderr.text).not.toMatch(ANSI);
  });
});
