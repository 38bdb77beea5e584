import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { matchHttpRoute } from '@tickring/aws/topology';
import type { Logger } from '@tickring/core/common';
import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import { httpApiEvent } from './events.js';
import type { LambdaHost } from './lambda-host.js';
import { LOOPBACK } from './net.js';

/** Where the stack is in its life: only `ready` serves `/v1` and `/api`. */
export type Readiness = 'starting' | 'ready' | 'stopping';

/** A local route served by the stack itself rather than by a function (health, Lambda's Invoke API, the web console). */
export type LocalRoute = (req: IncomingMessage, body: Buffer, res: ServerResponse) => Promise<boolean>;

export interface HttpGatewayOptions {
  readonly host: LambdaHost;
  readonly port: number;
  /** The address to listen on. Default 127.0.0.1. */
  readonly listenOn?: string;
  readonly functionNames: Readonly<Record<'api' | 'callback', string>>;
  readonly localRoutes: readonly LocalRoute[];
  readonly logger: Logger;
  readonly maxBodyBytes?: number;
  /** Routed requests are answered 503 (with Retry-After) unless this says `ready`. Default: always ready. */
  readonly readiness?: () => Readiness;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024; // API Gateway's payload limit

/**
 * API Gateway v2 on 127.0.0.1 (or `listenOn`): each request becomes an HTTP API event for the function its route
 * names, and the function's result (structured or plain) becomes the response.
 */
export async function startHttpGateway(
  options: HttpGatewayOptions,
): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    void handle(options, req, res).catch((err) => {
      options.logger.error('gateway failure', { error: String(err) });
      if (!res.headersSent) sendError(res, 500, 'InternalError', 'Internal Server Error');
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.listenOn ?? LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : options.port };
}

async function handle(options: HttpGatewayOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req, options.maxBodyBytes ?? MAX_BODY_BYTES);
  const limit = options.maxBodyBytes ?? MAX_BODY_BYTES;
  if (body === undefined) {
    return sendError(res, 413, 'PayloadTooLarge', `the request body is larger than ${limit} bytes`);
  }
  for (const local of options.localRoutes) {
    if (await local(req, body, res)) return;
  }
  const url = new URL(req.url ?? '/', 'http://localhost');
  const match = matchHttpRoute(req.method ?? 'GET', url.pathname);
  if (!match) return sendError(res, 404, 'NotFound', `no route for ${req.method ?? 'GET'} ${url.pathname}`);
  const readiness = options.readiness?.() ?? 'ready';
  if (readiness !== 'ready') {
    res.setHeader('retry-after', '1');
    const message = `tickring is ${readiness}; try again in a moment`;
    // Executors read XXL-JOB's ReturnT ({code, msg}) from /api: give them that too.
    const xxl = match.route.target === 'callback' ? { code: 503, msg: message } : {};
    return sendError(res, 503, 'ServiceUnavailable', message, xxl);
  }
  const event = httpApiEvent(
    {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      body,
      sourceIp: req.socket.remoteAddress ?? LOOPBACK,
    },
    match.route.routeKey,
    match.pathParameters,
  );
  let result: APIGatewayProxyResultV2;
  try {
    result = await options.host.invoke<APIGatewayProxyResultV2>(
      options.functionNames[match.route.target],
      event,
    );
  } catch (err) {
    options.logger.error('function invocation failed', { route: match.route.routeKey, error: String(err) });
    return sendError(res, 500, 'InternalError', 'Internal Server Error');
  }
  writeResult(res, result);
}

/** Payload format 2.0: a structured result, or anything else serialized as a 200 JSON body. */
function writeResult(res: ServerResponse, result: APIGatewayProxyResultV2): void {
  if (typeof result === 'object' && result !== null && 'statusCode' in result) {
    const headers: Record<string, string | number | boolean> = { ...(result.headers ?? {}) };
    if (result.cookies?.length) res.setHeader('set-cookie', result.cookies);
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, String(value));
    res.statusCode = result.statusCode ?? 200;
    const body = result.body ?? '';
    res.end(result.isBase64Encoded ? Buffer.from(body, 'base64') : body);
    return;
  }
  send(res, 200, result);
}

/** An error as every tickring route answers it: `{"error": name, "message": what is wrong}` (plus `extra`). */
export function sendError(
  res: ServerResponse,
  status: number,
  error: string,
  message: string,
  extra: Record<string, unknown> = {},
): void {
  send(res, status, { error, message, ...extra });
}

export function send(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
