import { isIP } from 'node:net';
import { constantTimeEquals } from './auth.js';
import type { HttpRequest } from './request.js';

/**
 * The origin custom header by which the console's CloudFront distribution proves itself to the API
 * (`/v1/*` behaviour; its value a generated secret, `TICKRING_EDGE_SECRET_ARN`). CloudFront sets it
 * on every origin request, replacing any a viewer sent; a caller of the API Gateway URL does not know
 * it. Lower case, as request headers are here.
 */
export const EDGE_SECRET_HEADER = 'x-tickring-edge-secret';

/** The viewer's address and source port, as CloudFront adds it: `198.51.100.7:46532`, `2001:db8::1:443`. */
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

/**
 * The IP address of a `CloudFront-Viewer-Address` value (`ip:port`, an IPv6 address unbracketed, so
 * the port is after the last colon); undefined unless it is exactly one address and a port (a
 * missing or extra part, a list of values, brackets around anything but an IPv6 address).
 */
export function parseViewerAddress(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  const colon = trimmed.lastIndexOf(':');
  if (colon <= 0) return undefined;
  const port = trimmed.slice(colon + 1);
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65_535) return undefined;
  let ip = trimmed.slice(0, colon);
  const bracketed = /^\[(.+)\]$/.exec(ip);
  if (bracketed) {
    ip = bracketed[1] ?? '';
    if (isIP(ip) !== 6) return undefined;
  }
  return isIP(ip) === 0 ? undefined : ip;
}

/**
 * Whether the request came through the console's CloudFront distribution: it carries the edge
 * secret, and that is the configured one (compared in constant time). Never when no secret is
 * configured (the local stack, a test): a header anyone can send proves nothing then.
 */
export function isFromEdge(
  headers: Readonly<Record<string, string>>,
  edgeSecret: string | undefined,
): boolean {
  const presented = headers[EDGE_SECRET_HEADER];
  if (edgeSecret === undefined || edgeSecret === '' || presented === undefined) return false;
  return constantTimeEquals(presented, edgeSecret);
}

/**
 * The caller's address, as the failed sign-in throttle and the audit log count it: the viewer's
 * address CloudFront reports when the request proves it came through CloudFront (the edge secret),
 * else the address the gateway saw. `X-Forwarded-For` and `CloudFront-Viewer-Address` of a request
 * without the secret are anyone's to write, so they are never read; a malformed viewer address
 * falls back to the gateway's.
 */
export function clientAddress(
  req: Pick<HttpRequest, 'headers' | 'sourceIp'>,
  edgeSecret: string | undefined,
): string {
  if (!isFromEdge(req.headers, edgeSecret)) return req.sourceIp;
  return parseViewerAddress(req.headers[VIEWER_ADDRESS_HEADER]) ?? req.sourceIp;
}

/**
 * The request as the routes see it: `clientIp` derived (`clientAddress`), and the edge secret header
 * removed, whoever sent it, so no handler, log line or audit record can hold it.
 */
export function withClientAddress(req: HttpRequest, edgeSecret: string | undefined): HttpRequest {
  const clientIp = clientAddress(req, edgeSecret);
  if (!(EDGE_SECRET_HEADER in req.headers)) return { ...req, clientIp };
  const { [EDGE_SECRET_HEADER]: _secret, ...headers } = req.headers;
  return { ...req, headers, clientIp };
}
