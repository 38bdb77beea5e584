/**
 * Writes the OpenAPI document to `openapi.json` at the repository root (`npm run openapi`), and from it
 * the generated part of @tickring/client (packages/client/src/generated: its types and its table of
 * operations). Tests (shared/schema/api/openapi.test.ts, packages/client/src/generated.test.ts) fail
 * when the files are not what this writes now.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiJson } from '@tickring/api/contract';
import { generateClientFiles } from './client-codegen.js';

const root = new URL('../', import.meta.url);
const target = fileURLToPath(new URL('openapi.json', root));
const text = openApiJson();
writeFileSync(target, text);
console.log(`wrote ${target} (${text.length} bytes)`);

for (const file of await generateClientFiles(text)) {
  const path = fileURLToPath(new URL(file.path, root));
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, file.text);
  console.log(`wrote ${path} (${file.text.length} bytes)`);
}
