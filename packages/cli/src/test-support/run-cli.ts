/**
 * For integration tests: runs the BUILT command line (`node packages/cli/dist/bin.js ...`) as a child
 * process, as a user would, with only the environment given (plus PATH and a HOME of its own).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** How long the process ran, ms. */
  readonly ms: number;
}

export interface CliOptions {
  readonly env?: Readonly<Record<string, string>>;
  /** Written to its stdin, which is then closed (stdin is closed at once without it). */
  readonly input?: string;
  readonly timeoutMs?: number;
}

export interface RunningCli {
  readonly child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  readonly done: Promise<CliResult>;
}

/** Starts the command line; `done` settles when it exits. */
export function startCli(args: readonly string[], options: CliOptions = {}): RunningCli {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npm run build first`);
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', TZ: 'UTC', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (c: string) => {
    out += c;
  });
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    err += c;
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  else child.stdin?.end();
  const timeoutMs = options.timeoutMs ?? 30_000;
  const done = new Promise<CliResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `tickring ${args.join(' ')} did not end within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`,
        ),
      );
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout: out, stderr: err, ms: Date.now() - started });
    });
  });
  return { child, stdout: () => out, stderr: () => err, done };
}

/** Runs the command line to its end. */
export function cli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).done;
}

/** No stack trace: no "    at fn (file:line)" lines. */
export const STACK_LINE = /^\s+at .+[:(]/m;
