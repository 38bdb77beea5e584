import type { Logger } from '@tickring/core/common';

export type StopSignal = 'SIGINT' | 'SIGTERM';

/** The exit code of a process ended by a signal, as shells and systemd read it (128 + its number). */
export const SIGNAL_EXIT_CODE: Readonly<Record<StopSignal, number>> = { SIGINT: 130, SIGTERM: 143 };

/** The exit code when the stop fails or outlasts its bound. */
export const STOP_FAILED_EXIT_CODE = 1;

export interface StopOnSignalOptions {
  /** The ordered stop (the stack's); resolves when everything is down. */
  readonly stop: () => Promise<void>;
  readonly exit: (code: number) => void;
  readonly logger: Logger;
  /** Longest the stop may take before the process exits without it. */
  readonly stopTimeoutMs: number;
  /**
   * A repeat of the signal this soon after the first is the same request, not a second one: Ctrl-C
   * reaches the whole process group, so a wrapper (npm, `npx tickring`) forwards a copy of what we
   * got already.
   */
  readonly repeatWindowMs?: number;
  readonly now?: () => number;
}

/**
 * What a signal does to the server: the first starts the ordered stop and exits 0 once it is done
 * (1 when a step threw out of it or it outlasted `stopTimeoutMs`); another one, later than the
 * repeat window, exits at once with 128 + its number.
 */
export function stopOnSignal(options: StopOnSignalOptions): (signal: StopSignal) => void {
  const now = options.now ?? Date.now;
  const repeatWindowMs = options.repeatWindowMs ?? 2_000;
  let firstAt: number | undefined;
  return (signal) => {
    if (firstAt !== undefined) {
      if (now() - firstAt < repeatWindowMs) return;
      options.logger.error('second signal while stopping; exiting without finishing the stop', { signal });
      options.exit(SIGNAL_EXIT_CODE[signal]);
      return;
    }
    firstAt = now();
    options.logger.info('stopping', {
      signal,
      order: 'scheduling, dispatches in flight, HTTP port, database, lock',
      timeoutMs: options.stopTimeoutMs,
    });
    const force = setTimeout(() => {
      options.logger.error('stop took too long; exiting', { timeoutMs: options.stopTimeoutMs });
      options.exit(STOP_FAILED_EXIT_CODE);
    }, options.stopTimeoutMs);
    force.unref();
    void options.stop().then(
      () => {
        clearTimeout(force);
        options.logger.info('stopped', { afterMs: now() - (firstAt as number) });
        options.exit(0);
      },
      (err: unknown) => {
        clearTimeout(force);
        options.logger.error('stop failed', { error: err instanceof Error ? err.message : String(err) });
        options.exit(STOP_FAILED_EXIT_CODE);
      },
    );
  };
}
