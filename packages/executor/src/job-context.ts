import { HANDLE_CODE, type TriggerParam } from '@tickring/protocol';
import { formatLogArgs, type JobLogSink } from './job-log.js';

/**
 * What a job handler receives: the trigger's data, an AbortSignal that fires on timeout, kill or
 * shutdown, a logger into the run's own log, and explicit result setters.
 *
 * @example
 * ```ts
 * ex.register('exportOrders', async (ctx) => {
 *   ctx.log('exporting shard %d of %d, param=%s', ctx.shardIndex, ctx.shardTotal, ctx.param);
 *   const res = await fetch('https://internal/export', { signal: ctx.signal });
 *   if (!res.ok) return ctx.fail(`export answered ${res.status}`);
 *   return 'exported';
 * });
 * ```
 */
export interface JobContext {
  readonly jobId: number;
  readonly logId: number;
  /** Epoch ms of the trigger (names the log's date folder). */
  readonly logDateTime: number;
  /** `executorParams`, `''` when none. */
  readonly param: string;
  /** `broadcastIndex` (0 unless the job is SHARDING_BROADCAST). */
  readonly shardIndex: number;
  /** `broadcastTotal` (1 for non-sharded triggers; some admins send 0). */
  readonly shardTotal: number;
  /** Aborted when the run times out, is killed, or the executor shuts down. Pass it on to I/O. */
  readonly signal: AbortSignal;
  /** The raw trigger, for anything not covered above. */
  readonly trigger: Readonly<TriggerParam>;
  /** Appends a line to the run's log (`util.format` semantics: `%s`, `%d`, `%j`, Errors with stack). */
  log(...args: unknown[]): void;
  /** Sets the result to success (handleCode 200); what the handler returns later no longer matters, a throw does. */
  success(msg?: string): void;
  /** Sets the result to failed (handleCode 500). */
  fail(msg?: string): void;
  /** Sets the result to timed out (handleCode 502). */
  timeout(msg?: string): void;
}

/**
 * What a handler may return: nothing, a string (the success message, the run's handleMsg), or a
 * JSON value (an object, array, number or boolean), sent as its JSON text: a workflow's later nodes
 * read it as `{{ nodes.<key>.result.<path> }}`.
 */
export type JobReturn =
  | string
  | number
  | boolean
  | null
  | undefined
  // biome-ignore lint/suspicious/noConfusingVoidType: handlers may return nothing at all.
  | void
  | readonly unknown[]
  | { readonly [key: string]: unknown };

/**
 * A job handler. Returning (optionally a string, or a JSON value: the success message) means success, throwing means
 * failure (the message and stack are reported); `ctx.success/fail/timeout` set the result explicitly.
 *
 * @example
 * ```ts
 * const handler: JobHandler = async (ctx) => {
 *   ctx.log('hello');
 *   return 'done';
 * };
 * ```
 */
export type JobHandler = (ctx: JobContext) => Promise<JobReturn> | JobReturn;

/**
 * A handleCode/handleMsg pair (200 success, 500 fail, 502 timeout).
 *
 * @example
 * ```ts
 * const r: JobResult = { handleCode: 502, handleMsg: 'job execute timeout' };
 * ```
 */
export interface JobResult {
  handleCode: number;
  handleMsg?: string;
}

/** The context implementation (internal). */
export class RunContext implements JobContext {
  explicit: JobResult | undefined;
  readonly jobId: number;
  readonly logId: number;
  readonly logDateTime: number;
  readonly param: string;
  readonly shardIndex: number;
  readonly shardTotal: number;

  constructor(
    readonly trigger: Readonly<TriggerParam>,
    readonly signal: AbortSignal,
    private readonly sink: JobLogSink,
  ) {
    this.jobId = trigger.jobId;
    this.logId = trigger.logId;
    this.logDateTime = trigger.logDateTime;
    this.param = trigger.executorParams;
    this.shardIndex = trigger.broadcastIndex;
    this.shardTotal = trigger.broadcastTotal;
    this.log = this.log.bind(this);
    this.success = this.success.bind(this);
    this.fail = this.fail.bind(this);
    this.timeout = this.timeout.bind(this);
  }

  log(...args: unknown[]): void {
    this.sink.line(formatLogArgs(args));
  }

  success(msg?: string): void {
    this.explicit = { handleCode: HANDLE_CODE.success, ...(msg === undefined ? {} : { handleMsg: msg }) };
  }

  fail(msg?: string): void {
    this.explicit = { handleCode: HANDLE_CODE.fail, ...(msg === undefined ? {} : { handleMsg: msg }) };
  }

  timeout(msg?: string): void {
    this.explicit = { handleCode: HANDLE_CODE.timeout, ...(msg === undefined ? {} : { handleMsg: msg }) };
  }
}
