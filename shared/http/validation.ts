import { ValidationError } from '../domain/errors.js';
import type { HttpRequest, RoutedRequest } from './request.js';

/** One thing wrong with a request: the field (path or query parameter, or top-level body field) and what. */
export interface Problem {
  /** The parameter or top-level body field; `body` for the body as a whole. */
  readonly field?: string;
  /** Names the field, says what is expected and what was given. */
  readonly message: string;
}

/**
 * A request refused for every structural problem found in it at once (path parameters, query and
 * body). It is a ValidationError like the domain's: `message` joins the problems, `field` is the
 * first one's, and the 400 lists them all under `problems`.
 */
export class RequestValidationError extends ValidationError {
  constructor(readonly problems: readonly [Problem, ...Problem[]]) {
    super(problems.map((p) => p.message).join('; '), problems[0].field);
    // The answer names the error by kind: a 400 is a ValidationError whoever found it.
    this.name = 'ValidationError';
  }
}

/** The problems of any ValidationError: the list of a RequestValidationError, else its one problem. */
export function problemsOf(err: ValidationError): readonly Problem[] {
  if (err instanceof RequestValidationError) return err.problems;
  return [err.field === undefined ? { message: err.message } : { field: err.field, message: err.message }];
}

/** What a route's contract yields from a request: its parameters, query and body, checked and typed. */
export interface ValidInput<Params, Query, Body> {
  readonly params: Params;
  readonly query: Query;
  readonly body: Body;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * A route as its contract defines it (see `shared/schema/api`): where it is, whether it needs the
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
