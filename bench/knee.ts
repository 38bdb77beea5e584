/** One run of a knee search: how many jobs, and whether every fire ran once, in order. */
export interface KneeStep<R> {
  readonly jobs: number;
  readonly clean: boolean;
  readonly result: R;
}

export interface KneeOptions {
  /** Jobs of the first run. */
  readonly start: number;
  /** Most jobs tried. */
  readonly max: number;
  /** Each clean run is followed by one with this many times the jobs (while none failed). Default 1.5. */
  readonly growth?: number;
  /** Runs between the last clean and the first failed count, each halving the gap. Default 2. */
  readonly bisections?: number;
}

export interface Knee<R> {
  /** The most jobs that ran clean (undefined: not even the first). */
  readonly highestClean: number | undefined;
  /** The fewest that did not (undefined: none failed up to `max`). */
  readonly lowestFailed: number | undefined;
  readonly steps: readonly KneeStep<R>[];
}

/**
 * The knee, the highest load run with nothing missed: runs at `start` jobs and grows by `growth`
 * until a run is not clean (or `max`), then bisects between the last clean and the first failed
 * count. A clean run above a failed one (noise on a shared machine) is taken as it comes: the
 * highest clean count is reported with every step, so the table shows the noise.
 */
export async function findKnee<R>(
  run: (jobs: number) => Promise<{ readonly clean: boolean; readonly result: R }>,
  options: KneeOptions,
): Promise<Knee<R>> {
  const growth = options.growth ?? 1.5;
  if (!(growth > 1)) throw new RangeError(`the knee's growth must be above 1, got ${growth}`);
  const steps: KneeStep<R>[] = [];
  const step = async (jobs: number) => {
    const { clean, result } = await run(jobs);
    steps.push({ jobs, clean, result });
    return clean;
  };
  let clean: number | undefined;
  let failed: number | undefined;
  let jobs = Math.min(options.start, options.max);
  for (;;) {
    if (await step(jobs)) clean = jobs;
    else {
      failed = jobs;
      break;
    }
    if (jobs >= options.max) break;
    jobs = Math.min(options.max, Math.max(jobs + 1, Math.round(jobs * growth)));
  }
  for (let i = 0; i < (options.bisections ?? 2) && failed !== undefined; i++) {
    const low = clean ?? 0;
    const middle = Math.round((low + failed) / 2);
    if (middle <= low || middle >= failed) break;
    if (await step(middle)) clean = middle;
    else failed = middle;
  }
  return { highestClean: clean, lowestFailed: failed, steps };
}
