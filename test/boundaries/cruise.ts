import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What the boundaries cover, relative to the repository root: the handlers, the local stack, infra, the
 * benchmarks and harnesses, the packages' sources and their test helpers, the web console's sources, doors
 * and build config (those that exist).
 */
export const CRUISED = [
  'functions',
  'local',
  'infra',
  'bench',
  'test',
  'vitest.config.ts',
  'packages/core/src',
  'packages/aws/src',
  'packages/api/src',
  'packages/transport/src',
  'packages/embedded/src',
  'packages/testing/src',
  'packages/protocol/src',
  'packages/protocol/test-support',
  'packages/executor/src',
  'packages/executor/test-support',
  'packages/client/src',
  'packages/cli/src',
  'console/src',
  'console/headers.js',
  'console/dist-dir.js',
  'console/vite.config.ts',
].filter((path) => existsSync(join(repoRoot, path)));

export interface Violation {
  rule: string;
  from: string;
  to: string;
  /** For no-circular: the modules of the cycle after `from`, ending with it, each with how it is imported. */
  cycle?: { module: string; typeOnly: boolean }[];
}

export interface Cruise {
  violations: Violation[];
  result: ICruiseResult;
}

/**
 * Cruises `paths` (relative to `baseDir`, which stands for the repository root) with the rules of
 * .dependency-cruiser.cjs and the root tsconfig.json.
 */
export async function cruiseBoundaries(baseDir: string, paths: string[]): Promise<Cruise> {
  const options = await extractDepcruiseOptions(join(repoRoot, '.dependency-cruiser.cjs'));
  const tsConfigFile = join(repoRoot, 'tsconfig.json');
  const reported = await cruise(
    paths,
    { ...options, baseDir, tsConfig: { fileName: tsConfigFile } },
    {},
    { tsConfig: extractTSConfig(tsConfigFile) },
  );
  const result = reported.output;
  if (typeof result === 'string')
    throw new Error(`dependency-cruiser reported text, not a result: ${result}`);
  const violations = result.summary.violations.map(
    (v): Violation => ({
      rule: v.rule.name,
      from: v.from,
      to: v.to,
      ...(v.cycle
        ? {
            cycle: v.cycle.map((step) => ({
              module: step.name,
              typeOnly: step.dependencyTypes.includes('type-only'),
            })),
          }
        : {}),
    }),
  );
  return { violations, result };
}

export function describeViolation(v: Violation): string {
  const steps = v.cycle?.map((step) => `${step.typeOnly ? '→ (import type) ' : '→ '}${step.module}`);
  const cycle = steps ? ` (cycle: ${v.from} ${steps.join(' ')})` : '';
  return `${v.rule}: ${v.from} → ${v.to}${cycle}`;
}
