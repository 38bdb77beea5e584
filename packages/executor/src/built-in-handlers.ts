import type { JobContext, JobHandler } from './job-context.js';
import { isUrlAllowed, type UrlAllowRule, validateAllowList } from './url-allow-list.js';

/**
 * Logs a greeting and a few beats, then succeeds (XXL-JOB's sample `demoJobHandler`).
 *
 * @example
 * ```ts
 * ex.register('demoJobHandler', demoJobHandler);
 * ```
 */
export const demoJobHandler: JobHandler = (ctx) => {
  ctx.log('tickring, Hello World. param=%s', ctx.param);
  for (let i = 0; i < 3; i++) ctx.log('beat at:%d', i);
};

/**
 * Logs its shard index and total and which shards it handles (XXL-JOB's `shardingJobHandler`).
 *
 * @example
 * ```ts
 * ex.register('shardingJobHandler', shardingJobHandler);
 * ```
 */
export const shardingJobHandler: JobHandler = (ctx) => {
  ctx.log('sharding param: index = %d, total = %d', ctx.shardIndex, ctx.shardTotal);
  for (let i = 0; i < ctx.shardTotal; i++) {
    ctx.log(i === ctx.shardIndex ? 'shard %d: hit, processing' : 'shard %d: ignored', i);
  }
};

/** The `httpJobHandler` param: JSON. `data` / `timeout` are accepted as XXL-JOB's names for `body` / `timeoutMs`. */
export interface HttpJobParam {
  url: string;
  /** @default GET, or POST when a body is given */
  method?: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  data?: unknown;
  contentType?: string;
  /** @default 3000 */
  timeoutMs?: number;
  timeout?: number;
}

export interface HttpJobHandlerOptions {
  /** URLs the handler may call; empty = none (fails closed against SSRF). */
  allowList: readonly UrlAllowRule[];
  /** Characters of the response body written to the run's log. @default 10_000 */
  maxLoggedBody?: number | undefined;
}

const USAGE = 'expected JSON {"url","method","headers","body","timeoutMs"}';

function parseHttpParam(param: string): HttpJobParam | string {
  if (!param.trim()) return `httpJobHandler: the param is empty; ${USAGE}`;
  let value: unknown;
  try {
    value = JSON.parse(param);
  } catch {
    return `httpJobHandler: the param is not JSON; ${USAGE}`;
  }
  if (value === null || typeof value !== 'object' || typeof (value as HttpJobParam).url !== 'string') {
    return `httpJobHandler: the param has no "url"; ${USAGE}`;
  }
  return value as HttpJobParam;
}

/**
 * Makes the `httpJobHandler`: calls the URL in the param if, and only if, the allow-list permits it
 * (XXL-JOB users were hit by SSRF through this handler), without following redirects, logs the status and
 * body, and fails on a non-2xx status.
 *
 * @example
 * ```ts
 * ex.register('httpJobHandler', createHttpJobHandler({ allowList: ['https://hooks.example.com/'] }));
 * // param: {"url":"https://hooks.example.com/rebuild","method":"POST","body":{"full":true},"timeoutMs":5000}
 * ```
 */
export function createHttpJobHandler(opts: HttpJobHandlerOptions): JobHandler {
  validateAllowList(opts.allowList);
  const allowList = [...opts.allowList];
  const maxLogged = opts.maxLoggedBody ?? 10_000;
  return async (ctx: JobContext) => {
    const param = parseHttpParam(ctx.param);
    if (typeof param === 'string') return ctx.fail(param);
    if (!isUrlAllowed(param.url, allowList)) {
      const msg = `httpJobHandler: URL ${param.url} is not in the executor's httpAllowList; the request was not sent.`;
      ctx.log(msg);
      return ctx.fail(msg);
    }
    const url = new URL(param.url).href;
    const rawBody = param.body ?? param.data;
    const method = (param.method ?? (rawBody === undefined ? 'GET' : 'POST')).toUpperCase();
    const headers = new Headers(param.headers ?? {});
    let body: string | undefined;
    if (rawBody !== undefined && rawBody !== null) {
      body = typeof rawBody === 'string' ? rawBody : JSON.stringify(rawBody);
      if (!headers.has('content-type')) {
        headers.set(
          'content-type',
          param.contentType ?? (typeof rawBody === 'string' ? 'text/plain' : 'application/json'),
        );
      }
    }
    const timeoutMs = param.timeoutMs ?? param.timeout ?? 3000;
    ctx.log('httpJobHandler request: %s %s (timeout %d ms)', method, url, timeoutMs);
    let res: Response;
    let text: string;
    try {
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
      res = await fetch(url, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        redirect: 'manual',
        signal,
      });
      text = await res.text();
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      const why =
        err instanceof Error && err.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : String(err);
      ctx.log('httpJobHandler request failed: %s', why);
      return ctx.fail(`httpJobHandler: ${method} ${url} failed: ${why}`);
    }
    ctx.log('httpJobHandler response: HTTP %d', res.status);
    ctx.log(
      'httpJobHandler response body: %s',
      text.length > maxLogged ? `${text.slice(0, maxLogged)}...` : text,
    );
    if (res.status >= 200 && res.status < 300) return `HTTP ${res.status}`;
    const location = res.headers.get('location');
    ctx.fail(
      `httpJobHandler: ${method} ${url} answered HTTP ${res.status}` +
        (location ? ` (redirect to ${location} not followed)` : ''),
    );
  };
}

export interface BuiltInHandlerOptions {
  /** Allow-list of `httpJobHandler`. @default [] (every URL refused) */
  httpAllowList?: readonly UrlAllowRule[] | undefined;
}

/**
 * The built-in handlers by name: `demoJobHandler`, `shardingJobHandler`, `httpJobHandler`.
 *
 * @example
 * ```ts
 * const handler = lambdaExecutor({ handlers: builtInHandlers({ httpAllowList: ['https://api.example.com/'] }), ... });
 * ```
 */
export function builtInHandlers(opts: BuiltInHandlerOptions = {}): Record<string, JobHandler> {
  return {
    demoJobHandler,
    shardingJobHandler,
    httpJobHandler: createHttpJobHandler({ allowList: opts.httpAllowList ?? [] }),
  };
}

/**
 * Registers the built-in handlers on an executor; `httpJobHandler` uses `opts.httpAllowList`, else the
 * executor's `httpAllowList` option.
 *
 * @example
 * ```ts
 * const ex = createExecutor({ ..., httpAllowList: ['https://hooks.example.com/'] });
 * registerBuiltInHandlers(ex);
 * ```
 */
export function registerBuiltInHandlers(
  executor: {
    register(name: string, handler: JobHandler): unknown;
    readonly httpAllowList?: readonly UrlAllowRule[];
  },
  opts: BuiltInHandlerOptions = {},
): void {
  const handlers = builtInHandlers({ httpAllowList: opts.httpAllowList ?? executor.httpAllowList ?? [] });
  for (const [name, handler] of Object.entries(handlers)) executor.register(name, handler);
}
