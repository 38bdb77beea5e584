/**
 * For tests: an Io whose streams are kept in memory (and may claim to be terminals), with a settable
 * clock and a Ctrl-C button.
 */
import { PassThrough } from 'node:stream';
import type { Env, InStream, Io } from '../io.js';

export interface Captured {
  text: string;
  readonly isTTY: boolean;
  readonly columns?: number;
  write(chunk: string): boolean;
}

export function captured(isTTY = false): Captured {
  return {
    text: '',
    isTTY,
    write(chunk: string) {
      this.text += chunk;
      return true;
    },
  };
}

export interface FakeStdin extends PassThrough {
  isTTY: boolean;
  rawMode: boolean;
  rawModeChanges: boolean[];
  setRawMode(mode: boolean): this;
}

/** A stdin to type into (`write`) or to end with piped text; a terminal when `isTTY`. */
export function fakeStdin(options: { isTTY?: boolean; piped?: string } = {}): FakeStdin {
  const stream = new PassThrough() as FakeStdin;
  stream.isTTY = options.isTTY ?? false;
  stream.rawMode = false;
  stream.rawModeChanges = [];
  stream.setRawMode = function (mode: boolean) {
    this.rawMode = mode;
    this.rawModeChanges.push(mode);
    return this;
  };
  if (options.piped !== undefined) stream.end(options.piped);
  return stream;
}

export interface FakeIo extends Io {
  readonly stdout: Captured;
  readonly stderr: Captured;
  readonly stdin: FakeStdin & InStream;
  /** Presses Ctrl-C. */
  interrupt(): void;
  clock: number;
}

export function fakeIo(
  options: {
    env?: Env;
    stdoutTTY?: boolean;
    stderrTTY?: boolean;
    stdin?: FakeStdin;
    fetch?: typeof globalThis.fetch;
    now?: number;
  } = {},
): FakeIo {
  const handlers = new Set<() => void>();
  const io: FakeIo = {
    stdout: captured(options.stdoutTTY ?? false),
    stderr: captured(options.stderrTTY ?? false),
    stdin: (options.stdin ?? fakeStdin()) as FakeStdin & InStream,
    env: options.env ?? {},
    clock: options.now ?? Date.parse('2030-06-01T12:00:00Z'),
    now: () => io.clock,
    onInterrupt(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    interrupt() {
      for (const h of [...handlers]) h();
    },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  return io;
}
