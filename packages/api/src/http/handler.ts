import type { Logger } from '@tickring/core/common';
import {
  isAppError,
  StoreUnavailableError,
  TooManyRequestsError,
  ValidationError,
} from '@tickring/core/common';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Authenticator } from './auth.js';
import { EDGE_SECRET_HEADER, withClientAddress } from './client-address.js';
import { MethodNotAllowedError } from './errors.js';
import { fromApiGatewayV2, type HttpRequest, parseBody } from './request.js';
import { type HttpResult, toApiGatewayV2 } from './response.js';
import type { Router } from './router.js';
import { problemsOf } from './validation.js';

export interface HttpHandlerOptions {
  readonly router: Router;
  /**
   * Runs before routing, so an unauthenticated caller learns nothing about the routes; skipped only
   * for the routes added as public (`authenticated: false` in their contract).
   */
  readonly authenticate?: Authenticator;
  readonly logger: Logger;
  /** How an error becomes a response; default `errorResult` (`{error, message}`). */
  readonly mapError?: (err: unknown, req: HttpRequest, logger: Logger) => HttpResult;
  /**
   * The secret CloudFront sends in front of the API (e.g. read once from Secrets Manager; asked for
   * only by requests carrying the edge secret header): a request carrying it gets the viewer's address
   * as `clientIp` (`withClientAddress`). None: `clientIp` is always the gateway's `sourceIp`. A failed
   * read is logged and the request goes on with `sourceIp`.
   */
  readonly edgeSecret?: () => Promise<string> | string;
}

/**
 * An API Gateway v2 handler: parse the event, authenticate, route, parse the JSON body, run the
 * route, and map any error. 4xx errors show their message; anything else is a generic 500 whose
 * detail is only logged.
 */
export function createHttpHandler(options: HttpHandlerOptions) {
  const mapError = options.mapError ?? errorResult;
  return async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const raw = fromApiGatewayV2(event);
    // Only a request that claims to come through the edge waits for the secret (a cold start's read).
    const edgeSecret = EDGE_SECRET_HEADER in raw.headers ? await readEdgeSecret(options) : undefined;
    const req = withClientAddress(raw, edgeSecret);
    let result: HttpResult;
    try {
      const auth = options.router.isPublic(req.method, req.path)
        ? undefined
        : await options.authenticate?.(req);
      const { handler, params } = options.router.match(req.method, req.path);
      const body = parseBody(req.rawBody, req.headers['content-type']);
      result = await handler({ ...req, params, body, auth });
    } catch (err) {
      result = mapError(err, req, options.logger);
    }
    return toApiGatewayV2(result);
  };
}

/**
 * The configured edge secret; undefined when there is none or it cannot be read now (the caller's
 * address is then the gateway's, as without CloudFront: never a header's).
 */
async function readEdgeSecret(options: HttpHandlerOptions): Promise<string | undefined> {
  if (!options.edgeSecret) return undefined;
  try {
    return await options.edgeSecret();
  } catch (err) {
    options.logger.error('edge secret unreadable: the caller address is the gateway source address', {
      error: err instanceof Error ? err.message : String(err),
    });
    return undefined;
  }
}

/**
 * `{error: <ErrorName>, message, field?}` with the error's 4xx status, or a generic 500. A
 * ValidationError adds `problems`: every `{field, message}` found (one for the domain's own checks),
 * `message` joining them and `field` naming the first.
 */
export function errorResult(err: unknown, req: HttpRequest, logger: Logger): HttpResult {
  if (isAppError(err) && err.status >= 400 && err.status < 500) {
    const field =
      err instanceof ValidationError
        ? { ...(err.field === undefined ? {} : { field: err.field }), problems: problemsOf(err) }
        : {};
    const headers: Record<string, string> =
      err instanceof MethodNotAllowedError
        ? { allow: err.allow.join(', ') }
        : err instanceof TooManyRequestsError
          ? { 'retry-after': String(err.retryAfterSeconds) }
          : err.status === 401
            ? { 'www-authenticate': 'Bearer' }
            : {};
    return { status: err.status, headers, body: { error: err.name, message: err.message, ...field } };
  }
  if (err instanceof StoreUnavailableError) {
    // The operator's to fix (a full disk), and the caller's to try again: said as it is, not as a 500.
    logger.warn('request refused: the store cannot take writes', {
      method: req.method,
      path: req.path,
      requestId: req.requestId,
      error: err.message,
    });
    return {
      status: err.status,
      headers: { 'retry-after': String(err.retryAfterSeconds) },
      body: { error: err.name, message: err.message },
    };
  }
  logger.error('request failed', {
    method: req.method,
    path: req.path,
    requestId: req.requestId,
    error: err instanceof Error ? (err.stack ?? err.message) : String(err),
  });
  return { status: 500, body: { error: 'InternalError', message: 'Internal server error' } };
}
