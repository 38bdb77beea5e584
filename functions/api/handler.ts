import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { bearerAuth, createHttpHandler } from '../../shared/http/index.js';
import { type ApiConfig, loadConfig } from './config.js';
import { type ApiRuntime, buildApiDeps } from './deps.js';
import { apiRoutes } from './routes.js';
import { apiErrorResult } from './views.js';

/**
 * The admin API behind API Gateway v2 (`ANY /v1/{proxy+}`): every route but `GET /v1/openapi.json`
 * (the contract, open) needs `Authorization: Bearer <admin token>`; requests are checked against
 * the route table (`shared/schema/api`) before the use-case runs; errors are `{error, message}`
 * (a 400 adds `field` and `problems`) with a 4xx status, or 502 when an executor (`/log`, `/kill`)
 * fails.
 */
export function createHandler(config: ApiConfig, runtime: Partial<ApiRuntime> = {}) {
  const deps = buildApiDeps(config, runtime);
  return createHttpHandler({
    router: apiRoutes(deps),
    authenticate: bearerAuth(deps.adminToken),
    logger: deps.logger,
    mapError: apiErrorResult,
  });
}

let lazy: ReturnType<typeof createHandler> | undefined;
export const handler = (event: APIGatewayProxyEventV2) => {
  lazy ??= createHandler(loadConfig(process.env));
  return lazy(event);
};
