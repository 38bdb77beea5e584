import { fromApiGatewayV2 } from '@tickring/api/http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { type CallbackConfig, loadConfig } from './config.js';
import { buildCallbackDeps, type CallbackRuntime } from './deps.js';
import { handleExecutorRequest } from './executor-api.js';

/**
 * The admin API executors call (XXL-JOB compatible): `POST /api/registry`, `/api/registryRemove`
 * and `/api/callback`, also under `/xxl-job-admin`. Always HTTP 200 with `{"code":200}` or
 * `{"code":500,"msg":...}`, as the Java admin answers.
 */
export function createHandler(config: CallbackConfig, runtime: Partial<CallbackRuntime> = {}) {
  const deps = buildCallbackDeps(config, runtime);
  return async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const reply = await handleExecutorRequest(deps, fromApiGatewayV2(event));
    deps.flushMetrics();
    return {
      statusCode: 200,
      headers: { 'content-type': 'application/json;charset=UTF-8' },
      body: JSON.stringify(reply),
    };
  };
}

let lazy: ReturnType<typeof createHandler> | undefined;
export const handler = (event: APIGatewayProxyEventV2) => {
  lazy ??= createHandler(loadConfig(process.env));
  return lazy(event);
};
