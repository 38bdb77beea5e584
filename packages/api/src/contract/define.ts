import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { AuditSpec } from '@tickring/core/audit';
import type { RouteAccess } from '@tickring/core/identity';
import type { HttpRequest } from '../http/request.js';
import type { HttpMethod, RouteContract } from '../http/validation.js';
import type { StaticQuery } from './kit.js';
import { requestValidator } from './validate.js';

/** One answer of a route: its status's meaning, its body (none for 204) and an example. */
export interface ResponseSpec {
  readonly description: string;
  readonly schema?: TSchema;
  /** A typical body; the document shows it, the schema must accept it (checked by a test). */
  readonly example?: unknown;
  /** The body's media type when it is not JSON (an iCalendar export: `text/calendar`, a string schema). */
  readonly contentType?: string;
}

export interface BodySpec<S extends TSchema = TSchema> {
  readonly schema: S;
  /** false: the body may be absent (or `null`). */
  readonly required: boolean;
  readonly description: string;
  /** Named examples, shown by the document; each must pass the schema (checked by a test). */
  readonly examples: Readonly<Record<string, { readonly summary: string; readonly value: unknown }>>;
  /**
   * Who checks the body: the router, against `schema` (the default), or the use-case, which reports
   * every problem at once, the structural ones together with those no schema can express (a
   * workflow's cycles, its jobs' groups). With `use-case` the router passes the body on as it came
   * (typed `unknown`) and `schema` only documents it.
   */
  readonly checkedBy?: 'router' | 'use-case';
  /**
   * A text media type the body may come as instead of JSON (an iCalendar import: `text/calendar`);
   * the route then gets the text as it came (see parseBody), so its use-case checks the body.
   */
  readonly textType?: string;
}

/**
 * One route of the admin API, completely: where it is, what it is for, what it takes (path
 * parameters, query, body) and what it answers. The router validates requests from it, the
 * handlers get their types from it, and the OpenAPI document is written from it.
 */
export interface RouteSpec {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** `/v1/jobs/{id}`: each `{name}` is a property of `params`. */
  readonly path: string;
  readonly summary: string;
  readonly description: string;
  readonly tags: readonly [string, ...string[]];
  /** What the route asks of its caller (see RouteAccess): the one table the API authorises by. */
  readonly access: RouteAccess;
  /** How an accepted request is written to the audit log; absent for a route that changes nothing. */
  readonly audit?: AuditSpec;
  readonly params?: TObject;
  readonly query?: TObject;
  readonly body?: BodySpec;
  /** The success answers by status. */
  readonly responses: Readonly<Record<number, ResponseSpec>>;
  /**
   * The route's own error answers by status, with when they happen; 400 (any route: a bad
   * request), 401 (admin routes) and 500 are added for every route.
   */
  readonly errors?: Readonly<Record<number, string>>;
}

type ParamsOf<S extends RouteSpec> = S['params'] extends TObject
  ? Static<S['params']>
  : Readonly<Record<string, string>>;
type QueryOf<S extends RouteSpec> = S['query'] extends TObject
  ? StaticQuery<S['query']>
  : HttpRequest['query'];
type BodyOf<S extends RouteSpec> =
  S['body'] extends BodySpec<infer B>
    ? S['body'] extends { readonly checkedBy: 'use-case' }
      ? unknown
      : S['body']['required'] extends true
        ? Static<B>
        : Static<B> | undefined | null
    : unknown;

export type ApiRoute<S extends RouteSpec> = S & RouteContract<ParamsOf<S>, QueryOf<S>, BodyOf<S>>;
/** Any route of the table. */
export type AnyApiRoute = RouteSpec & RouteContract<unknown, unknown, unknown>;

/** A route of the table, with its request validator. Throws when the path and `params` disagree. */
export function defineRoute<const S extends RouteSpec>(spec: S): ApiRoute<S> {
  const names = [...spec.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const declared = Object.keys(spec.params?.properties ?? {});
  if (names.join() !== declared.join()) {
    throw new Error(`${spec.operationId}: path parameters ${names.join()} but params ${declared.join()}`);
  }
  return {
    ...spec,
    authenticated: spec.access.kind !== 'public',
    validate: requestValidator<ParamsOf<S>, QueryOf<S>, BodyOf<S>>(spec),
  };
}
