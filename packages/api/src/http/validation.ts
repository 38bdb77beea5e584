import { type Problem, problemsOf, RequestValidationError } from '@tickring/core/common';
import type { HttpRequest, RoutedRequest } from './request.js';

export { type Problem, problemsOf, RequestValidationError };

/** What a route's contract yields from a request: its parameters, query and body, checked and typed. */
export interface ValidInput<Params, Query, Body> {
  readonly params: Params;
  readonly query: Query;
  readonly body: Body;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A route as its contract defines it (see `@tickring/api/contract`): where it is, whether it needs the
 * caller's credentials, and how its request is checked. `validate` throws a RequestValidationError
 * listing every problem, or returns the request's parts typed.
 */
export interface RouteContract<
  Params = Readonly<Record<string, string>>,
  Query = HttpRequest['query'],
  Body = unknown,
> {
  readonly method: HttpMethod;
  readonly path: string;
  /** false: answered without authentication (the OpenAPI document). */
  readonly authenticated: boolean;
  readonly validate: (req: RoutedRequest) => ValidInput<Params, Query, Body>;
}

/** The request a contract route's handler sees: its parts already checked. */
export type ValidRequest<Params, Query, Body> = Omit<RoutedRequest, 'params' | 'query' | 'body'> &
  ValidInput<Params, Query, Body>;
