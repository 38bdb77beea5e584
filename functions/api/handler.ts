import { createHttpHandler } from '@tickring/api/http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { type ApiConfig, loadConfig } from './config.js';
import { type ApiRuntime, buildApiDeps } from './deps.js';
import { apiRoutes } from './routes.js';
import { identityAuthenticator } from './routes-identity.js';
import { apiErrorResult } from './views.js';

/**
 * The admin API behind API Gateway v2 (`ANY /v1/{proxy+}`): every route but the public ones (the
 * OpenAPI document, signing in) needs `Authorization: Bearer <token>` (a session, an API token or
 * the bootstrap token); requests are checked against the route table (`shared/schema/api`): the
 * request first, then the caller's access, before the use-case runs; errors are `{error, message}`
 * (a 400 adds `field` and `problems`) with a 4xx status, or 502 when an executor (`/log`, `/kill`)
 * fails. The caller's address (failed sign-in throttle, audit log) is the gateway's source address,
 * or the viewer's as the console's CloudFront reports it when the request carries the edge secret.
 * The invocation's metrics are published before it answers.
 */
export function createHandler(config: ApiConfig, runtime: Partial<ApiRuntime> = {}) {
  const deps = buildApiDeps(config, runtime);
  const handle = createHttpHandler({
    router: apiRoutes(deps),
    authenticate: identityAuthenticator(deps.identity),
    logger: deps.logger,
    mapError: apiErrorResult,
    ...(deps.edgeSecret ? { edgeSecret: deps.edgeSecret } : {}),
  });
  return async (event: APIGatewayProxyEventV2) => {
    const result = await handle(event);
    deps.flushMetrics();
    return result;
  };
}

let lazy: ReturnType<typeof createHandler> | undefined;
export const handler = (event: APIGatewayProxyEventV2) => {
  lazy ??= createHandler(loadConfig(process.env));
  return lazy(event);
};
