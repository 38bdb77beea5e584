/**
 * The two ways a call fails: the API answered with an error ({@link TickringApiError}), or no answer
 * came ({@link TickringConnectionError}). Neither carries the token or the request's headers.
 */
import type { Problem } from './generated/openapi.js';
import type { OperationId } from './types.js';

/** Where a failed call was going: its operation, method and path (`/v1/jobs/5`, without the query). */
export interface RequestTarget {
  readonly operationId: OperationId;
  /** The HTTP method, upper case. */
  readonly method: string;
  /** The request path with its parameters filled in, without the base URL's own path and the query. */
  readonly path: string;
}

/**
 * The API answered with an error status (4xx, 5xx), or with a success the client cannot read (a body
 * that is not JSON: `error` is then `InvalidResponse`).
 *
 * `error` and `message` are the server's own (`ValidationError`, `NotFoundError`, `UnauthorizedError`,
 * `ConflictError`, `ExecutorCallError`, `InternalError`, ...); when the body is not the API's error
 * shape (a proxy's 502 page, an empty body), `error` is `HttpError` and `message` the status, e.g.
 * `HTTP 502 Bad Gateway`.
 */
export class TickringApiError extends Error {
  override readonly name = 'TickringApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The server's `error` field (`ValidationError`, `NotFoundError`, ...), or `HttpError`, `InvalidResponse`. */
  readonly error: string;
  /** ValidationError: the first problem's field (absent otherwise: not even a key). */
  declare readonly field?: string;
  /** ValidationError: every problem of the request; empty for the other errors. */
  readonly problems: readonly Problem[];
  readonly operationId: OperationId;
  readonly method: string;
  readonly path: string;
  /** The answer's body: parsed JSON, else its text (`undefined` when empty). */
  readonly body: unknown;

  constructor(
    target: RequestTarget,
    answer: { status: number; error: string; message: string; field?: string; problems?: readonly Problem[] },
    body: unknown,
  ) {
    super(answer.message);
    this.status = answer.status;
    this.error = answer.error;
    if (answer.field !== undefined) this.field = answer.field;
    this.problems = answer.problems ?? [];
    this.operationId = target.operationId;
    this.method = target.method;
    this.path = target.path;
    this.body = body;
  }
}

/**
 * No answer came: the connection was refused or reset, the host name did not resolve, TLS failed, or
 * the answer took longer than `timeoutMs` (`timedOut`). The original error is the `cause`.
 */
export class TickringConnectionError extends Error {
  override readonly name = 'TickringConnectionError';
  /** The base URL the client was made with (without a trailing slash). */
  readonly baseUrl: string;
  readonly operationId: OperationId;
  readonly method: string;
  readonly path: string;
  /** The system error code when there is one (`ECONNREFUSED`, `ENOTFOUND`, ...). */
  declare readonly code?: string;
  /** True when the answer did not come within `timeoutMs`. */
  readonly timedOut: boolean;

  constructor(
    target: RequestTarget,
    failure: { baseUrl: string; message: string; code?: string; timedOut: boolean; cause: unknown },
  ) {
    super(failure.message, { cause: failure.cause });
    this.baseUrl = failure.baseUrl;
    this.operationId = target.operationId;
    this.method = target.method;
    this.path = target.path;
    if (failure.code !== undefined) this.code = failure.code;
    this.timedOut = failure.timedOut;
  }
}
