import { HANDLE_CODE, MSG, type TriggerParam } from '@tickring/protocol';
import type { JobHandler, JobResult } from './job-context.js';
import type { JobLogSink } from './job-log.js';
import { errorText } from './logger.js';
import { JobKilledError, type RunJobResult, runJob } from './run-job.js';

/**
 * A handler with optional lifecycle hooks: `init` runs before the worker's first execution, `destroy` when
 * the worker goes away (idle, killed, replaced, shutdown).
 *
 * @example
 * ```ts
 * const reg: HandlerRegistration = { handler: async (ctx) => ctx.log('hi'), init: () => pool.open(), destroy: () => pool.close() };
 * ```
 */
export interface HandlerRegistration {
  handler: JobHandler;
  init?: (() => unknown) | undefined;
  destroy?: (() => unknown) | undefined;
}

export interface WorkerDeps {
  /** The log sink of one run. */
  openLog(trigger: TriggerParam): JobLogSink;
  /** Every trigger pushed ends here exactly once: run, failed in the queue, or refused by init. */
  report(trigger: TriggerParam, result: JobResult & { abandoned?: boolean }): void;
  /** Called when the worker has been idle for `idleTimeoutMs`. */
  onIdle(worker: JobWorker): void;
  onError(message: string, err: unknown): void;
  abortGraceMs: number;
  idleTimeoutMs: number;
}

/**
 * One job's worker, as XXL-JOB's JobThread: a FIFO queue served one trigger at a time. Block strategies
 * are decided by the caller (it owns the job → worker map); the worker only queues, runs and stops.
 */
export class JobWorker {
  private readonly queue: TriggerParam[] = [];
  private running: { trigger: TriggerParam; control: AbortController } | undefined;
  private looping = false;
  private loopDone: Promise<void> = Promise.resolve();
  private initialized = false;
  private stopReason: string | undefined;
  private stopped: Promise<void> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private idleWaiters: Array<() => void> = [];

  /**
   * @param key identifies the handler (`BEAN:name`, `GLUE_SHELL:glueUpdatetime`); a different key replaces the worker.
   * @param after the previous worker's stop; the first run waits for it, so a job never runs twice at once.
   */
  constructor(
    readonly jobId: number,
    readonly key: string,
    private readonly registration: HandlerRegistration,
    private readonly deps: WorkerDeps,
    private readonly after: Promise<void> = Promise.resolve(),
  ) {}

  /** Running or with queued triggers (what `/idleBeat` and DISCARD_LATER / COVER_EARLY look at). */
  get busy(): boolean {
    return this.running !== undefined || this.queue.length > 0 || this.looping;
  }

  get isStopped(): boolean {
    return this.stopReason !== undefined;
  }

  push(trigger: TriggerParam): void {
    if (this.stopReason !== undefined) throw new Error(`worker of job ${this.jobId} is stopped`);
    clearTimeout(this.idleTimer);
    this.queue.push(trigger);
    if (!this.looping) {
      this.looping = true;
      this.loopDone = this.loop();
    }
  }

  /** Resolves when nothing is running or queued. */
  whenIdle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Stops the worker: queued triggers fail ("… [job not executed, in the job queue, killed.]"), the running
   * one's signal is aborted, and once it has settled (or been abandoned after the grace period) `destroy`
   * runs. Idempotent; resolves when all that is done.
   */
  stop(reason: string): Promise<void> {
    if (this.stopped) return this.stopped;
    this.stopReason = reason;
    clearTimeout(this.idleTimer);
    for (const trigger of this.queue.splice(0)) {
      const log = this.deps.openLog(trigger);
      log.line(`----------- JobThread toStop, stopReason:${reason}`);
      this.deps.report(trigger, { handleCode: HANDLE_CODE.fail, handleMsg: MSG.queuedKilled(reason) });
    }
    this.running?.control.abort(new JobKilledError(reason));
    this.stopped = (async () => {
      await this.loopDone;
      if (this.initialized && this.registration.destroy) {
        try {
          await this.registration.destroy();
        } catch (err) {
          this.deps.onError('job handler destroy failed', err);
        }
      }
    })();
    return this.stopped;
  }

  private async loop(): Promise<void> {
    try {
      await this.after;
      for (let trigger = this.queue.shift(); trigger; trigger = this.queue.shift()) {
        const control = new AbortController();
        this.running = { trigger, control };
        try {
          const result = await this.execute(trigger, control.signal);
          this.deps.report(trigger, result);
        } catch (err) {
          this.deps.onError('job execution failed unexpectedly', err);
          this.deps.report(trigger, { handleCode: HANDLE_CODE.fail, handleMsg: errorText(err) });
        } finally {
          this.running = undefined;
        }
        if (this.stopReason !== undefined) break;
      }
    } finally {
      this.looping = false;
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      if (this.stopReason === undefined) this.armIdleTimer();
    }
  }

  private async execute(trigger: TriggerParam, stop: AbortSignal): Promise<RunJobResult | JobResult> {
    const log = this.deps.openLog(trigger);
    if (!this.initialized && this.registration.init) {
      try {
        await this.registration.init();
      } catch (err) {
        const text = `job handler init failed: ${errorText(err)}`;
        log.line(`----------- ${text}`);
        await log.flush?.();
        return { handleCode: HANDLE_CODE.fail, handleMsg: text };
      }
    }
    this.initialized = true;
    const result = await runJob({
      trigger,
      handler: this.registration.handler,
      log,
      timeoutMs: trigger.executorTimeout > 0 ? trigger.executorTimeout * 1000 : 0,
      abortGraceMs: this.deps.abortGraceMs,
      stop,
    });
    await log.flush?.();
    return result;
  }

  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (!this.busy && this.stopReason === undefined) this.deps.onIdle(this);
    }, this.deps.idleTimeoutMs);
    this.idleTimer.unref();
  }
}
