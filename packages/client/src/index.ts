/**
 * A typed client of tickring's admin API (/v1): one method per operation of its OpenAPI document
 * (named by operationId), typed errors, and async iterators over paged lists. The types are generated
 * from the document (`openapi.json`), so they are the server's own.
 *
 * @example
 * import { createClient } from '@tickring/client';
 * const client = createClient({ baseUrl: 'http://127.0.0.1:8080', token: process.env.TICKRING_ADMIN_TOKEN });
 * const job = await client.getJob({ path: { id: 5 } });
 * for await (const run of client.paginate('listRuns', { query: { jobId: job.id } })) console.log(run.status);
 *
 * @packageDocumentation
 */
export { type ClientOptions, createClient, type OperationMethods, type TickringClient } from './client.js';
export { type RequestTarget, TickringApiError, TickringConnectionError } from './errors.js';
// paths, operations, components, and every schema by its name (Job, Group, Run, RunPage, ...).
export type * from './generated/openapi.js';
export { OPERATIONS } from './generated/operations.js';
export type {
  OperationId,
  OperationInput,
  OperationMethod,
  OperationResult,
  PagedOperationId,
  PageItem,
} from './types.js';
