import createFetchClient, { defaultPathSerializer } from 'openapi-fetch';
import { type RequestTarget, TickringApiError, TickringConnectionError } from './errors.js';
import type { Problem, paths } from './generated/openapi.js';
import { OPERATIONS } from './generated/operations.js';
import type {
  OperationId,
  OperationInput,
  OperationMethod,
  OperationResult,
  PagedOperationId,
  PageItem,
} from './types.js';

export interface ClientOptions {
  /** Where the admin API is: `http://127.0.0.1:8080`, `https://<id>.execute-api.<region>.amazonaws.com/prod`. */
  readonly baseUrl: string;
  /** The admin token, sent as `Authorization: Bearer <token>`; not needed for `getOpenApiDocument`. */
  readonly token?: string;
  /** How long one request may take, answer included (default 30 000 ms). */
  readonly timeoutMs?: number;
  /** The fetch to use (default: the global one). */
  readonly fetch?: typeof fetch;
  /** The User-Agent header (default `tickring-client`). */
  readonly userAgent?: string;
}

/** One method per admin API operation, named by its operationId. */
export type OperationMethods = { readonly [K in OperationId]: OperationMethod<K> };

export interface TickringClient extends OperationMethods {
  /**
   * Every item of a paged list (`listJobs`, `listRuns`), page after page, following `nextCursor` until
   * it is null. Pages are read as the loop asks for items.
   *
   * @example
   * for await (const run of client.paginate('listRuns', { query: { jobId: 5 } })) console.log(run.logId);
   */
  paginate<K extends PagedOperationId>(
    operationId: K,
    input?: OperationInput<K>,
  ): AsyncGenerator<PageItem<K>, void, undefined>;
  /** The whole pages of a paged list, following `nextCursor` until it is null (a page may be short, even empty). */
  pages<K extends PagedOperationId>(
    operationId: K,
    input?: OperationInput<K>,
  ): AsyncGenerator<OperationResult<K>, void, undefined>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_USER_AGENT = 'tickring-client';

/** What the client hands openapi-fetch: its typed call, seen through the one runtime table. */
type RawRequest = (
  method: string,
  path: string,
  init: {
    params: { path?: unknown; query?: unknown };
    body?: unknown;
    parseAs: 'text';
    signal: AbortSignal;
  },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

interface AnyInput {
  readonly path?: Record<string, unknown>;
  readonly query?: Record<string, unknown>;
  readonly body?: unknown;
}

/**
 * A client of tickring's admin API (/v1).
 *
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080', token: process.env.TICKRING_ADMIN_TOKEN });
 * const job = await client.getJob({ path: { id: 5 } });
 */
export function createClient(options: ClientOptions): TickringClient {
  const baseUrl = normalizedBaseUrl(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs > 0 && timeoutMs <= 2_147_483_647)) {
    throw new RangeError(`timeoutMs must be a positive number of milliseconds; got ${timeoutMs}`);
  }
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': headerValue('userAgent', options.userAgent ?? DEFAULT_USER_AGENT),
  };
  // An empty token is no token (`process.env.TOKEN ?? ''`).
  if (options.token) headers.authorization = `Bearer ${headerValue('token', options.token)}`;
  const api = createFetchClient<paths>({
    baseUrl,
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // The per-operation types (OperationInput, OperationResult) are read from the same document as
  // OPERATIONS; openapi-fetch's own per-path typing cannot follow a path chosen at run time.
  const request = api.request as unknown as RawRequest;

  async function call(operationId: OperationId, input: AnyInput = {}): Promise<unknown> {
    const { method, path: template } = OPERATIONS[operationId];
    const path = defaultPathSerializer(template, input.path ?? {});
    const target: RequestTarget = { operationId, method: method.toUpperCase(), path };
    const missing = path.match(/\{([^}]+)\}/);
    if (missing) throw new TypeError(`${operationId} needs path.${missing[1]}`);

    let answer: Awaited<ReturnType<RawRequest>>;
    try {
      answer = await request(method, template, {
        params: { path: input.path, query: input.query },
        ...(input.body === undefined ? {} : { body: input.body }),
        parseAs: 'text',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw connectionError(target, baseUrl, timeoutMs, err);
    }
    const { response } = answer;
    if (!response.ok) throw apiError(target, response, answer.error);
    if (typeof answer.data !== 'string' || answer.data === '') return undefined;
    // A text answer of its own type (an iCalendar export) is the result as it came.
    if (/^text\/calendar\b/i.test(response.headers.get('content-type') ?? '')) return answer.data;
    try {
      return JSON.parse(answer.data);
    } catch {
      throw new TickringApiError(
        target,
        {
          status: response.status,
          error: 'InvalidResponse',
          message: `${statusLine(response)}: the answer is not JSON`,
        },
        answer.data,
      );
    }
  }

  async function* pages(operationId: PagedOperationId, input: AnyInput = {}) {
    let query = input.query ?? {};
    for (;;) {
      const page = (await call(operationId, { ...input, query })) as {
        items?: unknown;
        nextCursor?: unknown;
      };
      if (!Array.isArray(page?.items)) throw new TypeError(`${operationId} did not answer a page (items)`);
      yield page;
      if (typeof page.nextCursor !== 'string') return;
      query = { ...query, cursor: page.nextCursor };
    }
  }

  async function* paginate(operationId: PagedOperationId, input: AnyInput = {}) {
    for await (const page of pages(operationId, input)) yield* page.items as unknown[];
  }

  const methods = Object.fromEntries(
    Object.keys(OPERATIONS).map((operationId) => [
      operationId,
      (input?: AnyInput) => call(operationId as OperationId, input),
    ]),
  );
  return { ...methods, pages, paginate } as unknown as TickringClient;
}

/** The API's error answer, read from `body` (parsed JSON, text, or undefined when empty). */
function apiError(target: RequestTarget, response: Response, body: unknown): TickringApiError {
  if (isErrorBody(body)) {
    const problems = Array.isArray(body.problems) ? body.problems.filter(isProblem) : [];
    return new TickringApiError(
      target,
      {
        status: response.status,
        error: body.error,
        message: body.message,
        ...(typeof body.field === 'string' ? { field: body.field } : {}),
        problems,
      },
      body,
    );
  }
  return new TickringApiError(
    target,
    { status: response.status, error: 'HttpError', message: statusLine(response) },
    body === '' ? undefined : body,
  );
}

function isErrorBody(
  body: unknown,
): body is { error: string; message: string; field?: unknown; problems?: unknown } {
  const b = body as { error?: unknown; message?: unknown } | null;
  return typeof b === 'object' && b !== null && typeof b.error === 'string' && typeof b.message === 'string';
}

function isProblem(p: unknown): p is Problem {
  const problem = p as { field?: unknown; message?: unknown } | null;
  return (
    typeof problem === 'object' &&
    problem !== null &&
    typeof problem.message === 'string' &&
    (problem.field === undefined || typeof problem.field === 'string')
  );
}

function statusLine(response: Response): string {
  return `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
}

function connectionError(
  target: RequestTarget,
  baseUrl: string,
  timeoutMs: number,
  err: unknown,
): TickringConnectionError {
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new TickringConnectionError(target, {
      baseUrl,
      message: `no answer from ${baseUrl} to ${target.method} ${target.path}: timed out after ${timeoutMs} ms`,
      timedOut: true,
      cause: err,
    });
  }
  const { message, code } = describeCause(err);
  return new TickringConnectionError(target, {
    baseUrl,
    message: `cannot reach ${baseUrl}: ${message}`,
    ...(code === undefined ? {} : { code }),
    timedOut: false,
    cause: err,
  });
}

/**
 * What went wrong under a failed fetch: undici throws `TypeError: fetch failed` with the system error
 * as its cause (an AggregateError, without a message of its own, when every address was refused).
 */
function describeCause(err: unknown): { message: string; code?: string } {
  let innermost = err as { message?: unknown; code?: unknown; cause?: unknown; errors?: unknown } | null;
  while (innermost?.cause !== undefined && innermost.cause !== null) {
    innermost = innermost.cause as typeof innermost;
  }
  const code = typeof innermost?.code === 'string' ? innermost.code : undefined;
  let message = typeof innermost?.message === 'string' ? innermost.message : '';
  if (!message && Array.isArray(innermost?.errors)) {
    message = [...new Set(innermost.errors.map((e: { message?: unknown }) => String(e?.message ?? e)))].join(
      '; ',
    );
  }
  if (!message) message = code ?? String(err);
  return code === undefined ? { message } : { message, code };
}

/**
 * `value`, checked here: fetch's own refusal of a header value quotes it, and the token must not
 * appear in any error.
 */
function headerValue(name: string, value: string): string {
  if (!/^[\t\x20-\x7e]*$/.test(value)) {
    throw new TypeError(`${name} must be printable ASCII (it is sent in a header)`);
  }
  return value;
}

/** The base URL without a trailing slash (or a query or fragment); refused with user info. */
function normalizedBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.username || url.password) {
    throw new TypeError('baseUrl must not carry user info: give the admin token as `token`');
  }
  url.search = '';
  url.hash = '';
  return url.href.replace(/\/+$/, '');
}
