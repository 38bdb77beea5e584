import type { Logger } from '@tickring/core/common';

/**
 * The order a local stack stops in, each phase after the one before: nothing new is scheduled,
 * then the ring's batches in flight finish, then executors report their last results (the
 * gateway still takes them), then the gateway closes, then the clients and the stand-ins go.
 */
export const STOP_PHASE = {
  schedule: 1,
  ring: 2,
  executors: 3,
  gateway: 4,
  clients: 5,
  standIns: 6,
  dataDir: 7,
} as const;

export type StopPhase = (typeof STOP_PHASE)[keyof typeof STOP_PHASE];

interface Step {
  readonly phase: StopPhase;
  readonly name: string;
  readonly run: () => Promise<unknown> | unknown;
}

/** Steps run phase by phase (within a phase, the last added first); each bounded, each failure logged. */
export class StopSequence {
  private steps: Step[] = [];

  constructor(
    private readonly logger: Logger,
    /** Longest a step may take before the stop goes on without it. */
    private readonly stepTimeoutMs = 15_000,
  ) {}

  add(phase: StopPhase, name: string, run: Step['run']): void {
    this.steps.push({ phase, name, run });
  }

  /** Runs every step once; later calls find nothing left to do. */
  async run(): Promise<void> {
    const steps = this.steps
      .map((step, order) => ({ step, order }))
      .sort((a, b) => a.step.phase - b.step.phase || b.order - a.order)
      .map(({ step }) => step);
    this.steps = [];
    for (const step of steps) {
      this.logger.debug('stopping', { step: step.name });
      let timer: NodeJS.Timeout | undefined;
      try {
        const outcome = await Promise.race([
          Promise.resolve(step.run()).then(() => 'done' as const),
          new Promise<'timeout'>((resolve) => {
            timer = setTimeout(() => resolve('timeout'), this.stepTimeoutMs);
          }),
        ]);
        if (outcome === 'timeout') {
          this.logger.warn('stop step timed out; going on', {
            step: step.name,
            timeoutMs: this.stepTimeoutMs,
          });
        }
      } catch (err) {
        this.logger.warn('stop step failed', { step: step.name, error: String(err) });
      } finally {
        clearTimeout(timer);
      }
    }
  }
}
