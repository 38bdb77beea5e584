import { ValidationError } from '@tickring/core/common';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

/** An HTTP request as the routes see it, whatever carried it (API Gateway v2, the local gateway). */
export interface HttpRequest {
  /** Upper case. */
  readonly method: string;
  /** Without a trailing slash (except `/`), not decoded. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text (base64 already decoded); empty when there is none. */
  readonly rawBody: string;
  readonly requestId: string;
  /**
   * The address the gateway saw (`requestContext.http.sourceIp`): through the console's CloudFront
   * distribution, an edge server's. Empty when unknown.
   */
  readonly sourceIp: string;
  /**
   * The caller's address, what the failed sign-in throttle and the audit log count: the viewer's
   * address CloudFront vouched for (see `withClientAddress`), else `sourceIp`.
   */
  readonly clientIp: string;
}

/** A request matched to a route: path parameters decoded, the body parsed as JSON. */
export interface RoutedRequest<Params extends string = string> extends HttpRequest {
  readonly params: Readonly<Record<Params, string>>;
  /** The parsed JSON body; undefined when the body is empty. */
  readonly body: unknown;
  /** What the authenticator made of the credentials (undefined on a public route). */
  readonly auth?: unknown;
}

/**
 * Reads an API Gateway v2 (HTTP API, payload format 2.0) event. `clientIp` is the gateway's
 * `sourceIp`: no header is believed here (`withClientAddress` does that, given the edge secret).
 */
export function fromApiGatewayV2(event: APIGatewayProxyEventV2): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) {
    if (value !== undefined) query[name] = value;
  }
  const rawPath = event.rawPath || event.requestContext?.http?.path || '/';
  const body = event.body ?? '';
  const sourceIp = event.requestContext?.http?.sourceIp ?? '';
  return {
    method: (event.requestContext?.http?.method ?? 'GET').toUpperCase(),
    path: rawPath.length > 1 ? rawPath.replace(/\/+$/, '') || '/' : rawPath,
    query,
    headers,
    rawBody: event.isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body,
    requestId: event.requestContext?.requestId ?? '',
    sourceIp,
    clientIp: sourceIp,
  };
}

/** Content types whose body a route gets as text, unparsed (an iCalendar import). */
const TEXT_BODY_TYPES = /^text\/calendar\b/i;

/**
 * The body a route gets: the text itself for a text/calendar body, else the parsed JSON (see
 * parseJsonBody).
 */
export function parseBody(rawBody: string, contentType: string | undefined): unknown {
  if (contentType !== undefined && TEXT_BODY_TYPES.test(contentType.trim())) return rawBody;
  return parseJsonBody(rawBody);
}

/** The JSON body, undefined when empty; a malformed body is a 400 naming `body`. */
export function parseJsonBody(rawBody: string): unknown {
  if (rawBody.trim() === '') return undefined;
  try {
    return JSON.parse(rawBody) as unknown;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new ValidationError(`body is not valid JSON: ${reason}`, 'body');
  }
}
