/**
 * The HTTP API's routes, shared by the CDK stack (API Gateway v2 routes) and the local gateway,
 * so both send the same requests to the same function.
 */
export type HttpFunction = 'api' | 'callback';

export interface HttpRoute {
  /** API Gateway v2 route key, e.g. `ANY /v1/{proxy+}`. */
  readonly routeKey: string;
  readonly target: HttpFunction;
}

export const HTTP_ROUTES: readonly HttpRoute[] = [
  { routeKey: 'ANY /v1/{proxy+}', target: 'api' },
  // Executor-facing XXL-JOB admin API, at the 3.4.1+ root and at the classic context path.
  { routeKey: 'ANY /api/{proxy+}', target: 'callback' },
  { routeKey: 'ANY /xxl-job-admin/api/{proxy+}', target: 'callback' },
];

export interface RouteMatch {
  readonly route: HttpRoute;
  readonly pathParameters: Record<string, string>;
}

/** Matches a request the way API Gateway matches these greedy `{proxy+}` routes. */
export function matchHttpRoute(method: string, path: string): RouteMatch | undefined {
  for (const route of HTTP_ROUTES) {
    const [routeMethod, routePath = ''] = route.routeKey.split(' ');
    if (routeMethod !== 'ANY' && routeMethod !== method.toUpperCase()) continue;
    const prefix = routePath.replace('{proxy+}', '');
    if (path.startsWith(prefix) && path.length > prefix.length) {
      return { route, pathParameters: { proxy: path.slice(prefix.length) } };
    }
  }
  return undefined;
}
