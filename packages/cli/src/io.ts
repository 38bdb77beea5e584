/**
 * What a command touches of the outside world, passed in so commands run in tests without spawning:
 * the three streams, the environment, the clock, Ctrl-C, and (for error-path tests) fetch.
 */

export interface OutStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
}

export interface InStream extends AsyncIterable<string | Buffer> {
  readonly isTTY?: boolean | undefined;
  setRawMode?(mode: boolean): unknown;
  on(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  off(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  off(event: 'end', listener: () => void): unknown;
  resume(): unknown;
  pause(): unknown;
}

export type Env = Readonly<Record<string, string | undefined>>;

export interface Io {
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  readonly stdin: InStream;
  readonly env: Env;
  /** Epoch milliseconds. */
  readonly now: () => number;
  /** Runs `handler` on Ctrl-C (SIGINT) until the returned function is called. */
  readonly onInterrupt: (handler: () => void) => () => void;
  /** The client's fetch; the global one when absent. */
  readonly fetch?: typeof globalThis.fetch;
}

/** The real process. */
export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    now: () => Date.now(),
    onInterrupt(handler) {
      process.on('SIGINT', handler);
      return () => {
        process.off('SIGINT', handler);
      };
    },
  };
}
