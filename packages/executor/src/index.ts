/**
 * tickring's executor SDK: an XXL-JOB compatible executor (protocol v2.3–3.5) over HTTP, and the same
 * handlers inside AWS Lambda.
 *
 * @example
 * ```ts
 * import { createExecutor, registerBuiltInHandlers } from '@tickring/executor';
 *
 * const ex = createExecutor({ appName: 'my-app', adminAddresses: 'http://admin:8080', accessToken, port: 9999 });
 * registerBuiltInHandlers(ex);
 * ex.register('myJob', async (ctx) => {
 *   ctx.log('running with %s', ctx.param);
 *   return 'done';
 * });
 * await ex.start();
 * ```
 *
 * @packageDocumentation
 */

export * from '@tickring/protocol';
export { parseAdminAddresses } from './admin-client.js';
export {
  type BuiltInHandlerOptions,
  builtInHandlers,
  createHttpJobHandler,
  demoJobHandler,
  type HttpJobHandlerOptions,
  type HttpJobParam,
  registerBuiltInHandlers,
  shardingJobHandler,
} from './built-in-handlers.js';
export { ExecutorOptionsError } from './errors.js';
export { createExecutor, type Executor, type ExecutorOptions } from './executor.js';
export type { JobContext, JobHandler, JobResult, JobReturn } from './job-context.js';
export type { HandlerRegistration } from './job-worker.js';
export {
  CallbackDeliveryError,
  type LambdaContextLike,
  type LambdaExecutorOptions,
  type LambdaTriggerHandler,
  lambdaExecutor,
} from './lambda-executor.js';
export { defaultLogger, type ExecutorLogger, silentLogger } from './logger.js';
export { JobKilledError, JobTimeoutError } from './run-job.js';
export { isUrlAllowed, type UrlAllowRule, validateAllowList } from './url-allow-list.js';
