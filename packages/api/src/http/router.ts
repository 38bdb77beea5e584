import { NotFoundError } from '@tickring/core/common';
import { MethodNotAllowedError } from './errors.js';
import type { RoutedRequest } from './request.js';
import type { HttpResult } from './response.js';
import type { RouteContract, ValidRequest } from './validation.js';

/** The parameter names of a pattern: `'/v1/jobs/{id}'` → `'id'`. */
export type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParams<Rest>
  : never;

export type RouteHandler<Params extends string = string> = (
  req: RoutedRequest<Params>,
) => Promise<HttpResult> | HttpResult;

interface Route {
  readonly method: string;
  readonly pattern: string;
  /** Literal segments, or `{name}` for a path parameter. */
  readonly segments: readonly string[];
  readonly handler: RouteHandler;
  /** false: served without authentication. */
  readonly authenticated: boolean;
}

export interface RouteMatch {
  readonly handler: RouteHandler;
  readonly params: Record<string, string>;
}

/**
 * A tiny router: patterns like `/v1/jobs/{id}`, one parameter per segment. A path that matches no
 * pattern is a 404; one that matches only under other methods is a 405 listing them.
 *
 * @example
 * new Router().get('/v1/jobs/{id}', (req) => ok(getJob(req.params.id)))
 */
export class Router {
  private readonly routes: Route[] = [];

  add<P extends string>(method: string, pattern: P, handler: RouteHandler<PathParams<P>>): this {
    return this.push(method, pattern, handler as RouteHandler, true);
  }

  /**
   * A route from its contract: the request is checked by `contract.validate` (every problem at
   * once, a 400 before the handler runs) and the handler gets its parameters, query and body typed.
   */
  route<Params, Query, Body>(
    contract: RouteContract<Params, Query, Body>,
    handler: (req: ValidRequest<Params, Query, Body>) => Promise<HttpResult> | HttpResult,
  ): this {
    return this.push(
      contract.method,
      contract.path,
      (req) => handler({ ...req, ...contract.validate(req) }),
      contract.authenticated,
    );
  }

  get<P extends string>(pattern: P, handler: RouteHandler<PathParams<P>>): this {
    return this.add('GET', pattern, handler);
  }

  post<P extends string>(pattern: P, handler: RouteHandler<PathParams<P>>): this {
    return this.add('POST', pattern, handler);
  }

  put<P extends string>(pattern: P, handler: RouteHandler<PathParams<P>>): this {
    return this.add('PUT', pattern, handler);
  }

  delete<P extends string>(pattern: P, handler: RouteHandler<PathParams<P>>): this {
    return this.add('DELETE', pattern, handler);
  }

  /** Whether this request goes to a route served without authentication. */
  isPublic(method: string, path: string): boolean {
    const parts = split(path);
    return this.routes.some(
      (r) => !r.authenticated && r.method === method.toUpperCase() && matchSegments(r.segments, parts),
    );
  }

  /** The route for this request; NotFoundError or MethodNotAllowedError when there is none. */
  match(method: string, path: string): RouteMatch {
    const parts = split(path);
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (!params) continue;
      if (route.method === method.toUpperCase()) return { handler: route.handler, params };
      if (!allowed.includes(route.method)) allowed.push(route.method);
    }
    if (allowed.length > 0) {
      throw new MethodNotAllowedError(
        `${method} is not allowed on ${path}; use ${allowed.join(', ')}`,
        allowed,
      );
    }
    throw new NotFoundError(`no route for ${method} ${path}`);
  }

  /** `METHOD pattern` of every route, in the order they were added. */
  list(): string[] {
    return this.routes.map((r) => `${r.method} ${r.pattern}`);
  }

  private push(method: string, pattern: string, handler: RouteHandler, authenticated: boolean): this {
    const segments = split(pattern);
    this.routes.push({ method: method.toUpperCase(), pattern, segments, handler, authenticated });
    return this;
  }
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function matchSegments(
  pattern: readonly string[],
  parts: readonly string[],
): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as string;
    const actual = parts[i] as string;
    if (expected.startsWith('{') && expected.endsWith('}')) {
      const value = safeDecode(actual);
      if (value === undefined) return undefined;
      params[expected.slice(1, -1)] = value;
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
