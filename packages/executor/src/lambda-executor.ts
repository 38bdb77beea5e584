import {
  HANDLE_CODE,
  type HandleCallbackParam,
  MSG,
  ProtocolError,
  parseTriggerParam,
  type TriggerParam,
} from '@tickring/protocol';
import { AdminClient, parseAdminAddresses } from './admin-client.js';
import { ExecutorOptionsError } from './errors.js';
import type { JobHandler, JobResult } from './job-context.js';
import { FileJobLog, type JobLogSink, logFilePath } from './job-log.js';
import type { HandlerRegistration } from './job-worker.js';
import { defaultLogger, type ExecutorLogger, errorText } from './logger.js';
import { runJob } from './run-job.js';

/**
 * The part of the Lambda context the executor uses (the real `Context` fits).
 *
 * @example
 * ```ts
 * const ctx: LambdaContextLike = { getRemainingTimeInMillis: () => 30_000, awsRequestId: 'local' };
 * ```
 */
export interface LambdaContextLike {
  getRemainingTimeInMillis(): number;
  awsRequestId?: string | undefined;
  functionName?: string | undefined;
}

/**
 * Options of {@link lambdaExecutor}.
 *
 * @example
 * ```ts
 * const opts: LambdaExecutorOptions = { handlers: builtInHandlers(), adminAddresses: 'https://admin', accessToken };
 * ```
 */
export interface LambdaExecutorOptions {
  /** Handlers by `executorHandler` name, bare or with `init` (once per container) / `destroy` (never called in Lambda). */
  handlers: Readonly<Record<string, JobHandler | HandlerRegistration>>;
  /** Admin base URLs the result is reported to (array or comma-separated). */
  adminAddresses: string | readonly string[];
  /** `XXL-JOB-ACCESS-TOKEN` for the callback. Required unless `allowNoToken`. */
  accessToken?: string | undefined;
  allowNoToken?: boolean | undefined;
  /** Sent as `XXL-JOB-APPNAME`. */
  appName?: string | undefined;
  /** Run log lines and operational messages go here, with jobId/logId keys. @default console (warn/error only) */
  logger?: ExecutorLogger | undefined;
  /** Also write run logs as files here (e.g. under /tmp). */
  logDir?: string | undefined;
  /** Lambda time kept back to report the result. @default 3_000 */
  reportMarginMs?: number | undefined;
  /** How long an aborted handler may take to settle. @default 1_000 */
  abortGraceMs?: number | undefined;
  /** @default 3_000 */
  adminTimeoutMs?: number | undefined;
  /** Rounds over all admin addresses before giving up (and throwing, so Lambda retries / dead-letters). @default 3 */
  callbackAttempts?: number | undefined;
}

/** An async-invoked Lambda handler whose event is a TriggerParam; resolves to the reported result. */
export type LambdaTriggerHandler = (
  event: unknown,
  context: LambdaContextLike,
) => Promise<HandleCallbackParam>;

/**
 * Thrown when no admin accepted the result; Lambda's async retry (then the DLQ) keeps the event.
 *
 * @example
 * ```ts
 * try { await handler(event, context); } catch (err) {
 *   if (err instanceof CallbackDeliveryError) console.error('undelivered', err.callback);
 * }
 * ```
 */
export class CallbackDeliveryError extends Error {
  constructor(
    message: string,
    readonly callback: HandleCallbackParam,
  ) {
    super(message);
    this.name = 'CallbackDeliveryError';
  }
}

/** Results kept per container, so a redelivered event is reported again instead of run again. */
const REMEMBERED_RESULTS = 1_000;

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

class LoggerJobLog implements JobLogSink {
  constructor(
    private readonly logger: ExecutorLogger,
    private readonly keys: Record<string, unknown>,
    private readonly file: FileJobLog | undefined,
  ) {}

  line(text: string): void {
    this.logger.info(text, this.keys);
    this.file?.line(text);
  }

  async flush(): Promise<void> {
    await this.file?.flush();
  }
}

/**
 * Builds a Lambda handler that runs XXL-JOB triggers with the same handlers and context as the HTTP
 * executor: the event is the TriggerParam, the run's timeout is `executorTimeout` bounded by the Lambda's
 * remaining time (minus `reportMarginMs`; overrunning it reports 502), and the result is POSTed to
 * `{admin}/api/callback`, retried across addresses; if no admin accepts it the handler throws, so Lambda's
 * async retry and dead-letter queue keep it. A redelivered logId is reported again, not run again
 * (within one container). Block strategies do not apply: each invocation is one run.
 *
 * @example
 * ```ts
 * // my-function.ts
 * import { builtInHandlers, lambdaExecutor } from '@tickring/executor';
 * export const handler = lambdaExecutor({
 *   handlers: { ...builtInHandlers(), nightlyReport: async (ctx) => { ctx.log('building'); return 'built'; } },
 *   adminAddresses: 'https://admin.example.com',
 *   accessToken: token,
 * });
 * ```
 */
export function lambdaExecutor(opts: LambdaExecutorOptions): LambdaTriggerHandler {
  const accessToken = opts.accessToken?.trim() ? opts.accessToken : undefined;
  if (accessToken === undefined && opts.allowNoToken !== true) {
    throw new ExecutorOptionsError('accessToken is required (tokens fail closed)', 'accessToken');
  }
  let addresses: string[];
  try {
    addresses = parseAdminAddresses(opts.adminAddresses);
  } catch (err) {
    throw new ExecutorOptionsError((err as Error).message, 'adminAddresses');
  }
  const logger = opts.logger ?? defaultLogger;
  const reportMarginMs = opts.reportMarginMs ?? 3_000;
  const abortGraceMs = opts.abortGraceMs ?? 1_000;
  const attempts = Math.max(1, opts.callbackAttempts ?? 3);
  const admin = new AdminClient({
    addresses,
    accessToken,
    appName: opts.appName,
    timeoutMs: opts.adminTimeoutMs ?? 3_000,
  });
  const registrations = new Map<string, HandlerRegistration>(
    Object.entries(opts.handlers).map(([name, h]) => [name, typeof h === 'function' ? { handler: h } : h]),
  );
  const initialized = new Set<string>();
  const results = new Map<number, HandleCallbackParam>();

  const execute = async (trigger: TriggerParam, context: LambdaContextLike): Promise<JobResult> => {
    if (trigger.glueType !== 'BEAN') {
      return {
        handleCode: HANDLE_CODE.fail,
        handleMsg: `glueType[${trigger.glueType}] is not supported by a Lambda executor; use a BEAN handler.`,
      };
    }
    const registration = registrations.get(trigger.executorHandler);
    if (!registration)
      return { handleCode: HANDLE_CODE.fail, handleMsg: MSG.handlerNotFound(trigger.executorHandler) };
    const keys = { jobId: trigger.jobId, logId: trigger.logId, awsRequestId: context.awsRequestId };
    const file = opts.logDir
      ? new FileJobLog(logFilePath(opts.logDir, trigger.logDateTime, trigger.logId))
      : undefined;
    const log = new LoggerJobLog(logger, keys, file);
    if (registration.init && !initialized.has(trigger.executorHandler)) {
      try {
        await registration.init();
      } catch (err) {
        return { handleCode: HANDLE_CODE.fail, handleMsg: `job handler init failed: ${errorText(err)}` };
      }
    }
    initialized.add(trigger.executorHandler);
    const budgetMs = context.getRemainingTimeInMillis() - reportMarginMs - abortGraceMs;
    const jobTimeoutMs =
      trigger.executorTimeout > 0 ? trigger.executorTimeout * 1000 : Number.POSITIVE_INFINITY;
    if (budgetMs <= 0) {
      return {
        handleCode: HANDLE_CODE.timeout,
        handleMsg: `${MSG.timeout}: the Lambda had no time left to run the job (remaining time minus ${reportMarginMs + abortGraceMs} ms to report)`,
      };
    }
    const boundByLambda = budgetMs < jobTimeoutMs;
    const result = await runJob({
      trigger,
      handler: registration.handler,
      log,
      timeoutMs: Math.min(budgetMs, jobTimeoutMs),
      timeoutMsg: boundByLambda ? `${MSG.timeout} (the Lambda's remaining time ran out)` : MSG.timeout,
      abortGraceMs,
    });
    await log.flush();
    return result;
  };

  const report = async (callback: HandleCallbackParam): Promise<void> => {
    let detail = '';
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await sleep(200 * 2 ** (attempt - 1));
      const result = await admin.call('callback', [callback]);
      if (result.ok) {
        logger.info('callback delivered', { logId: callback.logId, admin: result.address });
        return;
      }
      detail = result.detail;
      logger.warn('callback not accepted by any admin', {
        logId: callback.logId,
        attempt: attempt + 1,
        detail,
      });
    }
    throw new CallbackDeliveryError(
      `callback of logId ${callback.logId} not accepted by any admin: ${detail}`,
      callback,
    );
  };

  return async (event, context) => {
    let trigger: TriggerParam;
    try {
      trigger = parseTriggerParam(typeof event === 'string' ? JSON.parse(event) : event);
    } catch (err) {
      const field = err instanceof ProtocolError ? err.field : 'event';
      throw new ExecutorOptionsError(`The event is not a TriggerParam: ${(err as Error).message}`, field);
    }
    let callback = results.get(trigger.logId);
    if (callback) {
      logger.warn('repeated trigger, reporting the earlier result again', { logId: trigger.logId });
    } else {
      const result = await execute(trigger, context);
      callback = {
        logId: trigger.logId,
        logDateTim: trigger.logDateTime,
        handleCode: result.handleCode,
        ...(result.handleMsg === undefined ? {} : { handleMsg: result.handleMsg }),
      };
      results.set(trigger.logId, callback);
      if (results.size > REMEMBERED_RESULTS) results.delete(results.keys().next().value as number);
    }
    await report(callback);
    return callback;
  };
}
