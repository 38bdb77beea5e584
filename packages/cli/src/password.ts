/**
 * Passwords for `login --user`, `users create|edit` and `passwd`: asked without echo on a terminal
 * (a new one twice), or read from a piped stdin (`--password-stdin`, one a line). A password is
 * taken as typed (spaces kept), never printed, never part of an error.
 */
import { UsageError } from './errors.js';
import type { Io } from './io.js';
import { askSecret, canAsk, readAll } from './prompt.js';

const NO_TERMINAL = 'no terminal to ask for the password: pipe it in with --password-stdin';

/**
 * The lines of a piped stdin, one per name (`["the current password", "the new one"]`), without their
 * line endings; a usage error naming the first that is missing or empty.
 */
export async function stdinLines(io: Io, names: readonly string[]): Promise<string[]> {
  const lines = (await readAll(io)).split('\n').map((line) => line.replace(/\r$/, ''));
  return names.map((name, i) => {
    const line = lines[i];
    if (line === undefined || line === '') {
      throw new UsageError(
        names.length === 1
          ? `--password-stdin: stdin holds no ${name} (one line)`
          : `--password-stdin: line ${i + 1} of stdin should be ${name} (${names.join(', then ')}, one a line)`,
      );
    }
    return line;
  });
}

/** A password: the first line of stdin with `fromStdin`, else asked without echo on the terminal. */
export async function readPassword(
  io: Io,
  options: { readonly fromStdin: boolean; readonly question: string },
): Promise<string> {
  if (options.fromStdin) return (await stdinLines(io, ['password']))[0] as string;
  if (!canAsk(io)) throw new UsageError(NO_TERMINAL);
  const password = await askSecret(io, options.question);
  if (password === '') throw new UsageError('the password is empty');
  return password;
}

/**
 * A new password: the first line of stdin with `fromStdin`, else asked twice without echo (a usage
 * error when the two differ).
 */
export async function readNewPassword(
  io: Io,
  options: { readonly fromStdin: boolean; readonly question: string },
): Promise<string> {
  if (options.fromStdin) return (await stdinLines(io, ['password']))[0] as string;
  return askNewPassword(io, options.question);
}

/** A new password asked twice without echo on the terminal. */
export async function askNewPassword(io: Io, question: string): Promise<string> {
  if (!canAsk(io)) throw new UsageError(NO_TERMINAL);
  const first = await askSecret(io, question);
  if (first === '') throw new UsageError('the password is empty');
  const again = await askSecret(io, 'The same again: ');
  if (again !== first) throw new UsageError('the two passwords typed differ; nothing was changed');
  return first;
}
