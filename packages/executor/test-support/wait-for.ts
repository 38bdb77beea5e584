/**
 * Polls `probe` until it returns a truthy value (then resolves with it) or `timeoutMs` passes (then
 * rejects with `message`). Tests wait for conditions with this, never for fixed sleeps.
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  {
    timeoutMs = 10_000,
    intervalMs = 15,
    message = 'condition',
  }: { timeoutMs?: number; intervalMs?: number; message?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${message}${last ? ` (last error: ${String(last)})` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** A promise with its resolve function outside, to hold a handler until the test lets it go. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}
