/** How the overload ramp climbs (see `rampSteps`). */
export interface RampPlanOptions {
  /** The first step's rate, fires/s. */
  readonly start: number;
  /** The rate the stack sustains (its knee), fires/s. */
  readonly knee: number;
  /** The last step offers this many times the knee. Default 3. */
  readonly over?: number;
  /** Each step offers this many times the one before. Default 1.5. */
  readonly growth?: number;
}

/**
 * A last step closer than this share to the one before it says nothing new: the one before is
 * dropped and the ramp goes straight to its top.
 */
const MIN_LAST_GROWTH = 1.1;

/**
 * The offered rates of the ramp's steps, fires/s (one job on FIX_RATE 1 per fire a second): from
 * `start`, each `growth` times the last (rounded), up to and ending at `over` × `knee`.
 */
export function rampSteps(options: RampPlanOptions): number[] {
  const over = options.over ?? 3;
  const growth = options.growth ?? 1.5;
  if (!(growth > 1)) throw new RangeError(`the ramp's growth must be above 1, got ${growth}`);
  if (!Number.isSafeInteger(options.start) || options.start < 1) {
    throw new RangeError(`the ramp's start must be a whole number >= 1, got ${options.start}`);
  }
  if (!(options.knee > 0) || !(over > 0)) {
    throw new RangeError(`the ramp's knee and multiple must be above 0, got ${options.knee} and ${over}`);
  }
  const top = Math.round(options.knee * over);
  if (top <= options.start) return [options.start];
  const steps = [options.start];
  for (;;) {
    const last = steps.at(-1) as number;
    const next = Math.max(last + 1, Math.round(last * growth));
    if (next >= top) break;
    steps.push(next);
  }
  if (steps.length > 1 && top / (steps.at(-1) as number) < MIN_LAST_GROWTH) steps.pop();
  steps.push(top);
  return steps;
}
