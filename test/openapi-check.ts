/**
 * Checks answers of the admin API against the OpenAPI document (`@tickring/api/contract`): the status
 * must be one the operation documents and the body must match its schema (ajv, JSON Schema
 * 2020-12, formats checked). The API test helpers pass every answer they receive through
 * {@link checked}, so the integration tests hold the running API to its contract.
 */

import { type JsonObject, openApiDocument } from '@tickring/api/contract';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const DOC_ID = 'https://tickring.local/openapi.json';
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

interface Checker {
  readonly doc: JsonObject;
  readonly ajv: Ajv2020;
  readonly validators: Map<string, ValidateFunction>;
}

let checker: Checker | undefined;

/** The document's schemas in one ajv, `#/components/schemas/X` read as `<doc>#/$defs/X`. */
function getChecker(): Checker {
  if (checker) return checker;
  const doc = openApiDocument();
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true });
  addFormats(ajv);
  const components = doc.components as { schemas: JsonObject };
  ajv.addSchema({ $id: DOC_ID, $defs: rewriteRefs(components.schemas) });
  checker = { doc, ajv, validators: new Map() };
  return checker;
}

function rewriteRefs<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${DOC_ID}#/$defs/`)) as T;
}

/** A validator for any schema of the document (refs to its components resolved). */
export function schemaValidator(schema: unknown): ValidateFunction {
  const { ajv } = getChecker();
  return ajv.compile(rewriteRefs(schema as object));
}

/** The path template of the document that `path` (query string allowed) falls under, if any. */
export function templateOf(path: string): string | undefined {
  const parts = path.split('?')[0]?.split('/').filter(Boolean) ?? [];
  const { doc } = getChecker();
  return Object.keys(doc.paths as JsonObject).find((template) => {
    const segments = template.split('/').filter(Boolean);
    return (
      segments.length === parts.length &&
      segments.every((s, i) => (s.startsWith('{') && s.endsWith('}')) || s === parts[i])
    );
  });
}

/** What the document says a status of an operation answers (its `$ref` resolved). */
function responseOf(template: string | undefined, method: string, status: number): JsonObject | undefined {
  const { doc } = getChecker();
  if (template === undefined) return undefined;
  const op = ((doc.paths as JsonObject)[template] as JsonObject)[method.toLowerCase()] as
    | JsonObject
    | undefined;
  let response = (op?.responses as JsonObject | undefined)?.[String(status)] as JsonObject | undefined;
  const target = typeof response?.$ref === 'string' ? response.$ref : undefined;
  if (target) {
    const name = target.replace('#/components/responses/', '');
    response = ((doc.components as JsonObject).responses as JsonObject)[name] as JsonObject;
  }
  return response;
}

/**
 * Throws unless `status` and `body` are what the document says `method path` answers. Beyond the
 * operations: an unknown path answers 404, a method the path does not take 405, and any /v1 route
 * but the document 401 without a token; each with the document's `Error` body.
 */
export function checkResponse(method: string, path: string, status: number, body: unknown): void {
  const where = `${method} ${path} → ${status}`;
  const template = templateOf(path);
  const { doc, validators } = getChecker();
  const operation = template
    ? ((doc.paths as JsonObject)[template] as JsonObject)[method.toLowerCase()]
    : undefined;
  let key: string;
  let schema: unknown;
  if (operation === undefined) {
    const expected = template === undefined ? 404 : 405;
    if (status !== expected && status !== 401) {
      throw new Error(`${where}: not in the OpenAPI document, so ${expected} (or 401) was expected`);
    }
    key = 'Error';
    schema = { $ref: '#/components/schemas/Error' };
  } else {
    const response = responseOf(template, method, status);
    if (!response) {
      const documented = Object.keys((operation as JsonObject).responses as JsonObject).join(', ');
      throw new Error(
        `${where}: status not documented for ${method} ${template} (documented: ${documented})`,
      );
    }
    const content = response.content as Record<string, { schema: unknown }> | undefined;
    // JSON, or the one media type of a text answer (an iCalendar export).
    schema = (content?.['application/json'] ?? Object.values(content ?? {})[0])?.schema;
    if (schema === undefined) {
      if (body !== undefined)
        throw new Error(`${where}: the document says no body, got ${JSON.stringify(body)}`);
      return;
    }
    key = `${method.toLowerCase()} ${template} ${status}`;
  }
  let validate = validators.get(key);
  if (!validate) {
    validate = schemaValidator(schema);
    validators.set(key, validate);
  }
  if (!validate(body)) {
    const problems = (validate.errors ?? [])
      .map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
      .join('\n  ');
    throw new Error(
      `${where}: the body does not match the OpenAPI document:\n  ${problems}\nbody: ${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}

/** `reply`, after {@link checkResponse}: for the API test helpers' `return`. */
export function checked<R extends { readonly status: number; readonly body?: unknown }>(
  method: string,
  path: string,
  reply: R,
): R {
  checkResponse(method, path, reply.status, reply.body);
  return reply;
}
