// Prints the slowest test files (and tests) of the last vitest run, from the reports the run wrote:
// test-output/vitest-file-timings.json (tools/file-timings-reporter.ts) and test-output/vitest.json
// (vitest's JSON reporter). Usage: npm run test:timings [-- --top 20] [-- --save]
// --save writes each file's duration to test/file-durations.json, which the test order reads
// (tools/duration-sequencer.ts): commit it after a whole run when files were added or got slower.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { JsonTestResults } from 'vitest/reporters';
import { FILE_DURATIONS_PATH, type FileDurations } from './duration-sequencer.js';
import { DEFAULT_FILE_TIMINGS_PATH, type FileTimingsReport } from './file-timings-reporter.js';

const JSON_REPORT_PATH = 'test-output/vitest.json';

const { values } = parseArgs({
  options: { top: { type: 'string', default: '15' }, save: { type: 'boolean', default: false } },
});
const top = Number(values.top);
if (!Number.isInteger(top) || top < 1) {
  console.error(`--top must be a positive integer, got "${values.top}"`);
  process.exit(2);
}

function readReport<T>(file: string): T | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(8);

const timings = readReport<FileTimingsReport>(DEFAULT_FILE_TIMINGS_PATH);
if (!timings) {
  console.error(`no ${DEFAULT_FILE_TIMINGS_PATH}: run the tests first (npm test, or npx vitest run ...)`);
  process.exit(1);
}

const files = [...timings.files].sort((a, b) => b.totalMs - a.totalMs);
if (values.save) {
  const durations: Record<string, number> = {};
  for (const f of [...files].sort((a, b) =>
    `${a.project}:${a.file}`.localeCompare(`${b.project}:${b.file}`),
  )) {
    durations[`${f.project}:${f.file}`] = Math.round(f.totalMs / 100) / 10;
  }
  writeFileSync(FILE_DURATIONS_PATH, `${JSON.stringify(durations satisfies FileDurations, null, 2)}\n`);
  console.log(`wrote ${files.length} file durations to ${FILE_DURATIONS_PATH}`);
}
const allMs = files.reduce((sum, f) => sum + f.totalMs, 0);
const projectWidth = Math.max(...files.map((f) => f.project.length), 0);
console.log(
  `Slowest test files of the run started ${timings.startedAt} ` +
    `(${files.length} files, ${(allMs / 1000).toFixed(1)} s of file time; files run side by side):`,
);
for (const f of files.slice(0, top)) {
  console.log(
    `${seconds(f.totalMs)}  import ${seconds(f.importMs).trim()}, tests and hooks ${seconds(f.runMs).trim()}` +
      `  ${f.project.padEnd(projectWidth)}  ${f.file} (${f.tests} tests${f.state === 'failed' ? ', failed' : ''})`,
  );
}

const json = readReport<JsonTestResults>(JSON_REPORT_PATH);
if (json) {
  const root = process.cwd();
  const tests = json.testResults
    .flatMap((file) =>
      file.assertionResults.map((test) => ({
        ms: test.duration ?? 0,
        name: `${path.relative(root, file.name)} > ${test.fullName}`,
      })),
    )
    .sort((a, b) => b.ms - a.ms);
  console.log(`\nSlowest tests (${JSON_REPORT_PATH}):`);
  for (const test of tests.slice(0, top)) console.log(`${seconds(test.ms)}  ${test.name}`);
}
