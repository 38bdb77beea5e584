/**
 * The generated part of @tickring/client, made from the text of openapi.json: the types of every path,
 * operation and schema (openapi-typescript), and the table of the admin API's operations (operationId →
 * method and path) that the client's methods call. Written by `npm run openapi` (tools/write-openapi.ts)
 * beside openapi.json; packages/client/src/generated.test.ts fails when the files are not what this
 * makes now.
 */
import openapiTS, { astToString } from 'openapi-typescript';

export interface GeneratedFile {
  /** Relative to the repository root. */
  readonly path: string;
  readonly text: string;
}

const HEADER =
  '// Generated from openapi.json by `npm run openapi` (tools/client-codegen.ts): do not edit.\n';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

interface OpenApiDocument {
  readonly paths: Record<string, Record<string, unknown>>;
}

/** The admin API's operations, in the document's order: /v1 routes with an operationId. */
export function adminOperations(
  doc: OpenApiDocument,
): { operationId: string; method: string; path: string }[] {
  return Object.entries(doc.paths)
    .filter(([path]) => path.startsWith('/v1/'))
    .flatMap(([path, item]) =>
      METHODS.flatMap((method) => {
        const operationId = (item[method] as { operationId?: unknown } | undefined)?.operationId;
        return typeof operationId === 'string' ? [{ operationId, method, path }] : [];
      }),
    );
}

/** packages/client/src/generated/openapi.ts and operations.ts, from the text of openapi.json. */
export async function generateClientFiles(openApiText: string): Promise<GeneratedFile[]> {
  const ast = await openapiTS(JSON.parse(openApiText), {
    // `export type Job = components['schemas']['Job']`, one per schema, by its own name.
    rootTypes: true,
    rootTypesNoSchemaPrefix: true,
    // A default is what the server fills in when a request leaves the field out: still optional.
    defaultNonNullable: false,
    silent: true,
  });
  const types = `${HEADER}\n${astToString(ast)}`;

  const doc = JSON.parse(openApiText) as OpenApiDocument;
  const rows = adminOperations(doc).map(
    ({ operationId, method, path }) => `  ${operationId}: { method: '${method}', path: '${path}' },\n`,
  );
  const table =
    `${HEADER}\n` +
    '/** Every operation of the admin API (/v1): its HTTP method and path template, by operationId. */\n' +
    `export const OPERATIONS = {\n${rows.join('')}} as const;\n`;

  return [
    { path: 'packages/client/src/generated/openapi.ts', text: types },
    { path: 'packages/client/src/generated/operations.ts', text: table },
  ];
}
