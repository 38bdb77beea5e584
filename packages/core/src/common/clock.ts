/** Wall-clock time and sleeping, injectable so tests can drive them. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (ms <= 0 || signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};

/** The pending wake-ups of each clock, one per distinct time. */
const wakeUps = new WeakMap<Clock, Map<number, Promise<void>>>();

/**
 * Sleeps until `at` (epoch ms) on one timer per clock and time, shared by every caller waiting for
 * that same millisecond: they all wake in one task, so what they do next (a second's sends) runs
 * back to back, before the process handles any I/O. With a timer each, the answers to the first
 * sends were handled between the later ones, and a thousand fires of one second left over ~190 ms
 * instead of ~50.
 */
export function sleepUntil(clock: Clock, at: number): Promise<void> {
  if (at - clock.now() <= 0) return Promise.resolve();
  let waiting = wakeUps.get(clock);
  if (!waiting) {
    waiting = new Map();
    wakeUps.set(clock, waiting);
  }
  let wake = waiting.get(at);
  if (!wake) {
    const timers = waiting;
    wake = sleepThrough(clock, at).then(() => {
      timers.delete(at);
    });
    waiting.set(at, wake);
  }
  return wake;
}

/**
 * Sleeps until the clock reads `at` or later: a timer may fire a millisecond before the wall clock
 * gets there (Node's timers run on a monotonic clock of whole milliseconds), and a fire sent then
 * would leave before its time.
 */
async function sleepThrough(clock: Clock, at: number): Promise<void> {
  for (let left = at - clock.now(); left > 0; left = at - clock.now()) await clock.sleep(left);
}
