/**
 * For integration tests: runs one command line through the program itself ({@link main}) in the test's
 * process, with the environment given (plus TZ=UTC, as run-cli.ts gives the child) and nothing of the
 * test process's own. The same commands and answers as the built binary at a fraction of the CPU: a
 * child process costs a node start and the imports (about 0.4 s of CPU each). The binary's own wiring
 * (process streams, exit codes, SIGINT, the environment) keeps its child-process cases (run-cli.ts).
 */
import { main } from '../program.js';
import { type FakeIo, fakeIo, fakeStdin } from './fake-io.js';
import type { CliOptions, CliResult } from './run-cli.js';

export interface RunningProgram {
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** Presses Ctrl-C. */
  interrupt(): void;
  readonly done: Promise<CliResult>;
}

/** Starts the command line in this process; `done` settles with its exit code and output. */
export function startProgram(args: readonly string[], options: CliOptions = {}): RunningProgram {
  const started = Date.now();
  const io: FakeIo = {
    ...fakeIo({
      env: { TZ: 'UTC', ...options.env },
      // Written and closed, or closed at once: as the child's stdin.
      stdin: fakeStdin({ piped: options.input ?? '' }),
    }),
    // The real clock: the stack's records are stamped by it.
    now: () => Date.now(),
  };
  const timeoutMs = options.timeoutMs ?? 30_000;
  const done = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      io.interrupt();
      reject(
        new Error(
          `tickring ${args.join(' ')} did not end within ${timeoutMs} ms\nstdout: ${io.stdout.text}\nstderr: ${io.stderr.text}`,
        ),
      );
    }, timeoutMs);
    main(args, io).then(
      (code) => {
        clearTimeout(timer);
        resolve({
          code,
          signal: null,
          stdout: io.stdout.text,
          stderr: io.stderr.text,
          ms: Date.now() - started,
        });
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
  return {
    stdout: () => io.stdout.text,
    stderr: () => io.stderr.text,
    interrupt: () => io.interrupt(),
    done,
  };
}

/** Runs the command line in this process to its end. */
export function runProgram(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return startProgram(args, options).done;
}
