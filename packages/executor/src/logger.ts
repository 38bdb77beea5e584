/**
 * The narrow logger the executor writes its own operational messages to (not the jobs' logs).
 * A Powertools `Logger` fits as is; so does a console wrapper.
 *
 * @example
 * ```ts
 * import { Logger } from '@aws-lambda-powertools/logger';
 * const ex = createExecutor({ ..., logger: new Logger({ serviceName: 'my-executor' }) });
 * ```
 */
export interface ExecutorLogger {
  debug(message: string, ...attributes: Record<string, unknown>[]): void;
  info(message: string, ...attributes: Record<string, unknown>[]): void;
  warn(message: string, ...attributes: Record<string, unknown>[]): void;
  error(message: string, ...attributes: Record<string, unknown>[]): void;
}

/**
 * A logger that drops everything (useful in tests).
 *
 * @example
 * ```ts
 * createExecutor({ ..., logger: silentLogger });
 * ```
 */
export const silentLogger: ExecutorLogger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};

/**
 * The default: warnings and errors as one JSON line each on stderr; debug and info are dropped.
 *
 * @example
 * ```ts
 * defaultLogger.warn('admin unreachable', { admin: 'http://admin:8080' });
 * ```
 */
export const defaultLogger: ExecutorLogger = {
  debug() {},
  info() {},
  warn(message, ...attributes) {
    console.warn(JSON.stringify(Object.assign({ level: 'WARN', message }, ...attributes)));
  },
  error(message, ...attributes) {
    console.error(JSON.stringify(Object.assign({ level: 'ERROR', message }, ...attributes)));
  },
};

/** Turns an unknown thrown value into something a log line can carry. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}
