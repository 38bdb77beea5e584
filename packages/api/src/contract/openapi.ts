/**
 * The OpenAPI 3.1 document of the admin API (from the route table) and of the executor-facing
 * XXL-JOB API: served at `GET /v1/openapi.json`, written to `openapi.json` by `npm run openapi`.
 * Schemas named with `named()` become `#/components/schemas/<name>`; everything else is inline.
 */

import type { TSchema } from '@sinclair/typebox';
import type { AccessTarget, RouteAccess } from '@tickring/core/identity';
import pkg from '../../../../package.json' with { type: 'json' };
import type { AnyApiRoute } from './define.js';
import {
  EXECUTOR_API_SCHEMAS,
  EXECUTOR_PATHS,
  EXECUTOR_SECURITY_SCHEMES,
  executorServers,
} from './executor-api.js';
import { API_ROUTES } from './routes.js';
import { ErrorBody, ValidationErrorBody } from './schemas-errors.js';

export type JsonObject = { [key: string]: unknown };

const JSON_TYPE = 'application/json';

const DESCRIPTION = `A distributed job scheduler in the line of XXL-JOB, serverless on AWS.

**Admin API** (\`/v1\`): JSON over HTTP; every route but this document and signing in takes \`Authorization: Bearer <token>\`
(401 without a valid one, before anything else is looked at): a user's session (\`POST /v1/sessions\`), an API token
(\`POST /v1/tokens\`) or the bootstrap admin token. Each route says who may call it (\`x-tickring-access\`): admins
everything; operators change the jobs and runs of their groups; viewers read their groups. A request about a group
the caller does not reach answers 404, as if it did not exist; one the caller may read but not change, 403. Every
accepted change is written to the audit log (\`GET /v1/audit\`). Field names are XXL-JOB's. Times are ISO-8601 UTC strings.
Lists come in pages: pass \`nextCursor\` as \`cursor\` until it is null (a page may be short, even empty, with a cursor).

**Errors** are \`{"error": "<ErrorName>", "message": "<what is wrong>"}\` with a 4xx status (502 when an executor
does not answer, 500 for anything unexpected, its detail only logged). A 400 (\`ValidationError\`) lists every problem
of the request at once: \`problems: [{field, message}]\`, \`field\` naming the first and \`message\` joining them. A path no
route has answers 404, a method a path does not take 405 with \`Allow\` (both \`Error\`). While the stack starts, \`/v1\`
and \`/api\` answer 503 with \`Retry-After: 1\`; on a single box whose database's disk is full, a write answers 503
(\`StoreUnavailableError\`, \`Retry-After: 30\`) and changes nothing.

**Executor API** (\`/api/registry\`, \`/api/registryRemove\`, \`/api/callback\`, also under \`/xxl-job-admin/api/\`): what
XXL-JOB executors (2.2 – 3.5) call, with \`XXL-JOB-ACCESS-TOKEN\` (and \`XXL-JOB-APPNAME\` from 3.5); every answer is HTTP
200 with XXL-JOB's \`ReturnT\` envelope.`;

const TAGS = [
  { name: 'groups', description: 'Executor groups (XXL-JOB’s executors page) and their access tokens.' },
  { name: 'jobs', description: 'Jobs: definitions, scheduling, manual triggers, schedule previews.' },
  { name: 'runs', description: 'Runs (XXL-JOB’s trigger log): list, read, log output, kill.' },
  {
    name: 'workflows',
    description:
      'Workflows: DAGs of jobs of one group, each node a run of a job with a parameter rendered from the run’s input and its upstream nodes’ results; their schedules, triggers and runs (read, retry, cancel).',
  },
  {
    name: 'calendars',
    description:
      'Business calendars: working weekdays, excluded dates and ranges (holidays), make-up workdays, in a time zone; versioned; iCalendar import and export.',
  },
  {
    name: 'backfills',
    description:
      'Backfills: the fires a job’s schedule would have made in a past range, run now with their own scheduled times, at a parallelism and a rate; progress and cancel.',
  },
  {
    name: 'alerts',
    description:
      'Alert channels (webhook, Slack, email), routing per job or group, one alert per condition per window with a count, silences, and the history of alerts with their deliveries (admin only).',
  },
  { name: 'executors', description: 'Executors online and the dashboard.' },
  { name: 'sessions', description: 'Signing in and out, and who you are.' },
  { name: 'users', description: 'People: their roles over executor groups (admin only).' },
  {
    name: 'tokens',
    description: 'API tokens for scripts and CI, and the bootstrap admin token (admin only).',
  },
  { name: 'audit', description: 'The audit log: who changed what, when, from where.' },
  { name: 'meta', description: 'This document.' },
  {
    name: 'executor-api',
    description: 'What XXL-JOB executors call: registry and results (XXL-JOB protocol).',
  },
];

const SERVERS = [
  { url: 'http://127.0.0.1:8080', description: 'The local stack (`npm start`).' },
  {
    url: '{apiUrl}',
    description: 'A deployed stack: its `ApiUrl` output.',
    variables: { apiUrl: { default: 'https://abc123.execute-api.eu-west-1.amazonaws.com' } },
  },
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errorContent = (schema: JsonObject) => ({ [JSON_TYPE]: { schema } });

/** Plain JSON Schema for the document: symbol keys dropped, named subschemas as `$ref`s. */
class Components {
  readonly schemas: Record<string, JsonObject> = {};
  private readonly seen = new Map<string, TSchema>();

  toJson(value: unknown, isComponent = false): unknown {
    if (Array.isArray(value)) return value.map((item) => this.toJson(item));
    if (value === null || typeof value !== 'object') return value;
    const schema = value as TSchema & { $id?: unknown };
    if (!isComponent && typeof schema.$id === 'string') return ref(this.add(schema));
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(schema)) {
      if (key !== '$id') out[key] = this.toJson(item);
    }
    return out;
  }

  /** Adds a named schema (once; a second schema under the same name is a mistake). */
  add(schema: TSchema): string {
    const name = String(schema.$id);
    const known = this.seen.get(name);
    if (known === undefined) {
      this.seen.set(name, schema);
      this.schemas[name] = {};
      this.schemas[name] = this.toJson(schema, true) as JsonObject;
    } else if (known !== schema && JSON.stringify(known) !== JSON.stringify(schema)) {
      throw new Error(`two different schemas are named ${name}`);
    }
    return name;
  }
}

function parameters(route: AnyApiRoute, components: Components): JsonObject[] {
  const out: JsonObject[] = [];
  for (const [where, object] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!object) continue;
    const required = new Set(object.required ?? []);
    for (const [name, schema] of Object.entries(object.properties)) {
      const { description, ...rest } = components.toJson(schema) as JsonObject;
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        description,
        schema: rest,
      });
    }
  }
  return out;
}

function operation(route: AnyApiRoute, components: Components): JsonObject {
  const responses: JsonObject = {};
  for (const [status, response] of Object.entries(route.responses)) {
    responses[status] = {
      description: response.description,
      ...(response.schema
        ? {
            content: {
              [response.contentType ?? JSON_TYPE]: {
                schema: components.toJson(response.schema),
                ...(response.example === undefined ? {} : { example: response.example }),
              },
            },
          }
        : {}),
    };
  }
  responses[400] = { $ref: '#/components/responses/BadRequest' };
  const access = route.access;
  if (access.kind !== 'public') responses[401] = { $ref: '#/components/responses/Unauthorized' };
  const refused = forbiddenWhen(access);
  if (refused !== undefined) responses[403] = { description: refused, content: errorContent(ref('Error')) };
  for (const [status, when] of Object.entries(route.errors ?? {})) {
    responses[status] = { description: when, content: errorContent(ref('Error')) };
  }
  if (hidesOtherGroups(access)) {
    const when = route.errors?.[404];
    responses[404] = {
      description: `${when === undefined ? '' : `${when} `}Also when the caller's grant does not reach the group (as if it did not exist).`,
      content: errorContent(ref('Error')),
    };
  }
  responses[500] = { $ref: '#/components/responses/InternalError' };
  responses[503] = { $ref: '#/components/responses/Unavailable' };
  const params = parameters(route, components);
  return {
    operationId: route.operationId,
    tags: route.tags,
    summary: route.summary,
    description: `${route.description}\n\nAccess: ${accessText(access)}.`,
    'x-tickring-access': access,
    ...(access.kind === 'public' ? { security: [] } : {}),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: route.body.required,
            description: route.body.description,
            content: {
              [JSON_TYPE]: { schema: components.toJson(route.body.schema), examples: route.body.examples },
              ...(route.body.textType ? { [route.body.textType]: { schema: { type: 'string' } } } : {}),
            },
          },
        }
      : {}),
    responses: sortByStatus(responses),
  };
}

function sortByStatus(responses: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

/** Builds the document (once per process: see {@link openApiDocument}). */
export function buildOpenApiDocument(routes: readonly AnyApiRoute[] = API_ROUTES): JsonObject {
  const components = new Components();
  components.add(ErrorBody);
  components.add(ValidationErrorBody);
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operation(route, components) };
  }
  for (const schema of EXECUTOR_API_SCHEMAS) components.add(schema);
  for (const [path, item] of Object.entries(EXECUTOR_PATHS)) {
    paths[path] = { servers: executorServers(SERVERS), ...item };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'tickring',
      version: pkg.version,
      summary: 'The admin API of tickring, and the XXL-JOB API its executors call.',
      description: DESCRIPTION,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: SERVERS,
    tags: TAGS,
    security: [{ adminToken: [] }],
    paths,
    components: {
      schemas: components.schemas,
      responses: {
        BadRequest: {
          description:
            'The request is not valid: every structural problem of its path, query and body at once, or the one a later check found; also a body that is not JSON.',
          content: {
            [JSON_TYPE]: {
              schema: ref('ValidationError'),
              example: {
                error: 'ValidationError',
                message:
                  'scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got "HOURLY"; executorTimeout must be an integer >= 0; got -1',
                field: 'scheduleType',
                problems: [
                  {
                    field: 'scheduleType',
                    message: 'scheduleType must be one of NONE, CRON, FIX_RATE, ONCE; got "HOURLY"',
                  },
                  { field: 'executorTimeout', message: 'executorTimeout must be an integer >= 0; got -1' },
                ],
              },
            },
          },
        },
        Unauthorized: {
          description:
            'The bearer token is missing, wrong, expired or revoked (one answer for all), or its user is disabled.',
          headers: {
            'WWW-Authenticate': {
              description: 'Always `Bearer`.',
              schema: { type: 'string', const: 'Bearer' },
            },
          },
          content: {
            [JSON_TYPE]: {
              schema: ref('Error'),
              example: {
                error: 'UnauthorizedError',
                message: 'the bearer token is not valid, or has expired or been revoked',
              },
            },
          },
        },
        InternalError: {
          description: 'Something unexpected failed; the detail is only logged.',
          content: {
            [JSON_TYPE]: {
              schema: ref('Error'),
              example: { error: 'InternalError', message: 'Internal server error' },
            },
          },
        },
        Unavailable: {
          description:
            'Not now; try again after `Retry-After` seconds: the stack is starting or stopping (`ServiceUnavailable`, 1 s), or the single-box database cannot take writes, its disk full (`StoreUnavailableError`, 30 s; the refused write changed nothing, though a request may have made other writes before it).',
          headers: {
            'Retry-After': {
              schema: { type: 'integer' },
              description: 'Seconds to wait before trying again.',
            },
          },
          content: {
            [JSON_TYPE]: {
              schema: ref('Error'),
              example: {
                error: 'StoreUnavailableError',
                message:
                  'the database cannot take writes: database or disk is full (free space on its disk; the refused write changed nothing)',
              },
            },
          },
        },
      },
      securitySchemes: {
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A session token (`trs_...`, from POST /v1/sessions), an API token (`trk_...`, from POST /v1/tokens), or the bootstrap admin token (printed by `npm start`; on AWS in the secret the stack output `AdminTokenSecretArn` names; replaced by POST /v1/tokens/bootstrap/rotate).',
        },
        ...EXECUTOR_SECURITY_SCHEMES,
      },
    },
  };
}

let built: JsonObject | undefined;

/** The document, built on first use (once per cold start). */
export function openApiDocument(): JsonObject {
  built ??= buildOpenApiDocument();
  return built;
}

/** The document as `openapi.json` holds it. */
export function openApiJson(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}

const TARGET_TEXT: Readonly<Record<AccessTarget, string>> = {
  list: 'lists only the groups the caller reaches',
  none: 'no group involved',
  groupPath: 'the group in the path',
  jobPath: "the job's group (and the group it moves to)",
  runPath: "the run's group",
  bodyGroup: "the new job's or workflow's group",
  workflowPath: "the workflow's group (and the group it moves to)",
  workflowRunPath: "the workflow run's group",
  backfillPath: "the backfill's job's group",
};

/** The route's access in words, for its description. */
function accessText(access: RouteAccess): string {
  switch (access.kind) {
    case 'public':
      return 'open, no token';
    case 'signedIn':
      return 'any valid token';
    case 'admin':
      return 'the admin role';
    case 'read':
      return `any role reaching the group (${TARGET_TEXT[access.target]})`;
    case 'operate':
      return `admin, or operator of the group (${TARGET_TEXT[access.target]})`;
  }
}

/** When the route answers 403: a role that may not do this at all, or not in that group. */
function forbiddenWhen(access: RouteAccess): string | undefined {
  if (access.kind === 'admin') return 'The caller is not an admin.';
  if (access.kind === 'operate' && access.target === 'none') return 'The caller is a viewer.';
  if (access.kind === 'operate')
    return 'The caller reaches the group but may only read it (a viewer), or may not edit GLUE sources.';
  return undefined;
}

/** Whether a request about one group answers 404 to a caller outside it. */
function hidesOtherGroups(access: RouteAccess): boolean {
  return (
    (access.kind === 'read' || access.kind === 'operate') &&
    access.target !== 'list' &&
    access.target !== 'none'
  );
}
