import type { ServerResponse } from 'node:http';
import type { Logger } from '@tickring/core/common';
import type { LocalRoute } from './http-gateway.js';
import type { LambdaHost } from './lambda-host.js';

const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

/**
 * Lambda's Invoke API (`POST /2015-03-31/functions/{name}/invocations`) on the stack's HTTP port, so
 * the production `LambdaClient` (whose endpoint is the stack's base URL in local mode) invokes the
 * locally hosted functions unchanged:
 * - `X-Amz-Invocation-Type: Event` → 202 with an empty body; the function runs in the background.
 * - `RequestResponse` (the default) → 200 with the function's result as JSON; a thrown error is 200 with
 *   `X-Amz-Function-Error: Unhandled` and `{errorType, errorMessage}`, as Lambda answers.
 * - `DryRun` → 204.
 * - An unknown function → 404 `ResourceNotFoundException`; a body that is not JSON → 400 `InvalidRequestContentException`.
 *
 * Unlike Lambda, a failed asynchronous invocation is logged, not retried.
 */
export function lambdaInvokeRoute(options: { host: LambdaHost; region: string; logger: Logger }): LocalRoute {
  const { host, region, logger } = options;
  return async (req, body, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = INVOKE_PATH.exec(url.pathname);
    if (!match || req.method !== 'POST') return false;
    const name = functionNameOf(decodeURIComponent(match[1] ?? ''));
    if (!host.has(name)) {
      const arn = `arn:aws:lambda:${region}:000000000000:function:${name}`;
      sendError(res, 404, 'ResourceNotFoundException', `Function not found: ${arn}`);
      return true;
    }
    let event: unknown = {};
    if (body.length > 0) {
      try {
        event = JSON.parse(body.toString('utf8'));
      } catch {
        sendError(res, 400, 'InvalidRequestContentException', 'Could not parse request body into json');
        return true;
      }
    }
    const invocationType = String(req.headers['x-amz-invocation-type'] ?? 'RequestResponse');
    if (invocationType === 'DryRun') {
      res.writeHead(204).end();
      return true;
    }
    if (invocationType === 'Event') {
      res.writeHead(202, { 'content-length': '0' }).end();
      host.invoke(name, event).catch((err: unknown) => {
        logger.error('asynchronous invocation failed', { functionName: name, error: String(err) });
      });
      return true;
    }
    try {
      const result = await host.invoke(name, event);
      const payload = JSON.stringify(result ?? null);
      res
        .writeHead(200, { 'content-type': 'application/json', 'x-amz-executed-version': '$LATEST' })
        .end(payload);
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'x-amz-executed-version': '$LATEST',
          'x-amz-function-error': 'Unhandled',
        })
        .end(JSON.stringify({ errorType: error.name, errorMessage: error.message, trace: [] }));
    }
    return true;
  };
}

/** `name`, `name:qualifier`, `123456789012:function:name` or a full ARN → the function's name. */
export function functionNameOf(given: string): string {
  const afterFunction = given.includes(':function:') ? given.slice(given.indexOf(':function:') + 10) : given;
  return afterFunction.split(':')[0] ?? '';
}

function sendError(res: ServerResponse, status: number, type: string, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type })
    // The SDK reads the header; the body also has tickring's error shape.
    .end(JSON.stringify({ Type: 'User', error: type, message }));
}
