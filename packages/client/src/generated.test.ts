import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { adminOperations, generateClientFiles } from '../../../tools/client-codegen.js';
import { OPERATIONS } from './generated/operations.js';

const root = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(fileURLToPath(new URL(path, root)), 'utf8');
const openApiText = read('openapi.json');

describe('the generated part of the client (src/generated)', () => {
  it('is what openapi.json makes now (run npm run openapi after changing the API)', async () => {
    const files = await generateClientFiles(openApiText);
    expect(files.map((f) => f.path)).toEqual([
      'packages/client/src/generated/openapi.ts',
      'packages/client/src/generated/operations.ts',
    ]);
    for (const file of files) {
      expect(read(file.path) === file.text, `${file.path} is out of date: run npm run openapi`).toBe(true);
    }
  });

  it('lists every /v1 operation of the document with its method and path, and no /api one', () => {
    const doc = JSON.parse(openApiText) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const fromDocument = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/v1/'))
      .flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([, op]) => typeof op?.operationId === 'string')
          .map(([method, op]) => [op.operationId, method, path]),
      );
    const table = Object.entries(OPERATIONS).map(([id, op]) => [id, op.method, op.path]);
    expect(table.sort()).toEqual(fromDocument.sort());
    expect(adminOperations(doc).length).toBe(Object.keys(OPERATIONS).length);
    expect(Object.keys(OPERATIONS)).not.toContain('executorCallback');
  });

  it('exports every schema of the document by its name', () => {
    const doc = JSON.parse(openApiText) as { components: { schemas: Record<string, unknown> } };
    const types = read('packages/client/src/generated/openapi.ts');
    for (const name of Object.keys(doc.components.schemas)) {
      expect(types, name).toContain(`export type ${name} = components['schemas']['${name}'];`);
    }
  });
});
