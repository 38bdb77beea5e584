import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validate } from '@readme/openapi-parser';
import {
  API_ROUTES,
  buildOpenApiDocument,
  type JsonObject,
  openApiDocument,
  openApiJson,
} from '@tickring/api/contract';
import { describe, expect, it } from 'vitest';
import { checkResponse, schemaValidator, templateOf } from '../../test/openapi-check.js';
import type { ApiDeps } from './deps.js';
import { apiRoutes } from './routes.js';

const doc = openApiDocument();
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** `METHOD /path` of every operation in the document under `/v1`. */
function documentedRoutes(): string[] {
  return Object.entries(doc.paths as Record<string, JsonObject>)
    .filter(([path]) => path.startsWith('/v1/'))
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => METHODS.includes(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('is what openapi.json holds (run npm run openapi after changing the API)', () => {
    const path = fileURLToPath(new URL('../../openapi.json', import.meta.url));
    const onDisk = readFileSync(path, 'utf8');
    expect(onDisk === openApiJson(), 'openapi.json is out of date: run npm run openapi').toBe(true);
  });

  it('describes every route of functions/api/routes.ts, and no other', () => {
    const served = apiRoutes({} as ApiDeps).list();
    expect([...served].sort()).toEqual(documentedRoutes().sort());
  });

  it('describes the executor-facing API, always answering HTTP 200', () => {
    for (const name of ['registry', 'registryRemove', 'callback']) {
      const op = (doc.paths as Record<string, { post: JsonObject; servers: { url: string }[] }>)[
        `/api/${name}`
      ];
      expect(op?.post.security).toEqual([
        { executorAccessToken: [], executorAppName: [] },
        { executorAccessToken: [] },
      ]);
      expect(Object.keys(op?.post.responses as JsonObject)).toEqual(['200']);
      expect(op?.servers.map((s) => s.url)).toContain('http://127.0.0.1:8080/xxl-job-admin');
    }
  });

  it('compiles every schema in strict JSON Schema 2020-12 (ajv)', () => {
    const schemas = (doc.components as { schemas: JsonObject }).schemas;
    for (const name of Object.keys(schemas)) {
      expect(() => schemaValidator({ $ref: `#/components/schemas/${name}` }), name).not.toThrow();
    }
  });

  it('gives every field a description and examples', () => {
    const missing: string[] = [];
    const visit = (schema: unknown, where: string) => {
      if (schema === null || typeof schema !== 'object') return;
      const s = schema as JsonObject;
      for (const [name, property] of Object.entries((s.properties ?? {}) as Record<string, JsonObject>)) {
        if (
          property.$ref === undefined &&
          (property.description === undefined || property.examples === undefined)
        ) {
          missing.push(`${where}.${name}`);
        }
        visit(property, `${where}.${name}`);
      }
      for (const key of ['items', 'anyOf', 'allOf', 'oneOf'] as const) {
        const sub = s[key];
        if (!Array.isArray(sub)) visit(sub, `${where}.${key}`);
        else for (const [i, x] of sub.entries()) visit(x, `${where}.${key}[${i}]`);
      }
    };
    for (const [name, schema] of Object.entries((doc.components as { schemas: JsonObject }).schemas)) {
      visit(schema, name);
    }
    for (const route of API_ROUTES) {
      for (const object of [route.params, route.query]) {
        for (const [name, property] of Object.entries(object?.properties ?? {})) {
          if (!property.description || !property.examples) missing.push(`${route.operationId} ${name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("answers each route's examples with its own schemas", () => {
    for (const route of API_ROUTES) {
      for (const [status, response] of Object.entries(route.responses)) {
        if (response.example === undefined) continue;
        const path = route.path.replace(/\{[^}]+\}/g, '1');
        expect(() => checkResponse(route.method, path, Number(status), response.example)).not.toThrow();
      }
    }
    const responses = (doc.components as { responses: Record<string, JsonObject> }).responses;
    for (const [name, response] of Object.entries(responses)) {
      const media = (response.content as Record<string, { schema: unknown; example: unknown }>)[
        'application/json'
      ];
      expect(schemaValidator(media?.schema)(media?.example), name).toBe(true);
    }
  });

  it('takes the example request bodies (document and validator agree)', () => {
    for (const route of API_ROUTES) {
      const body = route.body;
      if (!body) continue;
      const operation = (doc.paths as Record<string, Record<string, JsonObject>>)[route.path]?.[
        route.method.toLowerCase()
      ];
      const requestBody = operation?.requestBody as { content: Record<string, { schema: unknown }> };
      const schema = requestBody.content['application/json']?.schema;
      const byAjv = schemaValidator(schema);
      for (const [name, example] of Object.entries(body.examples)) {
        expect(byAjv(example.value), `${route.operationId} ${name}: ${JSON.stringify(byAjv.errors)}`).toBe(
          true,
        );
        const params = Object.fromEntries(Object.keys(route.params?.properties ?? {}).map((k) => [k, '1']));
        expect(() => route.validate({ params, query: {}, body: example.value } as never)).not.toThrow();
      }
    }
  });

  it('checks answers: undocumented statuses and bodies that do not match are refused', () => {
    const error = { error: 'NotFoundError', message: 'job 9 does not exist' };
    expect(() => checkResponse('GET', '/v1/jobs/9', 404, error)).not.toThrow();
    expect(() => checkResponse('GET', '/v1/jobs/9', 418, error)).toThrow(/status not documented/);
    expect(() => checkResponse('GET', '/v1/jobs/9', 200, { id: 9 })).toThrow(/does not match/);
    expect(() => checkResponse('DELETE', '/v1/jobs/9', 204, undefined)).not.toThrow();
    expect(() => checkResponse('DELETE', '/v1/jobs/9', 204, {})).toThrow(/no body/);
    expect(() => checkResponse('GET', '/v1/nothing', 404, error)).not.toThrow();
    expect(() =>
      checkResponse('PATCH', '/v1/jobs/9', 405, { ...error, error: 'MethodNotAllowedError' }),
    ).not.toThrow();
    expect(() => checkResponse('GET', '/v1/nothing', 200, {})).toThrow(/not in the OpenAPI document/);
    expect(() => checkResponse('GET', '/v1/jobs', 400, error)).toThrow(/does not match/); // no problems
  });

  it('matches paths to their templates', () => {
    expect(templateOf('/v1/jobs/7/trigger')).toBe('/v1/jobs/{id}/trigger');
    expect(templateOf('/v1/logs/3/output?fromLineNum=2')).toBe('/v1/logs/{logId}/output');
    expect(templateOf('/v1/nothing/here')).toBeUndefined();
  });

  it('is built fast (once per cold start)', () => {
    const started = performance.now();
    buildOpenApiDocument();
    expect(performance.now() - started).toBeLessThan(200);
  });
});
