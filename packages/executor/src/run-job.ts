import { HANDLE_CODE, MSG, type TriggerParam, truncateHandleMsg } from '@tickring/protocol';
import { type JobHandler, type JobResult, RunContext } from './job-context.js';
import type { JobLogSink } from './job-log.js';
import { errorText } from './logger.js';

/**
 * The abort reason a run's signal carries when its time is up.
 *
 * @example
 * ```ts
 * ex.register('job', async (ctx) => {
 *   await work(ctx.signal).catch((err) => {
 *     if (ctx.signal.reason instanceof JobTimeoutError) ctx.log('ran out of time');
 *     throw err;
 *   });
 * });
 * ```
 */
export class JobTimeoutError extends Error {
  constructor(message: string = MSG.timeout) {
    super(message);
    this.name = 'JobTimeoutError';
  }
}

/**
 * The abort reason a run's signal carries when it is killed (admin `/kill`, COVER_EARLY, shutdown).
 *
 * @example
 * ```ts
 * ctx.signal.addEventListener('abort', () => {
 *   if (ctx.signal.reason instanceof JobKilledError) ctx.log('killed: %s', ctx.signal.reason.reason);
 * });
 * ```
 */
export class JobKilledError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'JobKilledError';
  }
}

export interface RunJobOptions {
  trigger: TriggerParam;
  handler: JobHandler;
  log: JobLogSink;
  /** Milliseconds; 0 or less = no timeout. */
  timeoutMs: number;
  /** handleMsg on timeout (default "job execute timeout"). */
  timeoutMsg?: string;
  /** How long a handler gets to settle after its signal is aborted before it is abandoned. */
  abortGraceMs: number;
  /** Aborting this kills the run; give a {@link JobKilledError} as the reason. */
  stop?: AbortSignal;
}

export interface RunJobResult extends JobResult {
  /** True when the handler was aborted and had not settled after the grace period (it ignores its signal). */
  abandoned: boolean;
}

type Outcome = { kind: 'returned'; value: unknown } | { kind: 'threw'; error: unknown };

/** Resolves true if `promise` settles within `ms`, false otherwise (without holding the event loop open). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs one trigger through a handler, as XXL-JOB's JobThread does one queue item: start/param/end lines in
 * the run's log, the timeout, the kill, and the mapping of return/throw/explicit result to a handle code.
 * It never throws.
 */
export async function runJob(opts: RunJobOptions): Promise<RunJobResult> {
  const { trigger, log } = opts;
  if (opts.stop?.aborted) {
    const reason: unknown = opts.stop.reason;
    const why = reason instanceof JobKilledError ? reason.reason : String(reason);
    log.line(`----------- JobThread toStop before the run started, stopReason:${why}`);
    return { handleCode: HANDLE_CODE.fail, handleMsg: MSG.runningKilled(why), abandoned: false };
  }
  const controller = new AbortController();
  const ctx = new RunContext(trigger, controller.signal, log);
  log.line('----------- tickring job execute start -----------');
  log.line(`----------- Param:${trigger.executorParams}`);

  let timer: NodeJS.Timeout | undefined;
  let onStop: (() => void) | undefined;
  const aborted = new Promise<void>((resolve) => {
    const abort = (reason: unknown) => {
      if (!controller.signal.aborted) controller.abort(reason);
      resolve();
    };
    if (opts.timeoutMs > 0) {
      timer = setTimeout(() => abort(new JobTimeoutError(opts.timeoutMsg)), opts.timeoutMs);
    }
    const stop = opts.stop;
    if (stop?.aborted) abort(stop.reason);
    else if (stop) {
      onStop = () => abort(stop.reason);
      stop.addEventListener('abort', onStop, { once: true });
    }
  });

  let settled = false;
  const outcome: Promise<Outcome> = (async () => {
    try {
      return { kind: 'returned', value: await opts.handler(ctx) } as const;
    } catch (error) {
      return { kind: 'threw', error } as const;
    } finally {
      settled = true;
    }
  })();

  const first = await Promise.race([outcome, aborted.then(() => undefined)]);
  clearTimeout(timer);
  if (onStop) opts.stop?.removeEventListener('abort', onStop);

  let result: JobResult;
  let abandoned = false;
  if (controller.signal.aborted) {
    if (!settled) settled = await settlesWithin(outcome, opts.abortGraceMs);
    abandoned = !settled;
    const note = abandoned
      ? `; the handler did not stop within ${opts.abortGraceMs} ms after its signal was aborted and was abandoned`
      : '';
    const reason: unknown = controller.signal.reason;
    if (reason instanceof JobTimeoutError) {
      log.line(`----------- job execute timeout: ${reason.message}`);
      result = { handleCode: HANDLE_CODE.timeout, handleMsg: `${reason.message}${note}` };
    } else {
      const why = reason instanceof JobKilledError ? reason.reason : String(reason);
      log.line(`----------- JobThread toStop, stopReason:${why}`);
      result = { handleCode: HANDLE_CODE.fail, handleMsg: `${MSG.runningKilled(why)}${note}` };
    }
    if (abandoned) log.line(`----------- ${note.slice(2)}`);
  } else {
    result = fromOutcome(first ?? (await outcome), ctx, log);
  }

  const handleMsg = truncateHandleMsg(result.handleMsg);
  log.line(
    `----------- tickring job execute end(finish) -----------\n----------- Result: handleCode=${result.handleCode}, handleMsg = ${handleMsg ?? ''}`,
  );
  return { handleCode: result.handleCode, ...(handleMsg === undefined ? {} : { handleMsg }), abandoned };
}

function fromOutcome(outcome: Outcome, ctx: RunContext, log: JobLogSink): JobResult {
  if (outcome.kind === 'threw') {
    const text = errorText(outcome.error);
    log.line(`----------- JobThread Exception:${text}`);
    return { handleCode: HANDLE_CODE.fail, handleMsg: text };
  }
  if (ctx.explicit) return ctx.explicit;
  const message = returnedMessage(outcome.value);
  return message === undefined
    ? { handleCode: HANDLE_CODE.success }
    : { handleCode: HANDLE_CODE.success, handleMsg: message };
}

/** A handler's return value as its success message: a string as it is, any other JSON value as JSON text. */
function returnedMessage(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
