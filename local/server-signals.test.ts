import { silentLogger } from '@tickring/core/common';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stopOnSignal } from './server-signals.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function harness(stop: () => Promise<void>) {
  const exits: number[] = [];
  const onSignal = stopOnSignal({
    stop,
    exit: (code) => exits.push(code),
    logger: silentLogger,
    stopTimeoutMs: 30_000,
    repeatWindowMs: 2_000,
    now: () => Date.now(),
  });
  return { exits, onSignal };
}

describe('stopOnSignal', () => {
  it('exits 0 once the ordered stop is done, and stops once however often the signal comes within the window', async () => {
    let stops = 0;
    let finish: () => void = () => {};
    const { exits, onSignal } = harness(() => {
      stops++;
      return new Promise((resolve) => {
        finish = resolve;
      });
    });
    onSignal('SIGINT');
    await vi.advanceTimersByTimeAsync(100);
    onSignal('SIGINT'); // the copy a wrapper (npm) forwards of the same Ctrl-C
    expect(stops).toBe(1);
    expect(exits).toEqual([]);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(exits).toEqual([0]);
  });

  it('exits at once with 128 + the signal on a second signal after the window', async () => {
    const { exits, onSignal } = harness(() => new Promise(() => {}));
    onSignal('SIGTERM');
    await vi.advanceTimersByTimeAsync(2_500);
    onSignal('SIGTERM');
    expect(exits).toEqual([143]);
  });

  it('exits 1 when the stop outlasts its bound, or fails', async () => {
    const stuck = harness(() => new Promise(() => {}));
    stuck.onSignal('SIGTERM');
    await vi.advanceTimersByTimeAsync(29_999);
    expect(stuck.exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(stuck.exits).toEqual([1]);

    const failing = harness(() => Promise.reject(new Error('boom')));
    failing.onSignal('SIGINT');
    await vi.advanceTimersByTimeAsync(0);
    expect(failing.exits).toEqual([1]);
  });
});
