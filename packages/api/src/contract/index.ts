/**
 * The admin API as a contract: one definition of each `/v1` route's request and answers
 * (`routes.ts`, from the shapes in `schemas-<resource>.ts`), from which the request validation,
 * the handlers' types and the OpenAPI 3.1 document (`openapi.ts`) are derived.
 */
export {
  type AnyApiRoute,
  type ApiRoute,
  type BodySpec,
  defineRoute,
  type ResponseSpec,
  type RouteSpec,
} from './define.js';
export { buildOpenApiDocument, type JsonObject, openApiDocument, openApiJson } from './openapi.js';
export { API, API_ROUTES } from './routes.js';
export * from './schemas-activity.js';
export * from './schemas-backfills.js';
export * from './schemas-calendars.js';
// The shared pieces, without the helpers of request bodies (ADDRESS_WORDS, optional, readOnlyEcho).
export {
  Cursor,
  Instant,
  InstantOrNull,
  iso,
  Limit,
  NextCursor,
  OpenApiDocumentSchema,
  PAGE_LIMIT,
} from './schemas-common.js';
export * from './schemas-errors.js';
export * from './schemas-executors.js';
export * from './schemas-groups.js';
export * from './schemas-jobs.js';
export * from './schemas-runs.js';
export * from './schemas-triggers.js';
export { problemsOf, requestValidator, type Source } from './validate.js';
