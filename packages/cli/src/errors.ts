/**
 * Exit codes and how each kind of failure is shown. 0: done; 1: the server refused or the request
 * failed (its `error: message` and every problem on stderr); 2: the command line was wrong (commander's
 * errors, bad flags and files, no URL or token); 130: stopped with Ctrl-C. Never a stack trace for any
 * of these; an unexpected bug is one line unless `TICKRING_DEBUG=1`.
 */
import { TickringApiError, TickringConnectionError } from '@tickring/client';
import { CommanderError } from 'commander';
import type { Io } from './io.js';
import { paletteFor } from './output.js';

export const EXIT = {
  ok: 0,
  /** The request was refused or failed, or what it did failed (a run, an import). */
  failed: 1,
  /** A usage error: flags, arguments, input files, missing configuration. */
  usage: 2,
  /** Ctrl-C (128 + SIGINT). */
  interrupted: 130,
} as const;

/** The command line (or what it names: a file, the configuration) cannot be used: exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Something the CLI did failed for a reason it explains itself (not the API's refusal): exit 1. */
export class CommandFailedError extends Error {
  override name = 'CommandFailedError';
  constructor(
    message: string,
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}

/** Ctrl-C while the command waited: exit 130, nothing more to say. */
export class InterruptedError extends Error {
  override name = 'InterruptedError';
  constructor() {
    super('interrupted');
  }
}

/**
 * Shows `err` on stderr as its kind asks and returns the exit code. The token is never part of what
 * is shown: neither the client's errors nor ours carry it.
 */
export function reportError(err: unknown, io: Io): number {
  const c = paletteFor(io.stderr, io.env);
  const say = (line: string) => io.stderr.write(`${line}\n`);

  if (err instanceof CommanderError) {
    // commander has already written its message (and the help hint) to stderr.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
    return EXIT.usage;
  }
  if (err instanceof InterruptedError) return EXIT.interrupted;
  if (err instanceof UsageError) {
    say(`${c.red('error:')} ${err.message}`);
    return EXIT.usage;
  }
  if (err instanceof TickringApiError) {
    say(`${c.red(`${err.error}:`)} ${err.message}`);
    for (const problem of err.problems ?? []) {
      say(`  ${problem.field === undefined ? '' : `${c.bold(problem.field)}: `}${problem.message}`);
    }
    if (err.status === 401) {
      say(
        c.dim(
          'The server did not take the token: log in again with `tickring login` (or check TICKRING_TOKEN).',
        ),
      );
    }
    if (err.status === 403) {
      say(c.dim('Your role does not allow this: `tickring whoami` shows what you may do.'));
    }
    return EXIT.failed;
  }
  if (err instanceof TickringConnectionError) {
    say(`${c.red('error:')} ${err.message}`);
    return EXIT.failed;
  }
  if (err instanceof CommandFailedError) {
    say(`${c.red('error:')} ${err.message}`);
    for (const line of err.details) say(`  ${line}`);
    return EXIT.failed;
  }

  const debug = io.env.TICKRING_DEBUG === '1';
  if (debug && err instanceof Error && err.stack) {
    say(`tickring: unexpected error: ${err.stack}`);
  } else {
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    say(`tickring: unexpected error: ${firstLine(message)}${debug ? '' : ' (TICKRING_DEBUG=1 shows where)'}`);
  }
  return EXIT.failed;
}

function firstLine(text: string): string {
  const i = text.indexOf('\n');
  return i === -1 ? text : text.slice(0, i);
}
