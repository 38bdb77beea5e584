/**
 * Writes the OpenAPI document to `openapi.json` at the repository root (`npm run openapi`). A test
 * (shared/schema/api/openapi.test.ts) fails when the file is not what this writes now.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiJson } from '../shared/schema/api/openapi.js';

const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
const text = openApiJson();
writeFileSync(target, text);
console.log(`wrote ${target} (${text.length} bytes)`);
